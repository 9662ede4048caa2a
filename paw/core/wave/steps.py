"""Every decision the runner makes after a sweep or a check: start, done, check, follow-up,
stuck, park (pure; the task given is never modified)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from paw.core.notify_settings import NotifySettings
from paw.core.output_tail import TailRoom, fitted_tail
from paw.core.wave.effects import ApproveByRule, Effect, FollowUp, Notify, RunCheck
from paw.core.wave.rules import route
from paw.core.wave.schema import WaveFile, WaveTask
from paw.core.wave.seen import SeenPrompt, TaskView
from paw.core.wave.state import FINAL, CheckRun, Phase, PromptState, TaskState, WaveState


def ready_to_start(
    wave: WaveFile, state: WaveState, now: float
) -> tuple[list[str], list[tuple[str, str]]]:
    """Tasks to start now (up to ``max_parallel``), and tasks that can never start (with why)."""
    phases = {t.name: t.phase for t in state.tasks}
    active = sum(1 for p in phases.values() if p in (Phase.STARTING, Phase.RUNNING))
    start: list[str] = []
    never: list[tuple[str, str]] = []
    over = _wave_over_budget(wave, state, now)
    for spec in wave.tasks:
        if phases[spec.name] is not Phase.PENDING:
            continue
        failed = [d for d in spec.depends_on if phases[d] is Phase.FAILED]
        if failed:
            never.append((spec.name, f"dependency failed: {', '.join(failed)}"))
            continue
        if over:
            never.append((spec.name, "not started: the wave ran over its budget"))
            continue
        if any(phases[d] is not Phase.DONE for d in spec.depends_on):
            continue
        if active + len(start) < wave.max_parallel:
            start.append(spec.name)
    return start, never


def _wave_over_budget(wave: WaveFile, state: WaveState, now: float) -> bool:
    if wave.budget_s is not None and now - state.started_at > wave.budget_s:
        return True
    spent = wave_spent(wave, state)
    return spent is not None and spent[0] >= 1.0


def wave_spent(wave: WaveFile, state: WaveState) -> tuple[float, str] | None:
    """The share of the wave's token or dollar budget its tasks' agents used (the larger),
    and what it is in words; None without such a budget."""
    spent: list[tuple[float, str]] = []
    if wave.budget_tokens is not None:
        tokens = sum(t.used_tokens or 0 for t in state.tasks)
        spent.append((tokens / wave.budget_tokens, f"{tokens:,} of {wave.budget_tokens:,} tokens"))
    if wave.budget_usd is not None:
        usd = sum(t.used_usd or 0.0 for t in state.tasks)
        spent.append((usd / wave.budget_usd, f"${usd:.2f} of ${wave.budget_usd:.2f}"))
    return max(spent) if spent else None


def wave_over_budget(wave: WaveFile, state: WaveState, now: float) -> bool:
    """True once the wave's wall-clock budget is spent."""
    return _wave_over_budget(wave, state, now)


def signature(view: TaskView) -> str:
    """What "unchanged" means for stuck: screen, worktree and commits."""
    parts = (view.screen, view.commits, view.insertions, view.deletions, view.dirty)
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Step:
    """One decision for one running task."""

    task: TaskState
    effects: tuple[Effect, ...]


def step_task(wave: WaveFile, spec: WaveTask, task: TaskState, view: TaskView, now: float) -> Step:
    """Decide what a running task needs after one sweep (pure; ``task`` is not modified).

    Order: prompts first (each occurrence routed once, edge-triggered), then budget, then
    done/check/follow-up when idle, then stuck. Never kills or nudges an agent.
    """
    t = task.model_copy(deep=True)
    effects: list[Effect] = []
    t.commits, t.insertions, t.deletions = view.commits, view.insertions, view.deletions
    t.uncommitted, t.untracked = view.uncommitted, view.untracked
    sig = signature(view)
    if sig != t.last_signature:
        t.last_signature, t.last_change = sig, now
        if t.stuck:
            t.stuck = False
    if view.status in ("busy", "prompt"):
        t.seen_working = True
    effects += _step_prompts(wave, t, view, now)
    effects += _step_dialog(t, view, now)
    effects += _step_spend(wave, spec, t, view)
    if t.budget_parked is not None and view.status != "exited":
        return Step(t, tuple(effects))  # parked: a human decides; nothing typed, no check
    budget = spec.budget_s or wave.task_budget_s
    if budget is not None and t.started_at is not None and now - t.started_at > budget:
        _finish(t, Phase.FAILED, f"over its budget of {budget:g}s", now)
        return Step(t, (*effects, Notify("task-failed", t.name)))
    if view.status == "exited":
        _finish(t, Phase.FAILED, "the agent exited", now)
        return Step(t, (*effects, Notify("task-failed", t.name)))
    if _held_by_followup(wave, t, view, now):
        return Step(t, tuple(effects))  # a human was told; nothing typed, no check
    if t.followup_text is not None:
        effects += _step_followup(t, view, now)
        effects += _step_stuck(wave, t, view, now)
        return Step(t, tuple(effects))
    if view.status == "idle" and _turn_over(wave, t, view, now):
        if spec.check is not None:
            return Step(t, (*effects, RunCheck(t.name)))
        if wave.done_without_check == "idle" or view.commits > 0:
            _finish(t, Phase.DONE, "idle" if view.commits == 0 else "idle after a commit", now)
            return Step(t, (*effects, Notify("task-done", t.name)))
    effects += _step_stuck(wave, t, view, now)
    return Step(t, tuple(effects))


