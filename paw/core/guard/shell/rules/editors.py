"""Pagers, man and editors: their shell escapes and start-up commands."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paw.core.guard.shell.commands import SimpleCommand
from paw.core.guard.shell.rules.argv import option_value
from paw.core.guard.shell.rules.inner import DQ, RULE, run_inner, unescape

if TYPE_CHECKING:
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check


_VIM_BANG_RE = re.compile(
    r"^[\s:]*(?:sil(?:ent)?!?\s*)?(?:[.%$\d,']*\s*|r(?:ead)?\s*|w(?:rite)?\s+)!(.+)$", re.DOTALL
)
_VIM_CODE_RE = re.compile(
    r"\b(system|systemlist|term|terminal|py|python|py3|python3|pyx|lua|luado|perl|ruby|exe"
    r"|execute|call|so|source|jobstart|termopen|make|mak|grep|vimgrep)\b"
)
_VIMS = frozenset({"vi", "vim", "nvim", "gvim", "view", "ex", "vimdiff", "rvim", "nvim-qt", "mvim"})


def _vim_command(text: str, ctx: Context, name: str) -> None:
    for part in text.split("|") if "!" not in text else [text]:
        bang = _VIM_BANG_RE.match(part)
        if bang is not None:
            run_inner(ctx, bang.group(1), f"{name} :!")
            return
        if _VIM_CODE_RE.search(part) and not part.lstrip(" :").startswith(("set ", "se ")):
            ctx.confirm(RULE, f"`{name}` runs the editor command `{part.strip()}` on start")
            return


def _check_vim(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    for i, arg in enumerate(args):
        if arg in {"-c", "--cmd"} and i + 1 < len(args):
            _vim_command(args[i + 1], ctx, cmd.name)
        elif arg.startswith("+") and len(arg) > 1 and not arg[1:].isdigit() and arg[1] != "/":
            _vim_command(arg[1:], ctx, cmd.name)
        elif (arg == "-S" or arg.startswith("--cmd=")) and arg.startswith("--cmd="):
            _vim_command(arg[6:], ctx, cmd.name)


_ELISP_SHELL_RE = re.compile(
    r"\((?:async-)?shell-command(?:-to-string)?\s+" + DQ + r"|\(compile\s+" + DQ
)
_ELISP_CODE_RE = re.compile(
    r"\b(shell-command|call-process|start-process|make-process|process-lines|delete-directory"
    r"|delete-file|async-shell-command|compile|eshell|term|ansi-term)\b"
)


def _check_emacs(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    for i, arg in enumerate(args):
        code = None
        if arg in {"--eval", "-eval", "--execute", "-execute"} and i + 1 < len(args):
            code = args[i + 1]
        elif arg.startswith(("--eval=", "--execute=")):
            code = arg.split("=", 1)[1]
        if code is None:
            continue
        found = False
        for match in _ELISP_SHELL_RE.finditer(code):
            found = True
            run_inner(ctx, unescape(match.group(1) or match.group(2) or ""), f"{cmd.name} --eval")
        if not found and _ELISP_CODE_RE.search(code):
            ctx.confirm(RULE, f"`{cmd.name} --eval` runs processes or deletes files")


def _check_pager(cmd: SimpleCommand, ctx: Context) -> None:
    for arg in cmd.args:
        if arg.startswith("+") and "!" in arg:
            run_inner(ctx, arg.split("!", 1)[1], f"{cmd.name} +!")
        elif arg.startswith("+") and "|" in arg:
            run_inner(ctx, arg.split("|", 1)[1], f"{cmd.name} +|")


def _check_man(cmd: SimpleCommand, ctx: Context) -> None:
    for names in (("-P", "--pager"), ("-H", "--html"), ("--browser",)):
        present = any(a.startswith(n) for a in cmd.args for n in names)
        value = option_value(cmd.args, *names) if present else None
        if value:
            run_inner(ctx, value, f"man {names[0]}")


RULES: dict[str, tuple[Check, ...]] = {
    **dict.fromkeys(_VIMS, (_check_vim,)),
    **dict.fromkeys(("emacs", "emacsclient", "xemacs"), (_check_emacs,)),
    **dict.fromkeys(("less", "more", "most"), (_check_pager,)),
    "man": (_check_man,),
}
