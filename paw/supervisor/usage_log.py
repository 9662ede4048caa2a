"""The usage log paw has an agent write, named at its launch (aider's analytics log: see
:mod:`paw.core.usage_aider`; the file is made ready by the context's ``usage_log``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.usage_aider import OWN_LOG_UNKNOWN, with_usage_log

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from paw.core.agents import AgentProfile
    from paw.supervisor.context import Context
    from paw.supervisor.records import AgentRecord


def usage_logged(
    ctx: Context,
    record: AgentRecord,
    profile: AgentProfile,
    argv: Sequence[str],
    env: Mapping[str, str],
) -> tuple[str, ...]:
    """The launch argv with the usage log paw reads named to the agent, where paw can add it
    (aider started as ``aider``: its analytics log, in paw's state directory); as it is
    otherwise, when the user names aider's log themselves (in ``env``, the launch's own
    environment, paw's, or aider's settings files: theirs is never silenced), or when the log's
    folder cannot be made (recorded: its usage is then unknown, the agent starts all the
    same)."""
    if ctx.usage_log is None or ctx.host is not None:
        return tuple(argv)
    if with_usage_log(profile.detector_id, argv, "") is None:
        return tuple(argv)  # not aider itself: paw cannot tell where the flag would go
    try:
        log = ctx.usage_log(record.name, record.worktree, env)
    except (OSError, ValueError) as err:
        ctx.record("usage-log", agent=record.name, state="off", reason=str(err))
        return tuple(argv)
    if log is None:
        ctx.record("usage-log", agent=record.name, state="off", reason=OWN_LOG_UNKNOWN)
        return tuple(argv)
    return with_usage_log(profile.detector_id, argv, log) or tuple(argv)
