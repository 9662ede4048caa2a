"""Stop (end the agent, keep the work) and remove (worktree and branch, never losing work).

A removal is resumable: its intent is recorded (``pending = "removing"``) before the first
step, each step is idempotent, and a process holds the agent's operation lock while it works.
When paw dies half-way, the next paw command that finds the intent with the lock free finishes
it (:func:`resume_interrupted`). Interrupted spawns are finished or undone the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from paw.errors import PawError
from paw.supervisor.channels import release_channel
from paw.supervisor.observe import agent_process, pane_for
from paw.supervisor.records import (
    GIT_LOCK,
    REMOVING,
    SPAWNING,
    AgentRecord,
    forget_agent,
    load_agents,
    op_lock,
    store_agent,
)

if TYPE_CHECKING:
    from paw.supervisor.context import Context

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
    return _stop(ctx, get_agent(ctx, name))


def _stop(ctx: Context, agent: AgentRecord) -> bool:
    # Only a proven pane is killed: paw's tags and token on the server the agent was started
    # on; an adopted (untagged) pane only while the adopted process still runs in it.
    name = agent.name
    pane = pane_for(ctx, agent, ctx.terminal.list_panes(None))
    if pane is not None and agent.adopted and agent_process(ctx, agent, pane) is None:
        ctx.record("stop", agent=name, pane=pane.pane_id, killed=False,
                   reason="the adopted agent no longer runs in that pane: left alone")  # fmt: skip
        return False
    ctx.record("stop", agent=name, pane=pane.pane_id if pane else None)
    if pane is None:
        return False
    # Some agents ignore the hangup of a killed pane (gemini-cli) and would run on, unseen:
    # what ran in the pane is ended too (each process proven by its start time).
    tree = ctx.procs.tree(pane.pane_pid)
    ctx.terminal.kill_pane(pane.pane_id)
    ended = ctx.procs.end(tree, STOP_GRACE_S) if tree else []
    if ended:
        ctx.record("stop-ended", agent=name, pids=[p.pid for p in ended],
                   reason="outlived its killed pane (the hangup was ignored)")  # fmt: skip
    return True


STOP_GRACE_S = 5.0  # wall-clock seconds for the hangup, then again for SIGTERM


# -- what a removal would lose ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Unsaved:
    """What removing an agent's worktree and branch would lose, and the commits to keep."""

    uncommitted: int = 0
    untracked: int = 0
    unmerged: int = 0
    commits: int = 0  # reachable from HEAD or the branch, and from no kept ref
    ignored: tuple[str, ...] = ()  # ignored paths outside the disposable list
    head: str | None = None  # the worktree's HEAD commit (None: no worktree)
    branch_tip: str | None = None  # the agent branch's commit (None: no branch)
    tips: tuple[str, ...] = field(default=())  # HEAD and branch tip, deduplicated

    def parts(self) -> list[str]:
        """Human words for each kind of unsaved work."""
        found = {
            "uncommitted": self.uncommitted,
            "untracked": self.untracked,
            "unmerged": self.unmerged,
            ("commit" if self.commits == 1 else "commits")
            + " on no other branch or the base": self.commits,
        }
        words = [f"{n} {what}" for what, n in found.items() if n]
        if self.ignored:
            shown = ", ".join(self.ignored[:3]) + (" …" if len(self.ignored) > 3 else "")
            words.append(f"{len(self.ignored)} ignored ({shown})")
        return words

    def __bool__(self) -> bool:
        return bool(self.parts())


def unsaved_work(ctx: Context, agent: AgentRecord) -> Unsaved:
    """Inspect the agent's worktree (when it still exists) and branch (when it still exists),
    whatever HEAD is on: detached, another branch, or the agent's."""
    repo = ctx.repo_root
    head = ctx.vcs.head_commit(agent.worktree)
    tip = ctx.vcs.resolve_commit(repo, f"refs/heads/{agent.branch}") if agent.branch else None
    base = ctx.vcs.resolve_commit(repo, agent.base) if agent.base else None
    tips = tuple(dict.fromkeys(t for t in (head, tip) if t))
    commits = ctx.vcs.unkept_commits(repo, tips, agent.branch, base or "")
    if head is None:
        return Unsaved(commits=commits, branch_tip=tip, tips=tips)
    counts = ctx.vcs.status_counts(agent.worktree, base or head)
    ignored = tuple(ctx.vcs.ignored_paths(agent.worktree, ctx.config.worktrees.disposable))
    return Unsaved(
        uncommitted=counts.uncommitted,
        untracked=counts.untracked,
        unmerged=counts.unmerged,
        commits=commits,
        ignored=ignored,
        head=head,
        branch_tip=tip,
        tips=tips,
    )


def _refusal(agent: AgentRecord, unsaved: Unsaved, *, stopped: bool = False) -> PawError:
    then = "; the agent was stopped" if stopped else ""
    return PawError(
        f"{agent.name} has unsaved work: {', '.join(unsaved.parts())}{then}",
        hint=(
            "commit and merge it, add disposable paths to [worktrees] disposable in paw.toml, "
            f"or `paw rm --force {agent.name}` (archives everything to a ref first)"
        ),
    )


