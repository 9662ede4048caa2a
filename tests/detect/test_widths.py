"""Prompts are read the same at 80 and 200 columns, on a 24-row pane, and down to 20x15.

Each corpus screen is redrawn at the new width (tests/detect/reflow.py models how the CLIs
re-render; aider's plain output is wrapped by the terminal) and must give the same state,
kind, keys and subject (whitespace collapsed) as the original capture. Hand-made variants add
what some sizes bring: a scrollbar column at the right edge, paths under a long HOME that wrap
onto the next line, footers wrapped or cut on narrow panes, a short pane that hides a dialog's
top. Where a small pane hides what proves a prompt, the detector may say ``unknown`` — never
another prompt, and never a prompt where there is none.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from paw.core.detect import detect
from paw.core.detect.screen import collapse_whitespace
from paw.core.models import Detection, DetectionState, PromptKind
from tests.detect.corpus import Case, load_cases, load_live_cases
from tests.detect.reflow import LONG_HOME, add_rail, hard_wrap, lengthen_home, reflow
from tests.detect.test_variants import VARIANTS, Variant


class Size(NamedTuple):
    """A pane size to redraw the corpus at (rows None keeps every line)."""

    test_id: str
    cols: int
    rows: int | None


SIZES = [Size("80cols", 80, None), Size("200cols", 200, None), Size("80x24", 80, 24)]
# Tiled panes: what can be proven must be read the same; the rest is unknown.
SMALL = [Size("40x15", 40, 15), Size("30x20", 30, 20), Size("20x15", 20, 15)]
CASES = load_cases()
LIVE_CASES = load_live_cases()


def redraw(case: Case, size: Size, text: str | None = None) -> str:
    """The case's screen (or ``text``, a variant of it) as the agent would draw it at ``size``."""
    pane = max((len(line) for line in case.text().split("\n")), default=size.cols)
    text = case.text() if text is None else text
    drawn = hard_wrap(text, size.cols) if case.agent == "aider" else reflow(text, size.cols, pane)
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


# Centred full-screen dialogs are laid out anew by the app at another size, which cutting rows
# cannot imitate: their meta says ``"reflows": false`` (see test_negatives).
REDRAWABLE = [c for c in CASES if c.meta.get("reflows", True)]


@pytest.mark.parametrize("size", SIZES, ids=[s.test_id for s in SIZES])
@pytest.mark.parametrize("case", REDRAWABLE, ids=[c.test_id for c in REDRAWABLE])
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


@pytest.mark.parametrize("size", SMALL, ids=[s.test_id for s in SMALL])
@pytest.mark.parametrize("case", CASES + LIVE_CASES, ids=[c.test_id for c in CASES + LIVE_CASES])
def test_detect_small_pane_is_read_the_same_or_unknown(case: Case, size: Size) -> None:
    """Footers wrap or are cut and a dialog's top scrolls off: never a wrong or false prompt."""
    original = detect(case.text(), case.agent)
    redrawn = detect(redraw(case, size), case.agent)
    if original.state is not DetectionState.PROMPT:
        assert redrawn.state is not DetectionState.PROMPT, redrawn
    elif redrawn.state is not DetectionState.UNKNOWN:
        assert redrawn.state is DetectionState.PROMPT, redrawn  # a missed prompt says unknown
        got, want = summary(redrawn), summary(original)
        if {got[1], want[1]} == {PromptKind.EDIT, PromptKind.WRITE}:
            # What tells a new file from an edit (the transcript's tool line) may be off a
            # short pane: the same path and keys either way.
            got = (got[0], want[1], *got[2:])
        assert (got[0], got[1], *got[3:]) == (want[0], want[1], *want[3:])
        assert _same_subject(got[1], got[2], want[2]), (got[2], want[2])


def _rail_sizes() -> list[tuple[str, str, str]]:
    return [("thumb", "█", " "), ("thumb-and-track", "┃", "│"), ("shaded", "▓", "░")]


RAILS = _rail_sizes()


