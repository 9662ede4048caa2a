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
