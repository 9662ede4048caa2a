"""The wave runner: runs a wave's tasks over the Supervisor, unattended, escalating to humans.

Every step is written to ``.paw/waves/<name>.json`` (and, for anything that reaches an agent, to
the audit) BEFORE it is carried out, so a runner killed at any moment and resumed never starts a
task twice, approves twice or sends a follow-up twice: at worst a step recorded but not carried
out is left for a human. Decisions are :mod:`paw.core.wave`'s; this module only observes and acts.
"""

from __future__ import annotations

import dataclasses
import secrets
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from paw.core.output_tail import tail
from paw.core.wave import (
    WARN_AT,
    ApproveByRule,
    CheckResult,
    CheckRun,
    CheckRunner,
    DueNote,
    FollowUp,
    Notify,
    Phase,
    RunCheck,
    TaskView,
    WaveEnd,
    WaveState,
    after_check,
    audited,
    describe,
    followup_refused,
    initial_state,
    notify_settings,
    park_early,
    ready_to_start,
    step_checking,
    step_task,
    wave_finished,
    wave_over_budget,
    wave_spent,
)
from paw.core.wave_report import wave_message
from paw.errors import PawError
from paw.supervisor.context import Actor
from paw.supervisor.model import Outcome
from paw.supervisor.records import load_agents
from paw.supervisor.spawn import spawn as spawn_agent
from paw.supervisor.spawn import start_up
from paw.supervisor.wave.outbox import Outbox
from paw.supervisor.wave.report import wave_report
from paw.supervisor.wave.resume import settle_rule_approvals, settle_starting
from paw.supervisor.wave.stopwatch import StopWatch
from paw.supervisor.wave.views import screen_hashes
from paw.supervisor.wave.views import task_view as task_view_of

