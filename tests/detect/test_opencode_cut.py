"""opencode's permission box: part of a command is never listed as the whole (issue 33).

Captured live from the pinned opencode (tests/fixtures/incomplete/opencode):

- a command's empty line draws a blank row inside the box, and the rows under it are still the
  command (``ls``, a blank, ``touch …`` was listed as ``ls`` while approving ran both);
- the box is at most 15 rows tall (opencode's ``maxHeight``, as in its fork Kilo Code): a
  20-line command shows 7 lines at 80x24 and 5 at 64x20, no mark for the rest. A box that tall
  cannot be told from one whose command fits exactly, so its command is ``subject incomplete``
  (the guard confirms) unless the transcript shows the pending ``$ <command>`` whole (then it
  is read from there: tests/detect/test_pending_line.py).
"""

from __future__ import annotations

import pytest

from paw.core.detect import detect
from paw.core.detect.tall_box import FROM_TRANSCRIPT
from paw.core.models import Action
from tests.detect.corpus import FIXTURES
from tests.support.judging import judge, marked_incomplete

CAPTURES = FIXTURES / "incomplete" / "opencode"
BLANK = ("shell_blank_80x24", "shell_blank_64x20")
BLANK_COMMAND = "ls\n\ntouch paw-blank-done.txt"
LONG = {"shell_long_80x24": 7, "shell_long_64x20": 5}  # lines the box shows of 20
LONG_LINES = [f"echo line-{n} >> paw-long.txt" for n in range(1, 20)]
FULL = "shell_multiline_120x40"  # seven lines in a full box, the transcript shows them all
LAST = "touch paw-multiline-done.txt"
SHORT = FIXTURES / "screens-live" / "opencode" / "shell_80x24" / "screen.txt"
FETCH = FIXTURES / "heldout" / "opencode" / "fetch_72x22" / "screen.txt"


def _read(case: str, variant: str = "txt") -> str:
    return (CAPTURES / case / f"screen.{variant}").read_text(encoding="utf-8")


def _from_box(text: str) -> str:
    """The screen from the box's top row down: the box fills the pane."""
    lines = text.split("\n")
    box = next(i for i, line in enumerate(lines) if "Permission required" in line) - 1
    return "\n".join(lines[box:])


@pytest.mark.parametrize("variant", ["txt", "ansi"])
@pytest.mark.parametrize("case", BLANK)
def test_a_blank_line_inside_the_command_does_not_end_it(case: str, variant: str) -> None:
    found = detect(_read(case, variant), "opencode")
    assert found.prompt is not None
    assert found.prompt.subject == BLANK_COMMAND
    assert not marked_incomplete(found)


@pytest.mark.parametrize("case", BLANK)
def test_a_command_hidden_under_a_blank_line_is_judged(case: str) -> None:
    """``ls``, a blank line, ``rm -rf x``: the guard sees the ``rm``, not only ``ls``."""
    text = _read(case)
    assert text.count("┃  touch paw-blank-done.txt") == 1
    found = detect(text.replace("┃  touch paw-blank-done.txt", "┃  rm -rf x"), "opencode")
    assert found.prompt is not None
    assert found.prompt.subject == "ls\n\nrm -rf x"
    assert judge(found).action is not Action.ALLOW


def test_the_always_allow_box_keeps_a_command_under_a_blank_line() -> None:
    """The second box ("Allow always") ends with its own sentence, not the command's."""
    rows = [
        "  ┃",
        "  ┃  △ Always allow",
        "  ┃    # Shell command",
        "  ┃",
        "  ┃  $ ls",
        "  ┃",
        "  ┃  rm -rf x",
        "  ┃",
        "  ┃  This allows the command until opencode restarts.",
        "  ┃",
        "  ┃   Confirm   Cancel" + " " * 50 + "⇆ select  enter confirm",
        "  ┃",
    ]
    found = detect("\n".join(["     ▣  Build · paw stub", "", *rows]), "opencode")
    assert found.prompt is not None
    assert found.prompt.subject == "ls\n\nrm -rf x"


@pytest.mark.parametrize("variant", ["txt", "ansi"])
@pytest.mark.parametrize("case", sorted(LONG))
def test_a_command_the_box_cut_is_incomplete_and_confirms(case: str, variant: str) -> None:
    found = detect(_read(case, variant), "opencode")
    assert found.prompt is not None
    assert found.prompt.subject == "\n".join(LONG_LINES[: LONG[case]])
    assert marked_incomplete(found)
    assert judge(found).action is not Action.ALLOW


