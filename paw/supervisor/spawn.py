"""Spawn: a worktree, a tagged pane and the agent in it (adopting an existing agent pane is
:mod:`paw.supervisor.adopt`)."""

from __future__ import annotations

import posixpath
import secrets
import shlex
from dataclasses import dataclass
from typing import TYPE_CHECKING

from paw.core.agents import (
    TaskError,
    plan_launch,
)
from paw.core.names import name_problem
from paw.core.occurrence import ProcIdentity
from paw.core.startup import Look, StartupOutcome, StartupState, StartupWatch, dead_status
from paw.core.verified import version_drift
from paw.errors import PawError, TypingRefused
from paw.supervisor.channels import unwired_note, wire_channel
from paw.supervisor.context import TAG_AGENT, TAG_KIND, TAG_REPO, TAG_TOKEN
from paw.supervisor.keyboard import type_text
from paw.supervisor.observe import agent_process, detect_text
from paw.supervisor.preflight import check_spawn
from paw.supervisor.records import (
    GIT_LOCK,
    SPAWNING,
    AgentRecord,
    add_new_agent,
    forget_agent,
    load_agents,
    op_lock,
    store_agent,
    update_agents,
)
from paw.supervisor.usage_log import usage_logged
from paw.supervisor.waiting import poll

if TYPE_CHECKING:
    from collections.abc import Sequence

    from paw.core.ports import PaneInfo
    from paw.supervisor.context import Context

READY_INTERVAL_S = 0.1  # how often the start-up watch looks at a new pane


def check_new_name(ctx: Context, name: str) -> None:
    """Raise PawError unless ``name`` is a valid, unused agent name."""
    problem = name_problem(name)
    if problem is not None:
        raise PawError(problem)
    if name in load_agents(ctx.state):
        raise PawError(f"an agent named {name!r} already exists", hint="pick another name")


def spawn(
    ctx: Context,
    name: str,
    kind: str,
    task: str | None,
    base: str | None = None,
    *,
    resume: bool = False,
) -> AgentRecord:
    """Create agent ``name``: a worktree on a new branch, a tagged pane, the agent in it.
    ``resume``: the agent's worktree exists already (``paw archive restore`` put it back):
    start the agent in it, on whatever it has checked out, and create no worktree or branch."""
    check_new_name(ctx, name)
    profile = ctx.profile(kind)
    base_ref = base or ctx.config.worktrees.base
    if base_ref == "HEAD":
        base_ref = ctx.vcs.current_branch(ctx.repo_root)
    worktree, branch = ctx.worktree_path(name), ctx.branch_for(name)
    _require_program(ctx, kind, plan_launch(profile, None, ctx.python).argv[0])
    try:
        launch = plan_launch(profile, task, ctx.python)
    except TaskError as err:
        raise PawError(str(err)) from err
    if resume:
        branch = _resumable(ctx, name, worktree)
    else:
        check_spawn(ctx, name, worktree, branch, base_ref)
    # tmux first: when it is missing or unreachable, nothing has been created yet.
    ctx.terminal.ensure_session(ctx.session, ctx.repo_root)
    record = AgentRecord(
        name=name, kind=kind, branch=branch, worktree=worktree, base=base_ref,
        task=task, created_at=ctx.clock(), token=secrets.token_hex(8), pending=SPAWNING,
        resumed=resume,
    )  # fmt: skip
    # The intent record comes first, under the agent's operation lock: if paw dies at any
    # later step, the next paw command finds it and finishes or undoes the spawn.
    with ctx.state.lock(op_lock(name)):
        if not add_new_agent(ctx.state, record):
            raise PawError(f"an agent named {name!r} already exists", hint="pick another name")
        ctx.fault("spawn:intent")
        try:
            if not resume:
                with ctx.state.lock(GIT_LOCK):
                    ctx.vcs.add_worktree(ctx.repo_root, worktree, branch, base_ref)
        except PawError:
            forget_agent(ctx.state, name)
            raise
        ctx.record("spawn", agent=name, kind=kind, branch=branch, worktree=worktree, base=base_ref,
                   resumed=resume)  # fmt: skip
        ctx.fault("spawn:worktree")
        wired = wire_channel(
            ctx, record, usage_logged(ctx, record, profile, launch.argv, launch.env)
        )
        try:
            pane = ctx.terminal.new_pane(
                ctx.session, worktree, wired.argv, {**launch.env, **wired.env},
                {TAG_AGENT: name, TAG_KIND: kind, TAG_REPO: ctx.repo_id,
                 TAG_TOKEN: record.token or ""},
            )  # fmt: skip
        except PawError as err:
            raise _undo_spawn(ctx, record, err) from err
        ctx.fault("spawn:pane")
        record = record.model_copy(
            update={
                "pane_id": pane.pane_id,
                "server": pane.server or None,
                "launched": _launched(ctx, pane),
                "pending": None,
            }
        )
        store_agent(ctx.state, record)
        ctx.fault("spawn:recorded")
    return record


