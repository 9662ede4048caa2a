"""Box drawing: rules, borders, and unwrapping text the agent or the terminal wrapped."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

# Horizontal rule characters agents draw full width (light, heavy, double, dashed, top bar).
RULE_CHARS = "─━═╌┄┈▔▀"
_BORDER_LEFT = re.compile(r"^\s*[│┃║▌▐]\s?")
_BORDER_RIGHT = re.compile(r"\s?[│┃║▌▐]\s*$")
_CORNERS = "╭╮╰╯┌┐└┘┏┓┗┛╔╗╚╝╹"
MIN_RULE = 12


def is_rule(line: str, chars: str = RULE_CHARS, min_len: int = MIN_RULE) -> bool:
    """True if ``line`` is a horizontal rule (one repeated rule char, maybe indented)."""
    body = line.strip()
    if len(body) < min_len:
        return False
    first = body[0]
    return first in chars and body.count(first) == len(body)


def is_box_edge(line: str, min_len: int = MIN_RULE) -> bool:
    """True if ``line`` is the top or bottom edge of a box (``╭───╮``, ``╰───╯``…) at least
    ``min_len`` characters long."""
    body = line.strip()
    if len(body) < min_len or body[0] not in _CORNERS:
        return False
    inner = body[1:-1] if body[-1] in _CORNERS else body[1:]
    return bool(inner) and is_rule(inner, min_len=1)


def last_rule(lines: Sequence[str], chars: str = RULE_CHARS, before: int | None = None) -> int:
    """Index of the last rule line before ``before`` (default: the end), or -1."""
    end = len(lines) if before is None else before
    for index in range(end - 1, -1, -1):
        if is_rule(lines[index], chars):
            return index
    return -1


def strip_border(line: str, depth: int = 2) -> str:
    """``line`` without up to ``depth`` levels of vertical box borders on each side."""
    for _ in range(depth):
        stripped = _BORDER_RIGHT.sub("", _BORDER_LEFT.sub("", line, count=1), count=1)
        if stripped == line:
            break
        line = stripped
    return line.rstrip()


def has_left_border(line: str) -> bool:
    """True if ``line`` starts (after indentation) with a vertical box border."""
    return bool(_BORDER_LEFT.match(line))


def dedent(lines: Sequence[str]) -> list[str]:
    """Remove the indentation common to every non-blank line."""
    widths = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(widths, default=0)
    return [line[cut:].rstrip() for line in lines]


def unwrap(lines: Sequence[str], width: int) -> str:
    """Join ``lines`` with newlines, except where a line was wrapped to fit ``width``.

    A line that fills ``width`` was cut by the terminal: it joins the next with nothing. A line
    that could not take the next line's first word without passing ``width`` was word-wrapped
    by the agent: it joins with a space. Other line ends are real newlines.
    """
    parts: list[str] = []
    for index, line in enumerate(lines):
        if index:
            parts.append(_joiner(lines[index - 1], line, width))
        parts.append(line.strip() if index and parts[-1] != "\n" else line.rstrip())
    return "".join(parts).strip("\n")


def _joiner(previous: str, line: str, width: int) -> str:
    if width <= 0:
        return "\n"
    if len(previous) >= width:
        return ""
    words = line.split()
    if words and len(previous) + 1 + len(words[0]) > width:
        return " "
    return "\n"


_FIELD_LABEL = re.compile(r"^\s*[A-Za-z][\w /-]{0,30}:(?:\s|$)")


def field_lines(lines: Sequence[str], index: int, width: int = 0) -> list[str]:
    """The field on ``lines[index]`` and the lines its value wrapped onto.

    A field (``Destination: <path>``, ``URL: <url>``, a command) is one logical line: where it
    does not fit, the agent continues it on the following lines, indented at least as far as
    the field. Those continue until a blank line, a line indented less, the next field, or
    (with a known ``width``) a row the one above could have taken its first word into.
    """
    first = lines[index]
    indent = len(first) - len(first.lstrip())
    found = [first]
    for line in lines[index + 1 :]:
        if not line.strip() or len(line) - len(line.lstrip()) < indent:
            break
        if _FIELD_LABEL.match(line) or is_rule(line):
            break
        if width > 0 and _joiner(found[-1], line, width) == "\n":
            break
        found.append(line)
    return found


def join_wrapped(pieces: Sequence[str], width: int) -> str:
    """One logical line from the rows it was wrapped onto.

    A row that reaches ``width`` and holds one word only was cut inside that word (a long
    path or URL: agents move a word that does not fit to a row of its own, then cut it): it
    joins the next with nothing. Any other row was wrapped at a blank, restored as one space.
    """
    text = ""
    for index, piece in enumerate(pieces):
        part = piece.strip()
        if not part:
            continue
        previous = pieces[index - 1].rstrip()
        if not text:
            text = part
        elif width > 0 and len(previous) >= width and " " not in previous.strip():
            text += part
        else:
            text += " " + part
    return text


def wrapped_lead(lines: Sequence[str], index: int, width: int) -> int:
    """Index of the first row of the line that ``lines[index]`` ends, wrapped at ``width``.

    A row belongs to the line above it only when the row above could not take its first word
    (word wrap) or filled the width (a cut): ordinary line breaks are left alone.
    """
    start = index
    while start > 0:
        above = lines[start - 1]
        if not above.strip() or is_rule(above) or _joiner(above, lines[start], width) == "\n":
            break
        start -= 1
    return start


_SHELL_PROMPT = re.compile(r"^\S*[$#%]\s*$")
_TOP_EDGE = "╭┌"
_BOTTOM_EDGE = "╰└"
_MAX_STATUS = 3  # status lines an agent draws below its bottom box
_MAX_BOX = 60  # content lines read up from the bottom edge


def box_above_status(
    lines: Sequence[str], status: re.Pattern[str], clean: Callable[[str], str] = str
) -> tuple[list[str], int]:
    """The content of the box right above an agent's status line (borders removed, each line
    through ``clean``) and the index of its top edge; ``([], len(lines))`` when the bottom of
    the screen is not such a box.

    The box's bottom edge must be among the last lines, with only the status line (matching
    ``status``) below it and no shell prompt there. A box taller than the pane has no top edge
    on screen: its content then starts at the top (index -1).
    """
    bottom = -1
    for index in range(len(lines) - 1, max(-1, len(lines) - 2 - _MAX_STATUS), -1):
        if is_box_edge(lines[index]) and lines[index][0] in _BOTTOM_EDGE:
            bottom = index
            break
    after = [line for line in lines[bottom + 1 :] if line.strip()]
    if bottom < 0 or not status.search(" ".join(after)):
        return [], len(lines)
    if any(_SHELL_PROMPT.match(line) for line in after):
        return [], len(lines)
    index = bottom - 1
    content: list[str] = []
    while index >= 0 and len(content) < _MAX_BOX and has_left_border(lines[index]):
        content.insert(0, clean(strip_border(lines[index], depth=1)))
        index -= 1
    if index >= 0 and not (is_box_edge(lines[index]) and lines[index][0] in _TOP_EDGE):
        return [], len(lines)  # something else interrupts the border: not one box
    return content, index
