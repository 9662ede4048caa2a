"""The planning of steady sweeps (pure): which panes to capture, which captures to reuse."""

from __future__ import annotations

from paw.adapters.tmux.delta import PaneState, SteadyMemory
from paw.adapters.tmux.sweep import listing_format, parse_listing_states
from paw.core.ports import PaneCapture

QUIET = PaneState(pid=10, width=80, height=24, dead=False, activity=1000)
PRINTED = PaneState(pid=10, width=80, height=24, dead=False, activity=1004)
STARTED = 1003.5


def test_steady_memory_guesses_busy_and_never_captured_panes() -> None:
    memory = SteadyMemory()
    memory.store({"%1": PaneCapture("%1", "a")}, {"%1": QUIET}, ansi=False, started=STARTED)
    memory.recent = {"%2"}
    wanted = ["%1", "%2", "%3"]
    assert memory.guess(wanted, ansi=False, unknown=True) == ["%2", "%3"]
    assert memory.guess(wanted, ansi=False, unknown=False) == ["%2"]
    assert memory.guess(wanted, ansi=True, unknown=True) == wanted  # ANSI captures apart


def test_steady_memory_reuses_quiet_recaptures_printed_drops_gone() -> None:
    memory = SteadyMemory()
    old = {p: PaneCapture(p, f"old {p}") for p in ("%1", "%2", "%3")}
    memory.store(old, dict.fromkeys(old, QUIET), ansi=False, started=STARTED)
    found, todo = memory.reuse(["%1", "%2", "%3"], {"%1": QUIET, "%2": PRINTED}, ansi=False)
    assert found == {"%1": old["%1"]}
    assert todo == ["%2"]  # %3 is not listed: gone, never served from memory


def test_steady_memory_absorb_marks_changed_recent_panes_busy_and_prunes() -> None:
    memory = SteadyMemory()
    old = {p: PaneCapture(p, "old") for p in ("%1", "%2", "%9")}
    memory.store(old, dict.fromkeys(old, QUIET), ansi=False, started=STARTED)
    memory.recent = {"%1", "%2"}
    guessed = {"%1": PaneCapture("%1", "new"), "%2": PaneCapture("%2", "old")}
    busy = memory.absorb(guessed, {"%1": PRINTED, "%2": QUIET}, ansi=False, started=1010.0)
    assert busy == {"%1"}
    assert memory.reuse(["%9"], {"%9": QUIET}, ansi=False) == ({}, ["%9"])  # pruned


def test_parse_listing_states_takes_states_from_the_same_listing() -> None:
    sep = "|s|"
    fields = [
        "%4",
        "77",
        "main",
        "120",
        "40",
        "1",
        "claude",
        "9.1",
        "0",
        "a;b",
        "",
        "",
        "x|y",
        "1700",
    ]
    line = "T" + "I" + sep + sep.join(fields)
    assert listing_format(sep, states=True).endswith(sep + "#{window_activity}")
    panes, states = parse_listing_states(f"noise\n{line}\nTP %4 77\ncapture", "T", sep, states=True)
    assert [(p.pane_id, p.current_command, dict(p.tags)) for p in panes] == [
        ("%4", "claude", {"paw_agent": "a;b", "paw_id": "x|y"})
    ]
    assert states == {"%4": PaneState(pid=77, width=120, height=40, dead=True, activity=1700)}
