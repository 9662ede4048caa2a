"""The merge queue's decisions (paw.core.land): pure, so tested on values."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from paw.core.land import (
    AgentSeen,
    Finished,
    Land,
    LandState,
    LandStatus,
    Outcome,
    SendBack,
    Step,
    TaskLanding,
    Wait,
    after_attempt,
    begin,
    decide,
    enqueue,
    followup_counted,
    followup_refused,
    followup_typed,
    land_message,
    landing_data,
    landing_markdown,
    queue_order,
    recover,
)
from paw.core.land_respawn import Respawn, respawn_counted, respawn_text, respawned
from paw.core.output_tail import TRIMMED, TailRoom
from paw.core.typed_room import Fit, wrapped_rows
from paw.core.wave import Phase, WaveFile, initial_state


def _wave(**extra: object) -> WaveFile:
    tasks = [
        {"name": "a", "task": "a", "retries": 1},
        {"name": "b", "task": "b", "retries": 0},
        {"name": "c", "task": "c", "depends_on": ["a"]},
        {"name": "d", "task": "d", "depends_on": ["b"]},
    ]
    return WaveFile.model_validate({"name": "w", "tasks": tasks, **extra})


def _queue(wave: WaveFile, ended: dict[str, float]) -> tuple[list[str], LandState]:
    state = initial_state(wave, "w.toml", "0", 0.0)
    for t in state.tasks:
        if t.name in ended:
            t.phase, t.ended_at = Phase.DONE, ended[t.name]
    order = queue_order(wave, state)
    land = LandState(wave="w", into="main", strategy="rebase", started_at=0.0)
    enqueue(land, order, {t.name: t.agent for t in state.tasks}, 1.0)
    return order, land


def test_order_is_dependencies_first_then_finishing_order() -> None:
    wave = _wave()
    order, _land = _queue(wave, {"c": 1.0, "d": 2.0, "b": 3.0, "a": 4.0})
    assert order == ["b", "d", "a", "c"]  # b finished before a; c and d after their deps


def test_not_done_tasks_never_enter_the_queue() -> None:
    order, land = _queue(_wave(), {"a": 1.0})
    assert order == ["a"]
    assert [t.name for t in land.tasks] == ["a"]


def test_a_parked_task_blocks_its_dependents_only() -> None:
    wave = _wave()
    _order, land = _queue(wave, {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0})
    assert decide(wave, land, {}, 2.0) == Land("a")
    begin(land, "a", "/s", "base", "head", 2.0)
    after_attempt(wave.task("a"), land, Outcome("landed", commits=("x",)), "head", 3.0, "rebase")
    assert decide(wave, land, {}, 3.0) == Land("b")
    begin(land, "b", "/s", "base", "head", 3.0)
    t = after_attempt(
        wave.task("b"), land, Outcome("conflict", files=("f.txt",)), "head", 4.0, "rebase"
    )
    assert t.status is LandStatus.PARKED  # retries = 0: no follow-up
    assert "conflict on rebase in f.txt" in (t.why or "")
    assert decide(wave, land, {}, 4.0) == Land("c")  # independent of b: keeps landing
    begin(land, "c", "/s", "base", "head", 4.0)
    after_attempt(wave.task("c"), land, Outcome("landed"), "head", 5.0, "rebase")
    decision = decide(wave, land, {}, 5.0)
    assert isinstance(decision, Finished)
    assert decision.blocked == {"d": "depends on b, which is parked"}
    rows = landing_data(land, wave, 6.0)["tasks"]
    assert isinstance(rows, list)
    assert {r["task"]: r["status"] for r in rows}["d"] == "blocked"


def test_a_failing_check_goes_back_with_its_tail_then_is_parked() -> None:
    wave = _wave()
    _order, land = _queue(wave, {"a": 1.0})
    begin(land, "a", "/s", "base", "h1", 1.0)
    failed = Outcome("check-failed", check="make test", exit_code=2, output="ok\n\x1b[31mFAIL x\n")
    t = after_attempt(wave.task("a"), land, failed, "h1", 2.0, "rebase")
    assert t.status is LandStatus.SENT_BACK
    assert t.followup_text is not None
    assert "\n" not in t.followup_text
    assert "\x1b" not in t.followup_text
    assert "`make test` failed (exit 2)" in t.followup_text
    assert "FAIL x" in t.followup_text
    assert "git rebase main" in t.followup_text
    idle = {"a": AgentSeen("h1", "idle")}
    assert decide(wave, land, idle, 2.0) == SendBack("a", t.followup_text)
    assert decide(wave, land, {"a": AgentSeen("h1", "busy")}, 2.0) == Wait(("a",))
    followup_counted(land, "a", 3.0)
    assert decide(wave, land, idle, 3.0) == Wait(("a",))  # no new commit yet
    assert decide(wave, land, {"a": AgentSeen("h2", "busy")}, 3.0) == Wait(("a",))
    assert decide(wave, land, {"a": AgentSeen("h2", "idle")}, 4.0) == Land("a")
    begin(land, "a", "/s", "base", "h2", 4.0)
    t = after_attempt(wave.task("a"), land, failed, "h2", 5.0, "rebase")
    assert t.status is LandStatus.PARKED
    assert t.tail.endswith("FAIL x")
    assert "after 1 follow-up" in (t.why or "")


def test_a_refused_follow_up_is_not_counted_and_times_out_to_parked() -> None:
    wave = _wave()
    _order, land = _queue(wave, {"a": 1.0})
    begin(land, "a", "/s", "base", "h1", 1.0)
    t = after_attempt(wave.task("a"), land, Outcome("conflict", files=("x",)), "h1", 2.0, "merge")
    text = t.followup_text or ""
    assert "git merge main" in text
    followup_counted(land, "a", 2.0)
    followup_refused(land, "a", text, "the input is not empty", 2.0)
    assert t.followups == 0
    assert decide(wave, land, {"a": AgentSeen("h1", "idle")}, 2.5) == SendBack("a", text)
    late = 2.0 + wave.land.wait_s + 1
    assert isinstance(decide(wave, land, {"a": AgentSeen("h1", "busy")}, late), Finished)
    assert t.status is LandStatus.PARKED
    assert "never typed" in (t.why or "")


def test_an_agent_gone_is_respawned_once_then_the_task_is_parked() -> None:
    wave = _wave()
    _order, land = _queue(wave, {"a": 1.0})
    begin(land, "a", "/s", "base", "h1", 1.0)
    after_attempt(wave.task("a"), land, Outcome("conflict", files=("x",)), "h1", 2.0, "rebase")
    t = land.tasks[0]
    followup = t.followup_text
    assert decide(wave, land, {"a": AgentSeen("h1", "exited")}, 3.0) == Respawn("a")
    assert respawn_counted(t, 3.0)
    # killed during the respawn: done again, not counted again
    assert decide(wave, land, {"a": AgentSeen("h1", "gone")}, 4.0) == Respawn("a")
    assert not respawn_counted(t, 4.0)
    respawned(t, "main", "rebase")
    assert (t.respawns, t.respawn_pending, t.followup_text) == (1, False, followup)
    # the follow-up typed, then the new agent is gone too: parked (retries = 1)
    followup_counted(land, "a", 5.0)
    assert isinstance(decide(wave, land, {"a": AgentSeen("h1", "exited")}, 6.0), Finished)
    assert t.status is LandStatus.PARKED
    assert "agent is gone" in (t.why or "")


def test_a_respawned_agent_gets_the_follow_up_again_and_it_is_not_counted_twice() -> None:
    wave = _wave()
    _order, land = _queue(wave, {"a": 1.0})
    begin(land, "a", "/s", "base", "h1", 1.0)
    after_attempt(wave.task("a"), land, Outcome("conflict", files=("x",)), "h1", 2.0, "rebase")
    t = followup_counted(land, "a", 3.0)  # typed to the agent that then went away
    assert (t.followups, t.followup_text) == (1, None)
    respawn_counted(t, 4.0)
    respawned(t, "main", "rebase")
    assert t.followups == 0
    assert t.followup_text == respawn_text(t, "main", "rebase")
    assert "conflicts with main (rebase): x" in t.followup_text
    assert "\n" not in t.followup_text


def test_a_gone_branch_or_a_replaced_agent_parks_at_once() -> None:
    wave = _wave()
    _order, land = _queue(wave, {"a": 1.0})
    begin(land, "a", "/s", "base", "h1", 1.0)
    after_attempt(wave.task("a"), land, Outcome("conflict", files=("x",)), "h1", 2.0, "rebase")
    decide(wave, land, {"a": AgentSeen(None, "exited")}, 3.0)
    assert land.tasks[0].status is LandStatus.PARKED
    assert "branch is gone" in (land.tasks[0].why or "")
    _order, land = _queue(wave, {"a": 1.0})
    begin(land, "a", "/s", "base", "h1", 1.0)
    after_attempt(wave.task("a"), land, Outcome("conflict", files=("x",)), "h1", 2.0, "rebase")
    decide(wave, land, {"a": AgentSeen("h1", "replaced")}, 3.0)
    assert land.tasks[0].status is LandStatus.PARKED


@pytest.mark.parametrize(
    ("step", "base_now", "kind"),
    [
        (Step.SCRATCH, "base", "redo"),
        (Step.APPLIED, "base", "redo"),
        (Step.MOVING, "base", "redo"),  # the move never happened
        (Step.MOVING, "result", "landed"),  # it did: recorded, never done twice
        (Step.APPLIED, "result", "redo"),  # not recorded as moving: not ours
        (Step.MOVING, "other", "redo"),
    ],
)
def test_recovery_counts_a_landing_only_when_the_base_holds_its_result(
    step: Step, base_now: str, kind: str
) -> None:
    wave = _wave()
    _order, land = _queue(wave, {"a": 1.0})
    attempt = begin(land, "a", "/s", "base", "head", 1.0)
    attempt.step, attempt.result_sha = step, "result"
    found = recover(land, base_now)
    assert found is not None
    assert found.kind == kind


def test_the_wave_file_takes_land_settings_and_refuses_bad_ones() -> None:
    wave = _wave(land={"strategy": "merge", "into": "trunk", "wait_s": 60}, land_check="make")
    assert wave.land.strategy == "merge"
    assert wave.land_check == "make"
    assert _wave().land.strategy == "rebase"
    with pytest.raises(ValidationError):
        _wave(land={"strategy": "squash"})
    with pytest.raises(ValidationError):
        _wave(land={"into": "--force"})


def test_messages_and_markdown_say_what_changed() -> None:
    wave = _wave()
    _order, land = _queue(wave, {"b": 1.0})
    begin(land, "b", "/s", "base", "h", 1.0)
    after_attempt(wave.task("b"), land, Outcome("conflict", files=("f.py",)), "h", 2.0, "rebase")
    message = land_message(land, "b", "conflict", repo="/r/shop")
    assert message.level == "warning"
    assert "conflicting files: f.py" in message.body
    assert "(shop)" in message.title
    text = landing_markdown(landing_data(land, wave, 3.0))
    assert "| b | parked: conflict on rebase |" in text


def test_a_follow_up_refused_again_for_the_same_reason_is_told_once() -> None:
    wave = _wave()
    _order, land = _queue(wave, {"a": 1.0})
    begin(land, "a", "/s", "base", "h1", 1.0)
    t = after_attempt(wave.task("a"), land, Outcome("conflict", files=("x",)), "h1", 2.0, "rebase")
    text = t.followup_text or ""
    told = len(land.events)
    for now in (3.0, 4.0, 5.0):
        followup_counted(land, "a", now)
        followup_refused(land, "a", text, "the input is not empty", now)
    assert [e["text"] for e in land.events[told:]] == [
        "follow-up not typed: the input is not empty"
    ]
    followup_counted(land, "a", 6.0)
    followup_typed(land, "a", 6.0)
    assert land.events[-1]["text"] == "follow-up 1 typed"
    assert t.followups == 1


def test_a_task_that_conflicted_was_sent_back_then_landed_keeps_its_history() -> None:
    """Landing clears the problem of the attempt before; the report still says what it took:
    ``landed after 1 conflict`` (Markdown), ``history`` and ``setbacks`` (JSON), and the time it
    spent in the queue, from entering it to landing."""
    wave = _wave()
    _order, land = _queue(wave, {"a": 1.0})  # a entered the queue at 1.0
    assert decide(wave, land, {}, 1.0) == Land("a")
    begin(land, "a", "/s", "base", "h1", 2.0)
    t = after_attempt(wave.task("a"), land, Outcome("conflict", files=("x",)), "h1", 3.0, "rebase")
    assert t.status is LandStatus.SENT_BACK
    followup_counted(land, "a", 4.0)
    followup_typed(land, "a", 4.0)
    assert decide(wave, land, {"a": AgentSeen("h2", "idle")}, 6.0) == Land("a")  # came back
    begin(land, "a", "/s", "base2", "h2", 7.0)
    after_attempt(wave.task("a"), land, Outcome("landed", commits=("c1",)), "h2", 9.5, "rebase")

    data = landing_data(land, wave, 100.0)
    row = data["tasks"][0]  # type: ignore[index]
    assert row["status"] == "landed"
    assert row["problem"] is None  # the last attempt's problem is gone...
    assert row["history"] == "1 conflict"  # ...its history is not
    assert [(s["kind"], s["files"]) for s in row["setbacks"]] == [("conflict", ["x"])]
    assert row["queued_s"] == 8.5  # 1.0 (entered) to 9.5 (landed), not to now
    assert (row["attempts"], row["followups"]) == (2, 1)
    assert "| a | landed after 1 conflict | 2 | 1 | 8s | c1 |" in landing_markdown(data)
    assert land.events[-1]["text"] == "landed: 1 commit (after 1 conflict)"


@pytest.mark.parametrize(
    "branch",
    ["main", "release/main", "team/production", "refs/heads/trunk", "feature/x", "main-2", "x"],
)
def test_the_lander_tells_a_protected_branch_as_the_guard_does(branch: str) -> None:
    """``paw wave land --push`` and the guard ask the same rule: the lander refuses a push
    without a standing rule exactly where the guard blocks a force push (``release/main`` is
    protected for both: its last path segment is ``main``)."""
    from paw.core.config import GuardConfig
    from paw.core.guard.shell import evaluate_command
    from paw.core.land import push_refusal
    from paw.core.models import Action

    config = GuardConfig()
    wave = _wave()
    refused = push_refusal(wave, branch, "origin", config.protected_branches) is not None
    verdict = evaluate_command(f"git push --force origin {branch}", config=config)
    assert refused == (verdict.action is Action.BLOCK), verdict
    assert refused == (branch.rsplit("/", 1)[-1] in config.protected_branches)


def test_a_sent_back_agent_at_a_prompt_is_told_once_per_prompt() -> None:
    wave = _wave()
    _order, land = _queue(wave, {"a": 1.0})
    begin(land, "a", "/s", "base", "h1", 1.0)
    after_attempt(wave.task("a"), land, Outcome("conflict", files=("x",)), "h1", 2.0, "rebase")
    told = len(land.events)
    asking = AgentSeen("h1", "prompt", "p1", "shell rm -rf build (paw approve p1 / paw deny p1)")
    for now in (3.0, 4.0, 5.0):  # every look while it asks: said once
        assert decide(wave, land, {"a": asking}, now) == Wait(("a",))
    assert [(e["text"], e.get("kind")) for e in land.events[told:]] == [
        ("waiting on a prompt: its agent shows shell rm -rf build (paw approve p1 / paw deny p1)",
         "prompt"),
    ]  # fmt: skip
    message = land_message(land, "a", str(land.events[-1]["text"]), kind="prompt")
    assert message.level == "warning"
    decide(wave, land, {"a": AgentSeen("h1", "busy")}, 6.0)  # answered
    decide(wave, land, {"a": AgentSeen("h1", "waiting")}, 7.0)  # a dialog now: said again
    assert land.events[-1]["text"] == "waiting on a prompt: its agent shows a dialog"
    assert len(land.events) == told + 2


def test_the_agent_of_a_task_is_its_landings_else_the_waves_name_for_it() -> None:
    land = LandState(wave="night", into="main", strategy="rebase", started_at=0.0)
    land.tasks.append(TaskLanding(name="fix", agent="other-fix", queued_at=0.0))
    assert land.agent_of("fix") == "other-fix"
    assert land.agent_of("docs") == "night-docs"  # never the bare task name


def test_a_respawned_agents_check_follow_up_is_sized_and_names_the_saved_output() -> None:
    wave = _wave()
    _order, land = _queue(wave, {"a": 1.0})
    begin(land, "a", "/s", "base", "h1", 1.0)
    long = "\n".join(f"output line {i:03d} " + "x" * 84 for i in range(1, 201)) + "\nFAILED: 2 != 1"
    saved = "/repo/.paw/checks/w.a.land.1.log"
    failed = Outcome("check-failed", check="make test", exit_code=1, output=long)
    after_attempt(wave.task("a"), land, failed, "h1", 2.0, "rebase", TailRoom(Fit(70, 8), saved))
    t = followup_counted(land, "a", 3.0)  # typed to the agent that then went away
    respawn_counted(t, 4.0)
    fit = Fit(50, 6)
    respawned(t, "main", "rebase", fit)
    text = t.followup_text or ""
    assert wrapped_rows(text, fit.width) <= fit.rows
    assert f"Output tail: {TRIMMED} " in text
    assert f"FAILED: 2 != 1. The whole output is in {saved}. Please bring main" in text
    assert "\n" not in text
