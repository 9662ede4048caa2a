"""Detector for paw's scripted demo agent (``python -m paw.demo.agent``).

Its permission prompt is a fixed box, drawn as the last thing on the screen::

    ╭─ paw-demo permission: shell ──────────╮
    │ Run this command?                     │
    │   git push origin main                │
    │ [y] yes  [a] always  [n] no           │
    ╰───────────────────────────────────────╯

Only a box whose bottom edge is the last non-blank line counts (the live position): the same
box further up (answered, or quoted) is history. ``⠿ working`` as the last line is busy,
``demo>`` is the idle input.
"""

from __future__ import annotations

import re

from paw.core.detect.screen import fingerprint, parse_screen
from paw.core.models import Detection, DetectionState, Prompt, PromptKind

AGENT = "scripted"
TITLE = "╭─ paw-demo permission: "
BUSY_MARK = "working…"
IDLE_MARK = "demo>"
_OPTION = re.compile(r"\[(\w)\]\s+(\w+)")


def detect_screen(text: str) -> Detection:
    """Detect the demo agent's state from a captured screen (pure)."""
    lines = parse_screen(text).lines
    last = lines[-1].strip() if lines else ""
    if last.startswith("╰") and last.endswith("╯"):
        prompt = _parse_box(lines)
        if prompt is not None:
            return Detection(DetectionState.PROMPT, AGENT, prompt)
        return Detection(DetectionState.UNKNOWN, AGENT, notes=("unreadable prompt box",))
    if last.endswith(BUSY_MARK):
        return Detection(DetectionState.BUSY, AGENT)
    if last.startswith(IDLE_MARK):
        return Detection(DetectionState.IDLE, AGENT)
    return Detection(DetectionState.UNKNOWN, AGENT)


def _parse_box(lines: tuple[str, ...]) -> Prompt | None:
    top = next((i for i in range(len(lines) - 2, -1, -1) if lines[i].startswith(TITLE)), None)
    if top is None:
        return None
    body = lines[top + 1 : -1]
    if not body or not all(line.startswith("│") and line.endswith("│") for line in body):
        return None
    kind_text = lines[top][len(TITLE) :].split(" ", 1)[0]
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
