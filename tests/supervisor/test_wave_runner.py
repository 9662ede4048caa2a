"""The wave runner over fakes: edge-triggered messages, digests, rule approvals through the
approval path, and resuming without doing anything twice."""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from paw.core.wave import CheckResult, TaskState, WaveFile, WaveState
from paw.core.wave_report import Message
from paw.supervisor.crash_steps import (
    WAVE_END_STEPS,
    WAVE_FOLLOWUP_STEPS,
    WAVE_HANDED_STEPS,
    WAVE_STEPS,
)
from paw.supervisor.wave import WaveRunner
from tests.support.fakes import FakeTerminal
from tests.support.supervision import IDLE_SCREEN, Rig, demo_proc, demo_screen, make_rig

FILE = "/src/night.toml"


class Collect:
    """A Notifier that keeps what it is given."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.badges: list[int] = []

    def send(
        self,
        message: Message,
        on_attempt: Callable[[], None] | None = None,
        on_done: Callable[[], None] | None = None,
    ) -> None:
        if on_attempt is not None:
            on_attempt()
        self.messages.append(message)
        if on_done is not None:
            on_done()

    def badge(self, waiting: int) -> None:
        self.badges.append(waiting)


def _wave(n: int, **extra: object) -> WaveFile:
    data: dict[str, object] = {
        "name": "night", "agent": "scripted", "max_parallel": n, "settle_s": 0,
        "notify": {"digest_over": 3, "remind_every_s": 600},
        "tasks": [{"name": f"t{i}", "task": "x", "check": "true"} for i in range(n)],
    }  # fmt: skip
    data.update(extra)
    return WaveFile.model_validate(data)


def _runner(
    rig: Rig, wave: WaveFile, notes: Collect, checks: list[str] | None = None
) -> WaveRunner:
    for pid in range(1000, 1020):
        rig.procs.trees_by_root[pid] = [demo_proc(pid)]

    def run_check(command: str, worktree: str, timeout: float) -> CheckResult:
        del timeout
        if checks is not None:
            checks.append(worktree)
        return CheckResult(0 if command == "true" else 1, "ok", 0.1)

    texts = {t.name: t.task or "" for t in wave.tasks}
    return WaveRunner(
        rig.sup, wave, file=FILE, sha256="ab" * 32, texts=texts, store=rig.state,
        notifier=notes, run_check=run_check,
    )  # fmt: skip


def _panes(rig: Rig) -> dict[str, str]:
    return {p.info.tags["paw_agent"]: pid for pid, p in rig.terminal.panes.items()}


def test_many_prompts_at_once_give_one_digest_then_nothing_until_a_reminder() -> None:
    rig = make_rig()
    notes = Collect()
    runner = _runner(rig, _wave(5), notes)
    runner.tick()  # starts four: a sweep comes between starts
    assert len(rig.terminal.panes) == WaveRunner.STARTS_PER_SWEEP
    runner.tick()
    assert len(rig.terminal.panes) == 5
    for i, pane in enumerate(sorted(_panes(rig).values())):
        rig.terminal.set_screen(pane, demo_screen("shell", f"git push origin b{i}"))
    for _ in range(4):
        rig.now[0] += 1
        runner.tick()
    assert [m.event for m in notes.messages] == ["digest"]
    assert "5 prompts need a human" in notes.messages[0].title
    assert notes.badges[-1] == 5
    rig.now[0] += 601
    runner.tick()
    assert [m.event for m in notes.messages][1:] == ["reminder"] * 5
    runner.tick()
    assert len(notes.messages) == 6
    pane = _panes(rig)["night-t0"]
    rig.terminal.set_screen(pane, IDLE_SCREEN)
    rig.now[0] += 1
    runner.tick()
    answered = [m for m in notes.messages if m.event == "answered"]
    assert len(answered) == 1
    assert answered[0].task == "t0"
    assert notes.badges[-1] == 4


def test_a_standing_rule_approves_once_through_the_approval_path_and_resume_repeats_nothing() -> (
    None
):
    rig = make_rig()
    notes = Collect()
    wave = _wave(1, rules=[{"kind": "shell", "subject": "ls *"}])
    runner = _runner(rig, wave, notes)
    runner.tick()
    pane = _panes(rig)["night-t0"]
    rig.terminal.set_screen(pane, demo_screen("shell", "ls -la"))

    def answer(term: FakeTerminal, pane_id: str, keys: tuple[str, ...]) -> None:
        del keys
        term.set_screen(pane_id, "paw demo agent — task: t\nran: ls -la\ndemo> \n")

    rig.terminal.on_keys = answer
    rig.now[0] += 1
    runner.tick()
    assert rig.terminal.sent == [(pane, ("y",))]
    sends = [r for r in rig.audit.records if r["event"] == "approve" and r["decision"] == "send"]
    assert len(sends) == 1
    assert f"approved by rule 1 of {FILE} ({'ab' * 32})" in str(sends[0]["user"])
    ruled = [r for r in rig.audit.records if r["event"] == "wave-rule-approve"]
    assert rig.audit.records.index(ruled[0]) < rig.audit.records.index(sends[0])
    assert notes.messages == []  # nothing needed a human
    # A second runner (after a crash) over the same state: no new spawn, no second key.
    again = _runner(rig, wave, Collect())
    for _ in range(3):
        rig.now[0] += 1
        again.tick()
    assert rig.terminal.sent == [(pane, ("y",))]
    assert len(rig.terminal.panes) == 1
    assert again.state.task("t0").phase.value == "done"


def test_a_rule_never_approves_a_confirm_verdict() -> None:
    rig = make_rig()
    notes = Collect()
    runner = _runner(rig, _wave(1, rules=[{"kind": "shell", "subject": "*"}]), notes)
    runner.tick()
    rig.terminal.set_screen(_panes(rig)["night-t0"], demo_screen("shell", "git push origin main"))
    rig.now[0] += 1
    runner.tick()
    assert rig.terminal.sent == []
    assert [m.event for m in notes.messages] == ["parked"]
    assert "guard verdict is confirm" in notes.messages[0].body


def test_a_start_recorded_before_a_crash_is_not_repeated() -> None:
    rig = make_rig()
    wave = _wave(2)
    runner = _runner(rig, wave, Collect())
    runner.tick()
    assert len(rig.terminal.panes) == 2
    # As if the runner died after recording t0's start and after spawning it, and t1's start
    # was recorded but nothing was created.
    state = runner.state.model_dump(mode="json")
    state["tasks"][0]["phase"] = state["tasks"][1]["phase"] = "starting"
    rig.state.write("night", state)
    agents = rig.state.docs["agents"]["agents"]
    assert isinstance(agents, list)
    rig.state.write("agents", {"agents": [a for a in agents if a["name"] != "night-t1"]})
    rig.vcs.branches.discard("paw/night-t1")
    rig.vcs.worktrees = {k: v for k, v in rig.vcs.worktrees.items() if v != "paw/night-t1"}
    resumed = _runner(rig, wave, Collect())
    resumed.tick()
    starts = [r["task"] for r in rig.audit.records if r["event"] == "wave-task-start"]
    assert starts == ["t0", "t1", "t1"]  # t1 had created nothing: started again, once
    assert resumed.state.task("t0").phase.value == "running"
    spawns = [r["agent"] for r in rig.audit.records if r["event"] == "spawn"]
    assert spawns.count("night-t0") == 1


def test_a_rule_approval_cut_off_by_a_crash_is_left_to_a_human_never_retried() -> None:
    rig = make_rig()
    wave = _wave(1, rules=[{"kind": "shell", "subject": "ls *"}])
    runner = _runner(rig, wave, Collect())
    runner.tick()
    rig.terminal.set_screen(_panes(rig)["night-t0"], demo_screen("shell", "ls -la"))
    rig.now[0] += 1
    rig.sup.poll_once()  # the prompt is seen
    prompt_id = rig.sup.poll_once().prompts[0].id
    # As if the runner recorded the rule approval, then died before the key went.
    state = runner.state.model_dump(mode="json")
    state["tasks"][0]["prompts"] = [
        {
            "id": prompt_id,
            "kind": "shell",
            "subject": "ls -la",
            "question": "Run?",
            "verdict": "allow",
            "first_seen": rig.now[0],
            "route": "rule",
            "why": "rule 1",
            "rule": 1,
            "approving": True,
        }
    ]
    rig.state.write("night", state)
    notes = Collect()
    resumed = _runner(rig, wave, notes)
    rig.now[0] += 1
    resumed.tick()
    resumed.tick()
    assert rig.terminal.sent == []
    assert [m.event for m in notes.messages] == ["parked"]
    assert "cut off before its key was sent" in notes.messages[0].body


def test_a_long_check_does_not_stop_the_runner_from_parking_other_prompts() -> None:
    rig = make_rig()
    notes = Collect()
    wave = _wave(2)
    release = threading.Event()
    started = threading.Event()

    def slow_check(command: str, worktree: str, timeout: float) -> CheckResult:
        del command, worktree, timeout
        started.set()
        assert release.wait(30)
        return CheckResult(0, "ok", 30.0)

    runner = _runner(rig, wave, notes)
    runner.run_check = slow_check
    runner.tick()
    panes = _panes(rig)
    rig.terminal.set_screen(panes["night-t0"], IDLE_SCREEN)
    rig.now[0] += 1
    runner.tick()  # t0 idle: its check starts
    assert started.wait(10)
    rig.terminal.set_screen(panes["night-t1"], demo_screen("shell", "git push origin x"))
    rig.now[0] += 1
    runner.tick()
    assert [m.event for m in notes.messages] == ["parked"]
    assert runner.checking()
    release.set()
    deadline = time.monotonic() + 10
    while runner.checking() and time.monotonic() < deadline:
        rig.now[0] += 1
        runner.tick()
        time.sleep(0.05)
    assert runner.state.task("t0").phase.value == "done"


def test_the_state_says_while_a_check_runs_and_carries_budgets_for_readers() -> None:
    rig = make_rig()
    wave = _wave(
        1, budget_s=600, task_budget_s=300,
        tasks=[{"name": "t0", "task": "x", "check": "true", "retries": 2, "agent": "scripted"}],
    )  # fmt: skip
    release = threading.Event()

    def slow_check(command: str, worktree: str, timeout: float) -> CheckResult:
        del command, worktree, timeout
        assert release.wait(30)
        return CheckResult(0, "ok", 1.0)

    runner = _runner(rig, wave, Collect())
    runner.run_check = slow_check
    saved = rig.state.read("night")
    assert saved is not None
    assert saved["budget_s"] == 600
    task = saved["tasks"][0]  # type: ignore[index]
    assert (task["budget_s"], task["retries"], task["check"], task["kind"]) == (
        300, 2, "true", "scripted",
    )  # fmt: skip
    runner.tick()
    rig.terminal.set_screen(_panes(rig)["night-t0"], IDLE_SCREEN)
    rig.now[0] += 1
    runner.tick()  # idle: the check starts, and the state file says so at once
    saved = rig.state.read("night")
    assert saved is not None
    assert saved["tasks"][0]["checking_since"] == rig.now[0]  # type: ignore[index]
    # a runner that died while its check ran leaves no check running behind it
    assert _runner(rig, wave, Collect()).state.task("t0").checking_since is None
    release.set()
    deadline = time.monotonic() + 10
    while runner.checking() and time.monotonic() < deadline:
        rig.now[0] += 1
        runner.tick()
        time.sleep(0.05)
    saved = rig.state.read("night")
    assert saved is not None
    assert saved["tasks"][0]["phase"] == "done"  # type: ignore[index]
    assert saved["tasks"][0]["checking_since"] is None  # type: ignore[index]


class Dies(Collect):
    """A Notifier whose process dies: the first message's channel call never returns (its
    attempt is marked), the rest are never handed to a channel."""

    def send(
        self,
        message: Message,
        on_attempt: Callable[[], None] | None = None,
        on_done: Callable[[], None] | None = None,
    ) -> None:
        del on_done
        if not self.messages and on_attempt is not None:
            on_attempt()
        self.messages.append(message)


def test_messages_recorded_but_never_handed_to_a_channel_are_delivered_on_resume_once() -> None:
    """Issue 29 (6): the outbox. The message whose delivery was cut off may have arrived: it
    is not sent again (audited as uncertain); the ones never attempted are sent on resume,
    once; a second resume sends nothing."""
    rig = make_rig()
    wave = _wave(2)
    dead = Dies()
    runner = _runner(rig, wave, dead)
    runner.tick()
    panes = _panes(rig)
    for agent in ("night-t0", "night-t1"):
        rig.terminal.set_screen(panes[agent], demo_screen("shell", "git push origin main"))
    rig.now[0] += 1
    runner.tick()
    assert sorted(m.title for m in dead.messages) == [
        "paw wave night (app): t0 needs a human: shell git push origin main",
        "paw wave night (app): t1 needs a human: shell git push origin main",
    ]
    notes = Collect()
    resumed = _runner(rig, wave, notes)
    resumed.tick()
    assert [m.title for m in notes.messages] == [dead.messages[1].title]
    uncertain = [r for r in rig.audit.records if r["event"] == "wave-notify-uncertain"]
    assert [r["title"] for r in uncertain] == [dead.messages[0].title]
    again = Collect()
    _runner(rig, wave, again).tick()
    assert again.messages == []
    resumed.save()  # a delivered message keeps its record, not its text
    kept = {str(m["id"]): "outgoing_body" in m for m in resumed.state.messages}
    assert kept == {"night-1": True, "night-2": False}  # the uncertain one, the delivered one


def test_a_refused_follow_up_is_not_counted_waits_and_is_announced_once() -> None:
    """Issue 29 (1): any refusal of the follow-up's send leaves it waiting, never failed."""
    from paw.errors import PawError

    rig = make_rig()
    wave = _wave(1, tasks=[{"name": "t0", "task": "x", "check": "false", "retries": 1}])
    notes = Collect()
    runner = _runner(rig, wave, notes)
    refusals = [PawError("agent 'night-t0' has text in its input line")]
    typed: list[str] = []

    def send(agent: str, text: str, *, via: str = "send") -> None:
        del agent, via
        if refusals:
            raise refusals.pop()
        typed.append(text)

    runner.sup.send = send  # type: ignore[method-assign]
    runner.tick()
    pane = _panes(rig)["night-t0"]
    rig.terminal.set_screen(pane, IDLE_SCREEN + "\n")
    for _ in range(40):
        rig.now[0] += 1
        runner.tick()
        if typed:
            break
        time.sleep(0.02)  # the check thread (a fake check: it returns at once)
    task = runner.state.task("t0")
    assert task.phase.value == "running", task.outcome
    assert task.followups == 1
    assert len(typed) == 1
    assert [m.event for m in notes.messages] == ["parked"]
    assert "has text in its input line" in notes.messages[0].body
    events = [r["event"] for r in rig.audit.records]
    assert events.count("wave-followup-refused") == 1
    assert events.count("wave-followup") == 2


