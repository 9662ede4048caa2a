"""How the wave commands show a wave: the one-line summary, the progress lines, the JSON
layout."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from paw.cli.result import JsonLayout, Result, json_of, write_live

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from paw.core.wave import WaveState


def progress(quiet: bool) -> Callable[[WaveState], None]:
    last: list[str] = [""]

    def show(state: WaveState) -> None:
        line = summary(state)
        if line != last[0] and not quiet:
            stamp = datetime.now().strftime("%H:%M:%S")  # the user's local time
            write_live(f"[{stamp}] {line}")
            last[0] = line

    return show


def summary(state: WaveState) -> str:
    parts = []
    for t in state.tasks:
        waiting = [p for p in t.prompts if p.live and p.route == "human"]
        status = "waiting" if waiting and t.phase.value == "running" else t.phase.value
        status = "stuck" if t.stuck and t.phase.value == "running" else status
        hints = [
            f"paw attach {t.agent}"
            if p.kind in ("trust", "question", "other")
            else f"paw approve {p.id}"
            for p in waiting
        ]
        extra = f" ({', '.join(hints)})" if waiting else ""
        if t.budget_parked is not None and t.phase.value == "running":
            status = "parked"  # (as `paw wave report` and the TUI say it: first)
            extra = f" ({', '.join([t.budget_parked, f'paw attach {t.agent}', *hints])})"
        parts.append(f"{t.name}: {status}{extra}")
    return f"{state.name}: " + "; ".join(parts)


def wave_json(data: Mapping[str, object], *, code: int = 0) -> Result:
    """A wave command's JSON object (indented, non-ASCII escaped: the layout its readers
    were given)."""
    return json_of(data, code=code, layout=JsonLayout.ASCII)
