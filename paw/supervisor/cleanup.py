"""Stop (end the agent, keep the work) and remove (worktree and branch, never losing work)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.errors import PawError
from paw.supervisor.observe import agent_process, pane_for
from paw.supervisor.records import forget_agent, load_agents

if TYPE_CHECKING:
    from paw.core.ports import StatusCounts
    from paw.supervisor.context import Context
    from paw.supervisor.records import AgentRecord

ARCHIVE_PREFIX = "refs/paw/archive/"


def get_agent(ctx: Context, name: str) -> AgentRecord:
    """The record of agent ``name``; PawError when there is none."""
    agent = load_agents(ctx.state).get(name)
    if agent is None:
        raise PawError(f"no agent named {name!r}", hint="`paw ls` lists the agents")
    return agent


def stop(ctx: Context, name: str) -> bool:
    """Kill the agent's pane (its processes end); keep worktree, branch and record.

    Returns True when a pane was killed, False when it was already gone.
    """
    agent = get_agent(ctx, name)
    # Only a proven pane is killed: paw's tags and token on the server the agent was started
    # on; an adopted (untagged) pane only while the adopted process still runs in it.
    pane = pane_for(ctx, agent, ctx.terminal.list_panes(None))
    if pane is not None and agent.adopted and agent_process(ctx, agent, pane) is None:
        ctx.record("stop", agent=name, pane=pane.pane_id, killed=False,
                   reason="the adopted agent no longer runs in that pane: left alone")  # fmt: skip
        return False
    ctx.record("stop", agent=name, pane=pane.pane_id if pane else None)
    if pane is None:
        return False
    ctx.terminal.kill_pane(pane.pane_id)
    return True


def _unsaved(counts: StatusCounts) -> list[str]:
    found = {
        "uncommitted": counts.uncommitted,
        "untracked": counts.untracked,
        "unmerged": counts.unmerged,
        "not merged into the base": counts.ahead,
    }
    return [f"{n} {what}" for what, n in found.items() if n]


def remove(ctx: Context, name: str, *, force: bool = False) -> str:
    """Remove the agent's worktree and branch; returns what happened (and how to restore).

    Refuses with PawError when anything is uncommitted, untracked, or not merged into the base,
    unless ``force``: then everything (untracked files included) is first committed to a ref
    under ``refs/paw/archive/``.
    """
    agent = get_agent(ctx, name)
    if agent.adopted:
        stop(ctx, name)
        forget_agent(ctx.state, name)
        return f"stopped supervising {name} (adopted: no paw worktree to remove)"
    _refuse_unsaved(ctx, agent.worktree, agent.base, name, force=force)
    # Stop first, then look again: a running agent could write between the check and removal.
    stop(ctx, name)
    _refuse_unsaved(ctx, agent.worktree, agent.base, name, force=force)
    ref = f"{ARCHIVE_PREFIX}{name}-{int(ctx.clock())}"
    commit = ctx.vcs.snapshot(agent.worktree, ref, f"paw: archive of {name} before removal")
    ctx.record("remove", agent=name, branch=agent.branch, archive_ref=ref, commit=commit)
    ctx.vcs.remove_worktree(ctx.repo_root, agent.worktree, force=True)
    ctx.vcs.delete_branch(ctx.repo_root, agent.branch, force=True)
    forget_agent(ctx.state, name)
    return (
        f"removed {name}: worktree {agent.worktree} and branch {agent.branch}\n"
        f"archived to {ref} ({commit[:12]}); restore with:\n"
        f"  git worktree add -b {agent.branch} {agent.worktree} {ref}"
    )


def _refuse_unsaved(ctx: Context, worktree: str, base: str, name: str, *, force: bool) -> None:
    unsaved = _unsaved(ctx.vcs.status_counts(worktree, base))
    if unsaved and not force:
        raise PawError(
            f"{name} has unsaved work: {', '.join(unsaved)}",
            hint=f"commit and merge it, or `paw rm --force {name}` (archives it to a ref first)",
        )
