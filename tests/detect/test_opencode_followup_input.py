"""opencode's input box read from real captures of paw's own panes (opencode 1.18.33; the
scratch folder's path in the footer renamed to one of the same length): idle after a turn at
80x24 and 120x40, and a wave task's pane at 120x40 before and after its follow-up was typed
(tests/fixtures/typing-live/opencode/*/meta.json says which is which).

What a wave needs to type a failed check's follow-up: the idle screen reads as EMPTY (paw may
type), the typed follow-up reads back as exactly what was typed (paw may press Enter), and a
follow-up typed twice reads as neither (paw types nothing more and presses no Enter). Only the
live box above the ``╹▀▀`` edge counts: the transcript draws the user's messages in the same
``┃`` border further up. Kilo Code (a fork) reads its input with the same function.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from paw.core.detect import detect, read_input
from paw.core.detect.registry import load_input_reader, spec_for
from paw.core.detect.screen import strip_ansi
from paw.core.output_tail import TailRoom, tail
from paw.core.typed_room import fit_at
from paw.core.typed_text import echo_shown, one_line
from paw.core.wave import followup_text
from paw.core.wave.state import CheckRun

SCREENS = Path(__file__).parent.parent / "fixtures" / "typing-live" / "opencode"
# The live wave's check (tests/e2e/test_wave_followup_live.py) and what it printed.
CHECK = (
    "test -f ../followup-check || { touch ../followup-check; "
    "echo 'FAILED test_add: expected 2, got 1'; exit 1; }"
)
FOLLOWUP = one_line(followup_text(CHECK, CheckRun(at=0.0, exit_code=1, tail=(
    "FAILED test_add: expected 2, got 1\n"
))))  # fmt: skip


def _screen(name: str) -> str:
    return (SCREENS / name / "screen.ansi").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["idle_80x24", "idle_120x40", "wave_idle_120x40"])
def test_an_idle_opencode_after_a_turn_reads_idle_with_an_empty_input(name: str) -> None:
    screen = _screen(name)
    assert detect(screen, "opencode").state.value == "idle"
    assert read_input(screen, "opencode") == ""


def test_the_typed_followup_reads_back_whole_so_paw_may_press_enter() -> None:
    screen = _screen("wave_followup_120x40")
    assert detect(screen, "opencode").state.value == "idle"
    shown = read_input(screen, "opencode")
    assert shown == FOLLOWUP  # over three rows of the box, read as one line
    assert echo_shown(shown, FOLLOWUP)


def test_a_followup_typed_twice_is_neither_empty_nor_the_echo() -> None:
    screen = _screen("wave_followup_twice_120x40")
    shown = read_input(screen, "opencode")
    assert shown == FOLLOWUP + FOLLOWUP  # not empty: paw types nothing more
    assert not echo_shown(shown, FOLLOWUP)  # not the echo: paw presses no Enter


def test_the_transcripts_copy_of_a_message_is_not_the_input() -> None:
    """The user's first message sits in a ``┃`` box at the top of every capture: cut the live
    box away and nothing is read (unreadable, never empty)."""
    screen = _screen("wave_idle_120x40")
    rows = screen.split("\n")
    edge = max(i for i, row in enumerate(rows) if "╹" in row)
    top = [row for row in rows[:edge] if "SCENARIO quote" in row]
    assert top, "the transcript's copy of the task is on the screen"
    live_box_gone = "\n".join(rows[: edge - 4] + rows[edge + 1 :])
    assert read_input(live_box_gone, "opencode") is None


@pytest.mark.parametrize("name", ["idle_80x24", "wave_followup_120x40"])
def test_kilo_code_reads_the_same_box_with_the_same_function(name: str) -> None:
    assert load_input_reader("kilocode") is load_input_reader("opencode")
    screen = _screen(name)
    assert read_input(screen, "kilocode") == read_input(screen, "opencode")


# A check's output of 200 lines of 100 characters (tests/e2e/test_wave_followup_live.py).
LONG_OUTPUT = "\n".join(f"output line {i:03d} " + "x" * 84 for i in range(1, 201))
SAVED = "/home/u/src/demo/.paw/checks/w.fix.1.log"
BOX_TEXT_COLUMNS = 111  # at 120 columns (the fixture's second row: 110 and the next word)


def _drawn(text: str) -> str:
    """The wave pane of ``wave_followup_120x40`` with ``text`` typed into the box instead,
    wrapped as opencode wraps it; the 40 rows keep their bottom (the box grows upward)."""
    rows = _screen("wave_followup_120x40").split("\n")
    edge = max(i for i, row in enumerate(rows) if "╹" in row)
    top = max(i for i in range(edge - 2) if strip_ansi(rows[i]).strip() == "┃")
    typed = [f"  ┃  {row}" for row in textwrap.wrap(text, BOX_TEXT_COLUMNS)]
    drawn = rows[: top + 1] + typed + rows[edge - 2 :]
    return "\n".join(drawn[-len(rows) :])


def test_a_long_checks_sized_followup_reads_back_whole_where_the_unsized_one_cannot() -> None:
    """The follow-up sized by opencode's input room at 120x40 draws in at most 10 rows and
    reads back as exactly what was typed (paw may press Enter); the unsized one (the usual
    20-line tail) takes 15 rows: more than opencode shows at 40 rows (13) and than paw reads."""
    spec = spec_for("opencode")
    assert spec is not None
    run = CheckRun(at=0.0, exit_code=1, tail=tail(LONG_OUTPUT))
    sized = one_line(followup_text(CHECK, run, TailRoom(fit_at(spec.input_room, 120, 40), SAVED)))
    assert len(textwrap.wrap(sized, BOX_TEXT_COLUMNS)) <= 10
    screen = _drawn(sized)
    assert detect(screen, "opencode").state.value == "idle"
    shown = read_input(screen, "opencode")
    assert shown == sized
    assert echo_shown(shown, sized)
    unsized = one_line(followup_text(CHECK, run))
    assert len(textwrap.wrap(unsized, BOX_TEXT_COLUMNS)) > 13
    assert read_input(_drawn(unsized), "opencode") is None  # unreadable: never an Enter
