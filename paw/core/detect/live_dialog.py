"""A dialog at the live position that the agent's detector does not know (pure).

Each agent's detector knows the dialogs it was written for. Agents add others with every
release (a sign-in screen, a mode-change confirmation, a promo notice, an IDE nudge, a picker):
read as ``idle`` or ``busy``, an unattended agent would then wait with nobody told. So an idle
or busy verdict also needs *no dialog at the live position*, recognised by its structure, not
by its words:

- an option list at the bottom: two or more choices with a selection pointer (``❯ 1. …``,
  ``› Sign in``), or numbered choices under a key hint;
- a key hint of a dialog among the last rows: ``Esc to cancel``, ``Enter to confirm``,
  ``↑/↓ to navigate``, ``Press Enter to continue``;
- a yes/no question as the last row: ``Overwrite? (y/n)``, ``(Y)es/(N)o [Yes]:``.

It counts only where it is drawn over or instead of the agent's input: when the agent's own
input is readable below it, it is transcript (a quoted dialog, a spinner's hint). What this
finds is reported as a dialog only a human answers (``waiting``: no approve key, no deny key,
answered in the pane), or as ``unknown`` when it is drawn nested under an answer (indented past
the screen's margin), where it may be a quote as much as a dialog: never ``idle`` or ``busy``.

An ``idle`` verdict needs more: the agent's input itself. A framed block reaching the last rows
(a box's edge or rows behind a vertical border, :func:`framed_bottom`) where the agent's input
reader finds no input is a box drawn over or instead of it, whatever it says (a dialog whose
hints wrapped away on a narrow pane, one laid out in a way paw does not know): ``unknown``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from paw.core.detect.boxes import has_left_border, is_box_edge, is_rule, strip_border
from paw.core.detect.options import Option, find_marked, find_numbered

WINDOW = 24  # rows from the bottom a dialog may take
HINT_ROWS = 4  # the last non-blank rows a dialog's key hint may sit in
MIN_OPTIONS = 2
CHROME_ROWS = 4  # rows of hints, notes and footer a dialog may draw under its options
FRAME_ROWS = 4  # the last non-blank rows a framed block at the live position reaches into
_MIN_EDGE = 3  # a corner and two rule characters: an edge however narrow the pane drew it
_BAR_CHARS = "─━═╌┄┈▔▀▁▄_"  # a rule, or a bar under the input

# The key hint of a dialog (not of a busy spinner: "esc to interrupt" is not one).
HINT = re.compile(
    r"\b(?:esc|escape)\s+(?:to\s+)?(?:cancel|go\s+back|close|dismiss|skip|exit)\b"
    r"|\benter\s+(?:to\s+)?(?:confirm|select|continue|submit|choose|accept|save|set)\b"
    r"|\bpress\s+(?:enter|return|any\s+key)\b|\buse\s+enter\b"
    r"|↑\s*/?\s*↓|\b(?:up|down)/(?:up|down)\b|\barrow\s+keys\b",
    re.IGNORECASE,
)
# A yes/no question waiting for its answer at the end of the last row.
YES_NO = re.compile(
    r"(?:\(y/n\)|\[y/n\]|\(yes/no\)|\[yes/no\]|\(y\)es/\(n\)o.*?)\s*(?:\[[^\]]*\])?\s*[:?]?$",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"\d[.)]\s")  # a numbered option's number
_POINTERS = frozenset("❯›➤")  # the selection pointers of unnumbered pickers (options.py)
# What every structure above shows somewhere (a cheap test before the closer look).
_CUE = re.compile(r"[❯›➤]|\d[.)]\s|esc|enter|press|↑|y/n|yes/no|\(y\)", re.IGNORECASE)
_ANY_HINT = re.compile(r"\b(?:esc|escape|enter|ctrl[+-]\w+)\s+to\s+\w+", re.IGNORECASE)
_QUESTION = re.compile(r"\?\s*(?:\(|\[|$)")
# A hint of a working spinner drawn beside a dialog's hint words ("(esc to cancel, 5s)").
_SPINNER = re.compile(r"\(\s*(?:esc|escape)\s+to\s+cancel,\s*\d+\s*[smh]", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class LiveDialog:
    """What the structure at the bottom of a screen says of an unknown dialog.

    ``question`` is its question (the last row ending with ``?``) or its heading; ``options``
    its choices when it has a list; ``nested`` that it is drawn indented past the screen's
    margin under other text (a quote is drawn that way, and some dialogs too).
    """

    question: str
    options: tuple[str, ...]
    selected: str | None
    evidence: str
    nested: bool


InputBelow = Callable[[int], bool]
"""``input_below(row)``: the agent's own input is readable in the rows from ``row`` on."""


