"""When sweeps are due after pane events (pure)."""

from __future__ import annotations

import pytest

from paw.core.debounce import Debounce


def test_a_quiet_panes_first_event_is_due_soon() -> None:
    d = Debounce(first=0.03, repeat=0.25)
    assert d.due() is None
    assert d.event("%1", 10.0) == pytest.approx(10.03)
    assert not d.take(10.01)  # not due yet: stays pending
    assert d.take(10.03)
    assert d.due() is None


def test_a_pane_that_keeps_drawing_is_taken_at_most_every_repeat() -> None:
    d = Debounce(first=0.03, repeat=0.25)
    d.event("%1", 10.0)
    d.take(10.03)
    assert d.event("%1", 10.1) == pytest.approx(10.28)  # 0.25 s after the sweep that took it
    assert d.event("%1", 10.2) == pytest.approx(10.28)  # more events do not push it later
    # another pane's first event is not held back by the busy one
    assert d.event("%2", 10.12) == pytest.approx(10.15)
    assert d.take(10.15)
    assert d.due() == pytest.approx(10.28)


def test_structure_changes_are_always_due_soon() -> None:
    d = Debounce(first=0.03, repeat=0.25)
    d.event(None, 5.0)
    d.take(5.03)
    assert d.event(None, 5.04) == pytest.approx(5.04 + 0.03)
