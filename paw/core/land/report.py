"""The landing as people read it: a message per state change, the report's rows and its
``## Landing`` section."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from paw.core.land.attempt import setbacks_text
from paw.core.land.journal import LandState, LandStatus
from paw.core.land.queue import blocked_tasks
from paw.core.wave_report import Message, compose_message

if TYPE_CHECKING:
    from collections.abc import Mapping

    from paw.core.wave.schema import WaveFile

# -- messages ----------------------------------------------------------------------------------

_LAND_EVENTS = {
    LandStatus.QUEUED: "land-queued",
    LandStatus.SENT_BACK: "land-sent-back",
    LandStatus.LANDED: "land-landed",
    LandStatus.PARKED: "land-parked",
}


def land_message(
    land: LandState, task: str, text: str, *, repo: str = "", host: str = "", kind: str = ""
) -> Message:
    """One state change of the queue as a message (redacted for the channels); ``kind``
    ``prompt``: a sent-back agent waits on a prompt (a warning: a human answers it)."""
    t = land.task(task)
    status = t.status if t is not None else LandStatus.QUEUED
    lines = [f"task: {task}", f"landing: {status.value}", text, f"onto: {land.into}"]
    if t is not None and status is LandStatus.PARKED:
        if t.files:
            lines.append("conflicting files: " + ", ".join(t.files))
        if t.tail:
            lines += [f"`{t.check}`, last lines:", t.tail]
        lines.append(f"see: paw wave report {land.wave}")
    title = f"paw wave {land.wave}: {task} {status.value}: {text}"
    message = compose_message(
        _LAND_EVENTS[status], land.wave, task, None, title, lines, repo, host=host
    )
    if kind == "prompt":
        message = compose_message(
            "land-prompt", land.wave, task, None, title,
            [*lines, f"answer it: paw prompts, or paw attach {t.agent if t else task}"], repo,
            host=host,
        )  # fmt: skip
        return replace(message, level="warning")
    if status is LandStatus.PARKED:
        return replace(message, level="warning")
    return replace(message, level="success") if status is LandStatus.LANDED else message


# -- the report --------------------------------------------------------------------------------


def landing_rows(land: LandState, wave: WaveFile | None, now: float) -> list[dict[str, object]]:
    """One row per task for ``paw wave report`` and ``--json``."""
    blocked = blocked_tasks(wave, land) if wave is not None else {}
    rows: list[dict[str, object]] = []
    for t in land.tasks:
        end = t.finished_at if t.finished_at is not None else now
        row: dict[str, object] = {
            "task": t.name,
            "status": "blocked" if t.name in blocked else t.status.value,
            "problem": t.problem,
            "why": blocked.get(t.name, t.why),
            "attempts": t.attempts,
            "followups": t.followups,
            "queued_s": round(max(0.0, end - t.queued_at), 1),
            "commits": list(t.commits),
            "files": list(t.files),
            "check": t.check,
            "tail": t.tail,
            "setbacks": [dict(s) for s in t.setbacks],
            "history": setbacks_text(t.setbacks),
        }
        rows.append(row)
    return rows


def landing_data(land: LandState, wave: WaveFile | None, now: float) -> dict[str, object]:
    """The landing as data: the base, the strategy, the tasks."""
    base_commits = [c for t in land.tasks for c in t.commits]
    return {
        "into": land.into,
        "strategy": land.strategy,
        "in_flight": land.current.task if land.current is not None else None,
        "base_commits": base_commits,
        "tasks": landing_rows(land, wave, now),
    }


def landing_markdown(data: Mapping[str, object]) -> str:
    """The report's ``## Landing`` section."""
    rows = data.get("tasks")
    lines = [
        "## Landing",
        "",
        f"Onto `{data.get('into')}` by {data.get('strategy')}, fast-forward only.",
        "",
        "| task | landing | attempts | follow-ups | in the queue | commits |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows if isinstance(rows, list) else []:
        status = str(row["status"])
        if row.get("problem") and status != "landed":
            status += f": {row['problem']}"
        if row.get("history") and status == "landed":
            status += f" after {row['history']}"  # its setbacks: what it took
        commits = row.get("commits") or []
        shas = ", ".join(str(c)[:10] for c in commits) if isinstance(commits, list) else ""
        lines.append(
            f"| {row['task']} | {status} | {row['attempts']} | {row['followups']} "
            f"| {float(str(row['queued_s'])):.0f}s | {shas or '-'} |"
        )
    for row in rows if isinstance(rows, list) else []:
        if row["status"] in ("parked", "blocked", "sent-back") and row.get("why"):
            lines += ["", f"**{row['task']}** ({row['status']}): {row['why']}"]
            if row.get("files"):
                lines.append("conflicting files: " + ", ".join(map(str, row["files"])))
            if row.get("tail"):
                lines += [f"`{row.get('check')}`, last lines:", "```", str(row["tail"]), "```"]
    return "\n".join(lines) + "\n"
