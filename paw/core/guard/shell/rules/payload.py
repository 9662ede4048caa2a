"""Commands that run other commands: eval, source, find -exec/-delete, xargs, parallel, cd."""

from __future__ import annotations

import fnmatch
from typing import TYPE_CHECKING

from paw.core.guard.shell.commands import SimpleCommand
from paw.core.guard.shell.evaluation import CwdKind
from paw.core.guard.shell.rules.files import check_outside_write, check_write_target
from paw.core.guard.shell.rules.interp import (
    check_dynamic_body,
    check_script_file,
    check_stdin_exec,
)
from paw.core.guard.shell.rules.rm import check_targets
from paw.core.guard.shell.rules.secrets import NON_READERS
from paw.core.guard.shell.rules.targets import is_dangerous_dir
from paw.core.guard.shell.words import IFS_SPLIT, UNKNOWN, Word, has_unknown

if TYPE_CHECKING:
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

_FIND_FILTERS = frozenset(
    {"-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-newer", "-mtime", "-mmin",
     "-atime", "-ctime", "-size", "-user", "-group", "-perm", "-empty", "-wholename", "-lname",
     "-inum", "-samefile", "-links", "-cmin", "-amin", "-newermt"}
)  # fmt: skip
_FIND_PRINT_TO = frozenset({"-fprint", "-fprint0", "-fprintf", "-fls"})
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_XARGS_VALUE = frozenset(
    {"-I", "-i", "-n", "-P", "-L", "-l", "-d", "-E", "-e", "-s", "-a", "--max-args",
     "--max-procs", "--delimiter", "--arg-file", "--replace"}
)  # fmt: skip


def _check_eval(cmd: SimpleCommand, ctx: Context) -> None:
    if not cmd.args:
        return
    if not check_dynamic_body(cmd, ctx, " ".join(cmd.args)):
        ctx.run_script(" ".join(cmd.args), "eval")


def _check_source(cmd: SimpleCommand, ctx: Context) -> None:
    if not cmd.args:
        return
    path = cmd.args[0]
    if path in {"/dev/stdin", "-", "/proc/self/fd/0"}:
        check_stdin_exec(cmd, ctx, "sh")
    else:
        check_script_file(cmd, ctx, path, 1)


def _find_parts(args: list[str]) -> tuple[list[str], list[str]]:
    roots: list[str] = []
    i = 0
    while i < len(args) and args[i] in {"-H", "-L", "-P", "-O0", "-O1", "-O2", "-O3", "-D"}:
        i += 2 if args[i] == "-D" else 1
    while i < len(args) and not args[i].startswith(("-", "(", "!", "\\(")):
        roots.append(args[i])
        i += 1
    return roots or ["."], args[i:]


def _run_payload(ctx: Context, words: list[str], parent: SimpleCommand, origin: str) -> None:
    if not words:
        return
    inner = SimpleCommand([Word(w) for w in words], upstream=parent.upstream)
    inner.wrappers = (origin,)
    ctx.run_command(inner)


def _check_find(cmd: SimpleCommand, ctx: Context) -> None:
    roots, expr = _find_parts(cmd.args)
    found = _found(roots, expr)
    if "-delete" in expr:
        check_targets(ctx, "find -delete", found, recursive=True)
        for target in found:
            check_write_target(target, ctx, "find -delete", None, delete=True)
    for i, word in enumerate(expr[:-1]):
        if word in _FIND_PRINT_TO:
            check_write_target(expr[i + 1], ctx, f"find {word}", None)
            check_outside_write(expr[i + 1], ctx, f"find {word}")
            check_outside_write(expr[i + 1], ctx, f"find {word}", dotfiles_only=True)
    _check_secret_search(roots, expr, ctx)
    i = 0
    while i < len(expr):
        if expr[i] in _FIND_EXEC:
            end = i + 1
            while end < len(expr) and expr[end] not in {";", "+", "\\;"}:
                end += 1
            payload = expr[i + 1 : end]
            for target in found:
                words = [target if w == "{}" else w.replace("{}", target) for w in payload]
                _run_payload(ctx, words, cmd, f"find {expr[i]}")
            i = end
        i += 1