@pytest.mark.parametrize("arrived", [False, True])
@pytest.mark.parametrize("step", WAVE_FOLLOWUP_STEPS)
def test_a_follow_up_cut_off_by_a_kill_is_typed_once_when_the_screen_proves_it_never_arrived(
    step: str, arrived: bool
) -> None:
    """The runner dies after it counted (and audited) a follow-up, before anything was typed.
    The next runner looks at the agent: the same idle screen as before, long enough, proves the
    text never arrived, and it is typed once (through the send's own proof). A screen that
    changed since (the text in the input, a turn taken) proves it did: nothing typed again."""
    rig = make_rig()
    wave = _wave(1, tasks=[{"name": "t0", "task": "x", "check": "false", "retries": 1}])
    runner = _runner(rig, wave, Collect())
    typed: list[str] = []

    def send(agent: str, text: str, *, via: str = "send") -> None:
        del agent, via
        typed.append(text)

    runner.tick()
    pane = _panes(rig)["night-t0"]
    rig.terminal.set_screen(pane, IDLE_SCREEN + "\n")
    _dies_at(runner, step)
    runner.sup.send = send  # type: ignore[method-assign]
    with pytest.raises(Killed):
        _until_killed(runner, rig, early=False)
    assert typed == []
    left = runner.state.task("t0")
    assert left.followups == 1
    assert left.followup_typing is not None

    again = _runner(rig, wave, Collect())
    again.sup.send = send  # type: ignore[method-assign]
    if arrived:  # the agent took the turn: its screen is another one
        rig.terminal.set_screen(pane, "you said: fix it\n" + IDLE_SCREEN)
    deadline = time.monotonic() + 60  # a check runs on its own thread
    while time.monotonic() < deadline and not typed and rig.now[0] < 10_000:
        rig.now[0] += 1
        again.tick()
        if arrived and len(again.state.task("t0").checks) >= 2:
            break
        time.sleep(0.01)
    task = again.state.task("t0")
    events = [r["event"] for r in rig.audit.records]
    if arrived:
        assert typed == []
        assert task.followup_typing is None
        assert task.followups == 1
        assert len(task.checks) == 2, task  # the turn went on: its check ran again
        assert events.count("wave-followup") == 1
    else:
        assert len(typed) == 1
        assert typed[0] == left.followup_typing
        assert task.followups == 1  # the same follow-up, typed once
        assert task.followup_typing is None
        assert events.count("wave-followup") == 2  # counted twice, typed once


