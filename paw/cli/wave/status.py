"""`paw wave status`, `paw wave report` and `paw wave stop`: a wave that runs or ran."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING

from paw.cli.result import RAW, Result, lines_of
from paw.cli.wave.files import load_wave
from paw.cli.wave.show import summary, wave_json
from paw.cli.wave.store import STOP_SUFFIX, RunnerLock, read_state, repo_and_docs, wave_name
from paw.errors import PawError

if TYPE_CHECKING:
    from paw.adapters.state import StateStore
    from paw.core.wave import WaveFile


def cmd_status(args: argparse.Namespace) -> Result:
    """Where each task of a wave is."""
    _root, docs = repo_and_docs(args)
    name = wave_name(docs, args.name)
    state = read_state(docs, name)
    runner = RunnerLock(docs, name).held_by_other()
    if args.json:
        data = state.model_dump(mode="json")
        data["runner_alive"] = runner
        return wave_json(data)
    return lines_of(
        f"wave {name}: {state.status}"
        + ("" if runner or state.status != "running" else " (no runner: `paw wave resume`)"),
        *(f"  {line}" for line in summary(state).split(": ", 1)[1].split("; ")),
    )


def cmd_report(args: argparse.Namespace) -> Result:
    """The wave's report: Markdown, or JSON."""
    from paw.adapters.audit import JsonlAuditLog
    from paw.cli.compose import STATE_DIR
    from paw.cli.cost import task_usage
    from paw.core.cost import add_costs, cost_markdown
    from paw.core.wave_report import report_markdown
    from paw.supervisor.wave import wave_report

    root, docs = repo_and_docs(args)
    name = wave_name(docs, args.name)
    state = read_state(docs, name)
    audit = JsonlAuditLog(Path(root) / STATE_DIR / "audit.jsonl").read()
    data = wave_report(state, audit, time.time())
    add_costs(data, state, task_usage(root, state), time.time())
    landing = _landing(docs, name)
    if landing is not None:
        data["landing"] = landing
    if args.json:
        return wave_json(data)
    text = report_markdown(data) + "\n" + cost_markdown(data)
    if landing is not None:
        from paw.core.land import landing_markdown

        text += "\n" + landing_markdown(landing)
    return Result(lines=((RAW, text),))


def _landing(docs: StateStore, name: str) -> dict[str, object] | None:
    """The landing of the wave (``paw wave land``), for the report; None before any."""
    from paw.cli.wave.land import latest_landing
    from paw.core.land import landing_data

    land = latest_landing(docs, name)
    if land is None:
        return None
    try:
        wave: WaveFile | None = load_wave(Path(read_state(docs, name).file))[0]
    except PawError:  # the file is gone or broken: blocked tasks are not told apart
        wave = None
    return landing_data(land, wave, time.time())


def cmd_stop(args: argparse.Namespace) -> Result:
    """Ask the runner to end after its current sweep; the agents keep running."""
    _root, docs = repo_and_docs(args)
    name = wave_name(docs, args.name)
    docs.write(f"{name}{STOP_SUFFIX}", {"stop": True})
    if RunnerLock(docs, name).held_by_other():
        if args.json:
            return wave_json({"wave": name, "runner_alive": True, "status": "stopping"})
        return lines_of(
            f"wave {name}: the runner stops after its current sweep (agents keep running)"
        )
    state = read_state(docs, name)
    if state.status == "running":
        state.status, state.ended_at = "stopped", time.time()
        docs.write(name, state.model_dump(mode="json"))
    if args.json:
        return wave_json({"wave": name, "runner_alive": False, "status": state.status})
    return lines_of(f"wave {name}: {state.status} (no runner was running; agents keep running)")
