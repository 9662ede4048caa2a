"""opencode's permission box: part of a command is never listed as the whole (issue 33).

Captured live from the pinned opencode (tests/fixtures/incomplete/opencode): a command's empty
line draws a blank row inside the box, and the rows under it are still the command (``ls``, a
blank, ``touch …`` was listed as ``ls`` while approving ran both).
"""

from __future__ import annotations

import pytest

from paw.core.approval import INCOMPLETE_NOTE_PREFIX, evaluate_subject
from paw.core.config import GuardConfig
from paw.core.detect import detect
from paw.core.guard.shell import evaluate_command
from paw.core.models import Action, Detection
from tests.detect.corpus import FIXTURES

CAPTURES = FIXTURES / "incomplete" / "opencode"
BLANK = ("shell_blank_80x24", "shell_blank_64x20")
BLANK_COMMAND = "ls\n\ntouch paw-blank-done.txt"


def _read(case: str, variant: str = "txt") -> str:
    return (CAPTURES / case / f"screen.{variant}").read_text(encoding="utf-8")


def _marked(found: Detection) -> bool:
    return any(n.startswith(INCOMPLETE_NOTE_PREFIX) for n in found.notes)


def _action(found: Detection) -> Action:
    assert found.prompt is not None
    return evaluate_subject(
        found.prompt,
        worktree="/w",
        config=GuardConfig(),
        mcp_allowed=(),
        shell=evaluate_command,
        notes=found.notes,
    ).action


@pytest.mark.parametrize("variant", ["txt", "ansi"])
@pytest.mark.parametrize("case", BLANK)
def test_a_blank_line_inside_the_command_does_not_end_it(case: str, variant: str) -> None:
    found = detect(_read(case, variant), "opencode")
    assert found.prompt is not None
    assert found.prompt.subject == BLANK_COMMAND
    assert not _marked(found)


@pytest.mark.parametrize("case", BLANK)
def test_a_command_hidden_under_a_blank_line_is_judged(case: str) -> None:
    """``ls``, a blank line, ``rm -rf x``: the guard sees the ``rm``, not only ``ls``."""
    text = _read(case)
    assert text.count("┃  touch paw-blank-done.txt") == 1
    found = detect(text.replace("┃  touch paw-blank-done.txt", "┃  rm -rf x"), "opencode")
    assert found.prompt is not None
    assert found.prompt.subject == "ls\n\nrm -rf x"
    assert _action(found) is not Action.ALLOW


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