def _found(roots: list[str], expr: list[str]) -> list[str]:
    """What a find matches, for the rules: a literal ``-name`` is that name under each root,
    other filters some entry below it, no filter the roots themselves."""
    for i, word in enumerate(expr[:-1]):
        name = expr[i + 1]
        if word in {"-name", "-iname"} and name and not any(c in name for c in "*?[\\"):
            return [r.rstrip("/") + "/" + name for r in roots]
    if any(e in _FIND_FILTERS for e in expr):
        return [r.rstrip("/") + "/found" for r in roots]
    return roots


_SECRET_NAMES = ("id_rsa", "id_ed25519", "id_ecdsa", "key.pem", "server.key", "cert.p12",
                 ".netrc", ".git-credentials", "credentials", ".npmrc", ".pypirc", ".env",
                 ".bash_history", ".zsh_history", "config.json")  # fmt: skip


def _check_secret_search(roots: list[str], expr: list[str], ctx: Context) -> None:
    """``find ~ -name 'id_*' -exec cat {} +``: printing every key below home or the root."""
    wide = [r for r in roots if r in {"/", "~", "~/"} or r.startswith(("~/.", "/home", "/root"))]
    if not wide:
        return
    names = [expr[i + 1] for i, e in enumerate(expr[:-1]) if e in {"-name", "-iname"}]
    readers = [
        expr[i + 1].rsplit("/", 1)[-1]
        for i, e in enumerate(expr[:-1])
        if e in _FIND_EXEC and expr[i + 1].rsplit("/", 1)[-1] not in NON_READERS
    ]
    if not readers or not names:
        return
    for name in names:
        if any(fnmatch.fnmatch(secret, name) for secret in _SECRET_NAMES):
            ctx.block(
                "shell.secret-read",
                f"`find {wide[0]} -name {name} -exec {readers[0]}` prints credential files",
            )
            return


def _stdin_operands(cmd: SimpleCommand) -> list[str]:
    if cmd.stdin_text is not None and not has_unknown(cmd.stdin_text):
        return cmd.stdin_text.split()[:8]
    for up in reversed(cmd.upstream):
        if up.name == "find":
            roots, expr = _find_parts(up.args)
            return _found(roots, expr)
        if up.name in {"echo", "printf"}:
            return [a for a in up.args if not a.startswith("-")]
    return []


def _takes_value(arg: str, with_value: frozenset[str]) -> bool:
    """True when option ``arg`` consumes the next word: ``-a``, ``--arg-file`` and a short
    cluster ending in a value letter (``-0a FILE`` is ``-0 -a FILE``)."""
    if arg in with_value:
        return True
    if arg.startswith("--") or len(arg) < 3:
        return False
    for index, letter in enumerate(arg[1:], start=1):
        if f"-{letter}" in with_value:
            return index == len(arg) - 1  # glued value (`-afile`) or the value follows
    return False


