"""Re-render a captured screen at another width, the way the agent CLIs do.

Box-drawing UIs (Ink, ratatui, opentui) redraw at the new width: rules and box edges resize,
text inside borders re-wraps word by word inside the same borders, option labels hang-indent
under their label. Plain-output CLIs (aider) are wrapped by the terminal itself: every line is
cut at the width. This is a model of those layouts, good enough to prove that detectors anchor
on structure rather than on a fixture's line breaks; real 80x24 captures complement it.
"""

from __future__ import annotations

import re

from paw.core.detect.boxes import RULE_CHARS

# A row that wraps hanging under its text: an option (numbered or pointer-marked), or a
# notice after its glyph (gemini-cli's "⚠  Warning: …").
_OPTION = re.compile(r"^(\s*(?:[❯›●>]\s*)?\d+\.\s+|\s*[❯›]\s+(?:✔\s+)?|⚠\s+)")
_LEFT = re.compile(r"^(\s*(?:[│┃║]\s*)+)")
_RIGHT = re.compile(r"((?:\s*[│┃║])+)$")
_CENTRED = 20
_BORDERS_ONLY = re.compile(r"\s*(?:[│┃║]\s*)+")
_EDGE = re.compile(r"^(\s*(?:[│┃]\s*)*)([╭╰┌└╹])([─━═▀]+)([╮╯┐┘]?)(.*)$")


def hard_wrap(text: str, width: int) -> str:
    """What the terminal shows when a program printed ``text`` unwrapped (aider)."""
    out: list[str] = []
    source_width = max((len(line) for line in text.split("\n")), default=0)
    for line in text.split("\n"):
        if _is_rule(line) and len(line) >= source_width - 1:
            out.append(line.strip()[0] * width)
            continue
        while len(line) > width:
            out.append(line[:width])
            line = line[width:]
        out.append(line)
    return "\n".join(out)


def reflow(text: str, width: int, source: int | None = None) -> str:
    """Redraw ``text`` (a capture at its own width) for a pane ``width`` columns wide.

    ``source`` is the width of the pane ``text`` was captured on (default: its longest line);
    a test that made a line longer than that pane (a longer HOME) passes the pane's width, so
    the agent's boxes keep their size and only the long line wraps."""
    lines = text.split("\n")
    source_width = source or max((len(line) for line in lines), default=width)
    out: list[str] = []
    for line in lines:
        out.extend(_reflow_line(line.rstrip(), source_width, width))
    return "\n".join(out)


def _is_rule(line: str) -> bool:
    body = line.strip()
    return len(body) >= 8 and body[0] in RULE_CHARS and body.count(body[0]) == len(body)


def _reflow_line(line: str, source: int, width: int) -> list[str]:
    if not line.strip():
        return [""]
    margin = max(0, source - len(line))
    if _is_rule(line):
        indent = len(line) - len(line.lstrip())
        return [" " * indent + line.strip()[0] * max(4, width - indent - margin)]
    edge = _EDGE.match(line)
    if edge:
        return [_resize_edge(edge, source, width)]
    if _BORDERS_ONLY.fullmatch(line):
        return [_resize_empty_row(line, width, margin)]
    left = _LEFT.match(line)
    right = _RIGHT.search(line)
    if left and right and right.start() > left.end():
        return _rewrap_boxed(line, left.group(1), right.group(1), width, margin)
    prefix = left.group(1) if left else line[: len(line) - len(line.lstrip())]
    if left is None and len(prefix) >= _CENTRED and source > width:
        # Centred overlays move left by half the lost width.
        line = line[min(len(prefix) - 1, (source - width) // 2) :]
        prefix = line[: len(line) - len(line.lstrip())]
    body = line[len(prefix) :]
    if left is None and len(line) <= width:
        return [line]
    option = _OPTION.match(body)
    hang = prefix + " " * (len(option.group(1)) if option else 0)
    pieces = _wrap(body, width - len(prefix), width - len(hang))
    return [prefix + pieces[0], *(hang + piece for piece in pieces[1:])]


def _resize_empty_row(line: str, width: int, margin: int) -> str:
    borders = [i for i, ch in enumerate(line) if ch in "│┃║"]
    if len(borders) < 2:
        return line
    split = borders[len(borders) // 2 - 1] + 1
    left, right = line[:split], " " + line[split:].strip()
    return left + " " * max(0, width - margin - len(left) - len(right)) + right


def _resize_edge(edge: re.Match[str], source: int, width: int) -> str:
    prefix, corner, fill, close, rest = edge.groups()
    total = len(edge.group(0))
    margin = max(0, source - total)
    inner = width - margin - len(prefix) - len(corner) - len(close) - len(rest)
    return prefix + corner + fill[0] * max(4, inner) + close + rest


def _rewrap_boxed(line: str, left: str, right: str, width: int, margin: int) -> list[str]:
    body = line[len(left) : len(line) - len(right)].rstrip()
    right = " " + right.strip()
    inner = width - margin - len(left) - len(right)
    option = _OPTION.match(body)
    indent = len(body) - len(body.lstrip())
    hang = " " * (len(option.group(1)) if option else indent)
    pieces = _wrap(body, inner, inner - len(hang)) if body.strip() else [""]
    out = [pieces[0], *(hang + piece for piece in pieces[1:])]
    return [left + piece.ljust(inner) + right for piece in out]


def _wrap(text: str, first: int, rest: int) -> list[str]:
    """Word-wrap ``text``: ``first`` columns for the first line, ``rest`` for the others."""
    indent = len(text) - len(text.lstrip())
    words = text.split(" ")[indent:] if indent else text.split(" ")
    lines: list[str] = []
    current = " " * indent
    limit = first
    for word in words:
        candidate = word if current.strip() == "" and current == " " * indent else " " + word
        if current.strip() and len(current) + len(candidate) > limit:
            lines.append(current.rstrip())
            current, limit = "", rest
            candidate = word
        while len(current) + len(candidate) > limit > 0 and not current.strip():
            lines.append(candidate[:limit])
            candidate = candidate[limit:]
            limit = rest
        current += candidate
    lines.append(current.rstrip())
    return lines


LONG_HOME = "/home/u/ci-runner/workspaces/a-long-home-folder-as-on-a-fresh-machine/"


def lengthen_home(text: str) -> str:
    """``text`` as captured under a long HOME: every ``/home/u/`` path grows by 64 columns."""
    return text.replace("/home/u/", LONG_HOME)


def add_rail(text: str, cols: int, thumb: str = "█", track: str = " ") -> str:
    """``text`` (drawn ``cols - 1`` wide) with a scrollbar column at the pane's right edge.

    The thumb covers the bottom third of the rows (a transcript scrolled to its end), the
    track the rest; a blank track leaves those rows as they were (captures drop trailing
    blanks).
    """
    lines = text.rstrip("\n").split("\n")
    start = len(lines) - max(1, len(lines) // 3)
    out = []
    for index, line in enumerate(lines):
        mark = thumb if index >= start else track
        line = line[: cols - 1]  # the scrollbar's column clips what would reach it
        out.append(line.ljust(cols - 1) + mark if mark.strip() else line)
    return "\n".join(out)
