"""Kilo Code's permission box: a command it cut is never listed as the whole, and a new file
whose transcript line wrapped is still a new file (issue 33).

Kilo draws the box at most 15 rows tall (its ``maxHeight``): the kind line and the choices keep
their rows, the command loses its last rows, and nothing marks the cut (held-out
``kilocode/shell_chain_64x20``: 5 of 7 rows). A box that tall cannot be told from one whose
command fits exactly, so its command is ``subject incomplete`` (the guard confirms) unless the
transcript shows the pending ``$ <command>`` whole, from its first row to its end, with nothing
the box lacks. Built from the live and held-out captures.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paw.core.detect import detect
from paw.core.detect.tall_box import FROM_TRANSCRIPT
from paw.core.models import Action, DetectionState, PromptKind
from tests.detect.corpus import FIXTURES
from tests.support.judging import judge, marked_incomplete

FULL = FIXTURES / "incomplete" / "kilocode" / "shell_multiline_120x40" / "screen.txt"
SHORT = FIXTURES / "screens-live" / "kilocode" / "shell_80x24" / "screen.txt"
WRITE = FIXTURES / "heldout2" / "kilocode" / "write_deep_64x20" / "screen.txt"
SUBDIR = FIXTURES / "heldout" / "kilocode" / "write_subdir_100x30" / "screen.txt"
LAST = "touch paw-multiline-done.txt"


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_a_short_box_is_read_whole() -> None:
    found = detect(_read(SHORT), "kilocode")
    assert found.prompt is not None
    assert found.prompt.subject == "touch paw-shell.txt"
    assert not marked_incomplete(found)


def test_a_full_box_whose_command_the_transcript_shows_whole_is_whole() -> None:
    found = detect(_read(FULL), "kilocode")
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
    found = detect(text.replace(tail, tail + "       rm -rf ~/hidden\n"), "kilocode")
    assert found.state is DetectionState.PROMPT
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
    found = detect("\n".join(lines[start + 2 :]), "kilocode")
    assert found.prompt is not None
    assert marked_incomplete(found)
    assert judge(found).action is not Action.ALLOW


def test_a_full_box_with_no_transcript_command_is_incomplete() -> None:
    lines = _read(FULL).split("\n")
    box = next(i for i, line in enumerate(lines) if "Permission required" in line) - 1
    found = detect("\n".join(["", "     ▣  Code · paw stub", "", *lines[box:]]), "kilocode")
    assert found.prompt is not None
    assert marked_incomplete(found)


def test_a_box_that_fills_the_pane_is_incomplete() -> None:
    """Nothing above the box: the pane, not Kilo, set its height."""
    lines = _read(SHORT).split("\n")
    box = next(i for i, line in enumerate(lines) if "Permission required" in line) - 1
    found = detect("\n".join(lines[box:]), "kilocode")
    assert found.prompt is not None
    assert found.prompt.subject == "touch paw-shell.txt"
    assert marked_incomplete(found)


def test_a_blank_line_inside_the_command_does_not_end_it() -> None:
    """An empty line of the command draws a blank row; the rows under it are still the
    command (only the box's padding follows its last row)."""
    command = "  ┃  $ touch paw-shell.txt\n"
    text = _read(SHORT).replace(command, command + "  ┃\n  ┃  rm -rf build\n", 1)
    text = text.replace("\n\n\n\n\n\n  ┃\n", "\n\n\n\n  ┃\n", 1)  # the pane keeps its height
    found = detect(text, "kilocode")
    assert found.prompt is not None
    assert found.prompt.subject == "touch paw-shell.txt\n\nrm -rf build"
    assert judge(found).action is not Action.ALLOW


def test_a_new_file_whose_transcript_line_wrapped_is_a_write() -> None:
    found = detect(_read(WRITE), "kilocode")
    assert found.prompt is not None
    assert found.prompt.kind is PromptKind.WRITE
    assert found.prompt.subject == "src/new_area/level_one/level_two/level_three/paw-deep-new.txt"


@pytest.mark.parametrize("row", ["other-new.txt", "deep-new.txt.bak", "deep-new.tx"])
def test_a_wrapped_write_line_naming_another_path_is_an_edit(row: str) -> None:
    text = _read(WRITE)
    assert text.count("\n       deep-new.txt\n") == 1
    found = detect(text.replace("\n       deep-new.txt\n", f"\n       {row}\n"), "kilocode")
    assert found.prompt is not None
    assert found.prompt.kind is PromptKind.EDIT


def test_only_the_pending_tool_line_makes_a_write() -> None:
    """An earlier ``← Write`` of the same path higher in the transcript is not this call: the
    pending tool line right above the box says ``← Edit``."""
    text = _read(SUBDIR)
    pending = "     ← Write notes/drafts/paw-subdir-new.txt\n"
    assert pending in text
    found = detect(text, "kilocode")
    assert found.prompt is not None
    assert found.prompt.kind is PromptKind.WRITE
    edited = pending + "\n" + pending.replace("Write", "Edit")
    found = detect(text.replace(pending, edited, 1), "kilocode")
    assert found.prompt is not None
    assert found.prompt.kind is PromptKind.EDIT


def test_a_fetch_in_a_full_box_is_whole_when_its_kind_line_names_the_url() -> None:
    """The kind line (``% WebFetch <url>``) keeps its rows: the URL there proves the field's."""
    text = _read(FIXTURES / "heldout2" / "kilocode" / "fetch_64x20" / "screen.txt")
    lines = text.split("\n")
    box = next(i for i, line in enumerate(lines) if "Permission required" in line) - 1
    found = detect("\n".join(lines[box:]), "kilocode")  # the box fills the pane
    assert found.prompt is not None
    assert found.prompt.subject == "https://example.invalid/paw/heldout/page.html"
    assert not marked_incomplete(found)
    cut = text.replace(
        "  ┃  URL: https://example.invalid/paw/heldout/page.html",
        "  ┃  URL: https://example.invalid/paw/",
    )
    found = detect("\n".join(cut.split("\n")[box:]), "kilocode")
    assert found.prompt is not None
    assert marked_incomplete(found)
