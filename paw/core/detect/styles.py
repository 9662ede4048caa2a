"""Read colours from a capture with escape sequences (``capture-pane -e``).

Some agents (opencode) show the highlighted choice by colour only. When the capture carries
SGR sequences, :func:`highlighted` finds which label is drawn on a background of its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_SGR = re.compile(r"\x1b\[([0-9;:]*)m")
_OTHER_ESCAPE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-ln-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


def _next_background(params: list[str], background: str) -> str:
    index = 0
    while index < len(params):
        code = params[index] or "0"
        if code in ("0", "49"):
            background = ""
        elif code == "7":
            background = "reverse"
        elif code == "48" and index + 1 < len(params):
            width = 3 if params[index + 1] == "5" else 5
            background = ";".join(params[index : index + width])
            index += width - 1
        elif code.isdigit() and (40 <= int(code) <= 47 or 100 <= int(code) <= 107):
            background = code
        index += 1
    return background


def backgrounds(raw_line: str) -> tuple[str, list[str]]:
    """The plain text of ``raw_line`` and the background in effect at each of its characters."""
    raw_line = _OTHER_ESCAPE.sub("", raw_line)
    text: list[str] = []
    per_char: list[str] = []
    background = ""
    position = 0
    for match in _SGR.finditer(raw_line):
        chunk = raw_line[position : match.start()]
        text.append(chunk)
        per_char.extend([background] * len(chunk))
        background = _next_background(re.split(r"[;:]", match.group(1)), background)
        position = match.end()
    chunk = raw_line[position:]
    text.append(chunk)
    per_char.extend([background] * len(chunk))
    return "".join(text), per_char


def highlighted(raw_line: str, labels: Sequence[str]) -> int | None:
    """Index of the one label drawn on a background unlike the others', or None.

    None when the line has no colours, a label is missing, or no single label stands out.
    """
    if "\x1b[" not in raw_line:
        return None
    text, per_char = backgrounds(raw_line)
    found: list[str] = []
    start = 0
    for label in labels:
        at = text.find(label, start)
        if at < 0:
            return None
        found.append(per_char[at])
        start = at + len(label)
    odd = [i for i, bg in enumerate(found) if found.count(bg) == 1]
    return odd[0] if len(odd) == 1 and len(labels) > 1 else None


def _next_style(params: list[str], style: tuple[bool, bool]) -> tuple[bool, bool]:
    """(foreground set, background or reverse set) after one SGR sequence."""
    fg, bg = style
    index = 0
    while index < len(params):
        code = params[index] or "0"
        if code == "0":
            fg, bg = False, False
        elif code == "39":
            fg = False
        elif code in ("49", "27"):
            bg = False
        elif code == "7":
            bg = True
        elif code in ("38", "48") and index + 1 < len(params):
            width = 3 if params[index + 1] == "5" else 5
            fg, bg = (True, bg) if code == "38" else (fg, True)
            index += width - 1
        elif code.isdigit() and (30 <= int(code) <= 37 or 90 <= int(code) <= 97):
            fg = True
        elif code.isdigit() and (40 <= int(code) <= 47 or 100 <= int(code) <= 107):
            bg = True
        index += 1
    return fg, bg


def cell_styles(raw_line: str) -> tuple[str, list[tuple[bool, bool]]]:
    """The plain text of ``raw_line`` and, per character, (a foreground colour is set, a
    background colour or reverse video is set)."""
    raw_line = _OTHER_ESCAPE.sub("", raw_line)
    text: list[str] = []
    per_char: list[tuple[bool, bool]] = []
    style = (False, False)
    position = 0
    for match in _SGR.finditer(raw_line):
        chunk = raw_line[position : match.start()]
        text.append(chunk)
        per_char.extend([style] * len(chunk))
        style = _next_style(re.split(r"[;:]", match.group(1)), style)
        position = match.end()
    chunk = raw_line[position:]
    text.append(chunk)
    per_char.extend([style] * len(chunk))
    return "".join(text), per_char


def ghost_after_cursor(raw_line: str, marker: str) -> bool:
    """True when the input after ``marker`` on ``raw_line`` is a cursor cell (a background or
    reverse video) at its very start followed only by text in a colour of its own on no
    background (an input drawn on a background of its own is never read this way): a
    placeholder or a suggestion drawn where nothing is typed (typed text is drawn in the
    default colour, before the cursor). False without colours."""
    if "\x1b[" not in raw_line:
        return False
    text, styles = cell_styles(raw_line)
    at = text.find(marker)
    if at < 0:
        return False
    index = at + len(marker)
    while index < len(text) and text[index] == " " and not styles[index][1]:
        index += 1
    if index >= len(text) or not styles[index][1]:
        return False  # no cursor cell where the input starts
    rest = [(c, s) for c, s in zip(text[index + 1 :], styles[index + 1 :], strict=True)]
    shown = [(c, s) for c, s in rest if not c.isspace() and c != "\u200b"]
    return bool(shown) and all(fg and not bg for _c, (fg, bg) in shown)