if TYPE_CHECKING:
    from paw.core.wave import Effect, NotifySettings, TaskState, WaveFile, WaveTask
    from paw.supervisor.model import AgentView, Snapshot
    from paw.supervisor.records import StateStore
    from paw.supervisor.service import Supervisor
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
        # Checks run beside the sweeps (a test suite may take minutes): task -> the thread's
        # result box (empty until it ends), the view the check started from, its start time.
        self._checks: dict[str, tuple[list[CheckResult], TaskView, float]] = {}
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

    def _put(self, task: TaskState) -> None:
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
            if self._checks and self.end_checks is not None:
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
                self._put(step.task)
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
        self._collect_checks(now)
        views = {v.name: v for v in snap.agents}
        hashes = screen_hashes(self.ctx.terminal, self.state.tasks, views)
        for task in list(self.state.tasks):
            if task.phase is not Phase.RUNNING:
                continue
            view = views.get(task.agent)
            self._step(task, view, snap, hashes, now)
        self.announce(now)  # what the sweep found (and a dead runner owed) leaves first
        self._start_ready(now)
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
        message = wave_message(ending.event, self.state, repo=self.ctx.repo_root)
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
        if task.name in self._checks:  # its check runs: only its prompts are parked meanwhile
            step = step_checking(self.wave, task, task_view, now)
        else:
            step = step_task(self.wave, spec, task, task_view, now)
        self.owe([e for e in step.effects if isinstance(e, Notify)])
        if step.task != task:
            self._put(step.task)
            self.save()  # prompts routed, stuck flag, outcome, their messages: before any effect
        for effect in step.effects:
            self._apply(effect, task_view, now)

    def _apply(self, effect: Effect, view: TaskView, now: float) -> None:
        if isinstance(effect, Notify):
            return  # owed with its decision
        if isinstance(effect, ApproveByRule):
            self.approve_by_rule(effect, now)
        elif isinstance(effect, RunCheck):
            self._check(effect.task, view, now)
        elif isinstance(effect, FollowUp):
            self._follow_up(effect, view, now)
        else:
            self._spawn(effect.task, now)

    def approve_by_rule(self, effect: ApproveByRule, now: float) -> None:
        """Approve a prompt through the normal approval path, citing the standing rule (recorded
        first: never tried twice); refused, a human decides (its message owed in the same
        write)."""
        task = self.state.task(effect.task)
        prompt = task.prompt(effect.prompt_id)
        if prompt is None or prompt.approving:
            return
        prompt.approving = True
        self.save()
        rule = self.wave.rules[effect.rule - 1]
        by = f"approved by rule {effect.rule} of {self.file} ({self.sha256})"
        self.ctx.record(
            "wave-rule-approve", wave=self.wave.name, task=task.name, agent=task.agent,
            prompt_id=effect.prompt_id, rule=effect.rule, rule_kind=rule.kind,
            rule_subject=rule.subject, file=self.file, sha256=self.sha256, reason=by,
        )  # fmt: skip
        actor = self.ctx.actor
        try:
            by_rule = Actor(user=f"{actor.user} ({by})", tty=actor.tty)
            decision = self.sup.approve(effect.prompt_id, actor=by_rule)
        except PawError as err:
            decision = None
            reason = err.message
        if decision is not None and decision.outcome in (Outcome.SENT, Outcome.SENT_UNCONFIRMED):
            prompt.answered = f"approved by rule {effect.rule}"
            prompt.answered_at = now
            self.save()
            return
        # Refused (the prompt changed or went away, the guard said otherwise): a human decides.
        prompt.route = "human"
        prompt.why = f"rule {effect.rule} matched but paw did not approve: " + (
            decision.reason if decision is not None else reason
        )
        if prompt.live:
            self.owe([Notify("parked", task.name, prompt.id)])
        self.save()

    def _check(self, name: str, view: TaskView, now: float) -> None:
        """Start the task's check in the background; :meth:`_collect_checks` takes its result."""
        spec = self.wave.task(name)
        if spec.check is None or name in self._checks:
            return
        self.ctx.record("wave-check", wave=self.wave.name, task=name, command=spec.check)
        box: list[CheckResult] = []
        command, timeout = spec.check, self.wave.check_timeout_s

        def work() -> None:
            try:
                box.append(self.run_check(command, view.worktree, timeout))
            except Exception as err:  # noqa: BLE001 - a check that cannot run fails, loudly
                box.append(CheckResult(127, f"paw could not run the check: {err}", 0.0))

        self._checks[name] = (box, view, now)
        self.state.task(name).checking_since = now
        self.save()  # readers (the TUI) show the task as checking
        threading.Thread(target=work, name=f"paw-check-{name}", daemon=True).start()

    def _collect_checks(self, now: float) -> None:
        for name, (box, view, started) in list(self._checks.items()):
            if not box:
                continue
            del self._checks[name]
            result = box[0]
            run = CheckRun(
                at=started, exit_code=result.exit_code, tail=tail(result.output),
                duration_s=round(result.duration_s, 2),
            )  # fmt: skip
            self.ctx.record(
                "wave-check-result", wave=self.wave.name, task=name, exit_code=run.exit_code,
                tail=run.tail,
            )  # fmt: skip
            updated, effects = after_check(self.wave.task(name), self.state.task(name), run, now)
            updated.checking_since = None
            self._put(updated)
            self.owe([e for e in effects if isinstance(e, Notify)])
            self.save()
            for effect in effects:
                self._apply(effect, view, now)

    def checking(self) -> bool:
        """True while a check runs."""
        return bool(self._checks)

    def _follow_up(self, effect: FollowUp, view: TaskView, now: float) -> None:
        """Type a failed check's follow-up (the agent was idle at the last sweep; the send
        proves it again right before typing). Refused: not sent, not counted, it waits."""
        task = self.state.task(effect.task)
        if task.followup_text is None:
            return
        task.followups += 1
        task.followup_text = None
        task.followup_screen = view.screen
        task.seen_working = False
        self.save()  # counted before typing: a crash never sends it twice
        self.ctx.record(
            "wave-followup", wave=self.wave.name, task=task.name, agent=task.agent,
            number=task.followups, text=effect.text,
        )  # fmt: skip
        try:
            self.sup.send(task.agent, effect.text)
        except PawError as err:
            self.ctx.record(
                "wave-followup-refused", wave=self.wave.name, task=task.name, agent=task.agent,
                number=task.followups, error=err.message,
            )  # fmt: skip
            step = followup_refused(task, effect.text, err.message, now)
            self._put(step.task)
            self.owe([e for e in step.effects if isinstance(e, Notify)])
            self.save()
            return
        task.followup_why, task.followup_notified = None, None
        self.save()

    # -- starting tasks --------------------------------------------------------------------

    def _start_ready(self, now: float) -> None:
        spent = wave_spent(self.wave, self.state)
        if spent is not None and spent[0] >= WARN_AT and not self.state.spend_warned:
            self.state.spend_warned = True
            self.owe([Notify("wave-budget-warning", None)])
            self.save()
            self.ctx.record("wave-budget-warning", wave=self.wave.name, used=spent[1])
        if wave_over_budget(self.wave, self.state, now) and not self.state.over_budget:
            self.state.over_budget = True
            self.owe([Notify("wave-over-budget", None)])
            self.save()
            self.ctx.record("wave-over-budget", wave=self.wave.name)
        start, never = ready_to_start(self.wave, self.state, now)
        for name, why in never:
            task = self.state.task(name)
            task.phase, task.outcome, task.ended_at = Phase.FAILED, why, now
            self.owe([Notify("task-failed", name)])
            self.save()
        for name in start[: self.STARTS_PER_SWEEP]:
            self._spawn(name, now)

    def _spawn(self, name: str, now: float) -> None:
        task = self.state.task(name)
        spec = self.wave.task(name)
        task.phase, task.started_at = Phase.STARTING, now
        self.save()  # recorded before anything is created
        kind = spec.agent or self.wave.agent
        self.ctx.record(
            "wave-task-start", wave=self.wave.name, task=name, agent=task.agent, kind=kind
        )
        waiting = False
        try:
            record = spawn_agent(
                self.ctx, task.agent, kind, self.texts.get(name), spec.base or self.wave.base
            )
            task.phase = Phase.RUNNING  # the agent exists: never started again
            self.save()
            startup = start_up(self.ctx, record)
            waiting = startup.task_typed is False
        except PawError as err:
            if task.agent in load_agents(self.ctx.state):
                # It started, then died on start (the next sweep fails it: exited), or its
                # typed task could not be typed (a human types it: escalated as a dialog).
                task.phase = Phase.RUNNING
                task.outcome = err.message
                waiting = "not typed" in err.message
            else:
                task.phase, task.outcome, task.ended_at = (
                    Phase.FAILED,
                    f"could not start: {err.message}",
                    now,
                )
                self.owe([Notify("task-failed", name)])
            self.save()
            if task.phase is Phase.FAILED:
                return
        task.phase = Phase.RUNNING
        task.last_change = now
        if waiting:
            self.owe([Notify("dialog", name)])
        self.save()

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
