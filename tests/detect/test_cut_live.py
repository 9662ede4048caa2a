"""What tests/e2e/test_cut_command_live.py found live (issue 33): a command of 20 lines and a
command with an empty line, read by each agent's detector as the whole or not at all.

- Claude Code draws a command's empty line as a blank row (``│`` alone) inside its dashed
  block: paw dropped it (``ls`` / ``touch …`` for ``ls``, an empty line, ``touch …``).
- Codex folds a long command as ``[… 26 lines] ^a view all``: paw listed the 13 lines shown and
  that marker as the whole command. A fold is now read as one, as for the other agents' folds:
  the prompt is listed with the lines shown (without the marker) and marked incomplete, so the
  guard says ``confirm`` at best (it was ``unknown`` before: nobody was shown what waits).
- Continue draws an empty line as a blank row under ``⎿ Will run:``: paw read the command only
  down to it (``ls``, verdict ``allow``).
- Mistral Vibe and aider draw it as a blank row too: Vibe's command was read down to it
  (``ls``), aider's only below it (``touch …``), both verdict ``allow``; qwen-code's in
  tests/detect/test_qwen_empty_line.py.
- Cline draws only a command's first rows and nothing for an empty line among them: ``ls``, an
  empty line, ``touch …`` is ``$ ls`` alone at 80x24, the screen of a one-line ``ls``. It was
  listed as ``ls``, verdict ``allow``; every command read from Cline's screen is now marked
  incomplete.

Captured live from the pinned CLIs with tests/e2e/record.py against the stub model (approving
ran the whole command, so each prompt was live).
"""

from __future__ import annotations

import pytest

from paw.core.detect import detect
from paw.core.models import Action, DetectionState
from tests.detect.corpus import FIXTURES
from tests.support.judging import judge, marked_incomplete

CODEX_LONG = FIXTURES / "incomplete" / "codex" / "shell_long_80x24"
CLINE_BLANK = FIXTURES / "incomplete" / "cline" / "shell_blank_80x24"
# The captures of agents that draw an empty line as a blank row among the command's rows (Cline,
# which draws none, has its own test above).
BLANK_ROW = {
    capture.parent.name: capture.name
    for capture in sorted(FIXTURES.glob("incomplete/*/shell_blank_*"))
    if capture.parent.name != "cline"
}
BLANK = "ls\n\ntouch paw-blank-done.txt"


@pytest.mark.parametrize("variant", ["txt", "ansi"])
def test_codexs_folded_command_is_not_listed_as_the_whole(variant: str) -> None:
    text = (CODEX_LONG / f"screen.{variant}").read_text(encoding="utf-8")
    assert "[… " in text
    found = detect(text, "codex")
    assert found.state is DetectionState.PROMPT, found
    assert found.prompt is not None
    assert found.prompt.subject is not None
    rows = found.prompt.subject.split("\n")
    assert rows[0] == "echo line-1 >> paw-long.txt"
    assert rows[-1] == "echo line-13 >> paw-long.txt"  # the fold's own row is not the command
    assert marked_incomplete(found)
    assert judge(found).action is not Action.ALLOW


@pytest.mark.parametrize("variant", ["txt", "ansi"])
def test_clines_one_line_command_is_never_known_whole(variant: str) -> None:
    text = (CLINE_BLANK / f"screen.{variant}").read_text(encoding="utf-8")
    found = detect(text, "cline")
    assert found.prompt is not None, found
    assert found.prompt.subject == "ls"
    assert marked_incomplete(found)
    assert judge(found).action is not Action.ALLOW


@pytest.mark.parametrize("variant", ["txt", "ansi"])
@pytest.mark.parametrize("agent", sorted(BLANK_ROW))
def test_an_empty_line_drawn_as_a_blank_row_is_kept(agent: str, variant: str) -> None:
    case = FIXTURES / "incomplete" / agent / BLANK_ROW[agent]
    found = detect((case / f"screen.{variant}").read_text(encoding="utf-8"), agent)
    assert found.prompt is not None, found
    assert found.prompt.subject == BLANK
    assert not marked_incomplete(found)
