"""When sweeps are due after pane events (pure)."""

from __future__ import annotations

import pytest

from paw.core.debounce import Debounce


def test_a_quiet_panes_first_event_is_due_once_the_pane_is_silent() -> None:
    d = Debounce(first=0.03, repeat=0.25, quiet=0.008)
    assert d.due() is None
    assert d.event("%1", 10.0) == pytest.approx(10.008)
    assert not d.take(10.005)  # not due yet: stays pending
    assert d.take(10.008)
    assert d.due() is None


def test_a_burst_is_swept_once_after_its_last_write() -> None:
    d = Debounce(first=0.03, repeat=0.25, quiet=0.008)
    d.event("%1", 10.0)
    d.event("%1", 10.004)
    assert d.event("%1", 10.006) == pytest.approx(10.014)  # 8 ms after the last write
    assert not d.take(10.010)  # the burst is still going on: nothing taken mid-draw
    assert d.take(10.014)


def test_a_pane_that_never_pauses_is_swept_first_seconds_after_its_first_event() -> None:
    d = Debounce(first=0.03, repeat=0.25, quiet=0.008)
    for k in range(10):  # a write every 5 ms: never 8 ms of silence
        d.event("%1", 10.0 + k * 0.005)
    assert d.due() == pytest.approx(10.03)
    assert d.take(10.03)


def test_a_pane_that_keeps_drawing_is_taken_at_most_every_repeat() -> None:
    d = Debounce(first=0.03, repeat=0.25, quiet=0.008)
    d.event("%1", 10.0)
    d.take(10.008)
    assert d.event("%1", 10.1) == pytest.approx(10.258)  # 0.25 s after the sweep that took it
    assert d.event("%1", 10.2) == pytest.approx(10.258)  # more events do not push it later
    # another pane's first event is not held back by the busy one
    assert d.event("%2", 10.12) == pytest.approx(10.128)
    assert d.take(10.128)
    assert d.due() == pytest.approx(10.258)


def test_structure_changes_are_always_due_soon() -> None:
    d = Debounce(first=0.03, repeat=0.25, quiet=0.008)
    d.event(None, 5.0)
    d.take(5.008)
    assert d.event(None, 5.04) == pytest.approx(5.048)


def test_quiet_never_exceeds_first() -> None:
    d = Debounce(first=0.01, repeat=0.25, quiet=0.05)
    assert d.event("%1", 1.0) == pytest.approx(1.01)
