"""Shells and interpreters: ``-c``/``-e`` bodies, stdin scripts, downloads fed to them."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paw.core.guard.shell.rules import code, terminals, verbs
from paw.core.guard.shell.rules.inline import (
    INTERP,
    PY_RE,
    interp_parts,
    python_parts,
)
from paw.core.guard.shell.rules.net import is_download, is_fetch
from paw.core.guard.shell.rules.stdin import is_decoder, literal_output, simulate_stdin
from paw.core.guard.shell.words import IFS_SPLIT, UNKNOWN, has_unknown

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

SHELLS = frozenset(
    {"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh",
     "rbash", "oksh", "loksh", "elvish", "nu", "xonsh"}
)  # fmt: skip
_SHELL_VALUE = frozenset({"--rcfile", "--init-file", "-o", "+o", "-O", "+O"})
_STDIN_PATHS = frozenset({"/dev/stdin", "/proc/self/fd/0", "/dev/fd/0", "-"})


def _shell_parts(args: list[str]) -> tuple[str | None, str | None, list[str], bool]:
    """(``-c`` body, script operand, remaining operands, reads stdin) for a shell's args."""
    has_c = stdin = noexec = False
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in _SHELL_VALUE:
            i += 2
            continue
        if arg in {"--", "-"}:
            i += 1
            break
        if arg.startswith("--"):
            noexec = noexec or arg == "--noexec"
        elif arg.startswith(("-", "+")) and len(arg) > 1:
            letters = arg[1:]
            has_c = has_c or "c" in letters
            stdin = stdin or "s" in letters
            noexec = noexec or ("n" in letters and arg.startswith("-"))
        else:
            break
        i += 1
    rest = args[i:]
    if noexec:
        return None, None, [], False
    if has_c:
        return (rest[0] if rest else ""), None, rest[1:], False
    if stdin or not rest:
        return None, None, rest, True
    return None, rest[0], rest[1:], False


def run_with_positionals(ctx: Context, script: str, origin: str, positional: list[str]) -> None:
    """Evaluate ``script`` with ``$0``, ``$1`` … bound to literal operands."""
    saved = {k: ctx.env.get(k) for k in ("0", "1", "2", "3", "@", "*")}
    for index, value in enumerate(positional[:4]):
        ctx.env[str(index)] = value
    ctx.env["@"] = IFS_SPLIT.join(positional[1:]) if positional else UNKNOWN  # a word each
    ctx.env["*"] = " ".join(positional[1:]) if positional else UNKNOWN
    try:
        ctx.run_script(script, origin)
    finally:
        for key, old in saved.items():
            if old is None:
                ctx.env.pop(key, None)
            else:
                ctx.env[key] = old


def _fetched_subs(cmd: SimpleCommand, index: int | None = None) -> bool:
    for i, subs in cmd.subs.items():
        if index is not None and i != index:
            continue
        if any(is_fetch(sub) for sub in subs):
            return True
    return False


def check_dynamic_body(cmd: SimpleCommand, ctx: Context, body: str) -> bool:
    """A code body built by substitution: downloaded or decoded text is block; True if judged."""
    if not has_unknown(body):
        return False
    if _fetched_subs(cmd):
        ctx.block("shell.download-exec", f"`{cmd.name}` runs downloaded text")
        return True
    if any(is_decoder(sub) for subs in cmd.subs.values() for sub in subs):
        ctx.block("shell.decode-exec", f"`{cmd.name}` runs decoded text")
        return True
    return False


def check_stdin_exec(cmd: SimpleCommand, ctx: Context, lang: str) -> None:
    """A shell or interpreter that runs what arrives on stdin."""
    if any(is_fetch(up) for up in cmd.upstream):
        ctx.block("shell.download-exec", f"downloaded content is piped into `{cmd.name}`")
        return
    if cmd.stdin_text is not None and check_dynamic_body(cmd, ctx, cmd.stdin_text):
        return  # a here-string of downloaded or decoded text
    text, decoded = simulate_stdin(cmd)
    if text is not None:
        if lang == "sh":
            ctx.run_script(text, f"{cmd.name} stdin")
        else:
            code.scan_code(text, lang, ctx, cmd.name)
    elif decoded:
        ctx.block("shell.decode-exec", f"decoded or reversed text is piped into `{cmd.name}`")
    elif cmd.upstream:
        ctx.confirm("shell.stdin-exec", f"`{cmd.name}` runs a script from a pipe paw cannot see")


