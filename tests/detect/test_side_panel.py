"""A side panel beside the transcript (opencode's and Kilo Code's session sidebar on a wide pane)
is not part of what the agent asks: its rows are cut off before the detectors read the screen.

Found on the fourth held-out batch (tests/fixtures/heldout3, 140x42): Kilo Code's permission
boxes were read as a dialog paw does not recognise (the sidebar's last row under the choices),
opencode's command carried the sidebar's folder rows, and its finished turn was unknown.
"""

from __future__ import annotations

import pytest

from paw.core.detect import detect
from paw.core.detect.screen import parse_screen, without_side_panel
from paw.core.models import Action, DetectionState, PromptKind
from tests.support.judging import judge, marked_incomplete

WIDTH, ROWS, PANEL = 140, 42, 100
SIDEBAR = {
    1: "paw e2e session",
    3: "▼ Context",
    4: "20 tokens",
    5: "0% used",
    8: "LSP",
    9: "LSPs are disabled",
    35: "/home/u/src/a-",
    36: "deep-folder-",
    37: "have/demo:main",
    40: "• Kilo 7.7.7",
}


def _screen(main: dict[int, str], sidebar: dict[int, str] = SIDEBAR) -> str:
    rows = []
    for row in range(ROWS):
        left = main.get(row, "")
        right = sidebar.get(row, "")
        rows.append((left.ljust(PANEL) + right).rstrip() if right else left)
    return "\n".join(rows) + "\n"


SHELL_BOX = {
    10: "  ┃  SCENARIO shell_pipe",
    13: "     $ printf 'a|b' | grep -c a > out.txt",
    33: "  ┃  △ Permission required",
    34: "  ┃    # Shell command",
    35: "  ┃",
    36: "  ┃  $ printf 'a|b' | grep -c a > out.txt",
    37: "  ┃",
    38: "  ┃",
    39: "  ┃   Allow once   Allow always   Reject      ctrl+f fullscreen  ⇆ select  enter confirm",
    40: "  ┃",
}


@pytest.mark.parametrize("agent", ["kilocode", "opencode"])
def test_permission_box_beside_a_side_panel_is_read(agent: str) -> None:
    found = detect(_screen(SHELL_BOX), agent)
    assert found.state is DetectionState.PROMPT, found
    assert found.prompt is not None
    assert found.prompt.kind is PromptKind.SHELL
    assert found.prompt.subject == "printf 'a|b' | grep -c a > out.txt"


def test_side_panel_is_cut_at_its_column() -> None:
    screen = parse_screen(_screen(SHELL_BOX))
    cut = without_side_panel(screen)
    assert cut.width < PANEL
    assert not any("Kilo 7.7.7" in line or "Context" in line for line in cut.lines)
    assert cut.lines[36].strip() == "┃  $ printf 'a|b' | grep -c a > out.txt"


def test_a_row_across_the_gutter_keeps_the_screen_whole() -> None:
    main = {**SHELL_BOX, 20: "x" * (PANEL + 10)}  # a transcript row as wide as the pane
    screen = parse_screen(_screen(main))
    assert without_side_panel(screen) is screen


def test_text_on_a_few_rows_at_the_right_is_no_panel() -> None:
    sidebar = {row: SIDEBAR[row] for row in (35, 36, 37, 40)}  # the bottom rows only
    screen = parse_screen(_screen(SHELL_BOX, sidebar))
    assert without_side_panel(screen) is screen


# The sidebar's top rows and its last: nothing beside the permission box's rows.
TOP_ONLY = {row: text for row, text in SIDEBAR.items() if row not in (35, 36, 37)}


@pytest.mark.parametrize("agent", ["kilocode", "opencode"])
def test_a_command_with_no_panel_text_beside_it_is_whole(agent: str) -> None:
    found = detect(_screen(SHELL_BOX, TOP_ONLY), agent)
    assert found.prompt is not None, found
    assert found.prompt.subject == "printf 'a|b' | grep -c a > out.txt"
    assert not marked_incomplete(found)


@pytest.mark.parametrize("agent", ["kilocode", "opencode"])
def test_a_command_padded_into_the_panels_columns_is_never_judged_whole(agent: str) -> None:
    """A model's command padded with blanks so that its tail starts at the panel's column
    (``echo hi<blanks>; rm -rf ~``) reads like a sidebar row beside ``echo hi``: the tail is
    cut off with the panel, so the subject is marked incomplete and never allowed."""
    main = {**SHELL_BOX, 13: "     $ echo hi", 36: "  ┃  $ echo hi"}
    found = detect(_screen(main, {**TOP_ONLY, 36: "; rm -rf ~"}), agent)
    assert found.prompt is not None, found
    assert found.prompt.subject == "echo hi"
    assert marked_incomplete(found)
    assert judge(found).action is not Action.ALLOW


@pytest.mark.parametrize("agent", ["kilocode", "opencode"])
def test_a_sidebar_row_beside_the_command_marks_it_too(agent: str) -> None:
    """The real sidebar's folder rows beside the command look the same: marked incomplete
    (``confirm`` at best) unless the agent's channel gives the exact input."""
    found = detect(_screen(SHELL_BOX), agent)
    assert found.prompt is not None, found
    assert marked_incomplete(found)
