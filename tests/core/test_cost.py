"""What each task cost: the wait for a human, the busy time, and "unknown" where paw cannot know."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from paw.core.cost import add_costs, cost_markdown, cost_row, human_wait_s
from paw.core.usage import Usage, UsageReading
from paw.core.wave import Phase, PromptState, TaskState, WaveState


def _prompt(first: float, answered: float | None, route: str = "human") -> PromptState:
    return PromptState(
        id=f"p{first}", kind="shell", subject="ls", question="run?", verdict="confirm",
        first_seen=first, route=route, why="", answered_at=answered, live=answered is None,
    )  # fmt: skip


class WaitCase(NamedTuple):
    test_id: str
    prompts: list[PromptState]
    ended: float | None
    expected: float | None


WAIT_CASES = [
    WaitCase("no-prompt", [], 200.0, 0.0),
    WaitCase("one-answered", [_prompt(110, 140)], 200.0, 30.0),
    WaitCase("overlapping-counted-once", [_prompt(110, 140), _prompt(130, 150)], 200.0, 40.0),
    WaitCase("rule-approved-not-a-human", [_prompt(110, 140, route="rule")], 200.0, 0.0),
    WaitCase("still-waiting-until-now", [_prompt(250, None)], None, 50.0),
    WaitCase("cut-at-the-task-end", [_prompt(190, None)], 200.0, 10.0),
    WaitCase("before-the-start-clipped", [_prompt(90, 120)], 200.0, 20.0),
]


@pytest.mark.parametrize("case", WAIT_CASES, ids=[c.test_id for c in WAIT_CASES])
def test_cost_human_wait(case: WaitCase) -> None:
    task = TaskState(
        name="a", agent="w-a", started_at=100.0, prompts=case.prompts, ended_at=case.ended,
        phase=Phase.DONE if case.ended is not None else Phase.RUNNING,
    )  # fmt: skip
    assert human_wait_s(task, now=300.0) == case.expected


def test_cost_unknown_before_the_start_and_without_records() -> None:
    pending = TaskState(name="a", agent="w-a")
    row = cost_row(pending, None, now=10.0)
    assert (row["tokens"], row["usd"], row["busy_s"], row["waiting_human_s"]) == (
        None, None, None, None,
    )  # fmt: skip
    assert row["unknown"] == "the task's agent never started"
    ran = TaskState(name="a", agent="w-a", started_at=0.0, ended_at=60.0, phase=Phase.DONE)
    unread = UsageReading(None, unknown="paw does not read my-agent's usage")
    row = cost_row(ran, unread, now=100.0)
    assert (row["tokens"], row["busy_s"], row["unknown"]) == (
        None, 60.0, "paw does not read my-agent's usage",
    )  # fmt: skip


def test_cost_tokens_known_price_unknown_said_so() -> None:
    task = TaskState(
        name="a", agent="w-a", started_at=0.0, ended_at=100.0, phase=Phase.DONE,
        prompts=[_prompt(10, 40)],
    )  # fmt: skip
    reading = UsageReading(Usage(10, 5, 3, 2, requests=2), "Codex's session logs")
    state = WaveState(name="w", file="w.toml", sha256="0", started_at=0.0, tasks=[task])
    data: dict[str, object] = {"tasks": [{"task": "a"}]}
    add_costs(data, state, {"a": reading}, now=200.0)
    cost = data["tasks"][0]["cost"]  # type: ignore[index]
    assert cost == {
        "tokens": {
            "input": 10, "output": 5, "cache_read": 3, "cache_write": 2, "total": 20,
            "requests": 2,
        },
        "usd": None, "source": "Codex's session logs",
        "unknown": "Codex's session logs count tokens but state no price",
        "ran_s": 100.0, "busy_s": 70.0, "waiting_human_s": 30.0,
    }  # fmt: skip
    assert data["cost"] == {"tokens": 20, "tasks_unknown": 0}
    text = cost_markdown(data)
    assert "| a | 20 (10 in, 5 out, 5 cache) | unknown | 70s | 30s |" in text
    assert "- a: Codex's session logs count tokens but state no price" in text
