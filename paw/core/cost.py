"""What each task's agent cost, for ``paw wave report`` (pure).

Two measures: the tokens (and a dollar cost where the agent states one) read from the
agent's own records (:mod:`paw.core.usage`), and the wall-clock time the task ran, split into
the time a prompt of its agent waited for a human and the rest (``busy_s``: working, or at
least not waiting for anyone). Whatever paw cannot know is ``None`` in the data and
"unknown" in the text, with the reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.wave import FINAL

if TYPE_CHECKING:
    from collections.abc import Mapping

    from paw.core.usage import UsageReading
    from paw.core.wave import TaskState, WaveState

UNKNOWN = "unknown"


def human_wait_s(task: TaskState, now: float) -> float | None:
    """Seconds the task waited for a human: the union of the spans its prompts routed to a
    human were live (a prompt still waiting counts until ``now`` or the task's end). None
    before the task started."""
    if task.started_at is None:
        return None
    end = task.ended_at if task.phase in FINAL and task.ended_at is not None else now
    spans = sorted(
        (max(p.first_seen, task.started_at), min(p.answered_at or end, end))
        for p in task.prompts
        if p.route == "human"
    )
    total, reach = 0.0, task.started_at
    for start, stop in spans:
        start = max(start, reach)
        if stop > start:
            total += stop - start
            reach = stop
    return round(total, 1)


def cost_row(task: TaskState, reading: UsageReading | None, now: float) -> dict[str, object]:
    """One task's cost as data (``paw wave report --json``: ``tasks[].cost``)."""
    end = task.ended_at if task.phase in FINAL and task.ended_at is not None else now
    ran = None if task.started_at is None else round(max(0.0, end - task.started_at), 1)
    waiting = human_wait_s(task, now)
    busy = None if ran is None or waiting is None else round(max(0.0, ran - waiting), 1)
    usage = reading.usage if reading is not None else None
    tokens = (
        None
        if usage is None
        else {
            "input": usage.input_tokens,
            "output": usage.output_tokens,
            "cache_read": usage.cache_read_tokens,
            "cache_write": usage.cache_write_tokens,
            "total": usage.total_tokens,
            "requests": usage.requests,
        }
    )
    why: str | None
    if reading is None:
        why = "the task's agent never started"
    elif usage is None:
        why = reading.unknown
    elif usage.cost_usd is None:
        why = f"{reading.source} count tokens but state no price"
    else:
        why = None
    return {
        "tokens": tokens,
        "usd": None if usage is None or usage.cost_usd is None else round(usage.cost_usd, 6),
        "source": None if reading is None else reading.source,
        "unknown": why,
        "ran_s": ran,
        "busy_s": busy,
        "waiting_human_s": waiting,
    }


def add_costs(
    data: dict[str, object], state: WaveState, readings: Mapping[str, UsageReading], now: float
) -> None:
    """Put each task's cost into the report data (``tasks[].cost``) and the wave's sums
    (``cost``: tokens summed where known, and how many tasks are unknown)."""
    rows = data.get("tasks")
    by_name = {t.name: t for t in state.tasks}
    total, unknown = 0, 0
    for row in rows if isinstance(rows, list) else []:
        task = by_name.get(str(row.get("task")))
        if task is None:
            continue
        cost = cost_row(task, readings.get(task.name), now)
        row["cost"] = cost
        tokens = cost["tokens"]
        if isinstance(tokens, dict):
            total += int(tokens["total"])
        else:
            unknown += 1
    data["cost"] = {"tokens": total, "tasks_unknown": unknown}


def _tokens_text(cost: Mapping[str, object]) -> str:
    tokens = cost.get("tokens")
    if not isinstance(tokens, dict):
        return UNKNOWN
    cached = int(tokens["cache_read"]) + int(tokens["cache_write"])
    text = f"{tokens['total']:,} ({tokens['input']:,} in, {tokens['output']:,} out"
    return text + (f", {cached:,} cache)" if cached else ")")


def _seconds(value: object) -> str:
    if not isinstance(value, int | float):
        return UNKNOWN
    s = int(value)
    return f"{s}s" if s < 120 else f"{s // 60}m{s % 60:02d}s"


def cost_markdown(data: Mapping[str, object]) -> str:
    """The report's ``## Cost`` section."""
    rows = data.get("tasks")
    lines = [
        "## Cost",
        "",
        "Tokens as each agent recorded them; a price only where the agent states one.",
        "",
        "| task | tokens | cost | busy | waiting for a human |",
        "|---|---|---|---|---|",
    ]
    notes: list[str] = []
    for row in rows if isinstance(rows, list) else []:
        cost = row.get("cost")
        if not isinstance(cost, dict):
            continue
        usd = cost.get("usd")
        lines.append(
            f"| {row['task']} | {_tokens_text(cost)} "
            f"| {f'${usd:.4f}' if isinstance(usd, float) else UNKNOWN} "
            f"| {_seconds(cost.get('busy_s'))} | {_seconds(cost.get('waiting_human_s'))} |"
        )
        if cost.get("unknown"):
            notes.append(f"- {row['task']}: {cost['unknown']}")
    return "\n".join([*lines, *([""] if notes else []), *notes]) + "\n"