@pytest.mark.parametrize("rail", RAILS, ids=[r[0] for r in RAILS])
@pytest.mark.parametrize("case", CASES + LIVE_CASES, ids=[c.test_id for c in CASES + LIVE_CASES])
def test_detect_scrollbar_column_is_chrome(case: Case, rail: tuple[str, str, str]) -> None:
    """A scrollbar drawn in the right-most column (qwen-code at 80x24 when the transcript
    overflows) changes nothing: the screen is read as without it."""
    _name, thumb, track = rail
    cols = 80
    inner = redraw(case, Size("79cols", cols - 1, 24))
    railed = add_rail(inner, cols, thumb, track)
    assert summary(detect(railed, case.agent)) == summary(detect(inner, case.agent))


def _long_home_subject(found: Detection) -> tuple[object, ...]:
    row = summary(found)
    if found.prompt is None or not isinstance(row[2], str):
        return row
    return (*row[:2], row[2].replace("/home/u/", LONG_HOME), *row[3:])


def _same_subject(kind: object, got: object, want: object) -> bool:
    """Equal, or (a file or folder) the same path relative and absolute: a narrow or short
    pane may hide the banner that makes a path relative."""
    if got == want:
        return True
    if not isinstance(got, str) or not isinstance(want, str):
        return False
    if kind is PromptKind.SHELL:
        # The same characters; only where rows break may differ: without a full-width rule on
        # a short pane, a command the terminal cut is shown as the rows it reads (the guard
        # then sees the line structure the screen shows).
        return "".join(got.split()) == "".join(want.split())
    return got.endswith("/" + want) or want.endswith("/" + got)


WRAP_SIZES = [Size("80x24", 80, 24), Size("120x40", 120, 40), Size("40x15", 40, 15)]


@pytest.mark.parametrize("size", WRAP_SIZES, ids=[s.test_id for s in WRAP_SIZES])
@pytest.mark.parametrize(
    "case",
    [c for c in CASES + LIVE_CASES if "/home/u/" in c.text()],
    ids=[c.test_id for c in CASES + LIVE_CASES if "/home/u/" in c.text()],
)
def test_detect_long_home_paths_wrap_onto_the_next_line(case: Case, size: Size) -> None:
    """Under a long HOME a path no longer fits its line (codex prints ``Destination:`` and the
    path below it, cut at the pane's width): the field is joined again."""
    want = _long_home_subject(detect(case.text(), case.agent))
    found = detect(redraw(case, size, lengthen_home(case.text())), case.agent)
    if size.rows is not None and size.cols < 80 and found.state is DetectionState.UNKNOWN:
        return  # a small pane may hide the proof; it must not invent a prompt
    got = summary(found)
    if found.prompt is None or len(want) == 1:
        assert got == want
        return
    assert (got[0], got[1], *got[3:]) == (want[0], want[1], *want[3:])
    assert _same_subject(got[1], got[2], want[2]), (got[2], want[2])


@pytest.mark.parametrize(
    "size", [*SIZES[:1], *SMALL], ids=[s.test_id for s in [*SIZES[:1], *SMALL]]
)
@pytest.mark.parametrize("variant", VARIANTS, ids=[v.test_id for v in VARIANTS])
def test_detect_hand_written_variant_redrawn_small(variant: Variant, size: Size) -> None:
    """The hand-written dialogs of test_variants, redrawn small: the same answer or unknown."""
    original = detect(variant.screen, variant.agent)
    text = variant.screen
    drawn = hard_wrap(text, size.cols) if variant.agent == "aider" else reflow(text, size.cols)
    if size.rows is not None:
        drawn = "\n".join(shrink_rows(drawn.rstrip("\n").split("\n"), size.rows))
    redrawn = detect(drawn, variant.agent)
    if original.state is not DetectionState.PROMPT:
        assert redrawn.state is not DetectionState.PROMPT, redrawn
        return
    if redrawn.state is DetectionState.UNKNOWN:
        return
    assert redrawn.state is DetectionState.PROMPT, redrawn
    got, want = summary(redrawn), summary(original)
    assert (got[0], got[1], *got[3:]) == (want[0], want[1], *want[3:])
    assert _same_subject(got[1], got[2], want[2]), (got[2], want[2])