WARN_AT = 0.8  # of a token or dollar budget: a message


def _step_spend(wave: WaveFile, spec: WaveTask, t: TaskState, view: TaskView) -> list[Effect]:
    """A task's token and dollar budgets against its agent's usage: at WARN_AT a message
    (once), at 100 % the task is parked (once; never killed) and a human told."""
    tokens_max = spec.budget_tokens or wave.task_budget_tokens
    usd_max = spec.budget_usd or wave.task_budget_usd
    if view.tokens is not None:
        t.used_tokens = view.tokens
    if view.usd is not None:
        t.used_usd = view.usd
    spent: list[tuple[float, str]] = []
    if tokens_max is not None and t.used_tokens is not None:
        spent.append((t.used_tokens / tokens_max, f"{t.used_tokens:,} of {tokens_max:,} tokens"))
    if usd_max is not None and t.used_usd is not None:
        spent.append((t.used_usd / usd_max, f"${t.used_usd:.2f} of ${usd_max:.2f}"))
    if view.wave_over is not None and t.budget_parked is None:
        t.budget_parked = f"the wave is over its budget: {view.wave_over}"
        return [Notify("budget-parked", t.name)]
    if not spent:
        return []
    share, said = max(spent)
    if share >= 1.0 and t.budget_parked is None:
        t.budget_parked = f"over its budget: {said}"
        return [Notify("budget-parked", t.name)]
    if share >= WARN_AT and not t.budget_warned and t.budget_parked is None:
        t.budget_warned = True
        return [Notify("budget-warning", t.name)]
    return []


def step_checking(wave: WaveFile, task: TaskState, view: TaskView, now: float) -> Step:
    """A task whose check runs: its prompts and dialogs are parked and announced at once (a
    prompt shown while the check runs waits for a human like any other); nothing else is
    decided until the check's result is in (pure; ``task`` is not modified)."""
    t = task.model_copy(deep=True)
    effects = [*_step_prompts(wave, t, view, now), *_step_dialog(t, view, now)]
    return Step(t, tuple(effects))


def _step_followup(t: TaskState, view: TaskView, now: float) -> list[Effect]:
    """A follow-up waits for the agent to be idle with no prompt: then it is typed (the
    runner's send proves an empty input again right before typing). A prompt or a dialog is
    announced on its own; a screen paw cannot read is announced here, once."""
    if t.followup_text is None:
        return []
    if view.status == "idle" and not view.prompts:
        return [FollowUp(t.name, t.followup_text)]
    if view.prompts or view.status in ("busy", "prompt", WAITING):
        return []  # the prompt or dialog has its own message; a busy agent goes idle
    return _announce_followup(t, f"the agent's screen is {view.status}", now)


# How long after a follow-up was counted the agent's idle screen must still be the one from
# before it (no text in its input, no turn taken) before paw concludes the text never arrived.
FOLLOWUP_ARRIVAL_S = 5.0


def _step_cut_followup(wave: WaveFile, t: TaskState, view: TaskView, now: float) -> None:
    """A runner was killed after it counted a follow-up and before the text was proven typed.
    The agent's screen decides: changed since the count (its input shows the text, or it took
    the turn) means the text arrived, and the turn goes on as after any follow-up; the same
    idle, prompt-free screen long after the count means it never did, and it waits to be typed
    again (through the same proof of an idle, empty input). Anything else: look again."""
    if view.screen != t.followup_screen:
        t.followup_typing = t.followup_typing_at = None
        return
    counted = t.followup_typing_at if t.followup_typing_at is not None else now
    if view.status != "idle" or view.prompts:
        return
    if now - counted < max(wave.settle_s, FOLLOWUP_ARRIVAL_S):
        return
    t.followups = max(0, t.followups - 1)
    t.followup_text, t.followup_screen = t.followup_typing, None
    t.followup_typing = t.followup_typing_at = None


