"""Codex's settings pickers (``/permissions``, ``/model``): a dialog, listed for a human.

Codex draws them where an approval request would be: a title, numbered options, and a key hint
of their own (``enter select · esc back``), with no question. paw read them as ``unknown``
("options and key hint on screen, no question above them"); they are now a dialog of kind
``other`` with the title as its question and no approve keys, whatever the options say
("Approve for me" is a mode, not a yes), so a human answers them in the pane. An approval
request whose question is off a short pane stays ``unknown``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paw.core.detect import detect
from paw.core.models import DetectionState, PromptKind
from tests.detect.corpus import FIXTURES

PICKERS = sorted((FIXTURES / "dialogs" / "codex").glob("permissions_picker_*"))


@pytest.mark.parametrize("case", PICKERS, ids=[c.name for c in PICKERS])
@pytest.mark.parametrize("variant", ["txt", "ansi"])
def test_a_picker_is_a_dialog_no_approve_can_answer(case: Path, variant: str) -> None:
    found = detect((case / f"screen.{variant}").read_text(encoding="utf-8"), "codex")
    assert found.state is DetectionState.PROMPT, found
    assert found.prompt is not None
    assert found.prompt.kind is PromptKind.OTHER
    assert found.prompt.question == "Update Model Permissions"
    assert found.prompt.approve_keys == ()
    assert found.prompt.needs_human
    assert found.prompt.deny_keys == ("Escape",)
    assert len(found.prompt.options) == 4


def test_there_are_pickers_to_read() -> None:
    assert len(PICKERS) >= 2


def _request(footer: str, options: list[str], above: list[str]) -> str:
    return "\n".join(["", *above, "", *options, "", footer, ""])


ALLOW = ["› 1. Allow                   Run the tool", "  2. Cancel                  Stop"]


@pytest.mark.parametrize(
    ("footer", "options", "above"),
    [
        # an MCP request whose question scrolled off: options that say yes, "enter to submit"
        ("enter to submit | esc to cancel", ALLOW, ["  file: note.txt"]),
        # a shell request's options (letter shortcuts) under text that is not its question
        (
            "enter select · esc back",
            ["› 1. Yes, proceed (y)", "  2. No, and tell Codex what to do differently (esc)"],
            ["  echo line-2 >> out.txt"],
        ),
        # the command itself above the options
        ("enter select · esc back", ["› 1. First", "  2. Second"], ["  $ rm -rf build"]),
    ],
    ids=["mcp-allow", "letter-shortcuts", "command-above"],
)
def test_a_request_cut_at_the_top_is_never_a_picker(
    footer: str, options: list[str], above: list[str]
) -> None:
    found = detect(_request(footer, options, above), "codex")
    assert found.state is DetectionState.UNKNOWN, found


def test_a_picker_of_its_own_is_read_as_one() -> None:
    """Control for the test above: the same layout with a title and a picker's hint."""
    screen = _request("enter select · esc back", ["› 1. gpt-a", "  2. gpt-b"], ["  Select Model"])
    found = detect(screen, "codex")
    assert found.prompt is not None, found
    assert found.prompt.question == "Select Model"
    assert found.prompt.needs_human
