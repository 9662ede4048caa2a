"""``framed_bottom``: a framed block at the bottom of the screen (see live_dialog), and what
detect keeps when it turns an idle reading into ``unknown`` for it."""

from __future__ import annotations

import pytest

from paw.core.detect import FRAMED_NOTE, _unless_dialog
from paw.core.detect.live_dialog import FRAME_ROWS, framed_bottom
from paw.core.models import Detection, DetectionState

TEXT = ["Sign in with your browser", "Open the page and type the code WXYZ-1234"]
CORNERS = "╭╮╰╯┌┐└┘┏┓┗┛╔╗╚╝╹"


@pytest.mark.parametrize(
    "edge",
    ["╭──────────────╮", "╰──────────────╯", "┏━━━━━━━━┓", "╚════════╝", "  ╰────────╯  "],
)
def test_a_box_edge_at_the_bottom_is_a_frame(edge: str) -> None:
    assert framed_bottom([*TEXT, edge])


@pytest.mark.parametrize("edge", ["╭─╮", "╰──", "╹▀▀", "┗━┛"])
def test_an_edge_the_pane_made_short_still_counts(edge: str) -> None:
    assert framed_bottom([*TEXT, edge])


@pytest.mark.parametrize("edge", ["╭─", "╭", "╰ done", "╭─x─╮", "└──┘ ok"])
def test_a_corner_without_its_rule_is_not_an_edge(edge: str) -> None:
    assert not framed_bottom([*TEXT, edge])


@pytest.mark.parametrize("corner", CORNERS)
def test_every_corner_paw_knows_opens_an_edge(corner: str) -> None:
    assert framed_bottom([*TEXT, corner + "────"])


def test_the_half_block_bottom_edge_of_an_input_box_counts() -> None:
    # The bottom edge some agents draw under their input box (╹ then a row of ▀), with its
    # side border (┃) above the last rows: only the edge is within reach.
    rows = [*TEXT, "  ┃  Build · model", "  ╹" + "▀" * 40, "tab agents", "● Tip", "~/demo"]
    assert framed_bottom(rows)
    assert not framed_bottom([*rows[:-4], "  plain text", *rows[-3:]])


@pytest.mark.parametrize(
    "bar", ["────────────", "━━━", "═════", "▁▁▁▁▁▁▁▁", "▄▄▄▄", "▀▀▀▀▀▀", "______", "╌╌╌╌"]
)
def test_rules_and_bars_are_not_a_frame(bar: str) -> None:
    assert not framed_bottom([*TEXT, bar])


def test_bars_under_a_frame_do_not_push_it_out_of_reach() -> None:
    rows = [*TEXT, "╰────────╯", *["▁▁▁▁▁▁▁▁", "────────────", "______"] * FRAME_ROWS]
    assert framed_bottom(rows)


@pytest.mark.parametrize("row", ["│ Allow this? │", "┃ Allow this?", "  │ indented border", "║ x"])
def test_a_vertical_border_at_the_bottom_is_a_frame(row: str) -> None:
    assert framed_bottom([*TEXT, row])


def test_a_frame_above_the_last_rows_is_not_at_the_bottom() -> None:
    rows = [
        "╭────────╮",
        "│ notice │",
        "╰────────╯",
        *(f"output line {n}" for n in range(FRAME_ROWS)),
    ]
    assert not framed_bottom(rows)
    assert framed_bottom(rows[:-1])


def test_blank_rows_do_not_count_as_rows() -> None:
    assert framed_bottom(["╰────────╯", *[""] * 10])


def test_plain_text_is_not_a_frame() -> None:
    assert not framed_bottom([*TEXT, "> type here", "a | b | c"])
    assert not framed_bottom([])


def _claude_framed_screen() -> str:
    width = 60
    return "\n".join(
        [
            "> fix the tests",
            "",
            "● Done.",
            "",
            "╭" + "─" * (width - 2) + "╮",
            *("│ " + row.ljust(width - 4) + " │" for row in TEXT),
            "╰" + "─" * (width - 2) + "╯",
        ]
    )


def test_unknown_for_a_framed_bottom_keeps_the_detectors_notes() -> None:
    found = Detection(DetectionState.IDLE, "claude-code", None, ("the detector's own note",))
    result = _unless_dialog(_claude_framed_screen(), "claude-code", found)
    assert result.state is DetectionState.UNKNOWN
    assert result.notes == ("the detector's own note", FRAMED_NOTE)
