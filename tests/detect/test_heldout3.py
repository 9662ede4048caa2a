"""The fourth held-out batch (issue 33): sizes no earlier fixture has.

``tests/fixtures/heldout3/<agent>/<case>_<cols>x<rows>/`` was recorded live from the pinned
agents by ``python -m tests.e2e.heldout AGENT COLSxROWS … --out=…`` (no paw) at sizes no other
fixture uses (110x34, 86x26, 140x42) with the first batch's turns (a command with quotes and a
pipe, a new file in a subfolder, an edit of a file with a long path, a fetch, a question, a busy
screen mid-turn, the input after a finished turn), and for a few agents the third batch's
(``--batch=3``: a heredoc and ``&&`` chain, a new file in a deep new folder, a path with
spaces); each label was read off the screen. It was measured before any detector change
(docs/agents.md, "Measured on held-out screens").
"""

from __future__ import annotations

import pytest

from tests.detect.corpus import FIXTURES, Case, load_cases
from tests.detect.test_heldout import OTHER_SIZES, wrong_reading

CASES = load_cases(FIXTURES / "heldout3", "heldout3/")
EARLIER = {(100, 30), (72, 22), (150, 45), (90, 28), (130, 36), (64, 20)}


def test_fourth_batch_spans_agents_and_new_sizes() -> None:
    assert len({c.agent for c in CASES}) >= 6
    assert all((c.meta["cols"], c.meta["rows"]) not in OTHER_SIZES | EARLIER for c in CASES)
    assert {"permission_prompt", "dialog", "idle", "done", "busy"} <= {
        c.meta["state"] for c in CASES
    }
    turns = {c.name.rsplit("_", 1)[0] for c in CASES}
    assert {"shell_pipe", "write_subdir", "edit_long", "fetch", "ask"} <= turns


# Findings of this batch left open, each read safely (a human is asked) but not as labelled;
# strict: a fix that makes one pass must take it off this list.
# (opencode's and Kilo Code's session sidebar at 140 columns, read as part of the transcript and
# the input until the panel beside them was cut off: tests/detect/test_side_panel.py.)
OPEN: dict[str, str] = {
    "heldout3/mistral-vibe/edit_space_86x26": (
        "Vibe wraps the File: path at the blank of 'docs/meeting notes/…' on a row with no other"
        " blank and short of the box's edge: the row is read as cut inside a word and joined"
        " with nothing ('meetingnotes'); the path carries the note that its wrapping is uncertain"
    ),
}


def _marks(case: Case) -> list[pytest.MarkDecorator]:
    reason = OPEN.get(case.test_id)
    return [pytest.mark.xfail(reason=reason, strict=True)] if reason else []


@pytest.mark.parametrize("case", [pytest.param(c, id=c.test_id, marks=_marks(c)) for c in CASES])
@pytest.mark.parametrize("variant", ["txt", "ansi"])
def test_fourth_batch_screen_is_read_as_labelled(case: Case, variant: str) -> None:
    assert wrong_reading(case, variant) == []
