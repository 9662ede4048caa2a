"""The inner command of a program that runs another: judged with the same rules; what paw
cannot see is ``confirm`` (rule ``shell.program-option``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paw.core.guard.shell.commands import SimpleCommand
from paw.core.guard.shell.words import Word, has_unknown

if TYPE_CHECKING:
    from paw.core.guard.shell.evaluation import Context


RULE = "shell.program-option"
DQ = r'"((?:[^"\\]|\\.)*)"'
DQ_RE = re.compile(DQ)
STDIN_RUNNERS = frozenset(
    {"sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python3", "perl", "ruby", "node",
     "php", "lua", "eval", "source", "xargs", "parallel"}
)  # fmt: skip


def run_inner(ctx: Context, text: str, origin: str) -> None:
    """Judge a command line found inside another program's option or script."""
    if not text.strip():
        return
    if has_unknown(text):
        ctx.confirm(RULE, f"`{origin}` runs a command paw cannot see")
    ctx.run_script(text, origin)


def run_argv(ctx: Context, words: list[str], origin: str, parent: SimpleCommand) -> None:
    """Judge an argv a launcher starts (``screen -dm rm -rf ~``)."""
    if not words:
        return
    inner = SimpleCommand([Word(w) for w in words], upstream=parent.upstream)
    inner.wrappers = (*parent.wrappers, origin)
    ctx.run_command(inner)


def unescape(text: str) -> str:
    return text.replace('\\"', '"').replace("\\\\", "\\")