def _resumable(ctx: Context, name: str, worktree: str) -> str:
    """The branch checked out in ``name``'s existing worktree ("" when HEAD is detached);
    PawError when paw made no worktree there or git does not list it."""
    ctx.state.check_writable()
    if worktree not in ctx.vcs.worktree_paths(ctx.repo_root):
        raise PawError(
            f"no worktree of {name!r} to resume at {worktree}",
            hint=(
                "`paw archive restore ID` puts an archive back there (without --to); "
                "without --resume, spawn starts a new worktree"
            ),
        )
    head = ctx.vcs.current_branch(worktree)
    return head if ctx.vcs.branch_exists(ctx.repo_root, head) else ""


def _launched(ctx: Context, pane: PaneInfo) -> ProcIdentity:
    """The process paw launched: the pane's process (tmux execs the agent's argv in place).
    Its start time is read now, or (when it is not readable yet) at the first sweep."""
    root = ctx.procs.tree(pane.pane_pid)[:1]
    if root and root[0].pid == pane.pane_pid:
        return ProcIdentity(pid=pane.pane_pid, create_time=root[0].create_time)
    return ProcIdentity(pid=pane.pane_pid, create_time=0.0)


def _require_program(ctx: Context, kind: str, program: str) -> None:
    """Refuse before creating anything when the agent's program is not on PATH: the pane would
    only show a shell's "not found" and the agent would be listed as exited."""
    if ctx.which is None or ctx.which(program) is not None:
        return
    if "/" in program and not program.startswith("/"):
        return  # relative to the new worktree, where the pane starts: not checkable from here
    raise PawError(
        f"{kind}: {program} is not installed (no `{program}` on PATH)",
        hint=(
            "install it (`paw doctor` lists the agent CLIs and their verified versions), "
            f"or set `command` under [agents.{kind}] in paw.toml"
        ),
    )


def _undo_spawn(ctx: Context, record: AgentRecord, err: PawError) -> PawError:
    """No pane, so no agent ever ran in the new worktree: take back the worktree, the branch
    and the record, each only if git agrees nothing is lost (no force), and say what stayed."""
    left: list[str] = []
    hint = err.hint or "nothing was left behind; fix the problem and spawn again"
    if record.resumed:  # the worktree was there before: it stays, only the record goes
        forget_agent(ctx.state, record.name)
        ctx.record("spawn-failed", agent=record.name, error=err.message, left=[record.worktree])
        hint = err.hint or f"the worktree {record.worktree} stays as it was"
        return PawError(f"cannot start {record.name}: {err.message}", hint=hint)
    try:
        ctx.vcs.remove_worktree(ctx.repo_root, record.worktree)
    except PawError:
        left.append(f"worktree {record.worktree}")
        hint = f"the worktree stays: `paw rm {record.name}` removes it once checked"
    else:
        forget_agent(ctx.state, record.name)
        try:
            ctx.vcs.delete_branch(ctx.repo_root, record.branch)
        except PawError:
            left.append(f"branch {record.branch}")
            hint = (
                f"branch {record.branch} stays (git would not delete it): "
                f"`git branch -D {record.branch}` once you know it holds nothing"
            )
    ctx.record("spawn-failed", agent=record.name, error=err.message, left=left)
    return PawError(f"cannot start {record.name}: {err.message}", hint=hint)


