"""Benchmark paw's pane sweep against a naive libtmux capture loop.

Starts its own tmux server on a private socket (``-L paw-bench-<pid>``) and opens N panes
that each show a Claude Code permission prompt from the screen corpus; ``--busy`` of them
also redraw a spinner every 100 ms (an agent at work). Then it times, in the same run:

* paw's fresh sweep, one tmux process per chunk of about 110 panes (tmux refuses a command
  longer than 16 KiB), so one process up to 110 panes (``TmuxTerminal.sweep``), median of
  ``--runs``;
* the survey a supervisor poll makes: every pane listed with paw's tags and every pane
  captured, in as many processes (``TmuxTerminal.survey``);
* the same through a persistent control-mode client (``control=True``);
* the steady-state sweep that reuses captures of quiet panes (``fresh=False``), both ways;
* the production TUI path: the steady survey (``survey(fresh=False)``: every pane listed with
  paw's tags, only changed panes captured) through the control-mode client, and its ratio to
  the naive loop;
* a libtmux loop of ``Pane.capture_pane()`` over the same panes, median of a few runs;
* ``paw.core.detect.detect`` per captured screen, when the detector is importable.

Each figure names the tmux processes one call started (0 through the control-mode client).

Usage: .venv/bin/python scripts/bench_sweep.py [--panes 50] [--busy 5] [--runs 20]
The server is killed at the end (only this script's own socket).
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import libtmux

from paw.adapters import proc
from paw.adapters.tmux.terminal import TmuxTerminal

ROOT = Path(__file__).resolve().parent.parent
SCREEN = ROOT / "tests/fixtures/corpus/claude-code/shell_short_120x40/screen.txt"
SESSION = "pawbench"

_SHOW = """
import pathlib, sys, time
text = pathlib.Path(sys.argv[1]).read_text(encoding="utf-8")
sys.stdout.write(text.rstrip("\\n"))
sys.stdout.flush()
busy = sys.argv[2] == "busy"
while True:
    time.sleep(0.1 if busy else 3600)
    sys.stdout.write("\\x1b7\\x1b[1;1H" + "|/-\\\\"[int(time.time() * 10) % 4] + "\\x1b8")
    sys.stdout.flush()
"""


def _pane_argv(busy: bool) -> list[str]:
    return [sys.executable, "-c", _SHOW, str(SCREEN), "busy" if busy else "quiet"]


def _median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _processes(fn: Callable[[], object]) -> int:
    """How many processes one call of ``fn`` starts through paw's process gateway."""
    real = proc.run
    calls = 0

    def counting(*args: Any, **kwargs: Any) -> proc.Completed:
        nonlocal calls
        calls += 1
        return real(*args, **kwargs)

    proc.run = counting
    try:
        fn()
    finally:
        proc.run = real
    return calls


def _wait_until(check: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.1)


def _detect_times(texts: list[str]) -> str:
    try:
        from paw.core.detect import detect  # optional: the detector may not be installed
    except ImportError:
        return "detector not available"
    detect(texts[0], "claude-code")  # warm the detector registry
    per_screen = [_median_ms(functools.partial(detect, text, "claude-code"), 5) for text in texts]
    states = {str(detect(text, "claude-code").state) for text in texts}
    return (
        f"detect per screen: median {statistics.median(per_screen):.3f} ms, "
        f"max {max(per_screen):.3f} ms (states seen: {sorted(states)})"
    )


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--panes", type=int, default=50)
    parser.add_argument("--busy", type=int, default=5, help="panes that keep redrawing")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--naive-runs", type=int, default=3)
    args = parser.parse_args()

    socket = f"paw-bench-{os.getpid()}"
    terminal = TmuxTerminal(socket_name=socket)
    controlled = TmuxTerminal(socket_name=socket, control=True)
    with tempfile.TemporaryDirectory(prefix="paw-bench-") as tmp:
        try:
            terminal.ensure_session(SESSION, tmp)
            controlled.ensure_session(SESSION, tmp)
            panes = [
                terminal.new_pane(
                    SESSION, tmp, _pane_argv(i < args.busy), {}, {"paw_agent": f"b{i}"}
                ).pane_id
                for i in range(args.panes)
            ]
            _wait_until(
                lambda: all("Do you want" in (c.text or "") for c in terminal.sweep(panes)),
                "the panes to show their screens",
                timeout=max(60.0, args.panes * 0.5),  # each pane starts a Python process
            )
            report(terminal, controlled, panes, args)
        finally:
            controlled.close()
            terminal.kill_server()
    return 0


