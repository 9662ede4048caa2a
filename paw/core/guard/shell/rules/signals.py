"""Signals: ``kill`` of a pid paw cannot attribute, killing by name."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.guard.shell.commands import SimpleCommand
from paw.core.guard.shell.words import LAST_JOB, has_unknown

if TYPE_CHECKING:
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check


_PID_FINDERS = frozenset({"pgrep", "pidof", "ps", "lsof", "fuser", "tmux", "pstree", "jobs"})


def _check_kill(cmd: SimpleCommand, ctx: Context) -> None:
    """``kill`` of a pid or a process group; ``kill %1`` (the shell's own job) is fine."""
    args = cmd.args
    if any(a in {"-l", "-L", "--list", "--table"} for a in args):
        return
    probe = False
    i = 0
    if args and args[0] in {"-s", "-n", "--signal"}:
        probe = args[1:2] == ["0"]
        i = 2
    elif args and args[0].startswith("-") and args[0] != "--":
        probe = args[0] in {"-0", "-s0", "-SIG0"}
        i = 1
    if i < len(args) and args[i] == "--":
        i += 1
    for target in args[i:]:
        if target.startswith("%") or target == LAST_JOB:
            continue
        if has_unknown(target):
            finders = {s.name for subs in cmd.subs.values() for s in subs}
            if finders & _PID_FINDERS:
                ctx.block("shell.supervisor", f"`{cmd.name}` kills processes found by name")
                return
            if not probe:
                ctx.confirm("shell.supervisor", f"`{cmd.name}` kills a process paw cannot see")
            continue
        if probe:
            continue
        if target in {"1", "-1", "0"} or target.startswith("-"):
            ctx.block("shell.supervisor", f"`{cmd.name} {target}` kills init or a process group")
            return
        ctx.confirm(
            "shell.supervisor",
            f"`{cmd.name} {target}`: paw cannot tell whose process this is (paw, another agent)",
        )


def _check_kill_by_name(cmd: SimpleCommand, ctx: Context) -> None:
    if any(a in {"-l", "--list", "-V", "--version", "-h", "--help"} for a in cmd.args):
        return
    if cmd.name == "fuser" and not any(a.startswith("-") and "k" in a for a in cmd.args):
        return
    ctx.block(
        "shell.supervisor", f"`{cmd.name}` kills processes by name (paw, other agents, the system)"
    )


RULES: dict[str, tuple[Check, ...]] = {
    "kill": (_check_kill,),
    **dict.fromkeys(
        ("pkill", "killall", "pgrep-kill", "skill", "slay", "fuser", "xkill", "killall5"),
        (_check_kill_by_name,),
    ),
}
