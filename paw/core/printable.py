"""Text paw did not write, made safe to show on a terminal: pure.

Subjects, questions, argv, paths, pane text and a host's output come from agents, models and
other processes. Shown raw, an ``ESC ] 52 …`` sets the user's clipboard, ``ESC [ …`` moves the
cursor or repaints what paw printed, a bidi override (U+202E) reverses what a command appears to
say, and a zero-width character hides text and shifts columns. :func:`printable` shows each such
character as an escape instead: ``\\x1b`` for a C0 control, ``\\u202e`` for DEL, a C1 control, a
bidi or an invisible format character, a UTF-16 pair (``\\udb40\\udc41``) beyond the basic plane
(tag characters). Every escape but ``\\xNN`` is also a JSON escape of the same character, and
JSON escapes C0 itself: escaping a JSON document (``--json`` output, an audit line) leaves it
valid JSON holding the exact same data.

Clean text (nearly all of it) is returned as the same object after a C-speed check (ASCII text:
``isascii``/``isprintable`` or a small regex; other text: one precompiled regex search), so the
TUI's render path pays a scan and no copy.
"""

from __future__ import annotations

import re

# C0 controls but for tab and newline (callers decide about those), DEL, C1; bidi controls
# (LRM, RLM, ALM, LRE…RLO, LRI…PDI); zero-width and invisible format characters (ZWSP, ZWNJ,
# ZWJ, word joiner, invisible operators, BOM, soft hyphen, Mongolian vowel separator, Hangul
# fillers, interlinear annotation, line/paragraph separators, tag characters).
_UNSAFE = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f"
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb"
    "\U0001bca0-\U0001bca3\U000e0000-\U000e007f"
)
_UNSAFE_RE = re.compile(f"[{_UNSAFE}]")
_ASCII_CONTROL_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f]")  # the unsafe set, ASCII part
_UNSAFE_LINE_RE = re.compile(f"[{_UNSAFE}\t\n]")
_UNSAFE_ANSI_RE = re.compile(f"(?!\x1b)[{_UNSAFE}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return {9: "\\t", 10: "\\n", 13: "\\r"}.get(code, f"\\x{code:02x}")
    if code < 0x10000:
        return f"\\u{code:04x}"
    high, low = divmod(code - 0x10000, 0x400)
    return f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}"


def printable(text: str) -> str:
    """``text`` with control, bidi and zero-width characters shown as escapes (tab and newline
    kept: for text shown as lines, like pane text or a host's output).

    >>> printable("ls\\x1b]52;c;cm0gLXJmIH4=\\x07 -la")
    'ls\\\\x1b]52;c;cm0gLXJmIH4=\\\\x07 -la'
    >>> printable("echo \\u202eexe.txt")
    'echo \\\\u202eexe.txt'
    >>> s = "git push"; printable(s) is s
    True
    """
    if text.isascii() and _ASCII_CONTROL_RE.search(text) is None:  # (the common case, fast)
        return text
    if _UNSAFE_RE.search(text) is None:
        return text
    return _UNSAFE_RE.sub(_escape, text)


def printable_line(text: str) -> str:
    """:func:`printable` for one field of one line (a subject in a column, a name, a path):
    tab and newline are escaped too, so the field cannot break or shift the line.

    >>> printable_line("rm -rf ~\\nls")
    'rm -rf ~\\\\nls'
    """
    if text.isprintable() and text.isascii():  # no control at all, tab and newline included
        return text
    if _UNSAFE_LINE_RE.search(text) is None:
        return text
    return _UNSAFE_LINE_RE.sub(_escape, text)


def printable_ansi(text: str) -> str:
    """:func:`printable` for a ``capture-pane -e`` screen: its ESC sequences are tmux's own
    colours (tmux parsed whatever the pane wrote and keeps only cells), so ESC stays; every
    other control, bidi and zero-width character in the pane's text is escaped."""
    if _UNSAFE_ANSI_RE.search(text) is None:
        return text
    return _UNSAFE_ANSI_RE.sub(_escape, text)


def is_printable(text: str) -> bool:
    """True when :func:`printable` would return ``text`` unchanged."""
    return _UNSAFE_RE.search(text) is None