def find_live_dialog(
    lines: Sequence[str], width: int, input_below: InputBelow
) -> LiveDialog | None:
    """The dialog drawn at the bottom of ``lines`` (over or instead of the agent's input),
    or None when the bottom shows none (or the agent's input is drawn below what looks like
    one: then it is transcript)."""
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    if not end:
        return None
    start = max(0, end - WINDOW)
    if _CUE.search("\n".join(lines[start:end])) is None:
        return None  # no pointer, no number, no hint, no yes/no: nothing to look at closer
    tail = [i for i in range(start, end) if lines[i].strip()][-HINT_ROWS:]
    hint_row = next((i for i in reversed(tail) if _is_hint(lines[i])), -1)
    options = _options(lines, start, end, width, hinted=hint_row >= 0)
    if options:
        first = options[0].line
        if input_below(options[-1].line + options[-1].rows):
            return None
        top = _top(lines, first, start)
        found = _dialog(lines, top, end, first, "an option list", options)
        if _text_after(lines, options[-1].line + options[-1].rows, end):
            return dataclasses.replace(found, nested=True)  # text after it: maybe not last
        return found
    if hint_row >= 0 and _only_chrome(lines, hint_row + 1, end) and not input_below(hint_row + 1):
        top = _top(lines, hint_row, start)
        return _dialog(lines, top, end, hint_row, "a dialog's key hint", ())
    asked = _yes_no_row(lines, tail)
    if asked >= 0 and not input_below(end):
        return _dialog(lines, _top(lines, asked, start), end, asked, "a yes/no question", ())
    return None


def _yes_no_row(lines: Sequence[str], tail: Sequence[int]) -> int:
    """The row of a yes/no question waiting for its answer: the last row, or the one above a
    last row that is a key hint of any kind (a working hint drawn under the question)."""
    if not tail:
        return -1
    if YES_NO.search(lines[tail[-1]].strip()):
        return tail[-1]
    if (
        len(tail) > 1
        and _ANY_HINT.search(lines[tail[-1]])
        and YES_NO.search(lines[tail[-2]].strip())
    ):
        return tail[-2]
    return -1


def _is_hint(line: str) -> bool:
    return HINT.search(line) is not None and _SPINNER.search(line) is None


def _options(
    lines: Sequence[str], start: int, end: int, width: int, *, hinted: bool
) -> list[Option]:
    numbered: list[Option] = []
    if any(_NUMBER.search(lines[i]) for i in range(start, end)):
        numbered = find_numbered(lines, end, start)
    if len(numbered) >= MIN_OPTIONS and (hinted or any(o.selected for o in numbered)):
        last = numbered[-1]
        if _only_chrome(lines, last.line + last.rows, end):
            return numbered
    pointers = [i for i in range(start, end) if _POINTERS.intersection(lines[i])]
    if not pointers:
        return []
    filled = [i for i in range(pointers[-1] + 1, end) if lines[i].strip()][-CHROME_ROWS - 1 :]
    for cut in [end, *reversed(filled)]:  # a picker, then up to CHROME_ROWS rows of footer
        marked = find_marked(lines, cut, start, width)
        if len(marked) >= MIN_OPTIONS and len({o.label for o in marked}) == len(marked):
            return marked if _only_chrome(lines, cut, end) else []
    return []


