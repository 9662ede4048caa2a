"""Deleting commands: rm, unlink, shred, truncate, rsync --delete, mv of whole trees."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.guard.shell.rules.argv import has_long, option_value, split_args
from paw.core.guard.shell.rules.files import check_outside_write, check_write_target
from paw.core.guard.shell.rules.targets import judge_path
from paw.core.models import Action

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

_RSYNC_VALUE = frozenset(
    {"-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--files-from"}
)
_TRUNCATE_VALUE = frozenset({"-s", "--size", "-r", "--reference"})


def check_targets(
    ctx: Context,
    verb: str,
    operands: list[str],
    *,
    recursive: bool,
) -> None:
    """Apply the shared delete-target rules to every operand; report the worst per operand."""
    for operand in operands:
        danger = judge_path(operand, ctx)
        if danger is None:
            continue
        if not recursive and danger.rule in {"shell.rm-unresolved", "shell.rm-cwd"}:
            continue
        if danger.action is Action.BLOCK:
            ctx.block(danger.rule, f"`{verb}` would delete {danger.what}")
        else:
            ctx.confirm(danger.rule, f"`{verb}` would delete {danger.what}")


def _check_rm(cmd: SimpleCommand, ctx: Context) -> None:
    parsed = split_args(cmd.args)
    recursive = bool(parsed.letters & {"r", "R"}) or has_long(parsed, "--recursive", "--dir")
    verb = "rm -r" if recursive else "rm"
    check_targets(ctx, verb, parsed.operands, recursive=recursive)
    for operand in parsed.operands:
        check_write_target(operand, ctx, verb, None, delete=True)


def _check_tree_delete(cmd: SimpleCommand, ctx: Context) -> None:
    """``rimraf``, ``del-cli``, ``trash``: package-run deleters, recursive by design."""
    parsed = split_args(cmd.args, ("--glob", "--preserve-root", "--impl"))
    check_targets(ctx, f"{cmd.name} (rm -r)", parsed.operands, recursive=True)
    for operand in parsed.operands:
        check_write_target(operand, ctx, cmd.name, None, delete=True)


def _check_plain_delete(cmd: SimpleCommand, ctx: Context) -> None:
    parsed = split_args(cmd.args, ("-n", "--iterations", "-s", "--size"))
    check_targets(ctx, cmd.name, parsed.operands, recursive=False)
    for operand in parsed.operands:
        check_write_target(operand, ctx, cmd.name, None, delete=True)


def _check_truncate(cmd: SimpleCommand, ctx: Context) -> None:
    parsed = split_args(cmd.args, _TRUNCATE_VALUE)
    check_targets(ctx, "truncate", parsed.operands, recursive=False)
    for operand in parsed.operands:
        check_write_target(operand, ctx, "truncate", None)


def _check_rsync(cmd: SimpleCommand, ctx: Context) -> None:
    parsed = split_args(cmd.args, _RSYNC_VALUE)
    if not parsed.operands:
        return
    dest = parsed.operands[-1]
    deleting = any(opt.startswith(("--delete", "--remove-source-files")) for opt in parsed.options)
    if deleting and ":" not in dest.split("/", 1)[0]:
        check_targets(ctx, "rsync --delete", [dest], recursive=True)
    check_write_target(dest, ctx, "rsync", None)
    check_outside_write(dest, ctx, "rsync")


def _check_mv(cmd: SimpleCommand, ctx: Context) -> None:
    parsed = split_args(cmd.args, ("-t", "--target-directory", "-S", "--suffix"))
    target = option_value(cmd.args, "-t", "--target-directory")
    operands = parsed.operands
    sources = operands if target else operands[:-1]
    dest = target or (operands[-1] if operands else None)
    for source in sources:
        danger = judge_path(source, ctx)
        if danger is not None and danger.action is Action.BLOCK:
            ctx.block(danger.rule, f"`mv` would move away {danger.what}")
        check_write_target(source, ctx, "mv", None, delete=True)
    if dest is not None:
        check_write_target(dest, ctx, "mv", _content_of_sources(sources))
        check_outside_write(dest, ctx, "mv")


def _content_of_sources(sources: list[str]) -> str:
    return " ".join(sources)


RULES: dict[str, tuple[Check, ...]] = {
    "rm": (_check_rm,),
    "srm": (_check_rm,),
    "rimraf": (_check_tree_delete,),
    "del-cli": (_check_tree_delete,),
    "del": (_check_tree_delete,),
    "trash": (_check_tree_delete,),
    "trash-put": (_check_tree_delete,),
    "unlink": (_check_plain_delete,),
    "shred": (_check_plain_delete,),
    "rmdir": (_check_plain_delete,),
    "truncate": (_check_truncate,),
    "rsync": (_check_rsync,),
    "mv": (_check_mv,),
}
