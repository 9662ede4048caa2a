"""Normalise a captured pane and fingerprint a prompt.

A capture is ``tmux capture-pane -p`` text, optionally with escape sequences (``-e``).
:func:`parse_screen` turns it into a :class:`Screen`: plain lines without trailing blanks,
trailing empty lines dropped, plus an estimate of the pane width (detectors need it to unwrap
text that the terminal or the agent wrapped).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

# CSI (colours, cursor moves), OSC (titles, hyperlinks; BEL or ST terminated), other 2-byte ESC.
_ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC
    r"|\x1b[PX^_][^\x1b]*\x1b\\"  # DCS/SOS/PM/APC
    r"|\x1b[@-Z\\-_]"  # other Fe escapes
    r"|[\x00-\x08\x0b-\x1f\x7f]"  # stray C0 controls except tab/newline
)
# Variation selectors and zero-width characters some agents print after symbols are dropped;
# no-break spaces become spaces (claude-code draws its idle input as ``❯`` + NBSP).
_TRANSLATE: dict[int, str | None] = dict.fromkeys(
    map(ord, "\ufe0e\ufe0f\u200b\u200c\u200d\u2060\ufeff"), None
)
_TRANSLATE[ord("\u00a0")] = " "
_REPLACE = tuple((chr(code), text or "") for code, text in _TRANSLATE.items())
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_TAB_SIZE = 8
_RIGHT_EDGES = "│┃║╮╯┐┘─━═╌▀▔"
# What a scrollbar draws in the pane's right-most column: a thumb and maybe a track.
_RAIL = frozenset("█▉▊▋▌▍▎▏▐▕▇▆▅▄▃▂▁▀▔░▒▓│┃║╎╏┆┇┊┋▮▯■")
_CORNER_OR_RULE = frozenset("╮╯┐┘╗╝┓┛─━═╌┄┈")
# A side panel (``without_side_panel``): starts in the right 40 % of a pane at least 100 columns
# wide, behind a gutter of two blank columns, on at least 6 rows.
_PANEL_MIN_WIDTH = 100
_PANEL_FROM = 0.6
_PANEL_GUTTER = 2
_PANEL_ROWS = 6


@dataclass(frozen=True, slots=True)
class Screen:
    """A normalised capture: ``lines`` without trailing blanks.

    ``width`` is the longest line. ``pane_width`` is the pane's width when a full-width
    structure (a rule or a box edge reaching the right-most column) proves it, else 0: only
    then may a detector treat a line that reaches that width as wrapped.
    """

    lines: tuple[str, ...]
    width: int
    pane_width: int = 0

    def tail(self, count: int) -> tuple[str, ...]:
        """The last ``count`` lines."""
        return self.lines[-count:] if count > 0 else ()


def strip_ansi(text: str) -> str:
    """Remove terminal escape sequences and stray control characters from ``text``."""
    if "\x1b" not in text and _CONTROLS.search(text) is None:
        return text
    return _ANSI.sub("", text)


def normalise_line(line: str) -> str:
    """One line as detectors read it: tabs expanded, invisibles dropped, no trailing blanks."""
    if "\t" in line:
        line = line.expandtabs(_TAB_SIZE)
    return line.translate(_TRANSLATE).rstrip()


def _drop_invisibles(text: str) -> str:
    """``text.translate(_TRANSLATE)``, but fast: ``str.translate`` with a table costs a dict
    look-up per character, while most screens hold none or one of these characters."""
    for char, replacement in _REPLACE:
        if char in text:
            text = text.replace(char, replacement)
    return text


def parse_screen(text: str) -> Screen:
    """Normalise a capture into a :class:`Screen` (escape sequences accepted)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    plain = _drop_invisibles(strip_ansi(text))
    raw = plain.split("\n")
    if "\t" in plain:
        raw = [line.expandtabs(_TAB_SIZE) for line in raw]
    lines = [line.rstrip() for line in raw]
    while lines and not lines[-1]:
        lines.pop()
    width = max(map(len, lines), default=0)
    if _has_rail(lines, width):
        lines = [line[: width - 1].rstrip() if len(line) == width else line for line in lines]
        while lines and not lines[-1]:
            lines.pop()
        width = max(map(len, lines), default=0)
    return Screen(lines=tuple(lines), width=width, pane_width=_proven_width(lines, width))


