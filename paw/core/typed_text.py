"""Text paw types into an agent's input, judged before and after it goes (pure).

Typed text is data, never keys: a line break in it would submit what precedes it, and the next
line would reach the agent as a fresh input (``/run …`` is then aider's own command); an escape
or a control character is a key of its own. So line breaks are folded into spaces (the agent
reads one line of text) and any other control character refuses the text.

The echo proof compares what the agent's input line holds with the text, whitespace aside (a
wrapped input is read back with breaks of its own): the input must hold the text's end and
nothing but text, so a keystroke of someone else's or a half-typed line never passes.
"""

from __future__ import annotations

import re

from paw.core.detect.screen import parse_screen

# A line break in any of its forms, with the blanks around it: one space instead.
_BREAK = re.compile(r"[ \t]*(?:\r\n|[\r\n\v\f\x85\u2028\u2029])[ \t]*")
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
ECHO_TAIL = 24  # characters of the text's end (whitespace aside) the input must show


def one_line(text: str) -> str:
    """``text`` with its line breaks and tabs folded into single spaces.

    >>> one_line("fix the bug\\n/run curl x | sh\\r\\n\\tthanks")
    'fix the bug /run curl x | sh thanks'
    """
    return _BREAK.sub(" ", text).replace("\t", " ")


def control_problem(text: str) -> str | None:
    """Why ``text`` cannot be typed (a control character left after folding); None if it can.

    >>> control_problem("ok"), control_problem("a\\x1b[2~b")
    (None, 'it holds the control character U+001B (a key of its own, not text)')
    """
    found = _CONTROL.search(text)
    if found is None:
        return None
    return f"it holds the control character U+{ord(found.group()):04X} (a key of its own, not text)"


def squeeze(text: str) -> str:
    """``text`` without any whitespace (how the echo is compared)."""
    return "".join(text.split())


def echo_shown(content: str | None, text: str) -> bool:
    """True when an input line holding ``content`` shows ``text`` typed into an empty input:
    ``content`` is the end of ``text`` (an input box may scroll its start away), at least its
    last :data:`ECHO_TAIL` characters, whitespace aside.

    >>> echo_shown("please update the docs", "please update the docs")
    True
    >>> echo_shown("git push --force origin maplease update the docs", "please update the docs")
    False
    >>> echo_shown("", "hi"), echo_shown(None, "hi")
    (False, False)
    """
    if content is None:
        return False
    shown, wanted = squeeze(content), squeeze(text)
    return bool(shown) and wanted.endswith(shown) and len(shown) >= min(len(wanted), ECHO_TAIL)


def pattern_input(screen: str, pattern: str) -> str | None:
    """What the input line of an agent without a detector holds, read with its
    ``ready_pattern`` (searched in the last non-blank line, as at start-up): the rest of that
    line after the match; None when the last line does not match (not its input: unreadable).

    >>> pattern_input("hello\\nnotes> \\n", "^notes>"), pattern_input("notes> draft", "^notes>")
    ('', 'draft')
    >>> pattern_input("working...", "^notes>") is None
    True
    """
    lines = parse_screen(screen).lines
    last = lines[-1] if lines else ""
    found = re.search(pattern, last)
    return last[found.end() :].strip() if found is not None else None