def _check_xargs(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    i, replace = 0, None
    while i < len(args) and args[i].startswith("-"):
        if args[i] in {"-I", "--replace"} and i + 1 < len(args):
            replace = args[i + 1]
        if args[i].startswith("-I") and len(args[i]) > 2:
            replace = args[i][2:]
        i += 2 if _takes_value(args[i], _XARGS_VALUE) else 1
    payload = args[i:] or ["echo"]
    operands = _stdin_operands(cmd) or [UNKNOWN]
    if replace is not None:
        for operand in operands or [UNKNOWN]:
            _run_payload(ctx, [w.replace(replace, operand) for w in payload], cmd, "xargs")
    else:
        _run_payload(ctx, payload + operands, cmd, "xargs")


_PARALLEL_VALUE = frozenset(
    {"-j", "--jobs", "-P", "--max-procs", "-a", "--arg-file", "-d", "--delimiter", "-I",
     "-S", "--sshlogin", "--colsep", "-C", "--joblog", "--results", "--tmpdir", "--workdir",
     "--timeout", "--delay", "--retries", "-n", "--max-args", "-N", "-L", "--max-lines",
     "-E", "--eof", "--basefile", "--return", "--env", "--memfree", "--load", "--halt",
     "--tag-string", "--rpl", "--sshloginfile", "--slf", "--block", "--resume-failed"}
)  # fmt: skip


def _check_parallel(cmd: SimpleCommand, ctx: Context) -> None:
    """``parallel [options] CMD [args] ::: values``: parallel's own options come first; the
    command keeps its flags (``ls | parallel rm -rf`` is ``rm -rf`` of each line read)."""
    args = cmd.args
    cut = next((i for i, a in enumerate(args) if a in {":::", "::::", ":::+", "::::+"}), len(args))
    start = 0
    while start < cut and args[start].startswith("-") and args[start] != "--":
        start += 2 if _takes_value(args[start], _PARALLEL_VALUE) else 1
    start += 1 if start < cut and args[start] == "--" else 0
    head = args[start:cut]
    literal = cut < len(args) and args[cut] in {":::", ":::+"}
    values = (args[cut + 1 :] if literal else []) or [UNKNOWN]
    for value in values[:4]:
        words = [w.replace("{}", value) for w in head]
        if len(words) == 1 and " " in words[0]:
            ctx.run_script(words[0], "parallel")
        else:
            _run_payload(
                ctx, words + ([value] if "{}" not in " ".join(head) else []), cmd, "parallel"
            )


def _check_cd(cmd: SimpleCommand, ctx: Context) -> None:
    operands = [a for a in cmd.args if not a.startswith("-") or a == "-"]
    target = operands[0] if operands else "~"
    prefix = ctx.cwd_prefix
    ctx.cwd_path = None
    if has_unknown(target) or target == "-":
        ctx.cwd_prefix = None
    elif target.startswith(("/", "~")):
        ctx.cwd_prefix = target.rstrip("/") or "/"
    elif prefix is not None:
        ctx.cwd_prefix = f"{prefix.rstrip('/')}/{target}" if prefix else target
    if has_unknown(target) or target == "-":
        ctx.cwd = CwdKind.UNKNOWN
    elif is_dangerous_dir(target, ctx) or target in {"/", "~"}:
        ctx.cwd = CwdKind.DANGEROUS
    elif target.startswith("..") or (ctx.cwd is CwdKind.DANGEROUS and not target.startswith("/")):
        ctx.cwd = CwdKind.UNKNOWN
    elif not target.startswith(("/", "~")) and ctx.cwd in {CwdKind.PROJECT, CwdKind.SUBDIR}:
        ctx.cwd = CwdKind.SUBDIR
    else:
        ctx.cwd = CwdKind.PROJECT


def _check_set(cmd: SimpleCommand, ctx: Context) -> None:
    """``set -- a b`` assigns the positional parameters."""
    args = cmd.args
    if "--" in args:
        values = args[args.index("--") + 1 :]
    elif args and not args[0].startswith(("-", "+")):
        values = args
    else:
        return
    for index, value in enumerate(values[:9], start=1):
        ctx.env[str(index)] = value
    ctx.env["@"] = IFS_SPLIT.join(values)  # "$@" is one word per parameter, quoted or not
    ctx.env["*"] = " ".join(values)


def _check_trap(cmd: SimpleCommand, ctx: Context) -> None:
    """``trap 'cmd' EXIT`` runs its first argument later."""
    args = [a for a in cmd.args if a != "--"]
    if len(args) >= 2 and not args[0].startswith("-"):
        ctx.run_script(args[0], "trap")


def _check_at(cmd: SimpleCommand, ctx: Context) -> None:
    """``at``/``batch`` schedule a script read from stdin or ``-f FILE``."""
    if any(a in {"-l", "-r", "-d", "-c"} for a in cmd.args) or cmd.name == "atq":
        return
    ctx.block("files.persistence", f"`{cmd.name}` schedules a job to run later")
    check_stdin_exec(cmd, ctx, "sh")


RULES: dict[str, tuple[Check, ...]] = {
    "set": (_check_set,),
    "trap": (_check_trap,),
    "at": (_check_at,),
    "batch": (_check_at,),
    "eval": (_check_eval,),
    "source": (_check_source,),
    ".": (_check_source,),
    "find": (_check_find,),
    "gfind": (_check_find,),
    "xargs": (_check_xargs,),
    "parallel": (_check_parallel,),
    "cd": (_check_cd,),
    "pushd": (_check_cd,),
}