# -- remove -------------------------------------------------------------------------------------


def remove(ctx: Context, name: str, *, force: bool = False) -> str:
    """Remove the agent's worktree and branch; returns what happened (and how to restore).

    Refuses with PawError when anything would be lost: uncommitted, untracked or conflicted
    files, ignored files outside ``[worktrees] disposable``, or commits reachable from the
    worktree's HEAD or the agent branch that neither the base nor another ref keeps. With
    ``force``, all of that is first committed to a ref under ``refs/paw/archive/`` (restored by
    ``paw archive restore``). A removal with nothing to keep leaves no ref.
    """
    with ctx.state.lock(op_lock(name)):
        agent = load_agents(ctx.state).get(name) or _unrecorded_leftover(ctx, name)
        if agent.adopted:
            return _release(ctx, agent)
        resumed = agent.pending == REMOVING
        force = force or (resumed and agent.force)
        unsaved = unsaved_work(ctx, agent)
        if unsaved and not force:
            raise _refusal(agent, unsaved)
        return _remove_steps(ctx, agent, force=force, resumed=resumed)


def _release(ctx: Context, agent: AgentRecord) -> str:
    """Forget an adopted agent and leave its pane alone: the user started that pane (and
    the agent in it), paw made no worktree for it; `paw stop` first ends it."""
    pane = pane_for(ctx, agent, ctx.terminal.list_panes(None))
    where = pane.pane_id if pane is not None else agent.pane_id
    ctx.record("release", agent=agent.name, pane=where, killed=False,
               reason="adopted: the pane was started outside paw and keeps running")  # fmt: skip
    forget_agent(ctx.state, agent.name)
    release_channel(ctx, agent.name)
    if pane is None:
        return f"stopped supervising {agent.name} (adopted; its pane is already gone)"
    return (
        f"stopped supervising {agent.name}; its pane {pane.pane_id} (started outside paw) "
        f"keeps running: end it there, or `paw stop {agent.name}` before `paw rm` next time"
    )


def _unrecorded_leftover(ctx: Context, name: str) -> AgentRecord:
    """A worktree or branch of ``name`` that paw has no record of (left by an older paw that
    died while spawning): treated as an interrupted spawn so ``paw rm`` can check and remove
    it. PawError when there is neither."""
    worktree, branch = ctx.worktree_path(name), ctx.branch_for(name)
    has_branch = ctx.vcs.branch_exists(ctx.repo_root, branch)
    has_worktree = worktree in ctx.vcs.worktree_paths(ctx.repo_root)
    if not (has_branch or has_worktree):
        raise PawError(f"no agent named {name!r}", hint="`paw ls` lists the agents")
    return AgentRecord(
        name=name, kind="unknown", branch=branch if has_branch else "", worktree=worktree,
        base="", pending=SPAWNING,
    )  # fmt: skip


def _remove_steps(ctx: Context, agent: AgentRecord, *, force: bool, resumed: bool) -> str:
    """The removal proper, every step idempotent; the caller holds the operation lock."""
    name = agent.name
    store_agent(ctx.state, agent.model_copy(update={"pending": REMOVING, "force": force}))
    ctx.record("remove-resumed" if resumed else "remove-started", agent=name, force=force)
    ctx.fault("rm:intent")
    _stop(ctx, agent)
    ctx.fault("rm:stopped")
    # Look again with the agent stopped: it could have written since the first look.
    unsaved = unsaved_work(ctx, agent)
    if unsaved and not force:
        store_agent(ctx.state, agent.model_copy(update={"pending": None, "force": False}))
        ctx.record("remove-refused", agent=name, unsaved=unsaved.parts())
        raise _refusal(agent, unsaved, stopped=True)
    ref, commit = _archive(ctx, agent, unsaved) if unsaved else (None, None)
    ctx.fault("rm:snapshot")
    if unsaved.head is not None or agent.worktree in ctx.vcs.worktree_paths(ctx.repo_root):
        with ctx.state.lock(GIT_LOCK):
            ctx.vcs.remove_worktree(ctx.repo_root, agent.worktree, force=True)
    ctx.fault("rm:worktree")
    if agent.branch and ctx.vcs.branch_exists(ctx.repo_root, agent.branch):
        ctx.vcs.delete_branch(ctx.repo_root, agent.branch, force=True)
    ctx.fault("rm:branch")
    forget_agent(ctx.state, name)
    release_channel(ctx, name)
    ctx.record(
        "remove", agent=name, branch=agent.branch, archive_ref=ref, commit=commit,
        resumed=resumed,
    )  # fmt: skip
    done = f"removed {name}: worktree {agent.worktree}" + (
        f" and branch {agent.branch}" if agent.branch else ""
    )
    if ref is None or commit is None:
        return f"{done} (nothing unsaved: no archive kept)"
    return (
        f"{done}\narchived {', '.join(unsaved.parts())} to {ref} ({commit[:12]}); "
        f"restore with:\n  paw archive restore {ref.removeprefix(ARCHIVE_PREFIX)}"
    )


