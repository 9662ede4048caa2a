"""Sizing a follow-up to what an agent's input shows whole and paw reads back (pure).

opencode (and Kilo Code) show max(6, pane height // 3) rows of typed text and scroll past them;
paw reads 10 rows of text from their box. A check's usual 20-line tail of 100-character lines is
about 1,600 characters: 16 rows at 120 columns, never read back whole, so paw refused to press
Enter and a human was told. Sized, the follow-up keeps the output's last lines that fit, says
"(trimmed)", and names the file holding the whole output.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from paw.core.detect.inputs import MAX_INPUT_ROWS
from paw.core.detect.registry import spec_for
from paw.core.land.attempt import Outcome
from paw.core.land.followup import followup_text as land_followup_text
from paw.core.land.journal import TaskLanding
from paw.core.output_tail import TRIMMED, TailRoom, fitted_tail, saved_output_name
from paw.core.typed_room import DEFAULT_ROOM, READ_ROWS, Fit, InputRoom, fit_at, wrapped_rows
from paw.core.wave import followup_text
from paw.core.wave.state import CheckRun

LONG = "\n".join(f"output line {i:03d} " + "x" * 84 for i in range(1, 201)) + "\nFAILED: 2 != 1\n"
SAVED = "/repo/.paw/checks/w-fix-1.log"


class Wrap(NamedTuple):
    test_id: str
    text: str
    width: int
    rows: int


WRAPS = [
    Wrap("empty-is-one-row", "", 10, 1),
    Wrap("fits-with-its-cursor", "abcd efgh", 10, 1),
    Wrap("the-cursor-takes-a-cell", "abcd efghi", 10, 2),
    Wrap("wraps-at-a-space", "abcd efgh ijkl", 10, 2),
    Wrap("a-long-word-is-broken", "x" * 25, 10, 3),
    Wrap("a-long-word-starts-a-row", "ab " + "x" * 12, 10, 3),
    Wrap("wide-characters-take-two-cells", "漢字漢字漢字", 10, 2),
]


@pytest.mark.parametrize("case", WRAPS, ids=[c.test_id for c in WRAPS])
def test_wrapped_rows_counts_rows_as_a_word_wrap_draws_them(case: Wrap) -> None:
    assert wrapped_rows(case.text, case.width) == case.rows


def test_read_rows_is_paws_readers_limit_less_a_boxs_padding() -> None:
    assert READ_ROWS == MAX_INPUT_ROWS - 2


class Size(NamedTuple):
    test_id: str
    cols: int
    rows: int
    fit: Fit


SIZES = [
    Size("80x24-grows-to-a-third", 80, 24, Fit(70, 8)),
    Size("120x40-paw-reads-ten", 120, 40, Fit(110, 10)),
    Size("short-pane-shows-six", 100, 12, Fit(90, 6)),
]


@pytest.mark.parametrize("case", SIZES, ids=[c.test_id for c in SIZES])
@pytest.mark.parametrize("agent", ["opencode", "kilocode"])
def test_opencodes_input_room_at_a_pane_size(agent: str, case: Size) -> None:
    spec = spec_for(agent)
    assert spec is not None
    assert fit_at(spec.input_room, case.cols, case.rows) == case.fit


def test_an_agent_not_measured_gets_paws_readers_limit() -> None:
    spec = spec_for("claude-code")
    assert spec is not None
    assert spec.input_room == DEFAULT_ROOM
    assert fit_at(DEFAULT_ROOM, 80, 100) == Fit(70, READ_ROWS)


@pytest.mark.parametrize("size", SIZES, ids=[c.test_id for c in SIZES])
def test_a_long_checks_followup_fits_and_keeps_the_last_lines(size: Size) -> None:
    run = CheckRun(at=0.0, exit_code=1, tail=LONG)
    unsized = followup_text("make test", run)
    assert wrapped_rows(unsized, size.fit.width) > size.fit.rows  # what paw could not send
    text = followup_text("make test", run, TailRoom(size.fit, SAVED))
    assert wrapped_rows(text, size.fit.width) <= size.fit.rows
    assert f"Output tail: {TRIMMED} " in text
    assert "output line 200" in text
    assert "FAILED: 2 != 1 -- the whole output is in " + SAVED + " -- please fix" in text
    assert "output line 001" not in text
    # the most that fits: one line more would not
    kept = text.count("output line ")
    more = followup_text("make test", run, TailRoom(Fit(size.fit.width, 99), SAVED))
    assert more.count("output line ") > kept


def test_a_short_output_is_whole_and_not_marked() -> None:
    run = CheckRun(at=0.0, exit_code=1, tail="FAILED: 2 != 1\n")
    text = followup_text("make test", run, TailRoom(Fit(110, 10), SAVED))
    assert "Output tail: FAILED: 2 != 1 -- the whole output" in text
    assert TRIMMED not in text
    assert followup_text("make test", run) == (
        "The check `make test` failed (exit 1). Output tail: FAILED: 2 != 1 "
        "-- please fix this and finish your turn when the check passes."
    )


def test_one_huge_line_keeps_its_end() -> None:
    """A 1,700-character line without spaces (the live case paw could not send)."""
    line = "a" * 1690 + "THE-END"
    text = fitted_tail(line, 20, 1500, lambda tail: f"Output tail: {tail}.", Fit(70, 8))
    assert wrapped_rows(text, 70) <= 8
    assert text.startswith(f"Output tail: {TRIMMED} a")
    assert text.endswith("THE-END.")


def test_a_message_too_long_even_without_output_keeps_only_the_mark() -> None:
    text = fitted_tail("x" * 50, 20, 1500, lambda tail: "y" * 100 + f" {tail}", Fit(10, 2))
    assert text == "y" * 100 + f" {TRIMMED}"  # the typing proof then refuses it, safely


def test_without_a_room_the_caps_still_hold_and_a_cut_is_said() -> None:
    text = fitted_tail(LONG, 20, 1500, lambda tail: tail, None)
    assert text.startswith(f"{TRIMMED} ")
    assert len(text) <= 1500 + len(TRIMMED) + 1


def test_the_landers_followup_fits_too() -> None:
    outcome = Outcome("check-failed", check="make test", exit_code=1, output=LONG)
    task = TaskLanding(name="fix", agent="w-fix", queued_at=0.0)
    fit = Fit(70, 8)
    text = land_followup_text(task, outcome, "main", "merge", TailRoom(fit, SAVED))
    assert wrapped_rows(text, fit.width) <= fit.rows
    assert f"Output tail: {TRIMMED} " in text
    assert f"FAILED: 2 != 1. The whole output is in {SAVED}. Please bring main" in text
    assert wrapped_rows(land_followup_text(task, outcome, "main", "merge"), fit.width) > fit.rows


class Named(NamedTuple):
    test_id: str
    parts: tuple[str | int, ...]
    name: str


NAMES = [
    Named("plain", ("w", "fix", 2), "w.fix.2.log"),
    Named("odd-characters-replaced", ("w", "a b/c", "land", 1), "w.a_b_c.land.1.log"),
    Named("no-leading-dot", (".w", "t", 1), "w.t.1.log"),
]


@pytest.mark.parametrize("case", NAMES, ids=[c.test_id for c in NAMES])
def test_saved_output_name_is_a_plain_file_name(case: Named) -> None:
    assert saved_output_name(*case.parts) == case.name


class Clash(NamedTuple):
    test_id: str
    one: tuple[str | int, ...]
    other: tuple[str | int, ...]


CLASHES = [
    Clash("wave-check-vs-landing", ("w", "x-land", 3), ("w", "x", "land", 3)),
    Clash("dash-in-wave-vs-task", ("w-a", "b", 1), ("w", "a-b", 1)),
]


@pytest.mark.parametrize("case", CLASHES, ids=[c.test_id for c in CLASHES])
def test_two_runs_never_share_a_saved_output_name(case: Clash) -> None:
    assert saved_output_name(*case.one) != saved_output_name(*case.other)


def test_an_input_room_that_does_not_grow() -> None:
    assert fit_at(InputRoom(rows=3, chrome=4), 40, 90) == Fit(36, 3)
