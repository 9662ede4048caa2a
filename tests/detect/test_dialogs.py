"""A dialog at the live position is never idle or busy (issue 33).

Two sources: dialogs captured from the real agents by tests/e2e/dialogs.py (pickers, sign-in;
tests/fixtures/dialogs), and dialogs no detector was written for, drawn the ways agents draw
them (an option list, a boxed API-key entry, a yes/no question, a mode-change confirmation
under a busy hint, a promo notice, a trust gate, an IDE nudge) in place of every agent's input,
at 120 and 80 columns. Each must be a prompt a human answers (``waiting``, no keys) or
``unknown``. The same dialogs quoted above the agent's intact input are transcript: no prompt.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from paw.core.detect import detect, is_unrecognised_dialog
from paw.core.detect.live_dialog import HINT
from paw.core.models import Detection, DetectionState
from tests.detect.corpus import CORPUS, FIXTURES, Case, load_cases
from tests.detect.reflow import hard_wrap, reflow

DIALOGS = FIXTURES / "dialogs"
CAPTURED = load_cases(DIALOGS, "dialogs/")
WIDTHS = (120, 80)


def _waiting_or_unknown(found: Detection) -> bool:
    if found.state is DetectionState.UNKNOWN:
        return True
    return (
        found.state is DetectionState.PROMPT
        and found.prompt is not None
        and (found.prompt.needs_human)
    )


def test_captured_dialogs_are_present() -> None:
    assert len(CAPTURED) >= 4
    assert all(c.meta["state"] == "dialog" for c in CAPTURED)


@pytest.mark.parametrize("case", CAPTURED, ids=[c.test_id for c in CAPTURED])
def test_captured_dialog_is_never_idle_or_busy(case: Case) -> None:
    for variant in ("txt", "ansi"):
        found = detect(case.text(variant), case.agent)
        assert _waiting_or_unknown(found), (variant, found)


# -- dialogs no detector knows, drawn in place of each agent's input --------------------------


def _picker(width: int) -> list[str]:
    return [
        "─" * width,
        " Switch to full access?",
        "",
        " The agent will edit files and run commands without asking.",
        "",
        " ❯ 1. Yes, switch",
        "   2. No, keep asking",
        "",
        " Enter to confirm · Esc to cancel",
    ]


def _api_key(width: int) -> list[str]:
    inner = width - 4
    return [
        "╭" + "─" * (width - 2) + "╮",
        "│ " + "Paste your API key from the console".ljust(inner) + " │",
        "│ " + "".ljust(inner) + " │",
        "│ " + "> ".ljust(inner) + " │",
        "│ " + "".ljust(inner) + " │",
        "│ " + "(Press Enter to submit, Esc to go back)".ljust(inner) + " │",
        "╰" + "─" * (width - 2) + "╯",
    ]


def _yes_no(width: int) -> list[str]:
    del width
    return ["", "Enable auto mode for this session? (y/n)"]


def _question_busy(width: int) -> list[str]:
    return [
        "─" * width,
        " Which database should the plan use?",
        "",
        " ❯ 1. SQLite",
        "   2. PostgreSQL",
        "   3. Type something.",
        "",
        "  ⏵⏵ plan mode on · esc to interrupt",
    ]


def _promo(width: int) -> list[str]:
    return [
        "",
        "  ✨ Update available! 1.4.0 -> 1.5.0",
        "",
        "  Release notes: https://example.invalid/releases/1.5.0",
        "",
        "› 1. Update now",
        "  2. Skip",
        "  3. Skip until next version",
        "",
        "  Press enter to continue",
    ][: max(6, width)]


def _trust(width: int) -> list[str]:
    return [
        "─" * width,
        " Do you trust the files in this folder?",
        "",
        " ❯ Yes, proceed",
        "   No, exit",
        "",
        " ↑/↓ to navigate",
    ]


def _ide_nudge(width: int) -> list[str]:
    del width
    return [
        "",
        " Install the editor extension for a better diff view?",
        "",
        " › Install",
        "   Not now",
        "   Never ask again",
    ]


def _framed_notice(width: int) -> list[str]:
    """A box with no option, no key hint and no yes/no: only its frame says it is not input."""
    inner = width - 4
    rows = [
        "Sign in with your browser",
        "",
        "Open https://example.invalid/device and type the code WXYZ-1234",
    ]
    return [
        "╭" + "─" * (width - 2) + "╮",
        *("│ " + row.ljust(inner) + " │" for row in rows),
        "╰" + "─" * (width - 2) + "╯",
    ]


STYLES: dict[str, Callable[[int], list[str]]] = {
    "picker": _picker,
    "api_key": _api_key,
    "yes_no": _yes_no,
    "question_busy": _question_busy,
    "promo": _promo,
    "trust": _trust,
    "ide_nudge": _ide_nudge,
    "framed_notice": _framed_notice,
}


def _frames() -> dict[str, tuple[list[str], list[str]]]:
    """Per agent: its idle screen's transcript and its input area (the rows it draws last)."""
    cases = {(c.agent, c.name): c for c in load_cases()}
    found = {}
    for path in sorted(CORPUS.glob("*/agent.json")):
        frame = json.loads(path.read_text(encoding="utf-8"))["idle_frame"]
        agent = path.parent.name
        replace = tuple(frame.get("replace", ("", "")))
        lines = [
            line.replace(*replace) for line in cases[(agent, frame["case"])].text().split("\n")
        ]
        while lines and not lines[-1].strip():
            lines.pop()
        filled = [i for i, line in enumerate(lines) if line.strip()]
        cut = filled[-frame["input_lines"]]
        found[agent] = (lines[:cut], lines[cut:])
    return found