def test_a_follow_up_typed_but_never_seen_is_never_typed_again_and_waits_for_the_agent() -> None:
    """paw typed the follow-up and never saw it in the input (no Enter pressed; opencode on a
    loaded machine drew one 40 s late). Before, the runner took it for not typed and typed it
    again once the input still looked empty: two copies in the input. Now it is counted, never
    typed again, no check runs, a human hears of it once; once the agent is seen working (a
    human pressed Enter), the turn goes on and the check runs again."""
    from paw.errors import TypingRefused

    rig = make_rig()
    wave = _wave(1, tasks=[{"name": "t0", "task": "x", "check": "false", "retries": 2}])
    notes = Collect()
    runner = _runner(rig, wave, notes)
    attempts: list[str] = []

    def send(agent: str, text: str, *, via: str = "send") -> None:
        del agent, via
        attempts.append(text)
        raise TypingRefused(
            "the text typed into agent 'night-t0' never showed in its input line",
            reason="echo-missing", typed=True,
        )  # fmt: skip

    runner.sup.send = send  # type: ignore[method-assign]
    runner.tick()
    pane = _panes(rig)["night-t0"]
    rig.terminal.set_screen(pane, IDLE_SCREEN + "\n")
    deadline = time.monotonic() + 60  # a check runs on its own thread
    while time.monotonic() < deadline and not attempts:
        rig.now[0] += 1
        runner.tick()
        time.sleep(0.01)
    assert len(attempts) == 1
    for _ in range(30):  # the input still looks empty (the echo has not come): nothing more
        rig.now[0] += 1
        runner.tick()
    task = runner.state.task("t0")
    assert len(attempts) == 1, attempts
    assert (task.phase.value, task.followups, len(task.checks)) == ("running", 1, 1)
    assert task.followup_unconfirmed
    assert [m.event for m in notes.messages] == ["parked"]
    assert "never saw it arrive" in notes.messages[0].body
    # a human pressed Enter: the agent works, goes idle again, and its check runs again
    rig.terminal.set_screen(pane, demo_screen("shell", "ls"))
    rig.now[0] += 1
    runner.tick()
    rig.terminal.set_screen(pane, "you said: fix it\n" + IDLE_SCREEN)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(runner.state.task("t0").checks) < 2:
        rig.now[0] += 1
        runner.tick()
        time.sleep(0.01)
    assert len(runner.state.task("t0").checks) == 2  # (it fails again: a second follow-up)