def report(
    terminal: TmuxTerminal, controlled: TmuxTerminal, panes: list[str], args: argparse.Namespace
) -> None:
    """Time the sweeps, the naive loop and detection; print the figures."""
    runs = args.runs
    captures = terminal.sweep(panes)
    fresh_ms = _median_ms(lambda: terminal.sweep(panes), runs)
    fresh_ansi_ms = _median_ms(lambda: terminal.sweep(panes, ansi=True), runs)
    control_ms = _median_ms(lambda: controlled.sweep(panes), runs)
    survey_ms = _median_ms(lambda: terminal.survey(panes), runs)
    survey_control_ms = _median_ms(lambda: controlled.survey(panes), runs)

    def settled(term: TmuxTerminal) -> bool:
        term.sweep(panes, fresh=False)
        return term.last_captured <= int(args.busy)

    def surveyed(term: TmuxTerminal) -> bool:
        term.survey(panes, fresh=False)
        return term.last_captured <= int(args.busy)

    _wait_until(functools.partial(settled, terminal), "quiet panes to settle")
    _wait_until(functools.partial(settled, controlled), "quiet panes to settle")
    delta_ms = _median_ms(lambda: terminal.sweep(panes, fresh=False), runs)
    delta_control_ms = _median_ms(lambda: controlled.sweep(panes, fresh=False), runs)
    recaptured = controlled.last_captured
    _wait_until(functools.partial(surveyed, controlled), "quiet panes to settle")
    steady_ms = _median_ms(lambda: controlled.survey(panes, fresh=False), runs)
    steady_captured = controlled.last_captured

    server = libtmux.Server(socket_name=terminal.socket_name)
    by_id = {pane.pane_id: pane for pane in server.panes}
    objects = [by_id[pane] for pane in panes]
    naive_ms = _median_ms(lambda: [pane.capture_pane() for pane in objects], args.naive_runs)

    def calls(fn: Callable[[], object]) -> str:
        count = _processes(fn)
        return f"{count} tmux process" + ("" if count == 1 else "es")

    fresh_calls = calls(lambda: terminal.sweep(panes))
    survey_calls = calls(lambda: terminal.survey(panes))
    delta_calls = calls(lambda: terminal.sweep(panes, fresh=False))
    rows = [
        (f"fresh sweep, {fresh_calls}", fresh_ms),
        ("fresh sweep with ANSI (-e)", fresh_ansi_ms),
        ("fresh sweep, control-mode client", control_ms),
        (f"survey: list panes with tags + capture, {survey_calls}", survey_ms),
        ("survey through the control-mode client", survey_control_ms),
        (f"steady sweep (fresh=False), {delta_calls}, {recaptured} recaptured", delta_ms),
        (f"steady sweep (fresh=False), control mode, {recaptured} recaptured", delta_control_ms),
        (f"TUI poll: steady survey, control mode, {steady_captured} recaptured", steady_ms),
    ]
    print(f"panes: {len(panes)}, busy: {args.busy}, runs: {runs}, cpus: {os.cpu_count()}")
    print(f"libtmux capture_pane loop: median {naive_ms:.2f} ms ({args.naive_runs} runs)")
    for label, value in rows:
        print(f"{label:<62} median {value:6.2f} ms  ({naive_ms / value:5.1f}x)")
    print(
        f"production TUI path (control-mode steady survey, {len(panes)} panes, {args.busy} busy): "
        f"{steady_ms:.2f} ms vs naive {naive_ms:.2f} ms = {naive_ms / steady_ms:.0f}x"
    )
    print(_detect_times([c.text or "" for c in captures]))


if __name__ == "__main__":
    raise SystemExit(main())
