"""Archivers and transfer tools: options naming a program (tar, zip, rsync, ssh) and extraction
targets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.guard.shell.commands import SimpleCommand
from paw.core.guard.shell.rules.argv import option_value
from paw.core.guard.shell.rules.files import check_outside_write, check_write_target
from paw.core.guard.shell.rules.inner import run_inner

if TYPE_CHECKING:
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check


_TAR_PROGRAM_OPTS = (
    "--to-command",
    "--use-compress-program",
    "--info-script",
    "--new-volume-script",
    "--rsh-command",
    "--rmt-command",
)


def tar_programs(args: list[str]) -> list[str]:
    """Commands a tar invocation runs (checkpoint actions, filters, compressors)."""
    found: list[str] = []
    for i, arg in enumerate(args):
        following = args[i + 1] if i + 1 < len(args) else ""
        if arg.startswith("--checkpoint-action="):
            action = arg.split("=", 1)[1]
            if action.startswith(("exec=", "exec:")):
                found.append(action[5:])
        for name in _TAR_PROGRAM_OPTS:
            if arg.startswith(name + "="):
                found.append(arg.split("=", 1)[1])
            elif arg == name:
                found.append(following)
        if arg in {"-I", "-F"}:
            found.append(following)
        elif arg.startswith(("-I", "-F")) and not arg.startswith("--") and len(arg) > 2:
            found.append(arg[2:])
    return [f for f in found if f]


def _check_tar_programs(cmd: SimpleCommand, ctx: Context) -> None:
    for program in tar_programs(cmd.args):
        run_inner(ctx, program, f"{cmd.name} program option")
    first = cmd.args[0] if cmd.args else ""
    extracting = (
        "--extract" in cmd.args
        or "--get" in cmd.args
        or (not first.startswith("--") and "x" in first)
        or any(a.startswith("-") and not a.startswith("--") and "x" in a for a in cmd.args)
    )
    if not extracting:
        return
    target = option_value(cmd.args, "-C", "--directory")
    if target is None:
        target = next((a.split("=", 1)[1] for a in cmd.args if a.startswith("--directory=")), None)
    if target:
        check_write_target(target, ctx, f"{cmd.name} -x -C", None)
        check_outside_write(target, ctx, f"{cmd.name} -x -C")
    if any(a in {"-P", "--absolute-names"} for a in cmd.args):
        ctx.confirm("files.outside-write", f"`{cmd.name} -P` extracts absolute paths as they are")


def _check_unzip(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    target = option_value(args, "-d") if "-d" in args else None
    if cmd.name in {"7z", "7za", "7zr"}:
        target = next((a[2:] for a in args if a.startswith("-o") and len(a) > 2), None)
    if target:
        check_write_target(target, ctx, f"{cmd.name} into", None)
        check_outside_write(target, ctx, f"{cmd.name} into")


def _check_zip(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    for i, arg in enumerate(args):
        if arg in {"-TT", "--unzip-command"} and i + 1 < len(args):
            run_inner(ctx, args[i + 1], "zip -TT")
        elif arg.startswith("--unzip-command="):
            run_inner(ctx, arg.split("=", 1)[1], "zip -TT")


def _check_rsync_shell(cmd: SimpleCommand, ctx: Context) -> None:
    for names in (("-e", "--rsh"), ("--rsync-path",)):
        present = any(a == n or a.startswith(n + "=") for a in cmd.args for n in names)
        value = option_value(cmd.args, *names) if present else None
        if value:
            run_inner(ctx, value, f"rsync {names[0]}")


_SSH_PROGRAM_KEYS = frozenset({"proxycommand", "localcommand", "knownhostscommand",
                               "remotecommand"})  # fmt: skip


def ssh_options(args: list[str]) -> list[tuple[str, str]]:
    """``-o Key=Value`` and ``-oKey=Value`` / ``-o 'Key Value'`` pairs of ssh-family tools."""
    pairs: list[tuple[str, str]] = []
    for i, arg in enumerate(args):
        value = None
        if arg == "-o" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("-o") and len(arg) > 2 and not arg.startswith("--"):
            value = arg[2:]
        if value is None:
            continue
        key, _, rest = value.replace("=", " ", 1).partition(" ")
        pairs.append((key.strip().lower(), rest.strip()))
    return pairs


def _check_ssh_options(cmd: SimpleCommand, ctx: Context) -> None:
    for key, value in ssh_options(cmd.args):
        if key in _SSH_PROGRAM_KEYS and value.lower() != "none":
            run_inner(ctx, value, f"{cmd.name} -o {key}")
    if cmd.name in {"scp", "sftp"}:
        program = option_value(cmd.args, "-S") if "-S" in cmd.args else None
        if program:
            run_inner(ctx, program, f"{cmd.name} -S")


RULES: dict[str, tuple[Check, ...]] = {
    **dict.fromkeys(("tar", "gtar", "bsdtar"), (_check_tar_programs,)),
    "zip": (_check_zip,),
    **dict.fromkeys(("unzip", "7z", "7za", "7zr", "bsdunzip"), (_check_unzip,)),
    "rsync": (_check_rsync_shell,),
    **dict.fromkeys(("ssh", "scp", "sftp", "autossh", "mosh"), (_check_ssh_options,)),
}