class CodexLog:
    """A real Codex session log on disk (today's, below ``home``) of the wave's first agent,
    and the usage paw reads from it for a task (a runner's ``usage_of``)."""

    def __init__(self, rig: Rig, home: Path) -> None:
        from paw.adapters.usage_cache import UsageCache

        self.rig, self.home = rig, home
        self.day = home / "sessions" / time.strftime("%Y/%m/%d")
        self.day.mkdir(parents=True)
        self.cache = UsageCache()

    def usage_of(self, task: TaskState) -> tuple[int | None, float | None]:
        from paw.adapters.usage import read_usage

        self.cache.new_look()
        worktree = self.rig.sup.ctx.worktree_path(task.agent)
        env = {"CODEX_HOME": str(self.home)}
        found = read_usage("codex", worktree, env, None, self.cache).usage
        return (None, None) if found is None else (found.total_tokens, found.cost_usd)

    def used(self, tokens: int) -> None:
        """The agent ``night-t0`` has used ``tokens`` in all."""
        cwd = self.rig.sup.ctx.worktree_path("night-t0")
        meta = {"type": "session_meta", "payload": {"id": "s", "cwd": cwd}}
        usage = {"input_tokens": tokens, "cached_input_tokens": 0, "output_tokens": 0}
        info = {"total_token_usage": usage}
        count = {"type": "event_msg", "payload": {"type": "token_count", "info": info}}
        text = json.dumps(meta) + "\n" + json.dumps(count) + "\n"
        (self.day / "rollout-1.jsonl").write_text(text)


