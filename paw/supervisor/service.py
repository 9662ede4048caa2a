"""The Supervisor: paw's one service object, implementing :class:`SupervisorApi` over ports.

It holds no state of its own beyond caches: agents live in ``.paw/agents.json``, prompts seen
in ``.paw/prompts.json``, decisions in ``.paw/audit.jsonl``, everything else in tmux and git.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from paw.core.ports import ChannelWatch
from paw.errors import PawError
from paw.supervisor import adopt, cleanup, spawn, sweep
from paw.supervisor.context import Actor, Context, SweepSettings
from paw.supervisor.keyboard import type_text
from paw.supervisor.observe import explain, locate, pane_for
from paw.supervisor.stats import compute_stats

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from paw.core.approval import ShellEvaluator
    from paw.core.config import GuardConfig, PawConfig
    from paw.core.models import Verdict
    from paw.core.ports import AuditLog, ChannelHub, PaneInfo, ProcessInspector, Terminal
    from paw.supervisor.context import BranchVcs, Detector, GitDetails
    from paw.supervisor.model import AgentView, Decision, Snapshot
    from paw.supervisor.records import AgentRecord, StateStore
    from paw.supervisor.spawn import Startup


class Supervisor:
    """Spawn, sweep, approve and clean up agents of one repository."""

    def __init__(
        self,
        config: PawConfig,
        repo_root: str,
        terminal: Terminal,
        vcs: BranchVcs,
        procs: ProcessInspector,
        audit: AuditLog,
        state: StateStore,
        clock: Callable[[], float],
        *,
        detector: Detector | None = None,
        shell: ShellEvaluator | None = None,
        python: str = "python3",
        actor: Actor | None = None,
        sleep: Callable[[float], None] | None = None,
        git_details: GitDetails | None = None,
        which: Callable[[str], str | None] | None = None,
        fault: Callable[[str], None] | None = None,
        host: str | None = None,
        machine: str | None = None,
        own_procs: ProcessInspector | None = None,
        settings: SweepSettings | None = None,
        resolve_path: Callable[[str], str | None] | None = None,
        channels: ChannelHub | None = None,
        agent_version: Callable[[Sequence[str], Sequence[str]], str | None] | None = None,
        usage_log: Callable[[str, str, Mapping[str, str]], str | None] | None = None,
    ) -> None:
        """Wire the ports; nothing runs until a method is called. ``host``: the host the
        agents run on (``procs`` reads it; ``own_procs`` this machine); ``machine``: this
        machine's name (messages name it beside the repository); ``settings``: how the sweeps
        work; ``usage_log``: where an agent's aider logs its usage for paw (see
        :attr:`Context.usage_log`)."""
        self.ctx = Context(
            config=config,
            repo_root=repo_root,
            terminal=terminal,
            vcs=vcs,
            procs=procs,
            audit=audit,
            state=state,
            clock=clock,
            detector=detector or default_detector(),
            shell=shell or default_shell_evaluator(worktrees=agent_worktrees(state)),
            python=python,
            actor=actor or Actor(),
            sleep=sleep or (lambda _s: None),
            git_details=git_details,
            which=which,
            fault=fault or (lambda _step: None),
            host=host,
            machine=machine,
            own_procs=own_procs,
            settings=settings or SweepSettings(),
            resolve_path=resolve_path,
            channels=channels,
            agent_version=agent_version,
            usage_log=usage_log,
        )
        # Where :meth:`poll_once` sweeps instead of here (the TUI's sweeper process): the
        # picture, or None when it cannot give one (this process then sweeps itself).
        self.sweep_elsewhere: Callable[[], Snapshot | None] | None = None
        # Given, before a sweep that a hook channel's poke asked for, the picture with the
        # channels' new requests listed (:func:`paw.supervisor.sweep.channel_sweep`: nothing
        # captured); None: the sweep alone lists them. ``poked``: a poke came since the last
        # sweep began (see :meth:`listen_counts`).
        self.publish_early: Callable[[Snapshot], None] | None = None
        self.poked = False
        self.channel_looks = 0  # early pictures published so far
        self.sweeps = 0  # screen sweeps made here so far

    @property
    def session(self) -> str:
        """paw's tmux session for this repository."""
        return self.ctx.session

    def listen_counts(self, listener: Callable[[], None] | None) -> None:
        """Tell ``listener`` when a worktree count made beside the sweeps changed what an
        agent's view shows (the sweep after it shows it), and when an agent's hook channel
        says a request landed or ended (a poke: the sweep after it reads the channel; see
        :class:`~paw.core.ports.ChannelWatch`). Every long-running loop that sweeps listens
        here; None stops both."""
        self.ctx.memory.on_counted = listener
        channels: object = self.ctx.channels  # (a hub that may also watch)
        if isinstance(channels, ChannelWatch):
            channels.listen(None if listener is None else partial(self._poked, listener))

    def _poked(self, listener: Callable[[], None]) -> None:
        """A hook channel's poke: the next sweep first lists the channels' new requests
        (:meth:`poll_once`), then sweeps the screens."""
        self.poked = True
        listener()

    def open_pane(self, argv: Sequence[str], env: Mapping[str, str]) -> PaneInfo:
        """Start ``argv`` in a new untagged pane of paw's session (made when missing), in the
        repository's root: a process of paw's own (a detached wave runner), not an agent."""
        self.ctx.terminal.ensure_session(self.session, self.ctx.repo_root)
        return self.ctx.terminal.new_pane(self.session, self.ctx.repo_root, argv, env, {})

    # -- SupervisorApi -------------------------------------------------------------------------

    def poll_once(self, *, publish: Callable[[Snapshot], None] | None = None) -> Snapshot:
        """Sweep every supervised pane once (one batched tmux call) and return the picture.

        First finishes or undoes spawns and removals whose paw process died half-way. With
        ``sweep_elsewhere`` set, the sweep is made there (it does the same), and here only
        when it gives no picture. ``publish`` may be given the picture before the sweep's
        bookkeeping is written (see :func:`paw.supervisor.sweep.poll_once`). After a hook
        channel's poke, ``publish_early`` (when set) is first given the picture of a
        channel-only look (:mod:`paw.supervisor.sweep.channel_only`)."""
        elsewhere = self.sweep_elsewhere
        if elsewhere is not None:
            snapshot = elsewhere()
            if snapshot is not None:
                return snapshot
        cleanup.resume_interrupted(self.ctx)
        poked, self.poked = self.poked, False
        early = self.publish_early
        if poked and early is not None:
            looked = sweep.channel_sweep(self.ctx)
            if looked is not None:  # listed at once; the screen sweep below cross-checks it
                self.channel_looks += 1
                early(looked)
        self.sweeps += 1
        return sweep.poll_once(self.ctx, publish=publish)

    def approve(
        self,
        prompt_id: str,
        *,
        always: bool = False,
        confirmed: bool = False,
        override: str | None = None,
        actor: Actor | None = None,
    ) -> Decision:
        """Re-verify, record, then send the approve keys of a live prompt. ``actor``: who
        decides, when not this supervisor's actor (a wave's rule, on its user's behalf)."""
        from paw.supervisor import approve as approve_mod  # with the guard: not for `paw ls`

        ctx = self.ctx if actor is None else replace(self.ctx, actor=actor)
        return approve_mod.approve(
            ctx, prompt_id, always=always, confirmed=confirmed, override=override
        )

    def deny(self, prompt_id: str) -> Decision:
        """Re-verify, record, then send the deny keys of a live prompt."""
        from paw.supervisor import approve as approve_mod

        return approve_mod.deny(self.ctx, prompt_id)

    def capture_ansi(self, agent: str) -> str:
        """The agent pane's visible screen with colours ("" when the pane is gone)."""
        record = cleanup.get_agent(self.ctx, agent)
        if not record.pane_id:
            return ""
        # One tmux call: list (to prove the pane is still this agent's) and capture.
        survey = self.ctx.terminal.survey([record.pane_id], ansi=True)
        pane = pane_for(self.ctx, record, survey.panes)
        if pane is None or pane.dead:
            return ""
        if pane.pane_id != record.pane_id:
            captures = self.ctx.terminal.sweep([pane.pane_id], ansi=True)
            return (captures[0].text or "") if captures else ""
        return (survey.captures[0].text or "") if survey.captures else ""

    def diff(self, agent: str) -> str:
        """``git diff`` of the agent's worktree against its base."""
        record = cleanup.get_agent(self.ctx, agent)
        return self.ctx.vcs.diff(record.worktree, record.base or "HEAD")

    def audit_tail(self, n: int) -> list[dict[str, object]]:
        """The last ``n`` audit records."""
        tail = getattr(self.ctx.audit, "tail", None)  # the JSONL log reads only its end
        if callable(tail):
            records: list[dict[str, object]] = tail(n)
            return records
        records = self.ctx.audit.read()
        return records[-n:] if n > 0 else []

    def spawn(self, name: str, kind: str, task: str | None, base: str | None = None) -> AgentView:
        """Create a worktree and a pane and launch the agent; return once it is up.

        Raises PawError when it died on start, or when its typed task could not be typed
        (a start-up dialog waits for the human): :meth:`spawn_agent` says more."""
        view, startup = self.spawn_agent(name, kind, task, base)
        if startup.task_typed is False:
            raise PawError(
                f"agent {name!r} is waiting for you: {startup.outcome.detail}; "
                "its task was not typed",
                hint=f"answer it (`paw attach {name}`), then `paw send {name} TEXT`",
            )
        return view

    def spawn_agent(
        self,
        name: str,
        kind: str,
        task: str | None,
        base: str | None = None,
        *,
        startup_timeout_s: float | None = None,
        host: str | None = None,
        resume: bool = False,
    ) -> tuple[AgentView, Startup]:
        """:meth:`spawn`, plus how the agent came up (ready, or waiting for you with what its
        screen shows). Raises PawError when it died on start or stayed busy starting with a
        task to type. ``resume``: in the agent's existing worktree (see ``spawn.spawn``).
        ``host``: None or ``local`` (this machine is the only one)."""
        if host not in (None, "local"):
            raise PawError(f"no host named {host!r} (add one with `paw host add`)")
        cleanup.resume_interrupted(self.ctx)  # a spawn of this name that died is undone first
        record = spawn.spawn(self.ctx, name, kind, task, base, resume=resume)
        startup = spawn.start_up(self.ctx, record, startup_timeout_s)
        return self._view(record.name), startup

    def send(self, agent: str, text: str, *, via: str = "send") -> None:
        """Type ``text`` into the agent's input and press Enter.

        Only into an agent that a fresh capture shows idle or busy at an EMPTY input line,
        proven again before the Enter; line breaks are folded into spaces. Anything else (a
        prompt, a dialog, a screen or an input paw cannot read, a line someone is typing, an
        echo that never shows) raises :class:`~paw.errors.TypingRefused`, recorded, with a
        ``reason`` code (see :mod:`paw.supervisor.keyboard`). Use approve/deny for prompts.
        ``via`` names the caller in the audit (``send``; a wave's ``followup``).
        """
        cleanup.get_agent(self.ctx, agent)
        cleanup.resume_interrupted(self.ctx)
        record = cleanup.get_agent(self.ctx, agent)
        type_text(self.ctx, record, text, via=via)

    def stop(self, agent: str) -> None:
        """End the agent and its pane; keep the work."""
        cleanup.stop(self.ctx, agent)

    def remove(self, agent: str, *, force: bool = False) -> str:
        """Remove worktree and branch (refuses unsaved work unless forced, then snapshots)."""
        return cleanup.remove(self.ctx, agent, force=force)

    # -- beyond the API ------------------------------------------------------------------------

    def adopt(self, pane_id: str, *, name: str | None = None, kind: str | None = None) -> AgentView:
        """Supervise an existing agent pane started outside paw."""
        record = adopt.adopt(self.ctx, pane_id, name, kind)
        return self._view(record.name)

    def ls(self) -> tuple[AgentView, ...]:
        """Every agent as of one fresh sweep."""
        return self.poll_once().agents

    def agent(self, name: str) -> AgentRecord:
        """The persisted record of agent ``name``."""
        return cleanup.get_agent(self.ctx, name)

    def attach_argv(self, agent: str) -> list[str]:
        """The argv that attaches the user's terminal to the agent's pane."""
        pane = self._pane_id(agent)
        if pane is None:
            raise PawError(f"agent {agent!r} has no pane", hint="it was stopped or exited")
        return self.ctx.terminal.attach_argv(pane)

    def close(self) -> None:
        """Release the terminal's long-lived connections (tmux and the agents keep running)
        and stop starting worktree counts (one running finishes on its own)."""
        counter, self.ctx.memory.counter = self.ctx.memory.counter, None
        if counter is not None:
            counter.shutdown(wait=False, cancel_futures=True)
        channels: object = self.ctx.channels  # (a hub that may also watch)
        if isinstance(channels, ChannelWatch):
            channels.listen(None)  # (its FIFO goes with it)
        self.ctx.terminal.close()

    def stats(self) -> dict[str, dict[str, int]]:
        """Per-agent and overall counts from the audit log."""
        return compute_stats(self.ctx.audit.read())

    def hosts(self) -> tuple[str, ...]:
        """No hosts: this machine only (a :class:`~paw.supervisor.fleet.Fleet` has them)."""
        return ()

    def unreachable(self) -> dict[str, str]:
        """No host to be out of reach."""
        return {}

    def proof(self, name: str) -> dict[str, object]:
        """Why agent ``name``'s process is proven to run now, or is not: the pane's process
        tree as paw reads it and what matched (:func:`paw.supervisor.observe.explain`; for
        diagnosing, it decides nothing)."""
        record = cleanup.get_agent(self.ctx, name)
        pane, problem = locate(self.ctx, record, self.ctx.terminal.list_panes(None))
        return explain(self.ctx, record, pane, problem)

    def _view(self, name: str) -> AgentView:
        """Agent ``name`` as one sweep of that agent alone sees it (the others are neither
        captured nor judged: a spawn or a send costs the same with 200 agents as with one)."""
        cleanup.get_agent(self.ctx, name)
        cleanup.resume_interrupted(self.ctx)
        for view in sweep.poll_once(self.ctx, only=name).agents:
            if view.name == name:
                return view
        raise PawError(f"no agent named {name!r}")

    def _pane_id(self, agent: str) -> str | None:
        record = cleanup.get_agent(self.ctx, agent)
        pane = pane_for(self.ctx, record, self.ctx.terminal.list_panes(None))
        return pane.pane_id if pane is not None and not pane.dead else None


