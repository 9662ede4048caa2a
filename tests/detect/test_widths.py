"""Prompts are read the same at 80 and 200 columns and on a 24-row pane.

Each corpus screen is redrawn at the new width (tests/detect/reflow.py models how the CLIs
re-render; aider's plain output is wrapped by the terminal) and must give the same state,
kind, keys and subject (whitespace collapsed) as the original capture.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from paw.core.detect import detect
from paw.core.detect.screen import collapse_whitespace
from paw.core.models import Detection
from tests.detect.corpus import Case, load_cases
from tests.detect.reflow import hard_wrap, reflow


class Size(NamedTuple):
    """A pane size to redraw the corpus at (rows None keeps every line)."""

    test_id: str
    cols: int
    rows: int | None


SIZES = [Size("80cols", 80, None), Size("200cols", 200, None), Size("80x24", 80, 24)]
CASES = load_cases()


def redraw(case: Case, size: Size) -> str:
    """The case's screen as the agent would draw it at ``size``."""
    text = case.text()
    drawn = hard_wrap(text, size.cols) if case.agent == "aider" else reflow(text, size.cols)
    if size.rows is None:
        return drawn
    return "\n".join(shrink_rows(drawn.rstrip("\n").split("\n"), size.rows))


def shrink_rows(lines: list[str], rows: int) -> list[str]:
    """Fit ``lines`` into ``rows``: blank gaps shrink first (the UI pins its input or dialog
    to the bottom and the transcript to the top), then the top scrolls away."""
    lines = list(lines)
    while len(lines) > rows:
        gap = _longest_blank_run(lines)
        if gap < 0:
            break
        del lines[gap]
    return lines[-rows:]


def _longest_blank_run(lines: list[str]) -> int:
    best, best_len, run_start = -1, 1, -1
    for index, line in enumerate([*lines, "x"]):
        if not line.strip():
            run_start = index if run_start < 0 else run_start
            continue
        if run_start >= 0 and index - run_start > best_len:
            best, best_len = run_start, index - run_start
        run_start = -1
    return best


def summary(found: Detection) -> tuple[object, ...]:
    prompt = found.prompt
    if prompt is None:
        return (found.state,)
    subject = collapse_whitespace(prompt.subject) if prompt.subject else None
    return (
        found.state,
        prompt.kind,
        subject,
        prompt.approve_keys,
        prompt.deny_keys,
        prompt.always_keys,
    )


@pytest.mark.parametrize("size", SIZES, ids=[s.test_id for s in SIZES])
@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_detect_redrawn_screen_gives_same_answer(case: Case, size: Size) -> None:
    original = summary(detect(case.text(), case.agent))
    redrawn = summary(detect(redraw(case, size), case.agent))
    assert redrawn == original


def test_detect_unwrapped_command_carries_a_note() -> None:
    """A command joined from wrapped rows says so; one read as shown does not."""
    case = next(c for c in CASES if c.test_id == "claude-code/shell_long_120x40")
    wide = detect(case.text(), case.agent)
    narrow = detect(redraw(case, SIZES[0]), case.agent)
    assert not any("unwrapped" in note for note in wide.notes)
    assert any("unwrapped" in note for note in narrow.notes)