def test_a_task_over_its_token_budget_is_warned_at_80_then_parked_never_killed(
    tmp_path: Path,
) -> None:
    """The usage is read from a real Codex session log on disk (the runner over fakes)."""
    from paw.core.wave import Phase

    rig = make_rig()
    notes = Collect()
    checks: list[str] = []
    wave = _wave(1, task_budget_tokens=1000)
    runner = _runner(rig, wave, notes, checks)
    log = CodexLog(rig, tmp_path / "codex")
    runner.usage_of = log.usage_of
    runner.tick()  # starts t0
    for tokens, events in ((700, []), (850, ["budget-warning"]), (900, []),
                           (1200, ["budget-parked"]), (1500, [])):  # fmt: skip
        log.used(tokens)
        seen = len(notes.messages)
        rig.now[0] += 1
        runner.tick()
        assert [m.event for m in notes.messages[seen:]] == events, tokens
    parked = next(m for m in notes.messages if m.event == "budget-parked")
    assert "over its budget: 1,200 of 1,000 tokens" in parked.title
    assert "paw attach night-t0" in parked.body
    # parked: idle at its input, it is not checked nor finished, and its agent still runs
    rig.terminal.set_screen(_panes(rig)["night-t0"], IDLE_SCREEN)
    for _ in range(5):
        rig.now[0] += 30
        runner.tick()
    task = runner.state.task("t0")
    assert (task.phase, checks) == (Phase.RUNNING, [])
    assert task.budget_parked == "over its budget: 1,200 of 1,000 tokens"
    assert "night-t0" in _panes(rig)
    from paw.core.wave_report import report_data

    row = report_data(runner.state, {}, rig.now[0])["tasks"][0]  # type: ignore[index]
    assert (row["status"], row["budget_parked"]) == ("parked", task.budget_parked)
    # a runner resumed on the same state says nothing again
    again = _runner(rig, wave, notes, checks)
    again.usage_of = log.usage_of
    seen = len(notes.messages)
    rig.now[0] += 1
    again.tick()
    assert [m.event for m in notes.messages[seen:]] == []