def _announce_followup(t: TaskState, why: str, now: float) -> list[Effect]:
    t.followup_why = why
    if t.followup_notified is not None:
        return []
    t.followup_notified = now
    return [Notify("parked", t.name)]


def followup_refused(task: TaskState, text: str, why: str, now: float) -> Step:
    """The runner's send of a follow-up was refused (the agent is not at an empty input, a
    prompt or dialog came up, paw could not prove the screen): not sent, not counted; it waits
    for a later sweep and a human hears of it once (pure)."""
    t = task.model_copy(deep=True)
    t.followups = max(0, t.followups - 1)
    t.followup_text = text
    t.followup_screen = None
    return Step(t, tuple(_announce_followup(t, f"paw did not type it: {why}", now)))


def _held_by_followup(wave: WaveFile, t: TaskState, view: TaskView, now: float) -> bool:
    """A follow-up whose arrival paw does not know: one a killed runner left counted (the
    screen decides, :func:`_step_cut_followup`), or one typed and never seen (the task waits,
    untouched, until the agent is seen working: then the turn goes on)."""
    if t.followup_typing is not None:
        _step_cut_followup(wave, t, view, now)
    if not t.followup_unconfirmed:
        return False
    if t.seen_working:
        t.followup_unconfirmed = False
        return False
    return True


def followup_unseen(task: TaskState, why: str, now: float) -> Step:
    """paw typed the follow-up but never saw it in the agent's input, and pressed no Enter
    (the text may still show up late: opencode on a loaded machine drew one 40 s after its
    keys). It is counted and never typed again (a second copy would follow the first); no
    check runs until the agent is seen working; a human hears of it once (pure)."""
    t = task.model_copy(deep=True)
    t.followup_unconfirmed = True
    said = f"paw typed it but never saw it arrive; it pressed no Enter: {why}"
    return Step(t, tuple(_announce_followup(t, said, now)))


def _turn_over(wave: WaveFile, t: TaskState, view: TaskView, now: float) -> bool:
    """Idle means "finished its turn" once the agent was seen working, or its idle screen has
    stayed the same for ``settle_s``; after a follow-up the screen must have changed too."""
    if t.followup_screen is not None and view.screen == t.followup_screen:
        return False
    stable = t.last_change is not None and now - t.last_change >= wave.settle_s
    return t.seen_working or stable


def _step_prompts(wave: WaveFile, t: TaskState, view: TaskView, now: float) -> list[Effect]:
    effects: list[Effect] = []
    live_ids = {p.id for p in view.prompts}
    for old in t.prompts:
        if old.live and old.id not in live_ids:
            old.live = False
            if old.answered_at is None:
                old.answered_at = now
                old.answered = old.answered or "answered"
            if old.route == "human" and old.notified_at is not None:
                effects.append(Notify("answered", t.name, old.id))
    for seen in view.prompts:
        current = t.prompt(seen.id)
        if current is not None and current.live:
            effects += _remind(wave, t, current, now)
            continue
        where, why, rule = route(seen, wave.rules, view.worktree)
        t.prompts.append(_prompt_state(seen, where, why, rule))
        if where == "rule":
            effects.append(ApproveByRule(t.name, seen.id, rule))
        else:
            effects.append(Notify("parked", t.name, seen.id))
    return effects


def _prompt_state(seen: SeenPrompt, where: str, why: str, rule: int) -> PromptState:
    return PromptState(
        id=seen.id, kind=seen.kind, subject=seen.subject, question=seen.question,
        verdict=seen.verdict.value, reasons=list(seen.reasons), first_seen=seen.first_seen,
        route=where, why=why, rule=rule or None,
    )  # fmt: skip


def park_early(wave: WaveFile, task: TaskState, view: TaskView) -> Step:
    """A channel-only look's picture, before the screen sweep (a hook channel's poke): the
    new prompts the wave's rules leave to a human are parked and announced now (pure; ``task``
    is not modified). Nothing else is decided on it: the look shows only what the channels
    added, so no prompt is taken for answered, and a rule's approval waits for the screen
    sweep's picture (which routes such a prompt as if the look had not been)."""
    t = task.model_copy(deep=True)
    effects: list[Effect] = []
    for seen in view.prompts:
        if t.prompt(seen.id) is not None:
            continue  # (seen before: the screen sweep's step reminds or closes it)
        where, why, rule = route(seen, wave.rules, view.worktree)
        if where == "rule":
            continue
        t.prompts.append(_prompt_state(seen, where, why, rule))
        effects.append(Notify("parked", t.name, seen.id))
    return Step(t, tuple(effects))


