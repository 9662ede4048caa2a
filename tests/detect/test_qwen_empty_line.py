"""qwen-code: a command's empty line never hides the lines above it (issue 33).

Qwen draws the pending command twice: in its tool line (``? Shell <first line> ←``, the later
lines four columns in, the description after the last one) and in the command block above the
question, five columns in. An empty line of the command is a blank row in both. paw read the
block as "the paragraph above the question", so ``ls``, an empty line, ``touch …`` was listed
and judged as ``touch …`` alone, verdict ``allow`` (live, 120x40, tests/e2e/
test_cut_command_live.py): approving would have run the ``ls`` too, and a ``rm -rf`` there would
never have been seen. Now the block runs up to the tool line's rows (left of the block's
margin), its blank rows kept; several paragraphs are taken only when the tool line above shows
the same command, else a human looks (unknown).
"""

from __future__ import annotations

import pytest

from paw.core.detect import detect
from paw.core.detect.screen import parse_screen
from paw.core.models import Action, DetectionState
from tests.detect.corpus import FIXTURES
from tests.support.judging import judge

LIVE = FIXTURES / "incomplete" / "qwen-code" / "shell_blank_120x40"
COMMAND = "ls\n\ntouch paw-blank-done.txt"
TOOL_TAIL = "    touch paw-blank-done.txt (Create a marker file)\n"
BLOCK_HEAD = "     ls\n"


def _read(variant: str = "txt") -> str:
    """The capture as detectors read it (no trailing blanks, no scrollbar rail), so that rows
    can be replaced."""
    text = (LIVE / f"screen.{variant}").read_text(encoding="utf-8")
    return "\n".join(parse_screen(text).lines) + "\n"


@pytest.mark.parametrize("variant", ["txt", "ansi"])
def test_a_live_command_with_an_empty_line_is_read_whole(variant: str) -> None:
    text = (LIVE / f"screen.{variant}").read_text(encoding="utf-8")
    found = detect(text, "qwen-code")
    assert found.prompt is not None, found
    assert found.prompt.subject == COMMAND


def test_a_line_above_the_empty_line_is_judged() -> None:
    """``rm -rf build``, an empty line, ``touch …``: the guard sees the ``rm``."""
    text = _read()
    assert text.count("? Shell ls ") == 1
    assert text.count(BLOCK_HEAD) == 1
    text = text.replace("? Shell ls ", "? Shell rm -rf build ").replace(
        BLOCK_HEAD, "     rm -rf build\n"
    )
    found = detect(text, "qwen-code")
    assert found.prompt is not None, found
    assert found.prompt.subject == "rm -rf build\n\ntouch paw-blank-done.txt"
    assert judge(found).action is not Action.ALLOW


def test_a_block_the_tool_line_does_not_show_is_not_read() -> None:
    """The block's paragraphs are not the command the tool line shows (a paragraph of the tool
    line whose rows are all indented could pass for the block's): a human looks."""
    text = _read().replace(BLOCK_HEAD, "     rm -rf build\n")
    found = detect(text, "qwen-code")
    assert found.state is DetectionState.UNKNOWN, found


def test_an_indented_tool_line_paragraph_is_not_read_as_the_command() -> None:
    """The tool line's last paragraph indented past the block's margin (a command whose last
    line is indented): it is not the block's, and the tool line shows the command the block
    does, so the block alone is the command."""
    text = _read().replace(TOOL_TAIL, "      touch paw-blank-done.txt (Create a marker file)\n")
    text = text.replace("     touch paw-blank-done.txt\n", "       touch paw-blank-done.txt\n")
    found = detect(text, "qwen-code")
    assert found.prompt is not None, found
    assert found.prompt.subject == "ls\n\n  touch paw-blank-done.txt"


def test_an_empty_line_with_the_tool_line_above_the_pane_is_not_read() -> None:
    """The tool line scrolled off: the block's paragraphs cannot be told from a paragraph of
    the tool line, so a human looks (before, the last paragraph was listed as the command)."""
    lines = _read().split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(TOOL_TAIL.rstrip("\n")))
    found = detect("\n".join(lines[start + 1 :]), "qwen-code")
    assert found.state is DetectionState.UNKNOWN, found