def _archive(ctx: Context, agent: AgentRecord, unsaved: Unsaved) -> tuple[str, str]:
    """Commit everything unsaved to ``refs/paw/archive/<name>-<time>``; returns (ref, commit).

    The commit's tree is the worktree (tracked, untracked and non-disposable ignored files);
    its parents are HEAD and the branch tip, so every commit of either stays reachable. Its
    message carries what ``paw archive restore`` needs."""
    ref = f"{ARCHIVE_PREFIX}{agent.name}-{int(ctx.clock())}"
    lines = [
        f"paw: archive of {agent.name} before removal",
        "",
        f"paw-agent: {agent.name}",
        f"paw-branch: {agent.branch}",
        f"paw-branch-tip: {unsaved.branch_tip or ''}",
        f"paw-head: {unsaved.head or ''}",
        f"paw-worktree: {agent.worktree}",
        f"paw-base: {agent.base}",
    ]
    message = "\n".join(lines) + "\n"
    if unsaved.head is not None:
        parents = [t for t in unsaved.tips if t != unsaved.head]
        commit = ctx.vcs.snapshot(
            agent.worktree, ref, message, ignored=unsaved.ignored, parents=parents
        )
    elif unsaved.branch_tip is not None:  # the worktree is gone: keep the branch's commits
        commit = unsaved.branch_tip
        ctx.vcs.set_ref(ctx.repo_root, ref, commit)
    else:
        raise PawError(f"nothing left of {agent.name} to archive")
    ctx.record("archive", agent=agent.name, ref=ref, commit=commit, unsaved=unsaved.parts())
    return ref, commit


# -- resume after a crash -----------------------------------------------------------------------


def resume_interrupted(ctx: Context) -> list[str]:
    """Finish or undo every spawn and removal whose process died half-way (its intent is
    recorded and nobody holds its operation lock). Returns one line per operation handled;
    failures are audited and left for ``paw rm NAME``, never raised."""
    done: list[str] = []
    for agent in load_agents(ctx.state).values():
        if agent.pending not in (SPAWNING, REMOVING) or agent.name in ctx.memory.resume_failed:
            continue  # (one failed attempt per process: a sweep loop must not retry forever)
        with ctx.state.try_lock(op_lock(agent.name)) as free:
            if not free:
                continue  # another paw process is working on it right now
            current = load_agents(ctx.state).get(agent.name)
            if current is None or current.pending != agent.pending:
                continue
            try:
                done.append(_resume(ctx, current))
            except PawError as err:
                ctx.memory.resume_failed.add(agent.name)
                ctx.record("resume-failed", agent=agent.name, op=agent.pending, error=err.message)
    return done


def _resume(ctx: Context, agent: AgentRecord) -> str:
    if agent.pending == REMOVING:
        return _remove_steps(ctx, agent, force=agent.force, resumed=True)
    return finish_spawn(ctx, agent)


def finish_spawn(ctx: Context, agent: AgentRecord) -> str:
    """An interrupted spawn: when its tagged pane runs, keep it (record the pane, as ``paw
    adopt`` would); otherwise undo what exists, each step only if git agrees nothing is lost.
    The caller holds the operation lock."""
    pane = pane_for(ctx, agent, ctx.terminal.list_panes(None))
    if pane is not None and not pane.dead:
        store_agent(ctx.state, agent.model_copy(update={"pending": None, "pane_id": pane.pane_id}))
        ctx.record("spawn-resumed", agent=agent.name, pane=pane.pane_id)
        return f"finished the interrupted spawn of {agent.name} (pane {pane.pane_id})"
    if agent.resumed:  # the worktree was there before this spawn: it stays, as it is
        forget_agent(ctx.state, agent.name)
        ctx.record("spawn-undone", agent=agent.name, left=[agent.worktree])
        return f"undid the interrupted spawn of {agent.name} (its worktree stays)"
    unsaved = unsaved_work(ctx, agent)
    if unsaved:  # never undone by itself: keep it as a stopped agent for `paw rm` to decide
        store_agent(ctx.state, agent.model_copy(update={"pending": None}))
        ctx.record("spawn-leftover", agent=agent.name, unsaved=unsaved.parts())
        return f"kept the interrupted spawn of {agent.name}: {', '.join(unsaved.parts())}"
    if unsaved.head is not None or agent.worktree in ctx.vcs.worktree_paths(ctx.repo_root):
        with ctx.state.lock(GIT_LOCK):
            ctx.vcs.remove_worktree(ctx.repo_root, agent.worktree, force=True)
    if agent.branch and ctx.vcs.branch_exists(ctx.repo_root, agent.branch):
        ctx.vcs.delete_branch(ctx.repo_root, agent.branch, force=True)
    forget_agent(ctx.state, agent.name)
    ctx.record("spawn-undone", agent=agent.name)
    return f"undid the interrupted spawn of {agent.name} (nothing had been done in it)"