def test_a_wave_over_its_token_budget_warns_at_80_starts_nothing_more_and_parks_its_tasks(
    tmp_path: Path,
) -> None:
    """The wave's own budget, summed over its tasks' agents (a real Codex log on disk)."""
    from paw.core.wave import Phase

    rig = make_rig()
    notes = Collect()
    checks: list[str] = []
    wave = _wave(2, max_parallel=1, budget_tokens=1000)
    runner = _runner(rig, wave, notes, checks)
    log = CodexLog(rig, tmp_path / "codex")
    runner.usage_of = log.usage_of
    runner.tick()  # starts t0 (one at a time)
    events: list[str] = []
    for tokens in (500, 850, 900, 1100, 1100, 1200):
        log.used(tokens)
        seen = len(notes.messages)
        rig.now[0] += 1
        runner.tick()
        events += [m.event for m in notes.messages[seen:]]
    assert events == ["wave-budget-warning", "wave-over-budget", "task-failed", "budget-parked"]
    t0, t1 = runner.state.task("t0"), runner.state.task("t1")
    assert t1.phase is Phase.FAILED
    assert t1.outcome == "not started: the wave ran over its budget"
    assert t0.phase is Phase.RUNNING  # parked, never killed
    assert t0.budget_parked == "the wave is over its budget: 1,100 of 1,000 tokens"
    assert "night-t0" in _panes(rig)
    assert checks == []


