"""Read what an agent's input line holds, for typing (pure).

paw types text only into an input it reads as EMPTY (see :mod:`paw.supervisor.keyboard`). Each
agent module's ``input_text`` finds its input where its UI draws it, at the live position
(between the input's rules at the bottom, in its box, after its prompt) and returns what is
typed there: "" when it is empty or shows the agent's placeholder, the text otherwise, None
when the input is not where it should be. Fail closed: a layout these readers do not know,
or a placeholder they do not know, never reads as empty (paw then refuses to type).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from paw.core.detect.boxes import is_rule
from paw.core.detect.screen import collapse_whitespace, parse_screen
from paw.core.detect.styles import ghost_after_cursor

MAX_INPUT_ROWS = 12  # a typed text wrapped over this many rows at most is still read
CURSOR_MARKS = "▋█▌▐"  # a cursor some agents draw into their input as a character


def is_input_rule(line: str) -> bool:
    """A rule above or below an input: a full rule, or one with a label in it (``── ask ─``,
    Mistral Vibe's mode), starting with a run of rule characters and ending with one."""
    if is_rule(line):
        return True
    body = line.strip()
    head = body[:8]
    return (
        len(body) >= 2 * len(head) and len(set(head)) == 1 and is_rule(head, min_len=8)
        and body[-1] == head[0]
    )  # fmt: skip


def screen_lines(text: str) -> tuple[str, ...]:
    """The capture's lines as detectors read them (escape sequences dropped)."""
    return parse_screen(text).lines


def raw_rows(text: str) -> list[str]:
    """The capture's rows with their escape sequences, index for index with
    :func:`screen_lines` (the colours tell a placeholder from typed text)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _ghost(raw: Sequence[str] | None, index: int, markers: Sequence[str]) -> bool:
    if raw is None or index >= len(raw):
        return False
    return any(ghost_after_cursor(raw[index], marker) for marker in markers)


def _after_marker(row: str, markers: Sequence[str]) -> str | None:
    body = row.strip()
    for marker in markers:
        if body == marker or body.startswith(marker + " "):
            return body[len(marker) :]
    return None


def _content(rows: Sequence[str], placeholders: Sequence[re.Pattern[str]]) -> str:
    text = collapse_whitespace(" ".join(rows))
    for mark in CURSOR_MARKS:
        text = text.replace(mark, "")
    text = text.strip()
    if any(p.fullmatch(text) for p in placeholders):
        return ""
    return text


def between_rules(
    lines: Sequence[str],
    markers: Sequence[str],
    placeholders: Sequence[re.Pattern[str]] = (),
    *,
    below: int = 6,
    raw: Sequence[str] | None = None,
) -> str | None:
    """An input drawn between two rules near the bottom (at most ``below`` rows of footer
    under the lower rule), its first row starting with one of ``markers``. With ``raw`` (the
    rows with colours), text drawn after a cursor at the input's start in a colour of its own
    is a placeholder or a suggestion, not content."""
    rules = [i for i in range(len(lines)) if is_input_rule(lines[i])]
    if len(rules) < 2 or rules[-1] < len(lines) - 1 - below:
        return None
    top, bottom = rules[-2], rules[-1]
    rows = list(lines[top + 1 : bottom])
    if not rows or len(rows) > MAX_INPUT_ROWS:
        return None
    first = _after_marker(rows[0], markers)
    if first is None:
        return None
    if len(rows) == 1 and _ghost(raw, top + 1, markers):
        return ""
    return _content([first, *rows[1:]], placeholders)


def after_marker(
    lines: Sequence[str],
    markers: Sequence[str],
    placeholders: Sequence[re.Pattern[str]] = (),
    *,
    window: int = 10,
    after_rule: bool = False,
    raw: Sequence[str] | None = None,
) -> str | None:
    """An input row starting with one of ``markers`` among the last ``window`` rows (below
    the last rule, with ``after_rule``); its text and the rows it wraps onto (indented at
    least as far as its text starts). ``raw``: as for :func:`between_rules`."""
    start = max(0, len(lines) - window)
    if after_rule:
        rules = [i for i in range(start, len(lines)) if is_rule(lines[i])]
        if not rules:
            return None
        start = rules[-1] + 1
    for index in range(len(lines) - 1, start - 1, -1):
        first = _after_marker(lines[index], markers)
        if first is None:
            continue
        row = lines[index]
        if _ghost(raw, index, markers):
            return ""
        column = len(row) - len(row.lstrip()) + 2
        rows = [first]
        for more in lines[index + 1 : index + MAX_INPUT_ROWS]:
            if not more.strip() or len(more) - len(more.lstrip()) < column:
                break
            rows.append(more)
        return _content(rows, placeholders)
    return None


def bordered(
    lines: Sequence[str],
    border: str,
    edge: re.Pattern[str],
    placeholders: Sequence[re.Pattern[str]] = (),
    *,
    trailer_rows: int = 1,
    below: int = 4,
) -> str | None:
    """An input box whose rows start with ``border`` above a bottom ``edge`` row (at most
    ``below`` rows under it); its last ``trailer_rows`` rows are the box's own chrome (the
    agent and model line), the rows above them up to the box's top are the input."""
    ends = [i for i in range(max(0, len(lines) - 1 - below), len(lines)) if edge.match(lines[i])]
    if not ends:
        return None
    index = ends[-1] - 1
    rows: list[str] = []
    while index >= 0 and lines[index].strip().startswith(border):
        rows.insert(0, lines[index].strip()[len(border) :])
        index -= 1
    if len(rows) <= trailer_rows:
        return None
    body = rows[: len(rows) - trailer_rows]
    if len(body) > MAX_INPUT_ROWS:
        return None
    return _content(body, placeholders)
