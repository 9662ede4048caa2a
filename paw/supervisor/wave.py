"""The wave runner: runs a wave's tasks over the Supervisor, unattended, escalating to humans.

Every step is written to ``.paw/waves/<name>.json`` (and, for anything that reaches an agent, to
the audit) BEFORE it is carried out, so a runner killed at any moment and resumed never starts a
task twice, approves twice or sends a follow-up twice: at worst a step recorded but not carried
out is left for a human. Decisions are :mod:`paw.core.wave`'s; this module only observes and acts.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from paw.core.wave import (
    ApproveByRule,
    CheckResult,
    CheckRun,
    FollowUp,
    Notify,
    Phase,
    RunCheck,
    SeenPrompt,
    TaskView,
    WaveState,
    after_check,
    describe,
    followup_refused,
    initial_state,
    notify_settings,
    ready_to_start,
    step_checking,
    step_task,
    tail,
    wave_finished,
    wave_over_budget,
)
from paw.core.wave_recovery import Fate, answer_from_audit, decision_fate, undelivered
from paw.core.wave_report import (
    HumanAnswers,
    Message,
    digest_message,
    prompt_message,
    report_data,
    task_message,
    wave_message,
)
from paw.errors import PawError
from paw.supervisor.context import Actor
from paw.supervisor.links import occurrence_link
from paw.supervisor.model import AgentStatus, Outcome
from paw.supervisor.records import load_agents
from paw.supervisor.spawn import spawn as spawn_agent
from paw.supervisor.spawn import start_up

if TYPE_CHECKING:
    from paw.core.wave import Effect, NotifySettings, PromptState, TaskState, WaveFile
    from paw.supervisor.model import AgentView, Snapshot
    from paw.supervisor.records import StateStore
    from paw.supervisor.service import Supervisor


STOP_SUFFIX = ".stop"  # `paw wave stop` writes {"stop": true} to <wave>.stop.json
OUTBOX_SUFFIX = ".outbox"  # the delivery marks of the wave's messages: <wave>.outbox.json


class Notifier(Protocol):
    """Escalation channels (paw.adapters.notify)."""

    def send(
        self,
        message: Message,
        on_attempt: Callable[[], None] | None = None,
        on_done: Callable[[], None] | None = None,
    ) -> None:
        """Queue ``message`` on every channel (returns at once; delivery is in the background):
        ``on_attempt`` runs right before the channels are called (not delivered if it raises),
        ``on_done`` once they returned."""
        ...

    def badge(self, waiting: int) -> None:
        """Show how many prompts wait for a human (0 clears it)."""
        ...


CheckRunner = Callable[[str, str, float], CheckResult]  # (command, worktree, timeout) -> result


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
    ) -> None:
        """``texts`` holds each task's text (task files already read); ``store`` keeps
        ``<wave name>.json`` documents."""
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
        self._marks_lock = threading.Lock()  # the delivery thread marks, the runner reads
        self._marks: dict[str, dict[str, float]] = {"attempted": {}, "delivered": {}}
        self.state = self._load_or_start()
        self._outbox_checked = False  # messages a dead runner left undelivered: first tick
        self._badge: int | None = None
        self._fingerprints: dict[str, str] = {}  # live prompt id -> fingerprint (the last sweep)
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
            marks = self.store.read(f"{self.wave.name}{OUTBOX_SUFFIX}") or {}
            for kind, known in self._marks.items():
                found = marks.get(kind)
                if isinstance(found, dict):
                    known.update({str(k): float(v) for k, v in found.items()})
            return state
        state = initial_state(self.wave, self.file, self.sha256, self.ctx.clock())
        self.ctx.record("wave-start", wave=self.wave.name, file=self.file, sha256=self.sha256)
        self.store.write(self.wave.name, state.model_dump(mode="json"))
        return state

    def save(self) -> None:
        """Write the state (atomically, fsync'd)."""
        self.changed = True
        self._drop_delivered_texts()
        self.store.write(self.wave.name, self.state.model_dump(mode="json"))

    def _drop_delivered_texts(self) -> None:
        """A delivered message keeps its record, not its text (the audit has it): the state
        stays small however many messages a long wave sends."""
        with self._marks_lock:
            delivered = set(self._marks["delivered"])
        for entry in self.state.messages:
            if entry.get("id") in delivered and "outgoing_body" in entry:
                entry.pop("outgoing_title", None)
                entry.pop("outgoing_body", None)

    def _put(self, task: TaskState) -> None:
        self.state.tasks = [task if t.name == task.name else t for t in self.state.tasks]

    def _stop_requested(self) -> bool:
        data = self.store.read(f"{self.wave.name}{STOP_SUFFIX}") or {}
        return bool(data.get("stop"))

    # -- the loop --------------------------------------------------------------------------

    def run(
        self, sleep: Callable[[float], None], on_tick: Callable[[WaveState], None] | None = None
    ) -> WaveState:
        """Tick every ``poll_s`` until the wave finishes or a stop is requested."""
        while True:
            finished = self.tick()
            if on_tick is not None:
                on_tick(self.state)
            if finished:
                return self.state
            busy = self.changed or self.checking()
            sleep(self.wave.poll_s if busy else max(self.wave.poll_s, self.wave.idle_poll_s))

    def tick(self) -> bool:
        """One sweep: observe, decide, act (recording first). True when the wave has ended."""
        self.changed = False
        if self.state.status != "running":
            return True
        if not self._outbox_checked:  # what a dead runner left undelivered leaves first
            self._outbox_checked = True
            self._resend_undelivered()
        if self._stop_requested():
            return self._end("stopped", "wave-stopped")
        snap = self.sup.poll_once()
        if not snap.tmux_ok:
            return False  # tmux unreachable: decide nothing on a blind sweep
        self._fingerprints = {p.id: p.prompt.fingerprint for p in snap.prompts}
        now = self.ctx.clock()
        self._settle_starting()
        notes: list[Notify] = self._settle_rule_approvals(now)
        notes += self._collect_checks(now)
        views = {v.name: v for v in snap.agents}
        screens = self._screens(views)
        for task in list(self.state.tasks):
            if task.phase is not Phase.RUNNING:
                continue
            view = views.get(task.agent)
            notes += self._step(task, view, snap, screens, now)
        self._notify(notes, now)  # what the sweep found leaves before new tasks start
        self._notify(self._start_ready(now), now)
        self._update_badge()
        if wave_finished(self.state):
            failed = any(t.phase is Phase.FAILED for t in self.state.tasks)
            return self._end(
                "failed" if failed else "done", "wave-failed" if failed else "wave-done"
            )
        return False

    def _end(self, status: str, event: str) -> bool:
        self.state.status = status
        self.state.ended_at = self.ctx.clock()
        self.ctx.record("wave-end", wave=self.wave.name, status=status)
        self.save()
        self._send([wave_message(event, self.state, repo=self.ctx.repo_root)])
        self._update_badge(force_zero=True)
        return True

    def _screens(self, views: dict[str, AgentView]) -> dict[str, str]:
        """Hashes of the screens of running, not busy, not prompting agents (one tmux call)."""
        panes: dict[str, str] = {}
        for task in self.state.tasks:
            view = views.get(task.agent)
            if task.phase is not Phase.RUNNING or view is None or view.pane_id is None:
                continue
            if view.status in (AgentStatus.IDLE, AgentStatus.UNKNOWN):
                panes[view.pane_id] = task.agent
        if not panes:
            return {}
        try:
            survey = self.ctx.terminal.survey(list(panes), fresh=False)
        except PawError:
            return {}
        return {
            panes[c.pane_id]: hashlib.sha256((c.text or "").encode()).hexdigest()[:16]
            for c in survey.captures
            if c.pane_id in panes
        }

    # -- per task --------------------------------------------------------------------------

    def _step(
        self,
        task: TaskState,
        view: AgentView | None,
        snap: Snapshot,
        screens: dict[str, str],
        now: float,
    ) -> list[Notify]:
        spec = self.wave.task(task.name)
        task_view = _task_view(task, view, snap, screens)
        if task.name in self._checks:  # its check runs: only its prompts are parked meanwhile
            step = step_checking(self.wave, task, task_view, now)
        else:
            step = step_task(self.wave, spec, task, task_view, now)
        if step.task != task:
            self._put(step.task)
            self.save()  # prompts routed, stuck flag, outcome: before any effect
        notes: list[Notify] = []
        for effect in step.effects:
            notes += self._apply(effect, task_view, now)
        return notes

    def _apply(self, effect: Effect, view: TaskView, now: float) -> list[Notify]:
        if isinstance(effect, Notify):
            return [effect]
        if isinstance(effect, ApproveByRule):
            return self._approve_by_rule(effect, now)
        if isinstance(effect, RunCheck):
            return self._check(effect.task, view, now)
        if isinstance(effect, FollowUp):
            return self._follow_up(effect, view, now)
        return self._spawn(effect.task, now)

    def _approve_by_rule(self, effect: ApproveByRule, now: float) -> list[Notify]:
        task = self.state.task(effect.task)
        prompt = task.prompt(effect.prompt_id)
        if prompt is None or prompt.approving:
            return []
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
            return []
        # Refused (the prompt changed or went away, the guard said otherwise): a human decides.
        prompt.route = "human"
        prompt.why = f"rule {effect.rule} matched but paw did not approve: " + (
            decision.reason if decision is not None else reason
        )
        self.save()
        return [Notify("parked", task.name, prompt.id)] if prompt.live else []

    def _check(self, name: str, view: TaskView, now: float) -> list[Notify]:
        """Start the task's check in the background; :meth:`_collect_checks` takes its result."""
        spec = self.wave.task(name)
        if spec.check is None or name in self._checks:
            return []
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
        return []

    def _collect_checks(self, now: float) -> list[Notify]:
        notes: list[Notify] = []
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
            self.save()
            for effect in effects:
                notes += self._apply(effect, view, now)
        return notes

    def checking(self) -> bool:
        """True while a check runs."""
        return bool(self._checks)

    def _follow_up(self, effect: FollowUp, view: TaskView, now: float) -> list[Notify]:
        """Type a failed check's follow-up (the agent was idle at the last sweep; the send
        proves it again right before typing). Refused: not sent, not counted, it waits."""
        task = self.state.task(effect.task)
        if task.followup_text is None:
            return []
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
            self.save()
            return [e for e in step.effects if isinstance(e, Notify)]
        task.followup_why, task.followup_notified = None, None
        self.save()
        return []

    # -- starting tasks --------------------------------------------------------------------

    def _start_ready(self, now: float) -> list[Notify]:
        notes: list[Notify] = []
        if wave_over_budget(self.wave, self.state, now) and not self.state.over_budget:
            self.state.over_budget = True
            self.save()
            self.ctx.record("wave-over-budget", wave=self.wave.name)
            notes.append(Notify("wave-over-budget", None))
        start, never = ready_to_start(self.wave, self.state, now)
        for name, why in never:
            task = self.state.task(name)
            task.phase, task.outcome, task.ended_at = Phase.FAILED, why, now
            self.save()
            notes.append(Notify("task-failed", name))
        for name in start[: self.STARTS_PER_SWEEP]:
            notes += self._spawn(name, now)
        return notes

    def _spawn(self, name: str, now: float) -> list[Notify]:
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
            self.save()
            if task.phase is Phase.FAILED:
                return [Notify("task-failed", name)]
        task.phase = Phase.RUNNING
        task.last_change = now
        self.save()
        return [Notify("dialog", name)] if waiting else []

    def _settle_starting(self) -> None:
        """After a crash: a task recorded as starting either got its agent (running), left a
        half-made branch (failed, for a human to look at), or created nothing (start again)."""
        agents = load_agents(self.ctx.state)
        for task in self.state.tasks:
            if task.phase is not Phase.STARTING:
                continue
            if task.agent in agents:
                task.phase = Phase.RUNNING
            elif self.ctx.vcs.branch_exists(self.ctx.repo_root, self.ctx.branch_for(task.agent)):
                task.phase, task.outcome = (
                    Phase.FAILED,
                    "its start was interrupted: look at its branch",
                )
                task.ended_at = self.ctx.clock()
            else:
                task.phase = Phase.PENDING
            self.ctx.record(
                "wave-resume-task", wave=self.wave.name, task=task.name, phase=task.phase.value
            )
            self.save()

    def _settle_rule_approvals(self, now: float) -> list[Notify]:
        """After a crash: a rule approval routed but never recorded is carried out now (nothing
        was sent); one recorded but never finished is never retried: if the audit shows no
        keys were sent, a human decides."""
        notes: list[Notify] = []
        for task in self.state.tasks:
            if task.phase is not Phase.RUNNING:
                continue
            for prompt in task.prompts:
                if prompt.route != "rule" or not prompt.live or prompt.answered is not None:
                    continue
                if not prompt.approving:
                    notes += self._approve_by_rule(
                        ApproveByRule(task.name, prompt.id, prompt.rule or 0), now
                    )
                    continue
                fate, _decision = decision_fate(self.ctx.audit.read(), prompt.id)
                if fate is Fate.PENDING:
                    continue  # its sweep has not reconciled it yet: the next tick decides
                if fate is Fate.SENT:
                    prompt.answered, prompt.answered_at = f"approved by rule {prompt.rule}", now
                elif fate is Fate.UNCERTAIN:
                    prompt.answered = (
                        f"rule {prompt.rule} approval interrupted: the key may have reached it"
                    )
                    prompt.answered_at = now
                else:  # recorded, never sent (the sweep reconciled it `not-sent`): a human
                    prompt.route = "human"
                    prompt.why = "a rule approval was cut off before its key was sent"
                    notes.append(Notify("parked", task.name, prompt.id))
                self.save()
        return notes

    # -- telling people --------------------------------------------------------------------

    def _notify(self, notes: list[Notify], now: float) -> None:
        """Mark every message in the state (one save), then hand them to the channels, then
        audit them: a crash never sends one twice, and a burst costs one fsync of the state."""
        outbox: list[Message] = []
        parked = [n for n in notes if n.event == "parked" and n.prompt_id is not None]
        digest = len(parked) > self.settings.digest_over
        if digest:
            items = []
            for n in parked:
                task = self.state.task(n.task or "")
                prompt = task.prompt(n.prompt_id or "")
                if prompt is not None and prompt.notified_at is None:
                    prompt.notified_at = now
                    items.append((task, prompt))
            if items:
                links = {p.id: url for t, p in items if (url := self._link(t, p, now))}
                outbox.append(digest_message(
                    self.wave.name, items, now, repo=self.ctx.repo_root, links=links
                ))  # fmt: skip
        for note in notes:
            if digest and note in parked:
                continue
            message = self._compose(note, now)
            if message is not None:
                outbox.append(message)
        self._send(outbox)

    def _compose(self, note: Notify, now: float) -> Message | None:
        if note.event == "wave-over-budget":
            return wave_message("wave-over-budget", self.state, repo=self.ctx.repo_root)
        task = self.state.task(note.task) if note.task else None
        if task is None:
            return None
        if note.prompt_id is not None:
            prompt = task.prompt(note.prompt_id)
            if prompt is None:
                return None
            if note.event == "parked":
                if prompt.notified_at is not None:
                    return None
                prompt.notified_at = now
            elif note.event == "answered":
                answer = answer_from_audit(self.ctx.audit.read(), prompt.id)
                prompt.answered = answer or prompt.answered
            elif note.event == "reminder":
                prompt.reminders += 1
                prompt.last_reminded = now
            link = self._link(task, prompt, now) if note.event != "answered" else None
            return prompt_message(
                note.event, self.wave.name, task, prompt, now, repo=self.ctx.repo_root, link=link
            )
        if note.event in ("stuck", "stuck-reminder"):
            task.stuck_notified = now
            task.stuck_count += 1 if note.event == "stuck" else 0
        return task_message(note.event, self.wave.name, task, now, repo=self.ctx.repo_root)

    def _link(self, task: TaskState, prompt: PromptState, now: float) -> str | None:
        """The one-occurrence link of a live prompt (``[serve] public_url``), or None."""
        fingerprint = self._fingerprints.get(prompt.id)
        if fingerprint is None or not prompt.live:
            return None  # not on the last sweep: a link to it would only say it ended
        try:
            return occurrence_link(
                self.ctx, agent=task.agent, prompt_id=prompt.id, fingerprint=fingerprint,
                verdict=prompt.verdict, now=now,
            )  # fmt: skip
        except (PawError, OSError):
            return None  # the key cannot be kept: the message goes without a link

    def _send(self, messages: list[Message]) -> None:
        """The outbox: every message is recorded "to send" in the state (one save), then
        handed to the delivery thread, which marks each attempt and each delivery (see
        :meth:`_mark`); a runner that died before a message was attempted delivers it on
        resume, one whose delivery was cut off never sends it again (at most once)."""
        if not messages:
            return
        first = len(self.state.messages)
        entries: list[dict[str, object]] = [
            {
                "id": f"{self.wave.name}-{first + number}",
                "event": m.event,
                "task": m.task,
                "prompt_id": m.prompt_id,
                "title": m.title,
                "redacted": m.redacted,
                "at": self.ctx.clock(),
                "outgoing_title": m.outgoing_title,
                "outgoing_body": m.outgoing_body,
            }
            for number, m in enumerate(messages, 1)
        ]
        self.state.messages += entries
        self.save()  # recorded before sending: one message per occurrence, never two
        for message, entry in zip(messages, entries, strict=True):
            self._deliver(message, str(entry["id"]))
        for message, entry in zip(messages, entries, strict=True):
            fields = {
                k: v
                for k, v in entry.items()
                if k not in ("event", "outgoing_title", "outgoing_body")
            }
            self.ctx.record(
                "wave-notify", wave=self.wave.name, message=message.event, **fields,
                body=message.body,
            )  # fmt: skip

    def _deliver(self, message: Message, key: str) -> None:
        self.notifier.send(
            message,
            on_attempt=lambda: self._mark("attempted", key),
            on_done=lambda: self._mark("delivered", key),
        )

    def _mark(self, kind: str, key: str) -> None:
        """Record (fsync'd) that message ``key`` is about to go to the channels, or went
        (called from the delivery thread; the outbox document is its own, not the state's)."""
        with self._marks_lock:
            self._marks[kind][key] = self.ctx.clock()
            self.store.write(f"{self.wave.name}{OUTBOX_SUFFIX}", dict(self._marks))

    def _resend_undelivered(self) -> None:
        """After a crash: deliver the messages recorded but never handed to a channel; those
        whose delivery was cut off may have arrived and are not sent again (audited)."""
        with self._marks_lock:
            marks: dict[str, object] = {k: dict(v) for k, v in self._marks.items()}
        due, cut = undelivered(self.state.messages, marks)
        if not due and not cut:
            return
        by_id = {str(m.get("id")): m for m in self.state.messages}
        for entry in cut:
            by_id[str(entry["id"])]["outcome"] = "uncertain"
            self.ctx.record(
                "wave-notify-uncertain", wave=self.wave.name, id=entry["id"],
                message=entry.get("event"), title=entry.get("title"),
                reason="the runner died while the channels delivered it; not sent again",
            )  # fmt: skip
        self.save()
        for entry in due:
            message = _stored_message(self.wave.name, entry)
            self._deliver(message, str(entry["id"]))
            self.ctx.record(
                "wave-notify-resumed", wave=self.wave.name, id=entry["id"],
                message=message.event, title=entry.get("title"),
            )  # fmt: skip

    def _update_badge(self, *, force_zero: bool = False) -> None:
        waiting = 0 if force_zero else self.waiting()
        if waiting != self._badge:
            self._badge = waiting
            self.notifier.badge(waiting)

    def waiting(self) -> int:
        """Prompts parked for a human right now."""
        return sum(1 for t in self.state.tasks for p in t.prompts if p.live and p.route == "human")

    def report(self) -> dict[str, object]:
        """The report data (see :func:`paw.core.wave_report.report_data`)."""
        return wave_report(self.state, self.ctx.audit.read(), self.ctx.clock())


def wave_report(state: WaveState, audit: list[dict[str, object]], now: float) -> dict[str, object]:
    """The report of ``state``, with human approvals and denials counted from the audit."""
    return report_data(state, human_answers(state, audit), now)


def human_answers(state: WaveState, audit: list[dict[str, object]]) -> dict[str, HumanAnswers]:
    """Approvals and denials sent for each task's prompts, not counting standing-rule ones
    (the approval right after a ``wave-rule-approve`` of its prompt) nor decisions whose
    outcome says nothing was sent (a rule approval cut off, then a human's: the human's)."""
    by_agent = {t.agent: t for t in state.tasks}
    ruling: set[str] = set()  # prompts whose next approval is a standing rule's
    decisions: list[tuple[dict[str, object], bool]] = []
    unsent: set[int] = set()
    open_decision: dict[str, int] = {}
    for record in audit:
        event, prompt_id = record.get("event"), str(record.get("prompt_id"))
        if event == "wave-rule-approve":
            ruling.add(prompt_id)
        elif event in ("approve", "deny") and record.get("decision") == "send":
            by_rule = event == "approve" and prompt_id in ruling
            ruling.discard(prompt_id)
            open_decision[prompt_id] = len(decisions)
            decisions.append((record, by_rule))
        elif event == "outcome" and prompt_id in open_decision:
            if record.get("outcome") in ("not-sent", "send-failed"):
                unsent.add(open_decision[prompt_id])
            del open_decision[prompt_id]
    counts: dict[str, HumanAnswers] = {}
    for number, (record, by_rule) in enumerate(decisions):
        task = by_agent.get(str(record.get("agent")))
        if task is None or record.get("time", 0.0) < state.started_at:  # type: ignore[operator]
            continue
        if by_rule or number in unsent:
            continue
        old = counts.get(task.name, HumanAnswers())
        counts[task.name] = (
            replace(old, approved=old.approved + 1)
            if record.get("event") == "approve"
            else replace(old, denied=old.denied + 1)
        )
    return counts


def _stored_message(wave: str, entry: Mapping[str, object]) -> Message:
    """An outbox entry as a message again (the outgoing, redacted text: that is all the state
    keeps; the full text is in the audit's ``wave-notify``)."""

    def text(key: str) -> str:
        value = entry.get(key)
        return value if isinstance(value, str) else ""

    def optional(key: str) -> str | None:
        value = entry.get(key)
        return value if isinstance(value, str) else None

    title, body = text("outgoing_title"), text("outgoing_body")
    return Message(
        text("event"), wave, optional("task"), optional("prompt_id"), title, body, title, body,
        bool(entry.get("redacted")),
    )  # fmt: skip


def _task_view(
    task: TaskState, view: AgentView | None, snap: Snapshot, screens: dict[str, str]
) -> TaskView:
    if view is None:
        return TaskView(
            "exited", "", task.commits, task.insertions, task.deletions, 0,
            uncommitted=task.uncommitted, untracked=task.untracked,
        )  # fmt: skip
    status = "exited" if view.alive is False else view.status.value
    prompts = tuple(
        SeenPrompt(
            id=p.id,
            kind=p.prompt.kind.value,
            subject=p.prompt.subject,
            question=p.prompt.question,
            verdict=p.verdict.action,
            reasons=p.verdict.reasons,
            approvable=not p.prompt.needs_human,
            first_seen=p.first_seen,
        )
        for p in snap.prompts
        if p.agent == task.agent
    )
    stat = view.stat
    return TaskView(
        status=status,
        screen=screens.get(task.agent, ""),
        commits=stat.ahead,
        insertions=stat.insertions,
        deletions=stat.deletions,
        dirty=stat.uncommitted + stat.untracked,
        prompts=prompts,
        worktree=view.worktree,
        uncommitted=stat.uncommitted,
        untracked=stat.untracked,
    )