class Killed(BaseException):
    """The runner died at a crash point (``kill -9``): nothing after that line ran."""


def _dies_at(runner: WaveRunner, step: str) -> None:
    """Make ``runner`` die at ``step`` (its state store is what the next runner finds)."""

    def fault(at: str) -> None:
        if at == step:
            raise Killed(at)

    runner.ctx = runner.outbox.ctx = dataclasses.replace(runner.ctx, fault=fault)


def _until_killed(runner: WaveRunner, rig: Rig, *, early: bool) -> None:
    deadline = time.monotonic() + 60  # a check runs on its own thread
    while time.monotonic() < deadline:
        rig.now[0] += 1
        if early:
            runner.park_early(rig.sup.poll_once())
        else:
            runner.tick()
        time.sleep(0.01)


@pytest.mark.parametrize("step", WAVE_STEPS)
@pytest.mark.parametrize("where", ["sweep", "early-look", "check-done"])
def test_a_decision_killed_before_or_after_its_message_is_recorded_is_announced_once(
    where: str, step: str
) -> None:
    """The wave's crash windows: a prompt parked for a human (on a sweep, or on a channel's
    early look) or a task done by its check, the runner killed right after the decision was
    saved (``wave:decided``) or right after its message was recorded (``wave:recorded``):
    the next runner sends that message once, and the one after it nothing more."""
    rig = make_rig()
    wave = _wave(1 if where == "check-done" else 2)
    dead = Collect()
    runner = _runner(rig, wave, dead)
    runner.tick()  # starts the tasks
    _dies_at(runner, step)
    for agent, pane in _panes(rig).items():
        shell = demo_screen("shell", f"git push origin {agent}")
        rig.terminal.set_screen(pane, IDLE_SCREEN if where == "check-done" else shell)
    with pytest.raises(Killed):
        _until_killed(runner, rig, early=where == "early-look")
    assert dead.messages == []  # killed before any message reached a channel
    resumed = Collect()
    for _ in range(2):
        again = _runner(rig, wave, resumed)
        rig.now[0] += 1
        again.tick()
    events = sorted(
        (m.event, m.task or "") for m in resumed.messages if m.event in ("parked", "task-done")
    )
    if where == "check-done":
        assert events == [("task-done", "t0")]
    else:
        assert events == [("parked", "t0"), ("parked", "t1")]
    assert again.state.due == []
    assert WaveState.model_validate(rig.state.read("night")).due == []


def _notified(rig: Rig) -> dict[str, int]:
    """``wave-notify`` records per message id."""
    ids = [str(r["id"]) for r in rig.audit.records if r["event"] == "wave-notify"]
    return {key: ids.count(key) for key in ids}