def _text_after(lines: Sequence[str], begin: int, end: int) -> bool:
    """Rows of plain text (not a hint, not inside a box) below a dialog's options."""
    for line in lines[begin:end]:
        body = strip_border(line).strip()
        plain = body and strip_border(line) == line.rstrip() and not is_rule(body)
        if plain and not _is_hint(line) and not is_box_edge(line):
            return True
    return False


def _only_chrome(lines: Sequence[str], begin: int, end: int) -> bool:
    """Below a dialog's options or hint: blank rows, rules, box edges, rows inside its box, a
    hint, a few footer rows drawn in from the margin. A row of other text at the margin (a
    shell prompt, a transcript line) means the dialog is not what the pane shows last."""
    content = 0
    for line in lines[begin:end]:
        body = strip_border(line).strip()
        if is_box_edge(line) and line.strip()[0] in "╭┌┏╔":
            return False  # another box starts below: new output, the options are not last
        if not body or is_rule(body) or is_box_edge(line):
            continue
        content += 1
        if line[0] != " " and strip_border(line) == line.rstrip() and not _is_hint(line):
            return False
    return content <= CHROME_ROWS


def _top(lines: Sequence[str], row: int, start: int) -> int:
    """First row of the block that ``row`` belongs to: up to a blank gap of two rows or a
    rule above it, within the window (boxes inside the dialog are part of it)."""
    top = row
    blanks = 0
    for index in range(row - 1, start - 1, -1):
        line = lines[index]
        if is_rule(line):
            return index + 1
        if not line.strip():
            blanks += 1
            if blanks >= 2:  # a two-row gap ends a block
                break
            continue
        blanks = 0
        top = index
    return top


def _dialog(
    lines: Sequence[str],
    top: int,
    end: int,
    row: int,
    evidence: str,
    options: Sequence[Option],
) -> LiveDialog:
    body = [strip_border(line) for line in lines[top:end]]
    text = [row.strip() for row in body if row.strip()]
    labels = {o.line - top for o in options}
    prose = [row for i, row in enumerate(body) if row.strip() and i not in labels]
    question = next((row.strip() for row in reversed(prose) if _QUESTION.search(row)), "")
    heading = question or (prose[0].strip() if prose else (text[0] if text else ""))
    return LiveDialog(
        question=heading,
        options=tuple(o.text for o in options),
        selected=next((o.text for o in options if o.selected), None),
        evidence=evidence,
        nested=_nested(lines, row, 0),
    )


def _nested(lines: Sequence[str], row: int, start: int) -> bool:
    """The dialog's ``row`` is indented past the text above it (an answer's quote is drawn
    that way; an agent draws its dialogs at its own margin, as far left as its transcript).

    A rule or a box edge from the pane's first column is the agent's own frame: what lies
    above it is another part of the screen (a quote's rules are indented with the quote)."""
    above: list[int] = []
    for line in reversed(lines[start:row]):
        if not line.strip():
            continue
        if is_rule(line) or is_box_edge(line):
            if not _indent(line):
                break
            continue
        above.append(_indent(line))
    return bool(above) and _indent(lines[row]) > min(above) + 1


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def framed_bottom(lines: Sequence[str]) -> bool:
    """A framed block reaches the bottom of ``lines``: one of the last :data:`FRAME_ROWS`
    non-blank rows is a box's edge (a corner and its rule, however short the pane made it) or
    starts with a vertical border (``│``, ``┃``). Where the agent's input is not readable, such
    a block is drawn over or instead of it."""
    filled = [line for line in lines if line.strip() and not is_rule(line, _BAR_CHARS, _MIN_EDGE)]
    return any(
        has_left_border(line) or is_box_edge(line, _MIN_EDGE) for line in filled[-FRAME_ROWS:]
    )