def test_a_short_box_is_read_whole() -> None:
    found = detect(SHORT.read_text(encoding="utf-8"), "opencode")
    assert found.prompt is not None
    assert found.prompt.subject == "touch paw-shell.txt"
    assert not marked_incomplete(found)


def test_a_full_box_whose_command_the_transcript_shows_whole_is_whole() -> None:
    found = detect(_read(FULL), "opencode")
    assert found.prompt is not None
    assert found.prompt.subject is not None
    assert found.prompt.subject.endswith(LAST)
    assert not marked_incomplete(found)


def test_a_full_box_whose_transcript_shows_more_is_read_whole_from_there() -> None:
    """The transcript's command goes on past the box's last row: the box cut it, and the
    pending tool line right above it, which begins with all the box shows, has it whole."""
    text = _read(FULL)
    tail = f"       {LAST}\n"
    assert text.count(tail) == 1
    found = detect(text.replace(tail, tail + "       rm -rf ~/hidden\n"), "opencode")
    assert found.prompt is not None
    assert found.prompt.subject is not None
    assert found.prompt.subject.endswith(f"{LAST}\nrm -rf ~/hidden")
    assert FROM_TRANSCRIPT in found.notes
    assert not marked_incomplete(found)
    assert judge(found).action is not Action.ALLOW


def test_a_full_box_is_incomplete_when_the_command_starts_above_the_pane() -> None:
    """Only the command's last rows are in the transcript: a longer command whose last rows
    repeat these would draw the same screen."""
    lines = _read(FULL).split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("     $ echo line-1"))
    found = detect("\n".join(lines[start + 2 :]), "opencode")
    assert found.prompt is not None
    assert marked_incomplete(found)
    assert judge(found).action is not Action.ALLOW


def test_a_box_that_fills_the_pane_is_incomplete() -> None:
    """Nothing above the box: the pane, not opencode, set its height."""
    found = detect(_from_box(SHORT.read_text(encoding="utf-8")), "opencode")
    assert found.prompt is not None
    assert found.prompt.subject == "touch paw-shell.txt"
    assert marked_incomplete(found)


def test_a_fetch_in_a_full_box_is_whole_when_its_kind_line_names_the_url() -> None:
    """The kind line (``% WebFetch <url>``) keeps its rows: the URL there proves the field's."""
    text = FETCH.read_text(encoding="utf-8")
    found = detect(_from_box(text), "opencode")
    assert found.prompt is not None
    assert found.prompt.subject == "https://example.invalid/paw/heldout/page.html"
    assert not marked_incomplete(found)
    cut = text.replace(
        "  ┃  URL: https://example.invalid/paw/heldout/page.html",
        "  ┃  URL: https://example.invalid/paw/",
    )
    found = detect(_from_box(cut), "opencode")
    assert found.prompt is not None
    assert marked_incomplete(found)


def test_a_command_the_always_allow_box_may_have_cut_is_incomplete() -> None:
    """The second box has the same height limit: at 15 rows with no transcript to compare,
    the command it shows may be cut, and "always" would store a rule for more than is shown."""
    rows = [
        "  ┃",
        "  ┃  △ Always allow",
        "  ┃    # Shell command",
        "  ┃",
        *(f"  ┃  {'$ ' if n == 1 else ''}echo line-{n} >> paw-long.txt" for n in range(1, 7)),
        "  ┃",
        "  ┃  This allows the command until opencode restarts.",
        "  ┃",
        "  ┃   Confirm   Cancel" + " " * 50 + "⇆ select  enter confirm",
        "  ┃",
    ]
    assert len(rows) == 15
    found = detect("\n".join(["     ▣  Build · paw stub", "", *rows]), "opencode")
    assert found.prompt is not None
    assert found.prompt.subject == "\n".join(LONG_LINES[:6])
    assert found.prompt.always_keys == ("Enter",)
    assert marked_incomplete(found)
    short = [row for row in rows if "line-6" not in row]
    found = detect("\n".join(["     ▣  Build · paw stub", "", *short]), "opencode")
    assert found.prompt is not None
    assert not marked_incomplete(found)