def _remind(wave: WaveFile, t: TaskState, p: PromptState, now: float) -> list[Effect]:
    if p.route != "human":
        return []
    if p.notified_at is None:
        # parked, and its message never recorded (a runner killed between the two writes:
        # since the runner owes a decision's messages in the decision's own write, only a
        # state an older runner left): announced now; the outbox sends a prompt's once
        return [Notify("parked", t.name, p.id)]
    every = notify_settings(wave).remind_every_s
    last = p.last_reminded or p.notified_at
    if now - last >= every:
        return [Notify("reminder", t.name, p.id)]
    return []


WAITING = "waiting"  # a detector state for dialogs only a human can answer (no prompt id)


def _step_dialog(t: TaskState, view: TaskView, now: float) -> list[Effect]:
    """A screen reported as ``waiting`` (a dialog that is not a tool permission, and that the
    detector gives no prompt for) is escalated once per occurrence, like a parked prompt."""
    if view.status != WAITING or view.prompts:
        t.dialog_notified = None
        return []
    if t.dialog_notified is not None:
        return []
    t.dialog_notified = now
    return [Notify("dialog", t.name)]


def _step_stuck(wave: WaveFile, t: TaskState, view: TaskView, now: float) -> list[Effect]:
    if view.status in ("busy", "prompt", WAITING) or t.last_change is None:
        return []
    if now - t.last_change < wave.stuck_after_s:
        return []
    if not t.stuck or t.stuck_notified is None:
        # flagged, then the runner died before the message left (kill -9 between the state
        # write and the send): the resumed runner sends it, so the human still hears of it
        t.stuck = True
        return [Notify("stuck", t.name)]
    every = notify_settings(wave).remind_every_s
    if now - t.stuck_notified >= every:
        return [Notify("stuck-reminder", t.name)]
    return []


def notify_settings(wave: WaveFile, fallback: NotifySettings | None = None) -> NotifySettings:
    """The wave's ``[notify]``, else paw.toml's, else the defaults."""
    return wave.notify or fallback or NotifySettings()


def after_check(
    spec: WaveTask, task: TaskState, run: CheckRun, now: float, room: TailRoom | None = None
) -> tuple[TaskState, tuple[Effect, ...]]:
    """A check finished: done, a follow-up with the failure's tail, or failed (pure).
    ``room``: what the follow-up must fit in and where the whole output was saved."""
    t = task.model_copy(deep=True)
    t.checks.append(run)
    if run.exit_code == 0:
        _finish(t, Phase.DONE, "check passed", now)
        return t, (Notify("task-done", t.name),)
    if t.followups < spec.retries:
        # Not typed from here: the next sweep types it once the agent is idle at an empty
        # input (a prompt shown while the check ran is answered first).
        t.followup_text = followup_text(spec.check or "", run, room)
        t.followup_why, t.followup_notified = None, None
        return t, ()
    after = f"{t.followups} follow-up{'' if t.followups == 1 else 's'}"
    _finish(t, Phase.FAILED, f"check failed (exit {run.exit_code}) after {after}", now)
    return t, (Notify("task-failed", t.name),)


FOLLOWUP_TAIL_LINES = 20
FOLLOWUP_MAX_CHARS = 1500


def followup_text(check: str, run: CheckRun, room: TailRoom | None = None) -> str:
    """The follow-up message: the check, its exit code and the tail of its output, on ONE line
    (typing a newline would submit early in most agent UIs). A check's colours are dropped and
    any other control character is shown as an escape: typed text holds none (a control
    character is a key of its own, and paw refuses to type it). With a ``room``, the tail is
    cut (its last lines kept, "(trimmed)" said) so the message shows whole in the agent's
    input, and the file holding the whole output is named."""
    room = room or TailRoom()

    def compose(tail: str) -> str:
        return (
            f"The check `{check}` failed (exit {run.exit_code}). Output tail: {tail} "
            f"-- {room.saved_words()}please fix this and finish your turn when the check passes."
        )

    return fitted_tail(run.tail, FOLLOWUP_TAIL_LINES, FOLLOWUP_MAX_CHARS, compose, room.fit)


def _finish(t: TaskState, phase: Phase, outcome: str, now: float) -> None:
    t.phase, t.outcome, t.ended_at = phase, outcome, now


def wave_finished(state: WaveState) -> bool:
    """Every task is done or failed."""
    return all(t.phase in FINAL for t in state.tasks)