def _has_rail(lines: list[str], width: int) -> bool:
    """True if the right-most column is a scrollbar, not part of what the agent drew.

    A scrollbar marks rows whatever they hold: every row reaching the last column ends there
    with a thumb or track character, one of them follows a blank gap or sits right after a
    box's closing corner or a rule, or a blank after a box's edge (no box edge is drawn those
    ways), and no row ends the column with a corner or a rule of its own (then the column is
    a full-width box or rule).
    """
    if width < 2:
        return False
    separated = False
    for line in lines:
        if len(line) < width:
            continue
        last = line[-1]
        if last not in _RAIL or last in _CORNER_OR_RULE:
            return False
        before = line[-2]
        if before == " " or before in _CORNER_OR_RULE:
            separated = (
                separated or before in _CORNER_OR_RULE or _gap_before(line)
                or _edge_then_blank(line)
            )  # fmt: skip
    return separated


def _edge_then_blank(line: str) -> bool:
    """A box's right edge, one blank, then the last character: a dialog drawn one column in
    from the margin (gemini's folder-trust box) with a scrollbar beside it; no box draws its
    edge that way."""
    return len(line) >= 3 and line[-2] == " " and line[-3] in "│┃║╮╯┐┘"


def _gap_before(line: str) -> bool:
    """The last character stands apart: two or more blanks before it, or nothing at all."""
    body = line[:-1]
    return not body.strip() or body.endswith("  ")


def _proven_width(lines: list[str], width: int) -> int:
    """``width`` if a rule or a box's right edge reaches it, else 0 (unknown)."""
    for line in lines:
        if len(line) >= width - 1 and width > 0:
            body = line.strip()
            if body and (body[-1] in _RIGHT_EDGES or body.count(body[0]) == len(body) > 8):
                return width
    return 0


def without_side_panel(screen: Screen) -> Screen:
    """The screen without a panel drawn at its right beside the transcript (opencode's and Kilo
    Code's session sidebar on a wide pane: context, tokens, the folder), or the screen as it is.

    A side panel is text that starts at one column in the right part of the screen, in rows
    from its top third to its bottom third, with a blank gutter of two columns left of it that
    no row crosses: everything from that column on is cut off, so the rows the detectors read
    are the transcript's and the input's alone.
    """
    lines = screen.lines
    if screen.width < _PANEL_MIN_WIDTH:
        return screen
    for column in range(int(screen.width * _PANEL_FROM), screen.width - _PANEL_GUTTER):
        gap = slice(column - _PANEL_GUTTER, column)
        if any(line[gap].strip() for line in lines):
            continue  # a row crosses the gutter
        starts = [i for i, line in enumerate(lines) if line[column : column + 1].strip()]
        third = len(lines) / 3
        if len(starts) < _PANEL_ROWS or starts[0] > third or starts[-1] < len(lines) - third:
            continue
        cut = [line[:column].rstrip() for line in lines]
        while cut and not cut[-1]:
            cut.pop()
        return Screen(tuple(cut), max(map(len, cut), default=0))
    return screen


def collapse_whitespace(text: str) -> str:
    """``text`` with every run of whitespace turned into one space, stripped."""
    return " ".join(text.split())


def fingerprint(
    kind: str,
    subject: str | None,
    question: str,
    options: tuple[str, ...] = (),
    selected: str | None = None,
) -> str:
    """A stable short hash of what a prompt asks (not of the whole screen).

    Whitespace is collapsed so a re-wrap at another width or a redraw gives the same value;
    a spinner, a clock or transcript lines elsewhere on the screen do not enter it. The
    highlighted option (``selected``) does: keys such as ``Enter`` act on it, so a moved
    selection must fail the re-verification before keys are sent.
    """
    parts = [kind, collapse_whitespace(subject or ""), collapse_whitespace(question)]
    parts.extend(collapse_whitespace(option) for option in options)
    if selected is not None:
        parts.append("selected:" + collapse_whitespace(selected))
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()
    return digest[:16]
