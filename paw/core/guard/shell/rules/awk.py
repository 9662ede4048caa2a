"""awk programs: ``system()``, pipes to and from commands, ``print >`` writes."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paw.core.guard.shell.commands import SimpleCommand
from paw.core.guard.shell.rules.argv import option_value
from paw.core.guard.shell.rules.files import check_write_target
from paw.core.guard.shell.rules.inner import DQ, DQ_RE, RULE, STDIN_RUNNERS, run_inner, unescape
from paw.core.guard.shell.words import has_unknown

if TYPE_CHECKING:
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check


_AWK_VALUE = frozenset({"-F", "-v", "-f", "--field-separator", "--assign", "--file", "-i",
                        "--include", "-l", "--load"})  # fmt: skip
_AWK_SYSTEM_RE = re.compile(r"\bsystem\s*\(")
_AWK_PIPE_OUT_RE = re.compile(r"(?<![|])\|&?\s*" + DQ)
_AWK_PIPE_IN_RE = re.compile(DQ + r"\s*\|&?\s*getline")
_AWK_DYNAMIC_PIPE_RE = re.compile(
    r"\bprintf?\b[^;}\n]*?[^|]\|&?\s*(?![|\"])[A-Za-z_(]|[A-Za-z_)\]]\s*\|&?\s*getline"
)
_AWK_WRITE_RE = re.compile(r"\bprintf?\b[^;}\n]*?>{1,2}\s*" + DQ)


def _awk_program(args: list[str]) -> str | None:
    i = 0
    program = None
    while i < len(args):
        arg = args[i]
        if arg in {"-e", "--source"} and i + 1 < len(args):
            return args[i + 1]
        if arg in _AWK_VALUE:
            if arg in {"-f", "--file"}:
                program = ""  # a program file: nothing visible to judge
            i += 2
            continue
        if arg == "--":
            i += 1
            break
        if arg.startswith("-") and len(arg) > 1:
            i += 1
            continue
        break
    if program is not None:
        return None
    return args[i] if i < len(args) else None


def _close_paren(text: str, start: int) -> str:
    depth, quote = 1, False
    for index in range(start, min(len(text), start + 2000)):
        char = text[index]
        if quote:
            quote = not (char == '"' and text[index - 1] != "\\")
        elif char == '"':
            quote = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return text[start:index]
    return text[start:]


def _check_awk(cmd: SimpleCommand, ctx: Context) -> None:
    program = _awk_program(cmd.args)
    stdin_program = option_value(cmd.args, "-f", "--file") in {"-", "/dev/stdin", "/dev/fd/0"}
    if stdin_program and cmd.stdin_text is not None:
        program = cmd.stdin_text
    if not program:
        return
    origin = f"{cmd.name} program"
    for match in _AWK_SYSTEM_RE.finditer(program):
        arg = _close_paren(program, match.end()).strip()
        literal = DQ_RE.fullmatch(arg)
        if literal is None or has_unknown(arg):
            ctx.confirm(RULE, f"`{cmd.name}` runs `system()` with a command paw cannot see")
        else:
            run_inner(ctx, unescape(literal.group(1)), f"{cmd.name} system()")
    for regex in (_AWK_PIPE_OUT_RE, _AWK_PIPE_IN_RE):
        for match in regex.finditer(program):
            text = unescape(match.group(1))
            if text.split()[:1] and text.split()[0].rsplit("/", 1)[-1] in STDIN_RUNNERS:
                ctx.confirm(RULE, f"`{cmd.name}` pipes its output into `{text}`")
            run_inner(ctx, text, f"{origin} pipe")
    if _AWK_DYNAMIC_PIPE_RE.search(program):
        ctx.confirm(RULE, f"`{cmd.name}` pipes into a command paw cannot see")
    for match in _AWK_WRITE_RE.finditer(program):
        check_write_target(unescape(match.group(1)), ctx, f"{cmd.name} print >", None)


RULES: dict[str, tuple[Check, ...]] = {
    **dict.fromkeys(("awk", "gawk", "mawk", "nawk", "busybox-awk"), (_check_awk,)),
}
