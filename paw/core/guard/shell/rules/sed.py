"""sed scripts: the ``e`` command and flag run commands, ``w``/``W`` write files."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paw.core.guard.shell.commands import SimpleCommand
from paw.core.guard.shell.rules.files import check_write_target
from paw.core.guard.shell.rules.inner import RULE, run_inner

if TYPE_CHECKING:
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check


_SED_VALUE = frozenset({"-l", "--line-length"})
_WHOLE_LINE = frozenset({".*", "^.*", "^.*$", ".*$", "^", ""})


def _sed_scripts(args: list[str]) -> list[str]:
    scripts: list[str] = []
    operands: list[str] = []
    i = 0
    explicit = False
    while i < len(args):
        arg = args[i]
        if arg in {"-e", "--expression"} and i + 1 < len(args):
            scripts.append(args[i + 1])
            explicit = True
            i += 2
            continue
        if arg.startswith("--expression="):
            scripts.append(arg.split("=", 1)[1])
            explicit = True
        elif arg in {"-f", "--file"} or arg.startswith("--file="):
            explicit = True
            i += 2 if "=" not in arg else 1
            continue
        elif arg in _SED_VALUE:
            i += 2
            continue
        elif arg.startswith("-") and len(arg) > 1 and not arg.startswith("--"):
            letters = arg[1:]
            if "e" in letters and not letters.startswith("i") and i + 1 < len(args):
                scripts.append(args[i + 1])
                explicit = True
                i += 2
                continue
        elif not arg.startswith("-") or arg == "-":
            operands.append(arg)
        i += 1
    if not explicit and operands:
        scripts.append(operands[0])
    return scripts


def _until(text: str, i: int, delim: str) -> tuple[str, int]:
    out: list[str] = []
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text):
            out.append(text[i : i + 2])
            i += 2
            continue
        if char == delim:
            return "".join(out), i + 1
        out.append(char)
        i += 1
    return "".join(out), i


def _rest_of_line(text: str, i: int) -> tuple[str, int]:
    end = text.find("\n", i)
    end = len(text) if end < 0 else end
    return text[i:end].strip(), end


def _skip_address(text: str, i: int) -> int:
    for _ in range(2):
        while i < len(text) and text[i] in " \t":
            i += 1
        if i < len(text) and text[i] == "/":
            _, i = _until(text, i + 1, "/")
        elif i < len(text) and text[i] == "\\" and i + 1 < len(text):
            _, i = _until(text, i + 2, text[i + 1])
        else:
            while i < len(text) and (text[i].isdigit() or text[i] in "$~+"):
                i += 1
        while i < len(text) and text[i] in "IM":
            i += 1
        if i < len(text) and text[i] == ",":
            i += 1
            continue
        break
    while i < len(text) and text[i] in " \t!":
        i += 1
    return i


def _sed_script(script: str, cmd: SimpleCommand, ctx: Context) -> None:
    i, n = 0, len(script)
    while i < n:
        while i < n and script[i] in " \t\n;{}":
            i += 1
        if i >= n:
            return
        i = _skip_address(script, i)
        if i >= n:
            return
        op = script[i]
        i += 1
        if op == "s" and i < n:
            i = _sed_substitute(script, i, ctx)
        elif op == "y" and i < n:
            delim = script[i]
            _, i = _until(script, i + 1, delim)
            _, i = _until(script, i, delim)
        elif op == "e":
            text, i = _rest_of_line(script, i)
            if text:
                run_inner(ctx, text, "sed e")
            else:
                ctx.confirm(RULE, "`sed e` runs each line of its input as a shell command")
        elif op in "wW":
            target, i = _rest_of_line(script, i)
            check_write_target(target, ctx, f"sed {op}", None)
        elif op in "aicrRbtT:vlqQLF#":
            end = script.find("\n", i) if op in "aic#" else _end_of_word(script, i)
            i = n if end < 0 else end
    del cmd


def _sed_substitute(script: str, i: int, ctx: Context) -> int:
    """``s/re/repl/flags`` from its delimiter at ``i``; returns the index after the flags."""
    n = len(script)
    delim = script[i]
    pattern, i = _until(script, i + 1, delim)
    replacement, i = _until(script, i, delim)
    start = i
    while i < n and script[i] not in ";\n}":
        if script[i] == "w":
            target, i = _rest_of_line(script, i + 1)
            check_write_target(target, ctx, "sed w", None)
            break
        i += 1
    if "e" in script[start:i]:
        if pattern in _WHOLE_LINE and not re.search(r"&|\\[0-9]", replacement):
            run_inner(ctx, replacement.replace("\\" + delim, delim), "sed s///e")
        else:
            ctx.confirm(RULE, "`sed s///e` runs the edited line as a shell command")
    return i


def _end_of_word(text: str, i: int) -> int:
    match = re.compile(r"[;\n}]").search(text, i)
    return match.start() if match else len(text)


def _check_sed(cmd: SimpleCommand, ctx: Context) -> None:
    for script in _sed_scripts(cmd.args):
        if "e" in script or "w" in script or "W" in script:
            _sed_script(script, cmd, ctx)


RULES: dict[str, tuple[Check, ...]] = {
    "sed": (_check_sed,),
    "gsed": (_check_sed,),
}
