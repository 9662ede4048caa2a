"""Which row of Kilo Code's permission block is a shell prompt's subject when the dialog draws
the tool's description (``# <description>``) above the command (``$ <command>``).

A live run once listed a shell prompt whose subject did not end with the command. The subject
is read from the ``$`` row and the rows it wrapped onto, up to the next blank row; the
description row above it (one row, or wrapped, with or without the blank row between) never
joins it, and a frame drawn before the ``$`` row shows no subject at all (the guard then asks
a human): never the description in the command's place. Built from the live 80x24 capture.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paw.core.detect.agents import kilocode
from paw.core.models import PromptKind

LIVE = Path(__file__).parent.parent / "fixtures" / "screens-live" / "kilocode"
SCREEN = (LIVE / "shell_80x24" / "screen.txt").read_text(encoding="utf-8")
DESCRIPTION = "  ┃    # Create a marker file\n"
COMMAND = "  ┃  $ touch paw-shell.txt\n"
WRAPPED = (
    "  ┃    # Create a marker file in the working directory so that the test can see the\n"
    "  ┃      effect of the approval\n"
)
VARIANTS = {
    "as-drawn": SCREEN,
    "description-wrapped": SCREEN.replace(DESCRIPTION, WRAPPED),
    "no-blank-row-between": SCREEN.replace(DESCRIPTION + "  ┃\n", DESCRIPTION),
    "description-with-a-dollar": SCREEN.replace("# Create", "# $ Create"),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_subject_is_the_command_row_never_the_description(name: str) -> None:
    assert DESCRIPTION in SCREEN  # the capture draws both
    assert COMMAND in SCREEN
    found = kilocode.detect_screen(VARIANTS[name])
    assert found.prompt is not None
    assert found.prompt.kind is PromptKind.SHELL
    assert found.prompt.subject == "touch paw-shell.txt"


def test_a_frame_without_the_command_row_has_no_subject() -> None:
    found = kilocode.detect_screen(SCREEN.replace(COMMAND, "  ┃\n"))
    assert found.prompt is not None
    assert found.prompt.subject is None  # never "Create a marker file"