@dataclass(frozen=True, slots=True)
class Startup:
    """How a new agent came up: the watch's outcome, whether its task was typed (None: no task
    to type), and notes for the user (e.g. paw does not recognise its process)."""

    outcome: StartupOutcome
    task_typed: bool | None = None
    waited_s: float = 0.0
    notes: tuple[str, ...] = ()


def start_up(ctx: Context, record: AgentRecord, timeout_s: float | None = None) -> Startup:
    """Watch the new agent's pane until it is up, on the wall clock, for up to ``timeout_s``
    (default: its profile's ``startup_timeout_s``); type a ``stdin-typed`` task once it shows
    its input, never into anything else.

    Raises PawError when the agent died on start (with its exit status and last lines), and
    when a typed task could not be typed because the agent was still busy starting. A
    start-up dialog or an unrecognised screen is returned as ``waiting`` (it waits for you).
    """
    profile = ctx.profile(record.kind)
    launch = plan_launch(profile, record.task, ctx.python)
    budget = timeout_s if timeout_s is not None else profile.startup_timeout_s
    watch = StartupWatch(
        typed=launch.typed_task is not None,
        has_detector=profile.has_detector,
        ready_pattern=profile.ready_pattern,
    )
    started = ctx.clock()
    last: list[tuple[Look, PaneInfo | None]] = []

    def look() -> StartupOutcome | None:
        seen = _look(ctx, record)
        last[:] = [seen]
        return watch.look(seen[0])

    outcome = poll(ctx, budget, READY_INTERVAL_S, look)
    waited = ctx.clock() - started
    if outcome is None:
        outcome = watch.give_up(last[0][0] if last else None, waited)
    pane = last[0][1] if last else None
    ctx.record(
        "startup", agent=record.name, state=outcome.state.value, detail=outcome.detail,
        waited_s=round(waited, 2), exit_status=outcome.exit_status,
    )  # fmt: skip
    if outcome.state is StartupState.DIED:
        raise _died(record, outcome, launch.argv)
    typed: bool | None = None
    if launch.typed_task is not None:
        typed = outcome.state is StartupState.READY and pane is not None
        if outcome.state is StartupState.STARTING:
            raise PawError(
                f"agent {record.name!r} was still starting after {waited:.0f}s "
                "(busy); its task was not typed",
                hint=(
                    f"type it once it is ready: paw send {record.name} TEXT; give it longer "
                    f"next time with `paw spawn --startup-timeout SECONDS` or "
                    f"startup_timeout_s under [agents.{record.kind}] in paw.toml"
                ),
            )
        if typed and pane is not None:
            _type_task(ctx, record, launch.typed_task)
    notes = _process_note(ctx, record, pane) + _version_note(ctx, record)
    notes += unwired_note(ctx, record)
    return Startup(outcome, typed, round(waited, 2), notes)


def _type_task(ctx: Context, record: AgentRecord, task: str) -> None:
    """Type a ``stdin-typed`` task, as one line, by the one typing path (its proof and its
    refusals: see :mod:`paw.supervisor.keyboard`)."""
    try:
        type_text(ctx, record, task, via="task")
    except TypingRefused as err:
        raise TypingRefused(
            f"agent {record.name!r} is up, but its task was not typed: {err.message}",
            reason=err.reason,
            hint=f"{err.hint}; then `paw send {record.name} TEXT`" if err.hint else None,
            typed=err.typed,
        ) from err