def default_detector() -> Detector:
    """paw's detector registry: ``paw.core.detect.detect``."""
    from paw.core.detect import detect

    return detect


def default_shell_evaluator(
    resolve: Callable[[str], str | None] | None = None,
    worktrees: Callable[[], Sequence[str]] | None = None,
    home: str | None = None,
) -> ShellEvaluator:
    """The guard's one entry, ``paw.guard.evaluate_command`` (the same function ``paw check``
    calls: ``guard.allowed_dirs`` and every rule apply alike; never raises, unknown is confirm).

    The guard (its rules are many modules of patterns) is imported at the first command it
    judges: a sweep that meets no prompt to judge (`paw ls`) never pays for it. ``resolve``:
    symlinks followed on this machine; ``worktrees``: every agent's worktree
    (:func:`agent_worktrees`), so what lands in another agent's is block; ``home``: the user's
    home directory, so ``~/…`` and ``$HOME/…`` spellings of those worktrees are placed."""

    def evaluate(command: str, cwd: str, config: GuardConfig) -> Verdict:
        from paw.guard import evaluate_command

        others = tuple(worktrees()) if worktrees is not None else ()
        return evaluate_command(command, cwd, config, resolve, others=others, home=home)

    return evaluate


def agent_worktrees(state: StateStore) -> Callable[[], tuple[str, ...]]:
    """Every agent's worktree as the state records it, read afresh at each judgement (an agent
    spawned a moment ago counts): the guard blocks what lands in another agent's worktree and
    leaves the one it judges for out itself (``evaluate_command(..., others=...)``)."""
    from paw.supervisor.records import load_agents

    def read() -> tuple[str, ...]:
        return tuple(a.worktree for a in load_agents(state).values())

    return read
