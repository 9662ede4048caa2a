"""qwen-code at 20 rows (issue 33): a folded command whose tool line is above the pane.

Qwen folds a command taller than the pane (``... last 2 lines hidden ...``) and draws its hint
``Press ctrl-s to show more lines`` on a row of its own between the dialog's options and the
``Waiting for user confirmation...`` spinner line; on a narrow pane it cuts the question with
``…`` (``Allow execution of: 'mkdir, cat, …, E…``). paw read any row there as "what it asks is
off screen" and a question without ``?`` as no question: unknown. The dialog is now listed as
the shell command shown, marked incomplete (the fold), so the guard confirms at best. Any
other text between the options and the spinner line still makes it unknown.
"""

from __future__ import annotations

import pytest

from paw.core.detect import detect
from paw.core.models import Action, DetectionState, PromptKind
from tests.detect.corpus import FIXTURES
from tests.support.judging import judge, marked_incomplete

CASE = FIXTURES / "heldout2" / "qwen-code" / "shell_chain_64x20"
HINT = "Press ctrl-s to show more lines"


def _screen(variant: str = "txt") -> str:
    text = (CASE / f"screen.{variant}").read_text(encoding="utf-8")
    assert HINT in text
    return text


@pytest.mark.parametrize("variant", ["txt", "ansi"])
def test_the_folded_command_is_listed_marked_incomplete(variant: str) -> None:
    found = detect(_screen(variant), "qwen-code")
    assert found.state is DetectionState.PROMPT, found
    assert found.prompt is not None
    assert found.prompt.kind is PromptKind.SHELL
    assert found.prompt.subject is not None
    assert found.prompt.subject.startswith("mkdir -p build/out")
    assert "hidden" not in found.prompt.subject  # the fold's own row is not the command
    assert marked_incomplete(found)
    assert judge(found).action is not Action.ALLOW


@pytest.mark.parametrize("other", ["Update available: 0.25.0", "  echo forged"])
def test_other_text_under_the_options_stays_unknown(other: str) -> None:
    found = detect(_screen().replace(HINT, other), "qwen-code")
    assert found.state is DetectionState.UNKNOWN, found