@pytest.mark.parametrize("step", [*WAVE_STEPS[1:], *WAVE_HANDED_STEPS])
def test_a_message_is_audited_before_any_channel_has_it_and_once_across_a_kill(step: str) -> None:
    """Record, then act: killed after its messages were recorded (``wave:recorded``), audited
    (``wave:audited``) or handed to the delivery thread (``wave:handed``), every message a
    channel got has its ``wave-notify`` already; the resumed runners deliver the rest, and each
    message ends with exactly one ``wave-notify`` and one delivery."""
    rig = make_rig()
    wave = _wave(2)
    dead = Collect()
    runner = _runner(rig, wave, dead)
    runner.tick()
    _dies_at(runner, step)
    for agent, pane in _panes(rig).items():
        rig.terminal.set_screen(pane, demo_screen("shell", f"git push origin {agent}"))
    with pytest.raises(Killed):
        _until_killed(runner, rig, early=False)
    audited = {str(r["title"]) for r in rig.audit.records if r["event"] == "wave-notify"}
    assert {m.title for m in dead.messages} <= audited  # none reached a channel unaudited
    resumed = Collect()
    for _ in range(2):
        again = _runner(rig, wave, resumed)
        rig.now[0] += 1
        again.tick()
    sent = sorted(m.title for m in dead.messages + resumed.messages if m.event == "parked")
    assert sent == [
        "paw wave night (app): t0 needs a human: shell git push origin night-t0",
        "paw wave night (app): t1 needs a human: shell git push origin night-t1",
    ]
    ids = [str(m["id"]) for m in again.state.messages]
    assert _notified(rig) == dict.fromkeys(ids, 1)


@pytest.mark.parametrize("step", WAVE_END_STEPS)
def test_the_end_of_a_wave_is_recorded_once_whatever_line_a_kill_hits(step: str) -> None:
    """Killed after the end was decided and saved (``wave:ending``) or after its ``wave-end``
    record (``wave:end-recorded``): the resumed runner ends the wave with exactly one
    ``wave-end`` record and one "done" message, and a runner after it adds nothing."""
    rig = make_rig()
    wave = _wave(1)
    dead = Collect()
    runner = _runner(rig, wave, dead)
    runner.tick()
    _dies_at(runner, step)
    rig.terminal.set_screen(_panes(rig)["night-t0"], IDLE_SCREEN)
    with pytest.raises(Killed):
        _until_killed(runner, rig, early=False)
    left = WaveState.model_validate(rig.state.read("night"))
    assert (left.status, left.ending is not None) == ("running", True)
    resumed = Collect()
    for _ in range(3):
        again = _runner(rig, wave, resumed)
        rig.now[0] += 1
        assert again.tick()
    ends = [r for r in rig.audit.records if r["event"] == "wave-end"]
    assert [r["status"] for r in ends] == ["done"]
    done = [m for m in dead.messages + resumed.messages if m.event == "wave-done"]
    assert len(done) == 1
    final = WaveState.model_validate(rig.state.read("night"))
    assert (final.status, final.ending) == ("done", None)
    assert _notified(rig) == dict.fromkeys((str(m["id"]) for m in final.messages), 1)


class Lost(Collect):
    """A Notifier whose process dies before its delivery thread calls any channel."""

    def send(
        self,
        message: Message,
        on_attempt: Callable[[], None] | None = None,
        on_done: Callable[[], None] | None = None,
    ) -> None:
        del on_attempt, on_done
        self.messages.append(message)


def test_the_last_message_of_an_ended_wave_is_delivered_by_the_next_run() -> None:
    """The runner died after the wave's end was written, before a channel had its messages:
    the next run of the wave (ended) delivers them, once."""
    rig = make_rig()
    wave = _wave(1)
    lost = Lost()
    runner = _runner(rig, wave, lost)
    runner.tick()
    rig.terminal.set_screen(_panes(rig)["night-t0"], IDLE_SCREEN)
    _until_ended(runner, rig)
    assert [m.event for m in lost.messages] == ["task-done", "wave-done"]
    notes = Collect()
    for _ in range(2):
        assert _runner(rig, wave, notes).tick()
    assert [m.event for m in notes.messages] == ["task-done", "wave-done"]


def _until_ended(runner: WaveRunner, rig: Rig) -> None:
    deadline = time.monotonic() + 60  # a check runs on its own thread
    while time.monotonic() < deadline:
        rig.now[0] += 1
        if runner.tick():
            return
        time.sleep(0.01)
    raise AssertionError("the wave did not end")
