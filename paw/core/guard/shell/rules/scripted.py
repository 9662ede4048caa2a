"""Programs whose own script language runs commands: make recipes, expect's ``spawn``/``exec``.

A Makefile in the repository is the project's business (``make test`` is allowed), but a
makefile handed over on the command line (``make -f - <<< …``, ``make --eval …``) is a script
the agent wrote on the spot: its recipes and ``$(shell …)`` calls are judged as shell. The same
for expect's ``-c`` commands.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paw.core.guard.shell.rules.argv import option_value
from paw.core.guard.shell.rules.stdin import simulate_stdin
from paw.core.guard.shell.words import has_unknown

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

_STDIN_FILES = frozenset({"-", "/dev/stdin", "/proc/self/fd/0", "/dev/fd/0"})
_MAKE_SHELL_RE = re.compile(r"\$[({]shell\s+([^)}]*)[)}]")
_RULE_RECIPE_RE = re.compile(r"^[^\t#=]*?::?(?![=])[^;]*;(.*)$")
_EXPECT_RUN_RE = re.compile(r"\b(?:spawn|exec|system)\s+([^;\n\]]+)")
_EXPECT_PIPE_RE = re.compile(r"\bopen\s+[\"{]?\|")


def makefile_commands(text: str) -> list[str]:
    """The shell commands a makefile's text runs: recipe lines, ``target: ; recipe`` and
    ``$(shell …)`` calls."""
    commands = [m.group(1) for m in _MAKE_SHELL_RE.finditer(text)]
    for line in text.splitlines():
        if line.startswith("\t"):
            commands.append(line.strip().lstrip("@-+"))
            continue
        inline = _RULE_RECIPE_RE.match(line)
        if inline is not None and inline.group(1).strip():
            commands.append(inline.group(1).strip().lstrip("@-+"))
    return [c for c in commands if c]


def _check_make(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    texts: list[str] = []
    makefile = option_value(args, "-f", "--file", "--makefile")
    if makefile is not None and makefile in _STDIN_FILES:
        text, _ = simulate_stdin(cmd)
        if text is None:
            ctx.confirm(
                "shell.stdin-exec", f"`{cmd.name}` runs a makefile from a pipe paw cannot see"
            )
        else:
            texts.append(text)
    for i, arg in enumerate(args):
        if arg.startswith("--eval="):
            texts.append(arg.removeprefix("--eval="))
        elif arg == "--eval" and i + 1 < len(args):
            texts.append(args[i + 1])
    for text in texts:
        if has_unknown(text):
            ctx.confirm("shell.unresolved", f"`{cmd.name}` runs a makefile paw cannot see")
            continue
        for command in makefile_commands(text):
            ctx.run_script(command, f"{cmd.name} recipe")


def _check_expect(cmd: SimpleCommand, ctx: Context) -> None:
    body = option_value(cmd.args, "-c")
    if body is None:
        return
    if has_unknown(body) or _EXPECT_PIPE_RE.search(body):
        ctx.confirm("shell.unresolved", f"`{cmd.name} -c` runs commands paw cannot follow")
        return
    for match in _EXPECT_RUN_RE.finditer(body):
        ctx.run_script(match.group(1).strip(), f"{cmd.name} -c")


RULES: dict[str, tuple[Check, ...]] = {
    **dict.fromkeys(("make", "gmake", "bmake", "remake"), (_check_make,)),
    "expect": (_check_expect,),
}
