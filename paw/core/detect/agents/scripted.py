"""Detector for paw's scripted demo agent (``python -m paw.demo.agent``).

Its permission prompt is a fixed box, drawn as the last thing on the screen::

    ╭─ paw-demo permission: shell ──────────╮
    │ Run this command?                     │
    │   git push origin main                │
    │ [y] yes  [a] always  [n] no           │
    ╰───────────────────────────────────────╯

Only a box whose bottom edge is the last non-blank line counts (the live position): the same
box further up (answered), or indented (quoted), is history. On a pane narrower than the box
the terminal cuts each box line into rows; they are joined again. ``⠿ working`` as the last
line is busy, ``demo>`` is the idle input.
"""

from __future__ import annotations

import re

from paw.core.agentspec import PYTHON_PLACEHOLDER, AgentSpec
from paw.core.detect.prompts import wrap_notes
from paw.core.detect.screen import fingerprint, parse_screen
from paw.core.models import Detection, DetectionState, Prompt, PromptKind

SPEC = AgentSpec(
    kind="scripted",
    command=(PYTHON_PLACEHOLDER, "-m", "paw.demo.agent"),
    interpreters=("python",),
    scripts=("paw.demo.agent",),
    task_flag="--task",
    rank=90,
)
AGENT = SPEC.kind
TITLE = "╭─ paw-demo permission: "
BUSY_MARK = "working…"
IDLE_MARK = "demo>"
_OPTION = re.compile(r"\[(\w)\]\s+(\w+)")
_EDGES = ("╭", "│", "╰")
_CLOSED = ("╮", "│", "╯")


def detect_screen(text: str) -> Detection:
    """Detect the demo agent's state from a captured screen (pure)."""
    screen = parse_screen(text)
    lines = screen.lines
    last = lines[-1] if lines else ""
    if last.endswith("╯"):
        rows = _box_rows(lines, screen.pane_width or screen.width)
        prompt = _parse_box(rows) if rows is not None else None
        if prompt is not None:
            return Detection(DetectionState.PROMPT, AGENT, prompt, wrap_notes(prompt, lines))
        return Detection(DetectionState.UNKNOWN, AGENT, notes=("unreadable prompt box",))
    last = last.strip()
    if last.endswith(BUSY_MARK):
        return Detection(DetectionState.BUSY, AGENT)
    if last.startswith(IDLE_MARK) or _input_rows(lines):
        return Detection(DetectionState.IDLE, AGENT)
    return Detection(DetectionState.UNKNOWN, AGENT)


_MAX_INPUT_ROWS = 12
_MIN_WIDTH = 20  # narrower panes are not read as wrapping the input


def _input_rows(lines: tuple[str, ...]) -> list[str]:
    """The rows of the idle input ``demo> …`` the terminal wrapped at the pane's width (the
    ``demo>`` row and every row but the last fill the width), or [] when the bottom is not
    the input."""
    for start in range(len(lines) - 1, max(-1, len(lines) - 1 - _MAX_INPUT_ROWS), -1):
        if not lines[start].startswith(IDLE_MARK):
            continue
        rows = list(lines[start:])
        if len(rows) == 1:
            return rows
        full = max(len(row) for row in rows[:-1])
        wrapped = full >= _MIN_WIDTH and all(len(row) >= full - 1 for row in rows[:-1])
        return rows if wrapped and len(rows[-1]) <= full else []
    return []


def _box_rows(lines: tuple[str, ...], width: int) -> list[str] | None:
    """The box at the bottom as the agent printed it, or None if there is no whole box.

    The demo agent prints its box unwrapped: on a pane narrower than the box the terminal cuts
    every box line into rows. A box line starts with its left edge (``╭``, ``│``, ``╰``) at
    column 0; a row without one continues the line above. A box indented under other text is
    a quote, not the live box.
    """
    top = next((i for i in range(len(lines) - 1, -1, -1) if lines[i].startswith(TITLE[:3])), -1)
    if top < 0:
        return None
    rows: list[str] = []
    for line in lines[top:]:
        if line.startswith(_EDGES):
            rows.append(line)
        elif rows and not rows[-1].endswith(_CLOSED):
            # the rest of a cut box line (a row of its padding alone is captured blank)
            rows[-1] += ("" if len(rows[-1]) >= width else " ") + line
        else:
            return None
    if not rows[0].startswith(TITLE) or not rows[-1].startswith("╰"):
        return None
    return rows


def _parse_box(rows: list[str]) -> Prompt | None:
    body = rows[1:-1]
    if not body or not all(line.startswith("│") and line.endswith("│") for line in body):
        return None
    kind_text = rows[0][len(TITLE) :].split(" ", 1)[0]
    try:
        kind = PromptKind(kind_text)
    except ValueError:
        return None
    content = [line[1:-1].strip() for line in body]
    return _prompt(kind, content)


def _prompt(kind: PromptKind, content: list[str]) -> Prompt | None:
    options_line = next((c for c in content if c.startswith("[")), None)
    if options_line is None or len(content) < 2:
        return None
    keys = {word: key for key, word in _OPTION.findall(options_line)}
    question = content[0]
    subject_lines = [c for c in content[1:] if c is not options_line and c]
    subject = " ".join(subject_lines) or None
    options = tuple(keys)
    return Prompt(
        kind=kind,
        subject=subject,
        question=question,
        approve_keys=(keys["yes"],) if "yes" in keys else (),
        deny_keys=(keys["no"],) if "no" in keys else (),
        always_keys=(keys["always"],) if "always" in keys else None,
        options=options,
        fingerprint=fingerprint(kind.value, subject, question, options),
    )


def input_text(text: str) -> str | None:
    """What the idle input ``demo> …`` holds ("" when empty; a line the terminal wrapped is
    joined again); None when the bottom is not the input (busy, a prompt, anything else)."""
    lines = parse_screen(text).lines
    if lines and lines[-1].strip().startswith(IDLE_MARK):
        return lines[-1].strip()[len(IDLE_MARK) :].strip()
    rows = _input_rows(lines)
    if not rows:
        return None
    return "".join([rows[0][len(IDLE_MARK) :], *rows[1:]]).strip()