def check_script_file(
    cmd: SimpleCommand, ctx: Context, path: str, index: int, lang: str = "sh"
) -> None:
    """A script operand: a download, a file written earlier in the command, a substitution."""
    if is_download(path, ctx) or _fetched_subs(cmd, index):
        ctx.block("shell.download-exec", f"`{cmd.name}` runs a script that was just downloaded")
        return
    if has_unknown(path):
        produced = _literal_file(cmd, index)
        if produced is None:
            ctx.confirm("shell.unresolved", f"`{cmd.name}` runs a script whose path paw cannot see")
        elif lang == "sh":  # `bash <(echo 'rm -rf ~')`: the script is what the substitution prints
            ctx.run_script(produced, f"{cmd.name} <(…)")
        else:
            code.scan_code(produced, lang, ctx, f"{cmd.name} <(…)")
        return
    if path in _STDIN_PATHS:
        check_stdin_exec(cmd, ctx, lang)
        return
    written = ctx.scripts.get(path.removeprefix("./"))
    if written is None:
        return
    if lang == "sh":
        ctx.run_script(written, f"{cmd.name} {path}")
    else:
        code.scan_code(written, lang, ctx, f"{cmd.name} {path}")


def _literal_file(cmd: SimpleCommand, index: int) -> str | None:
    """The text a process substitution at argument ``index`` prints, when it is literal."""
    subs = cmd.subs.get(index, [])
    return literal_output(subs[0]) if len(subs) == 1 else None


def _check_shell(cmd: SimpleCommand, ctx: Context) -> None:
    body, script, rest, stdin = _shell_parts(cmd.args)
    if body is not None:
        if check_dynamic_body(cmd, ctx, body):
            return
        run_with_positionals(ctx, body, f"{cmd.name} -c", rest)
    elif script is not None:
        check_script_file(cmd, ctx, script, cmd.args.index(script) + 1)
    elif stdin:
        check_stdin_exec(cmd, ctx, "sh")


_EVAL_RE = re.compile(r"\b(exec|eval|compile|Function|load|instance_eval|run_path)\b")


def _check_piped_code(cmd: SimpleCommand, ctx: Context, body: str) -> None:
    """``curl … | python -c 'exec(sys.stdin.read())'``: inline code evaluating a download."""
    if any(is_fetch(up) for up in cmd.upstream) and _EVAL_RE.search(body):
        ctx.block("shell.download-exec", f"`{cmd.name}` evaluates downloaded text from its stdin")


def _check_python(cmd: SimpleCommand, ctx: Context) -> None:
    body, script, stdin = python_parts(cmd.args)
    if "-m" in cmd.args[:-1] and cmd.args[cmd.args.index("-m") + 1] == "paw":
        terminals.check_paw(cmd, ctx, cmd.args[cmd.args.index("-m") + 2 :])
    elif body is None and script is None and not stdin:
        verbs.check_module(cmd, ctx)  # `python -m twine upload`: judged as `twine upload`
    if body is not None:
        _check_piped_code(cmd, ctx, body)
        code.scan_code(body, "py", ctx, f"{cmd.name} -c")
    elif script is not None:
        check_script_file(cmd, ctx, script, cmd.args.index(script) + 1, "py")
    elif stdin:
        check_stdin_exec(cmd, ctx, "py")


def _check_interp(cmd: SimpleCommand, ctx: Context) -> None:
    body, script, stdin, lang = interp_parts(cmd)
    if lang == "encoded":
        ctx.block("shell.decode-exec", f"`{cmd.name}` runs an encoded command")
    elif body is not None and lang == "ps":
        ctx.run_script(body, f"{cmd.name} -Command")
    elif body is not None:
        _check_piped_code(cmd, ctx, body)
        code.scan_code(body, lang, ctx, f"{cmd.name} -e")
        if lang == "perl":
            code.check_perl_in_place(cmd, ctx)
    elif script is not None:
        if "://" in script:
            ctx.confirm("shell.remote-script", f"`{cmd.name}` runs a script from a URL")
        check_script_file(cmd, ctx, script, cmd.args.index(script) + 1)
    elif stdin:
        check_stdin_exec(cmd, ctx, lang)


def _check_iex(cmd: SimpleCommand, ctx: Context) -> None:
    if cmd.args:
        body = " ".join(cmd.args)
        code.check_unparsed(f"iex {body}", ctx, cmd.name)
        if not check_dynamic_body(cmd, ctx, body):
            ctx.run_script(body, cmd.name)
    else:
        check_stdin_exec(cmd, ctx, "sh")


def python_check(name: str) -> tuple[Check, ...] | None:
    """Rules for python-like names (``python3.12``, ``pypy3``)."""
    return (_check_python,) if PY_RE.match(name) else None


RULES: dict[str, tuple[Check, ...]] = {
    **dict.fromkeys(SHELLS, (_check_shell,)),
    **dict.fromkeys(INTERP, (_check_interp,)),
    "iex": (_check_iex,),
    "invoke-expression": (_check_iex,),
}