FRAMES = _frames()


def _at(agent: str, lines: list[str], width: int) -> list[str]:
    text = "\n".join(lines)
    if width == 120:
        return lines
    drawn = hard_wrap(text, width) if agent == "aider" else reflow(text, width)
    return drawn.split("\n")


# aider prints lines and draws no box of its own: a frame at its bottom is output it is still
# printing (a table of its answer), and its busy reading is right.
PLACED = [
    (agent, style, width)
    for agent in FRAMES
    for style in STYLES
    for width in WIDTHS
    if (agent, style) != ("aider", "framed_notice")
]
IDS = [f"{agent}-{style}-{width}" for agent, style, width in PLACED]


@pytest.mark.parametrize(("agent", "style", "width"), PLACED, ids=IDS)
def test_unknown_dialog_instead_of_input_is_never_idle_or_busy(
    agent: str, style: str, width: int
) -> None:
    transcript, _input = FRAMES[agent]
    screen = [*_at(agent, transcript, width), "", *STYLES[style](width)]
    found = detect("\n".join(screen), agent)
    assert _waiting_or_unknown(found), found


@pytest.mark.parametrize(("agent", "style", "width"), PLACED, ids=IDS)
def test_unknown_dialog_quoted_above_the_input_is_not_a_prompt(
    agent: str, style: str, width: int
) -> None:
    """Control: the same rows above the agent's own input are transcript."""
    transcript, input_area = FRAMES[agent]
    screen = [*transcript, "", *STYLES[style](120), "", *input_area]
    found = detect("\n".join(_at(agent, screen, width)), agent)
    assert found.state is not DetectionState.PROMPT, found


@pytest.mark.parametrize("agent", sorted(FRAMES))
def test_unknown_dialog_is_answered_in_the_pane_only(agent: str) -> None:
    """No key is ever sent to a dialog paw does not know: no approve, no deny."""
    transcript, _input = FRAMES[agent]
    found = detect("\n".join([*transcript, "", *_picker(120)]), agent)
    assert _waiting_or_unknown(found), found
    if is_unrecognised_dialog(found):
        assert found.prompt is not None
        assert found.prompt.approve_keys == ()
        assert found.prompt.deny_keys == ()
        assert found.prompt.needs_human


def _hinted(case: Case) -> bool:
    """A dialog with options whose last row is its own key hint (``Esc to cancel``)."""
    found = detect(case.text(), case.agent)
    rows = [line for line in case.text().split("\n") if line.strip()]
    return bool(found.prompt and found.prompt.options) and HINT.search(rows[-1]) is not None


HINTED = [c for c in load_cases() if c.meta["state"] in ("dialog", "permission_prompt")]
HINTED = [c for c in HINTED if _hinted(c)]


def test_hinted_dialogs_are_present() -> None:
    assert len(HINTED) >= 10
    assert len({c.agent for c in HINTED}) >= 2


@pytest.mark.parametrize("case", HINTED, ids=[c.test_id for c in HINTED])
def test_dialog_whose_hint_row_says_interrupt_is_not_busy(case: Case) -> None:
    """A dialog whose hint row is a working hint (claude's plan-mode question says "esc to
    interrupt") is still a dialog: a busy verdict needs no question on screen."""
    rows = case.text().split("\n")
    while rows and not rows[-1].strip():
        rows.pop()
    found = detect("\n".join([*rows[:-1], "  ⏸ plan mode on · esc to interrupt"]), case.agent)
    assert found.state in (DetectionState.PROMPT, DetectionState.UNKNOWN), found
