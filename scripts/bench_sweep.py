"""Benchmark paw's pane sweep against a naive libtmux capture loop.

Starts its own tmux server on a private socket (``-L paw-bench-<pid>``), opens N panes that
each show a Claude Code permission prompt from the screen corpus, then times in the same run:

(a) ``TmuxTerminal.sweep`` of all panes (one tmux process), median of ``--runs`` runs;
(b) a libtmux loop of ``Pane.capture_pane()`` over the same panes, median of a few runs;
(c) ``paw.core.detect.detect`` per captured screen, when the detector is importable.

Usage: .venv/bin/python scripts/bench_sweep.py [--panes 50] [--runs 20]
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

import libtmux

from paw.adapters.tmux import TmuxTerminal

ROOT = Path(__file__).resolve().parent.parent
SCREEN = ROOT / "tests/fixtures/corpus/claude-code/shell_short_120x40/screen.txt"
SESSION = "pawbench"
MARK = "paw-bench-ready"


def _pane_argv(index: int) -> list[str]:
    code = (
        "import pathlib, sys, time\n"
        f"text = pathlib.Path({str(SCREEN)!r}).read_text(encoding='utf-8')\n"
        f"sys.stdout.write('{MARK}-{index}\\n' + text.rstrip('\\n'))\n"
        "sys.stdout.flush()\n"
        "time.sleep(3600)\n"
    )
    return [sys.executable, "-c", code]


def _median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _wait_ready(terminal: TmuxTerminal, panes: list[str], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        texts = [c.text or "" for c in terminal.sweep(panes)]
        if all("Bash command" in text or "Do you want" in text for text in texts):
            return
        time.sleep(0.1)
    raise SystemExit("panes did not show their screens in time")


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
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--naive-runs", type=int, default=3)
    args = parser.parse_args()

    socket = f"paw-bench-{os.getpid()}"
    terminal = TmuxTerminal(socket_name=socket)
    with tempfile.TemporaryDirectory(prefix="paw-bench-") as tmp:
        try:
            terminal.ensure_session(SESSION, tmp)
            panes = [
                terminal.new_pane(SESSION, tmp, _pane_argv(i), {}, {"paw_agent": f"b{i}"}).pane_id
                for i in range(args.panes)
            ]
            _wait_ready(terminal, panes)
            report(terminal, socket, panes, args.runs, args.naive_runs)
        finally:
            terminal.kill_server()
    return 0


def report(terminal: TmuxTerminal, socket: str, panes: list[str], runs: int, naive: int) -> None:
    """Time the sweep, the naive loop and detection; print the figures."""
    captures = terminal.sweep(panes)
    assert all(c.text for c in captures), "a pane came back empty"  # noqa: S101 - sanity
    sweep_ms = _median_ms(lambda: terminal.sweep(panes), runs)
    sweep_ansi_ms = _median_ms(lambda: terminal.sweep(panes, ansi=True), runs)

    server = libtmux.Server(socket_name=socket)
    by_id = {pane.pane_id: pane for pane in server.panes}
    objects = [by_id[pane] for pane in panes]
    naive_ms = _median_ms(lambda: [pane.capture_pane() for pane in objects], naive)

    print(f"panes: {len(panes)} (tmux {libtmux.common.get_version()})")
    print(f"paw sweep (1 tmux process):      median {sweep_ms:.2f} ms over {runs} runs")
    print(f"paw sweep with ANSI (-e):        median {sweep_ansi_ms:.2f} ms over {runs} runs")
    print(f"libtmux capture_pane loop:       median {naive_ms:.2f} ms over {naive} runs")
    print(f"speed-up: {naive_ms / sweep_ms:.1f}x")
    print(_detect_times([c.text or "" for c in captures]))


if __name__ == "__main__":
    raise SystemExit(main())
