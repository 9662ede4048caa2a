"""Reusing quiet panes' captures: never stale after output, resize, respawn or death."""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import pytest
from libtmux.test.retry import retry_until

from paw.adapters.tmux.delta import CaptureCache, PaneState
from paw.adapters.tmux.terminal import TmuxTerminal
from paw.core.ports import PaneCapture
from tests.adapters.conftest import SESSION
from tests.support.budget import budget

if TYPE_CHECKING:
    from libtmux.server import Server

BASE = PaneState(pid=10, width=80, height=24, dead=False, activity=1000)
STARTED = 1003.5  # floor 1003: activity up to 1001 is provably before the capture


class ReuseCase(NamedTuple):
    test_id: str
    now: PaneState
    reused: bool


REUSE_CASES = [
    ReuseCase("quiet-since-capture", BASE, True),
    ReuseCase("quiet-edge", PaneState(10, 80, 24, False, 1001), True),
    ReuseCase("output-one-second-before", PaneState(10, 80, 24, False, 1002), False),
    ReuseCase("output-after-capture", PaneState(10, 80, 24, False, 1004), False),
    ReuseCase("respawned", PaneState(11, 80, 24, False, 1000), False),
    ReuseCase("resized", PaneState(10, 100, 24, False, 1000), False),
    ReuseCase("died", PaneState(10, 80, 24, True, 1000), False),
]


@pytest.mark.parametrize("case", REUSE_CASES, ids=[c.test_id for c in REUSE_CASES])
def test_capture_cache_reuse_rules(case: ReuseCase) -> None:
    cache = CaptureCache()
    capture = PaneCapture(pane_id="%1", text="screen", pane_pid=10)
    cache.store(capture, BASE, ansi=False, started=STARTED)
    assert (cache.reusable("%1", case.now, ansi=False) is capture) is case.reused
    assert cache.reusable("%1", case.now, ansi=True) is None


def test_capture_cache_prune_and_gone_captures() -> None:
    cache = CaptureCache()
    cache.store(PaneCapture("%1", "a"), BASE, ansi=False, started=STARTED)
    cache.store(PaneCapture("%2", None), BASE, ansi=False, started=STARTED)
    assert cache.reusable("%2", BASE, ansi=False) is None
    cache.prune({"%2"})
    assert cache.reusable("%1", BASE, ansi=False) is None


_ECHO = """
import sys
print("ready", flush=True)
for line in sys.stdin:
    print("got", line.strip(), flush=True)
"""


@pytest.mark.tmux
@pytest.mark.parametrize("control", [False, True], ids=["processes", "control-mode"])
def test_tmux_delta_sweep_reuses_quiet_panes_and_sees_new_output(
    terminal: TmuxTerminal,
    tmp_path: Path,
    proc_calls: list[tuple[str, ...]],
    control: bool,
) -> None:
    term = TmuxTerminal(socket_name=terminal.socket_name, control=control)
    term.ensure_session(SESSION, str(tmp_path))
    argv = [sys.executable, "-c", _ECHO]
    panes = [
        term.new_pane(SESSION, str(tmp_path), argv, {}, {"paw_agent": f"q{i}"}).pane_id
        for i in range(3)
    ]
    try:
        retry_until(lambda: all("ready" in (c.text or "") for c in term.sweep(panes)), budget(30))

        def all_reused() -> bool:
            before = len(proc_calls)
            term.sweep(panes, fresh=False)
            return term.last_captured == 0 and len(proc_calls) - before == (0 if control else 1)

        retry_until(all_reused, budget(30))  # quiet for ~2 s: captures are reused
        reused = term.sweep(panes, fresh=False)
        assert reused == term.sweep(panes)
        term.send_text(panes[1], "fresh-output")
        term.send_keys(panes[1], ["Enter"])
        retry_until(lambda: "got fresh-output" in (term.sweep(panes)[1].text or ""), budget(30))
        after = term.sweep(panes, fresh=False)
        assert "got fresh-output" in (after[1].text or "")
        assert after == term.sweep(panes)
    finally:
        term.close()


@pytest.mark.tmux
def test_tmux_delta_sweep_recaptures_after_resize(
    terminal: TmuxTerminal, server: Server, tmp_path: Path
) -> None:
    pane = terminal.new_pane(SESSION, str(tmp_path), ["cat"], {}, {"paw_agent": "r"}, size=(80, 20))
    first = terminal.sweep([pane.pane_id], fresh=False)[0]
    server.cmd("resize-window", "-t", pane.pane_id, "-y", "10")
    second = terminal.sweep([pane.pane_id], fresh=False)[0]
    assert (first.text or "").count("\n") == 19
    assert (second.text or "").count("\n") == 9


@pytest.mark.tmux
def test_tmux_delta_sweep_gone_pane_is_none(terminal: TmuxTerminal, tmp_path: Path) -> None:
    pane = terminal.new_pane(SESSION, str(tmp_path), ["cat"], {}, {"paw_agent": "g"}).pane_id
    assert terminal.sweep([pane], fresh=False)[0].text is not None
    terminal.kill_pane(pane)
    assert terminal.sweep([pane, "%99999"], fresh=False) == [
        PaneCapture(pane, None),
        PaneCapture("%99999", None),
    ]


def _changed(terminal: TmuxTerminal, pane: str, seen: str | None) -> bool:
    return terminal.sweep([pane])[0].text != seen


_SPINNER = """
import itertools, sys, time
for frame in itertools.cycle("|/-"):
    sys.stdout.write("\\r" + frame)
    sys.stdout.flush()
    time.sleep(0.05)
"""


@pytest.mark.tmux
def test_tmux_delta_sweep_steady_state_is_one_process(
    terminal: TmuxTerminal, tmp_path: Path, proc_calls: list[tuple[str, ...]]
) -> None:
    busy = terminal.new_pane(
        SESSION, str(tmp_path), [sys.executable, "-c", _SPINNER], {}, {"paw_agent": "busy"}
    ).pane_id
    quiet = [
        terminal.new_pane(SESSION, str(tmp_path), ["cat"], {}, {"paw_agent": f"q{i}"}).pane_id
        for i in range(3)
    ]
    panes = [busy, *quiet]

    def steady() -> bool:
        before = len(proc_calls)
        terminal.sweep(panes, fresh=False)
        return terminal.last_captured == 1 and len(proc_calls) - before == 1

    retry_until(steady, budget(30))
    frames = set()
    for _ in range(5):
        before = len(proc_calls)
        capture = terminal.sweep(panes, fresh=False)[0]
        assert len(proc_calls) - before == 1
        frames.add((capture.text or "")[:1])
        retry_until(functools.partial(_changed, terminal, busy, capture.text), budget(30))
    assert len(frames) > 1  # the busy pane is captured afresh, not served from the cache
