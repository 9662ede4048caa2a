"""Privilege and permissions: sudo-family (via the dispatcher), chmod, chown, chgrp."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paw.core.guard.shell.rules.argv import split_args
from paw.core.guard.shell.rules.files import check_paw_state
from paw.core.guard.shell.rules.targets import judge_path
from paw.core.models import Action

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

_OCTAL_RE = re.compile(r"^[0-7]{1,4}$")
_SYMBOLIC_RE = re.compile(r"^([ugoa]*)([-+=])([rwxXstugo]*)$")
_WIDE_RULES = frozenset({"shell.rm-root", "shell.rm-home", "shell.rm-system", "shell.rm-escape"})


def _mode_findings(mode: str) -> tuple[bool, bool, bool]:
    """(world-writable, setuid/setgid, removes all access) for one mode argument."""
    if _OCTAL_RE.match(mode):
        value = int(mode, 8)
        return bool(value & 0o002), bool(value & 0o6000), value & 0o700 == 0
    world = setuid = lockout = False
    for clause in mode.split(","):
        match = _SYMBOLIC_RE.match(clause)
        if match is None:
            continue
        who, op, perms = match.groups()
        others = not who or "o" in who or "a" in who
        if op in "+=" and "w" in perms and others and who:
            world = True
        if op in "+=" and "s" in perms:
            setuid = True
        if (op == "-" and "r" in perms and ("u" in who or "a" in who or not who)) or (
            op == "=" and not perms
        ):
            lockout = True
    return world, setuid, lockout


def _wide_target(operand: str, ctx: Context) -> bool:
    """Root, a system path or a whole home directory (not a file or folder inside a home)."""
    danger = judge_path(operand, ctx)
    if danger is None or danger.action is not Action.BLOCK:
        return False
    if danger.rule == "shell.rm-home":
        return danger.what.startswith(("the home directory", "a home directory"))
    return danger.rule in _WIDE_RULES or danger.rule == "shell.rm-unguarded-var"


def _check_chmod(cmd: SimpleCommand, ctx: Context) -> None:
    parsed = split_args(cmd.args, ("--reference",))
    args = [a for a in cmd.args if a not in {"-R", "--recursive", "-v", "-c", "-f", "--"}]
    operands = parsed.operands
    mode = operands[0] if operands else next((a for a in args if _SYMBOLIC_RE.match(a)), "")
    targets = operands[1:] if operands and operands[0] == mode else operands
    recursive = "R" in parsed.letters or "--recursive" in parsed.options
    world, setuid, lockout = _mode_findings(mode.lstrip("-") if mode.startswith("-") else mode)
    if world:
        ctx.block("shell.chmod-world", f"`chmod {mode}` makes files writable by every user")
    if setuid:
        ctx.block("shell.chmod-setuid", f"`chmod {mode}` sets a set-user/group-id bit")
    for target in targets:
        check_paw_state(target, ctx, "chmod")
        if _wide_target(target, ctx) and (recursive or lockout):
            ctx.block("shell.chmod-system", f"`chmod {mode}` on `{target}` (root, home or system)")


def _check_chown(cmd: SimpleCommand, ctx: Context) -> None:
    parsed = split_args(cmd.args, ("--reference", "--from"))
    targets = parsed.operands[1:]
    for target in targets:
        check_paw_state(target, ctx, cmd.name)
        if _wide_target(target, ctx):
            ctx.block("shell.chown-system", f"`{cmd.name}` on `{target}` (root, home or system)")


def check_privilege(wrapper: str, inner: str, ctx: Context) -> None:
    """Any privilege escalation is block; the reason names the inner command."""
    shown = f" to run `{inner}`" if inner else " (a root shell)"
    ctx.block("shell.privilege", f"`{wrapper}` escalates privileges{shown}")


RULES: dict[str, tuple[Check, ...]] = {
    "chmod": (_check_chmod,),
    "chown": (_check_chown,),
    "chgrp": (_check_chown,),
}
