"""The wave runner: runs a wave's tasks over the Supervisor, unattended, escalating to humans.

Every step is written to ``.paw/waves/<name>.json`` (and, for anything that reaches an agent, to
the audit) BEFORE it is carried out, so a runner killed at any moment and resumed never starts a
task twice, approves twice or sends a follow-up twice: at worst a step recorded but not carried
out is left for a human. Decisions are :mod:`paw.core.wave`'s; this module observes and hands
each effect to its room: :mod:`.acts` (rule approvals, follow-ups), :mod:`.checks` (checks
beside the sweeps), :mod:`.starts` (starting tasks).
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING

from paw.core.wave import (
    ApproveByRule,
    DueNote,
    FollowUp,
    Notify,
    Phase,
    RunCheck,
    TaskView,
    WaveEnd,
    WaveState,
    audited,
    describe,
    initial_state,
    notify_settings,
    park_early,
    step_checking,
    step_task,
    wave_finished,
    wave_spent,
)
from paw.core.wave_report import wave_message
from paw.errors import PawError
from paw.supervisor.wave.acts import approve_by_rule, follow_up
from paw.supervisor.wave.checks import collect_checks, start_check
from paw.supervisor.wave.outbox import Outbox
from paw.supervisor.wave.report import wave_report
from paw.supervisor.wave.resume import settle_rule_approvals, settle_starting
from paw.supervisor.wave.starts import start_ready, start_task
from paw.supervisor.wave.stopwatch import StopWatch
from paw.supervisor.wave.views import screen_hashes
from paw.supervisor.wave.views import task_view as task_view_of

if TYPE_CHECKING:
    from paw.core.wave import CheckRunner, Effect, NotifySettings, TaskState, WaveFile, WaveTask
    from paw.supervisor.model import AgentView, Snapshot
    from paw.supervisor.records import StateStore
    from paw.supervisor.service import Supervisor
    from paw.supervisor.wave.checks import RunningChecks
    from paw.supervisor.wave.outbox import Notifier


STOP_SUFFIX = ".stop"  # `paw wave stop` writes {"stop": true} to <wave>.stop.json


class WaveRunner:
    """Run one wave: call :meth:`tick` until it returns True (or :meth:`run`)."""

    STARTS_PER_SWEEP = 4  # more tasks start on the next sweeps: prompts are not left unseen

    def __init__(
        self,
        sup: Supervisor,
        wave: WaveFile,
        *,
        file: str,
        sha256: str,
        texts: dict[str, str],
        store: StateStore,
        notifier: Notifier,
        run_check: CheckRunner,
        notify_fallback: NotifySettings | None = None,
        usage_of: Callable[[TaskState], tuple[int | None, float | None]] | None = None,
        end_checks: Callable[[], None] | None = None,
    ) -> None:
        """``texts`` holds each task's text (task files already read); ``store`` keeps
        ``<wave name>.json`` documents; ``usage_of`` reads a task's agent's usage (tokens,
        dollars; None each where unknown) for the token and dollar budgets; ``end_checks``
        kills the checks ``run_check`` still runs (called when :meth:`run` ends)."""
        self.usage_of = usage_of
        self.end_checks = end_checks
        self.sup = sup
        self.ctx = sup.ctx
        self.wave = wave
        self.file = file
        self.sha256 = sha256
        self.texts = texts
        self.store = store
        self.notifier = notifier
        self.run_check = run_check
        self.settings = notify_settings(wave, notify_fallback)
        self.outbox = Outbox(self.ctx, store, wave.name, notifier, self.settings, self.save)
        self.state = self._load_or_start()
        self._outbox_checked = False  # messages a dead runner left undelivered: first tick
        self.checks: RunningChecks = {}  # the checks running beside the sweeps (checks.py)
        self.changed = False  # did the last tick change anything?

    # -- persistence -----------------------------------------------------------------------

    def _load_or_start(self) -> WaveState:
        data = self.store.read(self.wave.name)
        if data is not None:
            state = WaveState.model_validate(data)
            if state.sha256 != self.sha256:
                raise PawError(
                    f"wave {self.wave.name!r} was started from another version of its file "
                    f"(sha256 {state.sha256[:12]}, now {self.sha256[:12]})",
                    hint="restore the file, or give the wave a new name",
                )
            describe(self.wave, state)
            for task in state.tasks:  # a check of a runner that ended is not running
                task.checking_since = None
            self.outbox.load_marks()
            return state
        state = initial_state(self.wave, self.file, self.sha256, self.ctx.clock())
        self.ctx.record("wave-start", wave=self.wave.name, file=self.file, sha256=self.sha256)
        self.store.write(self.wave.name, state.model_dump(mode="json"))
        return state

    def save(self) -> None:
        """Write the state (atomically, fsync'd)."""
        self.changed = True
        self.outbox.drop_delivered_texts(self.state)
        self.store.write(self.wave.name, self.state.model_dump(mode="json"))
        if self.state.due:
            self.ctx.fault("wave:decided")  # decided, its messages owed, none recorded yet

    def put(self, task: TaskState) -> None:
        """Put ``task`` in the state in place of its namesake."""
        self.state.tasks = [task if t.name == task.name else t for t in self.state.tasks]

    def _stop_requested(self) -> bool:
        data = self.store.read(f"{self.wave.name}{STOP_SUFFIX}") or {}
        return bool(data.get("stop"))

    # -- the loop --------------------------------------------------------------------------

    def run(
        self,
        sleep: Callable[[float], None],
        on_tick: Callable[[WaveState], None] | None = None,
        *,
        wake: Callable[[], None] | None = None,
    ) -> WaveState:
        """Tick every ``poll_s`` until the wave finishes or a stop is requested. A tick that a
        hook channel's poke started parks the channel's new requests from the channel-only look
        the supervisor makes first (:meth:`park_early`), before the screen sweep. ``wake`` ends
        the ``sleep`` in progress: given, ``paw wave stop`` ends even an hour's sleep within
        a second (:class:`~paw.supervisor.wave.stopwatch.StopWatch`)."""
        if self.sup.publish_early is None:
            self.sup.publish_early = self.park_early
        watch = StopWatch(self._stop_requested, wake) if wake is not None else None
        if watch is not None:
            watch.start()
        try:
            while True:
                finished = self.tick()
                if on_tick is not None:
                    on_tick(self.state)
                if finished:
                    return self.state
                busy = self.changed or self.checking()
                sleep(self.wave.poll_s if busy else max(self.wave.poll_s, self.wave.idle_poll_s))
        finally:
            if watch is not None:
                watch.close()
            if self.checks and self.end_checks is not None:
                self.end_checks()  # their results would never be read: none is left running
            if self.sup.publish_early == self.park_early:
                self.sup.publish_early = None

    def park_early(self, snap: Snapshot) -> None:
        """The channel-only look's picture (inside a tick's sweep, before its screens are
        captured): a new prompt that needs a human is parked and announced now, without
        waiting for the screen sweep (:func:`paw.core.wave.park_early`: nothing else is
        decided on it, and the tick's own step follows on the screen sweep's picture)."""
        if self.state.status != "running" or not snap.tmux_ok:
            return
        self.outbox.fingerprints = {p.id: p.prompt.fingerprint for p in snap.prompts}
        now = self.ctx.clock()
        views = {v.name: v for v in snap.agents}
        parked = False
        for task in list(self.state.tasks):
            view = views.get(task.agent)
            if task.phase is not Phase.RUNNING or view is None:
                continue
            step = park_early(self.wave, task, task_view_of(task, view, snap, {}))
            if step.task != task:
                self.put(step.task)
                self.owe([e for e in step.effects if isinstance(e, Notify)])
                self.save()  # parked, and its message owed, in one write
                parked = True
        if parked:
            self.announce(now)
            self.outbox.update_badge(self.waiting())

    def tick(self) -> bool:
        """One sweep: observe, decide, act (recording first). True when the wave has ended."""
        self.changed = False
        if not self._outbox_checked:  # what a dead runner left undelivered leaves first (its
            self._outbox_checked = True  # wave's own end message too)
            self.outbox.resend_undelivered(self.state)
        if self.state.status != "running":
            return True
        if self.state.ending is not None and self._resume_end(self.state.ending):
            return True
        if self._stop_requested():
            return self._end("stopped", "wave-stopped")
        snap = self.sup.poll_once()
        if not snap.tmux_ok:
            return False  # tmux unreachable: decide nothing on a blind sweep
        self.outbox.fingerprints = {p.id: p.prompt.fingerprint for p in snap.prompts}
        now = self.ctx.clock()
        settle_starting(self)
        settle_rule_approvals(self, now)
        collect_checks(self, now)
        views = {v.name: v for v in snap.agents}
        hashes = screen_hashes(self.ctx.terminal, self.state.tasks, views)
        for task in list(self.state.tasks):
            if task.phase is not Phase.RUNNING:
                continue
            view = views.get(task.agent)
            self._step(task, view, snap, hashes, now)
        self.announce(now)  # what the sweep found (and a dead runner owed) leaves first
        start_ready(self, now, self.STARTS_PER_SWEEP)
        self.announce(now)
        self.outbox.update_badge(self.waiting())
        if wave_finished(self.state):
            failed = any(t.phase is Phase.FAILED for t in self.state.tasks)
            return self._end(
                "failed" if failed else "done", "wave-failed" if failed else "wave-done"
            )
        return False

    def owe(self, notes: list[Notify]) -> None:
        """Owe the messages of a decision: they are saved with it (the caller's next write)
        and leave with :meth:`announce` (record, then act: a runner killed in between
        announces them on resume, once)."""
        self.state.due += [
            DueNote(event=n.event, task=n.task, prompt_id=n.prompt_id) for n in notes
        ]

    def announce(self, now: float) -> None:
        """Record every owed message in the outbox, in the write that drops them from the owed
        list, then hand them to the channels."""
        if not self.state.due:
            return
        notes = [Notify(d.event, d.task, d.prompt_id) for d in self.state.due]
        self.state.due = []
        if not self.outbox.notify(self.state, notes, now):
            self.save()  # none composed (the prompt is gone): no longer owed

    def _end(self, status: str, event: str) -> bool:
        """End the run, its ``wave-end`` recorded exactly once whatever line a kill hits: the
        end is saved first (:class:`~paw.core.wave.WaveEnd`), then recorded, then written as
        the wave's status with its message (one write, the outbox's)."""
        now = self.ctx.clock()
        self.announce(now)  # what a dead runner owed leaves before the end
        ending = WaveEnd(
            id=f"{self.wave.name}-end-{secrets.token_hex(6)}", status=status, event=event, at=now
        )
        self.state.ending = ending
        self.save()
        self.ctx.fault("wave:ending")
        self.ctx.record("wave-end", wave=self.wave.name, status=status, end=ending.id)
        self.ctx.fault("wave:end-recorded")
        return self._ended(ending)

    def _resume_end(self, ending: WaveEnd) -> bool:
        """A runner killed while ending: recorded, the end stands (finished here, not recorded
        again); never recorded, nothing was said, and this run decides anew (True: it ended)."""
        if ending.id in audited(self.ctx.audit.read(), "wave-end", self.wave.name, "end"):
            return self._ended(ending)
        self.state.ending = None
        self.save()
        return False

    def _ended(self, ending: WaveEnd) -> bool:
        self.state.status, self.state.ended_at = ending.status, ending.at
        self.state.ending = None
        # ended and its message recorded in one write (the outbox's)
        message = wave_message(
            ending.event, self.state, repo=self.ctx.repo_root, host=self.ctx.where
        )
        self.outbox.send(self.state, [message])
        self.outbox.update_badge(0)
        return True

    def _step(
        self,
        task: TaskState,
        view: AgentView | None,
        snap: Snapshot,
        screens: dict[str, str],
        now: float,
    ) -> None:
        spec = self.wave.task(task.name)
        task_view = task_view_of(task, view, snap, screens)
        if self.usage_of is not None and _spend_budget(self.wave, spec):
            tokens, usd = self.usage_of(task)
            spent = wave_spent(self.wave, self.state)
            over = spent[1] if spent is not None and spent[0] >= 1.0 else None
            task_view = dataclasses.replace(task_view, tokens=tokens, usd=usd, wave_over=over)
        if task.name in self.checks:  # its check runs: only its prompts are parked meanwhile
            step = step_checking(self.wave, task, task_view, now)
        else:
            step = step_task(self.wave, spec, task, task_view, now)
        self.owe([e for e in step.effects if isinstance(e, Notify)])
        if step.task != task:
            self.put(step.task)
            self.save()  # prompts routed, stuck flag, outcome, their messages: before any effect
        for effect in step.effects:
            self.apply(effect, task_view, now)

    def apply(self, effect: Effect, view: TaskView, now: float) -> None:
        """Carry out an effect a decision asked for (its messages are owed with it)."""
        if isinstance(effect, Notify):
            return  # owed with its decision
        if isinstance(effect, ApproveByRule):
            self.approve_by_rule(effect, now)
        elif isinstance(effect, RunCheck):
            start_check(self, effect.task, view, now)
        elif isinstance(effect, FollowUp):
            follow_up(self, effect, view, now)
        else:
            start_task(self, effect.task, now)

    def approve_by_rule(self, effect: ApproveByRule, now: float) -> None:
        """Approve a prompt by a standing rule (:func:`paw.supervisor.wave.acts.approve_by_rule`:
        recorded first, never tried twice; refused, a human decides)."""
        approve_by_rule(self, effect, now)

    def checking(self) -> bool:
        """True while a check runs."""
        return bool(self.checks)

    def waiting(self) -> int:
        """Prompts parked for a human right now."""
        return sum(1 for t in self.state.tasks for p in t.prompts if p.live and p.route == "human")

    def report(self) -> dict[str, object]:
        """The report data (see :func:`paw.core.wave_report.report_data`)."""
        return wave_report(self.state, self.ctx.audit.read(), self.ctx.clock())


def _spend_budget(wave: WaveFile, spec: WaveTask) -> bool:
    """The task has a token or dollar budget (its agent's usage is read only then)."""
    return any(
        b is not None
        for b in (spec.budget_tokens, spec.budget_usd, wave.task_budget_tokens,
                  wave.task_budget_usd, wave.budget_tokens, wave.budget_usd)
    )  # fmt: skip
