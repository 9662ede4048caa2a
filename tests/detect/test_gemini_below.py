"""gemini-cli's own chrome under a live dialog keeps it live; transcript text does not.

Without ``COLORTERM`` gemini-cli prints startup warnings (``⚠`` at column 0, wrapped at a
hanging indent) below the live confirmation box; footer rows, its exit hint and its
notification boxes (update available) go there too. The screens are the live ``shell``
captures with lines appended under the box (``{box:…}`` is a rounded box at the pane's width).
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from paw.core.detect import detect
from paw.core.models import DetectionState
from tests.detect.corpus import LIVE

TRUE_COLOR = [
    "⚠  Warning: True color (24-bit) support not detected. Using a terminal with true",
    "   color enabled will result in a better visual experience.",
]
LOW_COLOR = [
    "⚠  Warning: Limited color support detected (TERM=screen). Some visual elements may",
    "   not render correctly. For better color support in tmux, add to ~/.tmux.conf:",
    '         set -g default-terminal "tmux-256color"',
    '         set -ga terminal-overrides ",*256col*:Tc"',
]
FOOTER = [
    " workspace (/directory)          branch          sandbox          /model",
    " /home/u/src                     main            no sandbox         Auto",
]


UPDATE_TEXT = "Gemini CLI update available! 0.61.0 → 0.62.0"
UPDATE = "{box:" + UPDATE_TEXT + "}"


class Below(NamedTuple):
    """Lines drawn under the live box and whether the box is still the live prompt."""

    test_id: str
    lines: list[str]
    live: bool


BELOW = [
    Below("true-color-warning", ["", *TRUE_COLOR], live=True),
    Below("low-color-warning-with-indented-lines", ["", *LOW_COLOR], live=True),
    Below("two-warnings", ["", *LOW_COLOR, *TRUE_COLOR], live=True),
    Below("warning-then-exit-hint", ["", *TRUE_COLOR, "", "Press Ctrl+C again to exit."], True),
    Below("footer-rows", ["", *FOOTER], live=True),
    Below("warning-then-footer", ["", *TRUE_COLOR, "", *FOOTER], live=True),
    Below("answer", ["", "✦ Ran the command; it printed nothing."], live=False),
    Below("warning-then-answer", ["", *TRUE_COLOR, "", "✦ Done."], live=False),
    Below("answer-quoting-a-warning", ["", "  " + TRUE_COLOR[0], "  " + TRUE_COLOR[1]], False),
    Below("warning-then-composer", ["", *TRUE_COLOR, " >   Type your message"], live=False),
    Below("indented-text-after-a-blank", ["", *TRUE_COLOR, "", "   not a notice"], live=False),
    Below("five-footer-rows", ["", *FOOTER, *FOOTER, FOOTER[0]], live=False),
    Below("info-line", ["", "ℹ  Request cancelled."], live=False),
    Below("update-box", ["", UPDATE], live=True),
    Below("update-box-then-warning", ["", UPDATE, "", *TRUE_COLOR], live=True),
    Below("init-error-box", ["", "{box:Initialization Error: no key}", ""], live=True),
    Below("tool-box", ["", "{box:✓  Shell cat notes.txt}"], live=False),
    Below("tool-box-printing-update", ["", f"{{box:✓  Shell cat u.txt|{UPDATE_TEXT}}}"], False),
    Below("update-box-then-answer", ["", UPDATE, "", "✦ Done."], live=False),
    Below("update-box-then-composer", ["", UPDATE, " >   Type your message"], live=False),
]
SIZES = ["shell_80x24", "shell_120x40"]


def _draw(lines: list[str], width: int) -> list[str]:
    drawn: list[str] = []
    for line in lines:
        if not line.startswith("{box:"):
            drawn.append(line)
            continue
        drawn.append("╭" + "─" * (width - 2) + "╮")
        body = line.removeprefix("{box:").removesuffix("}").split("|")
        drawn.extend("│ " + text.ljust(width - 4) + " │" for text in body)
        drawn.append("╰" + "─" * (width - 2) + "╯")
    return drawn


def _prompt_screen(case: str) -> list[str]:
    text = (LIVE / "gemini-cli" / case / "screen.txt").read_text(encoding="utf-8")
    return text.rstrip("\n").split("\n")


@pytest.mark.parametrize("case", SIZES)
@pytest.mark.parametrize("below", BELOW, ids=[b.test_id for b in BELOW])
def test_detect_gemini_lines_below_live_box(below: Below, case: str) -> None:
    base = _prompt_screen(case)
    drawn = _draw(below.lines, len(base[-1]))
    found = detect("\n".join([*base, *drawn, "", ""]), "gemini-cli")
    if below.live:
        assert found.prompt == detect("\n".join(base), "gemini-cli").prompt
    else:
        assert found.state is not DetectionState.PROMPT