def _look(ctx: Context, record: AgentRecord) -> tuple[Look, PaneInfo | None]:
    pane_id = record.pane_id or ""
    survey = ctx.terminal.survey([pane_id])
    pane = next((p for p in survey.panes if p.pane_id == pane_id), None)
    text = survey.captures[0].text if survey.captures and pane is not None else None
    detection = detect_text(ctx, record, text)
    dead = pane is None or pane.dead
    wait_status = None
    if pane is not None and pane.dead and dead_status(text) == (None, None):
        wait_status = ctx.procs.exit_status(pane.pane_pid)  # tmux may never report it
    return Look(ctx.clock(), text, dead, detection, wait_status), pane


_STATUS_MEANING = {126: "not executable", 127: "not found"}


def _died(record: AgentRecord, outcome: StartupOutcome, argv: Sequence[str]) -> PawError:
    meaning = _STATUS_MEANING.get(outcome.exit_status or 0)
    how = f"{outcome.detail} ({meaning})" if meaning else outcome.detail
    lines = "".join(f"\n  | {line}" for line in outcome.screen) or "\n  (its screen was empty)"
    task_note = (
        ' (the task is passed as the last argument: task_mode = "argv")'
        if record.task and argv and argv[-1].endswith(record.task)
        else ""
    )
    cause = _likely_cause(record, argv, outcome.exit_status)
    return PawError(
        f"agent {record.name!r} ({record.kind}) died on start: {how}; its last lines:{lines}",
        hint=(
            f"{cause}it ran: {shlex.join(argv)} in {record.worktree}{task_note}; `paw ls` "
            f"lists it as exited, `paw rm {record.name}` removes its worktree and branch"
        ),
    )


def _likely_cause(record: AgentRecord, argv: Sequence[str], status: int | None) -> str:
    """The likely cause when the command names a file relative to the worktree: the pane
    starts in a new worktree, which holds only what is committed (an uncommitted script of
    the main checkout is not there). "" when nothing points to it."""
    relative = [
        word
        for at, word in enumerate(argv)
        if word.startswith(("./", "../")) or (at == 0 and "/" in word and word[:1] != "/")
    ]
    if not relative or status in (0, None):
        return ""
    file = relative[0]
    return (
        f"likely cause: {file} is not in the agent's worktree (a new worktree holds only "
        f"committed files: commit it, or give its absolute path in [agents.{record.kind}] "
        "command in paw.toml); "
    )


def _version_note(ctx: Context, record: AgentRecord) -> tuple[str, ...]:
    """A note when the agent's program is not the version paw's detection was verified with
    (its dialogs may then be missed or misread); the version read is kept on its record, for
    `paw ls` and the TUI to say so too."""
    from paw.core.detect.registry import spec_for

    spec = spec_for(record.kind)
    if ctx.agent_version is None or spec is None or spec.version is None:
        return ()
    argv = plan_launch(ctx.profile(record.kind), None, ctx.python).argv
    names = {spec.binary, *spec.executables, *spec.interpreters}
    if not argv or not any(posixpath.basename(argv[0]).startswith(n) for n in names):
        return ()  # a wrapper of its own: asking it for --version may start it (doctor can)
    version = ctx.agent_version(argv, spec.interpreters) or ""
    update_agents(ctx.state, {record.name: {"version": version}})
    note = version_drift(record.kind, version or None, spec.version)
    return (f"{record.name} {note}",) if note else ()


def _process_note(ctx: Context, record: AgentRecord, pane: PaneInfo | None) -> tuple[str, ...]:
    """A note when the pane lives but paw does not recognise the agent's process in it (it
    would be listed as exited and its prompts ignored)."""
    if pane is None or pane.dead or agent_process(ctx, record, pane) is not None:
        return ()
    procs = ctx.procs.tree(pane.pane_pid)
    running = "; ".join(" ".join(p.cmdline) or p.name for p in procs) or "no process"
    note = (
        f"paw does not recognise {record.kind}'s process in its pane ({running}): "
        f"`paw ls` shows it as exited; set [agents.{record.kind}.match] in paw.toml "
        "(docs/configuration.md)"
    )
    return (note,)
