"""Option lists in agent dialogs: parse them, find the selection, pick keys for a choice."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from paw.core.detect.boxes import is_rule, strip_border

ENTER = "Enter"
ESCAPE = "Escape"
UP = "Up"
DOWN = "Down"
RIGHT = "Right"
LEFT = "Left"

# A selection marker, then "N." and a label. Borders are stripped before matching.
_NUMBERED = re.compile(
    r"^(?P<indent>\s*)(?P<mark>[❯›>●▶➤→*]\s*)?(?P<num>\d{1,2})[.)]\s+(?P<label>\S.*)$"
)
# Unnumbered pickers mark the highlighted line with a pointer (never a bullet such as ``●``,
# which transcripts use).
_MARKED = re.compile(r"^(?P<indent>\s*)(?P<mark>[❯›➤])\s+(?:✔\s+)?(?P<label>\S.*)$")
_SHORTCUT = re.compile(r"\s*\((?P<key>[a-z]|esc|enter)\)\s*$", re.IGNORECASE)
_POSITIVE = re.compile(
    r"^(?:✔\s*)?(yes|allow|approve|proceed|trust|continue|accept|run|always allow)\b", re.IGNORECASE
)
_NEGATIVE = re.compile(
    r"^(no|reject|deny|cancel|don't|do not|back|skip|exit)\b|\(esc\)\s*$", re.IGNORECASE
)
_ALWAYS = re.compile(
    r"\b(always|don['’]t ask again|do not ask again|(?:for|during) this session|remember)\b",
    re.IGNORECASE,
)
_ALWAYS_FIRST = re.compile(r"\balways\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Option:
    """One choice in a dialog.

    ``number`` is the digit shown (None for unnumbered pickers), ``shortcut`` the letter shown
    in parentheses at its end (codex: ``(y)``, ``(p)``, ``(esc)``), ``line`` its screen line.
    """

    label: str
    number: int | None
    selected: bool
    line: int
    shortcut: str | None = None
    rows: int = 1  # screen rows of the label (more when it wrapped)

    @property
    def text(self) -> str:
        """The label without its trailing shortcut."""
        return _SHORTCUT.sub("", self.label).strip()

    @property
    def is_positive(self) -> bool:
        """The option says yes/allow/trust."""
        return bool(_POSITIVE.match(self.text))

    @property
    def is_negative(self) -> bool:
        """The option says no/reject/cancel (or is the ``(esc)`` choice)."""
        return bool(_NEGATIVE.search(self.label)) and not self.is_positive

    @property
    def is_always(self) -> bool:
        """A positive option that remembers the choice (session, project, always)."""
        return self.is_positive and bool(_ALWAYS.search(self.text))


def _parse_numbered(line: str, index: int) -> tuple[Option, int] | None:
    match = _NUMBERED.match(strip_border(line))
    if match is None:
        return None
    label = match["label"].strip()
    shortcut = _SHORTCUT.search(label)
    option = Option(
        label=label,
        number=int(match["num"]),
        selected=match["mark"] is not None and match["mark"].strip() != "*",
        line=index,
        shortcut=shortcut["key"].lower() if shortcut else None,
    )
    return option, len(match["indent"]) + (len(match["mark"]) if match["mark"] else 0)


def find_numbered(lines: Sequence[str], end: int, start: int = 0) -> list[Option]:
    """The last numbered option list in ``lines[start:end]``.

    The list must count up from 1 without gaps; lines between options may be descriptions
    (indented deeper than the number), blank, or rules. Returns [] if there is no such list.
    Callers check what follows the last option (``options[-1].line``).
    """
    last = -1
    for index in range(end - 1, start - 1, -1):
        if _NUMBERED.match(strip_border(lines[index])):
            last = index
            break
    if last < 0:
        return []
    found: list[Option] = []
    column = -1
    continuation = _trailing_continuation(lines, last, end)
    for index in range(last, start - 1, -1):
        parsed = _parse_numbered(lines[index], index)
        if parsed is not None:
            option, col = parsed
            if found and option.number != (found[0].number or 0) - 1:
                return []
            found.insert(0, _extend(option, continuation))
            column, continuation = col, []
            if option.number == 1:
                return found
        elif not _is_filler(lines[index], column):
            return []
        elif lines[index].strip() and not is_rule(lines[index]):
            continuation.insert(0, strip_border(lines[index]).strip())
        else:
            continuation = []
    return []


def _trailing_continuation(lines: Sequence[str], last: int, end: int) -> list[str]:
    parsed = _parse_numbered(lines[last], last)
    column = parsed[1] if parsed else -1
    found: list[str] = []
    for line in lines[last + 1 : end]:
        body = strip_border(line)
        if not body.strip() or is_rule(body) or len(body) - len(body.lstrip()) <= column:
            break
        found.append(body.strip())
    return found


def _extend(option: Option, continuation: list[str]) -> Option:
    """Join an option's wrapped continuation lines (indented deeper) to its label."""
    if not continuation:
        return option
    label = " ".join([option.label, *continuation])
    shortcut = _SHORTCUT.search(label)
    return Option(
        label=label,
        number=option.number,
        selected=option.selected,
        line=option.line,
        shortcut=shortcut["key"].lower() if shortcut else option.shortcut,
        rows=1 + len(continuation),
    )


def _is_filler(line: str, column: int) -> bool:
    body = strip_border(line)
    if not body.strip() or is_rule(body):
        return True
    return column >= 0 and len(body) - len(body.lstrip()) > column


def find_marked(lines: Sequence[str], end: int, start: int = 0, width: int = 0) -> list[Option]:
    """An unnumbered picker ending above ``end``: one ``❯``-marked line among sibling lines.

    Siblings are the contiguous lines whose text starts at the marked label's column. With a
    known pane ``width``, a sibling that the row above could not take (its first word would
    not fit) and that does not start with a capital is that option's wrapped label.
    """
    marked, match = -1, None
    for index in range(end - 1, start - 1, -1):
        match = _MARKED.match(strip_border(lines[index]))
        if match:
            marked = index
            break
    if match is None:
        return []
    column = len(strip_border(lines[marked])) - len(match["label"])
    top = _sibling_edge(lines, marked, column, -1, start)
    bottom = _sibling_edge(lines, marked, column, 1, end - 1)
    if any(lines[i].strip() for i in range(bottom + 1, end)):
        return []  # something other than options follows the picker
    found: list[Option] = []
    for i in range(top, bottom + 1):
        label = strip_border(lines[i])[column:].strip()
        if (
            found
            and width > 0
            and _wraps_onto(lines[i - 1], label, width)
            and not label[0].isupper()
        ):
            last = found[-1]
            found[-1] = Option(
                last.label + " " + label, None, last.selected, last.line, rows=last.rows + 1
            )
            continue
        found.append(Option(label=label, number=None, selected=i == marked, line=i))
    return found


def _wraps_onto(above: str, label: str, width: int) -> bool:
    """The row ``above`` could not take the first word of ``label``: it may wrap onto it.

    Callers also require the row not to start like a label (a capital): option labels do.
    """
    words = label.split()
    return bool(words) and len(above.rstrip()) + 1 + len(words[0]) > width


def _sibling_edge(lines: Sequence[str], marked: int, column: int, step: int, limit: int) -> int:
    edge = marked
    index = marked + step
    while (step < 0 and index >= limit) or (step > 0 and index <= limit):
        body = strip_border(lines[index])
        indent = len(body) - len(body.lstrip())
        if not body.strip() or indent != column:
            break
        edge = index
        index += step
    return edge


def selected_index(options: Sequence[Option]) -> int:
    """Index of the highlighted option (the first one if none is marked)."""
    for index, option in enumerate(options):
        if option.selected:
            return index
    return 0


def move_keys(options: Sequence[Option], target: int) -> tuple[str, ...]:
    """Arrow keys from the highlighted option to ``options[target]``, then Enter."""
    delta = target - selected_index(options)
    arrows = (DOWN,) * delta if delta > 0 else (UP,) * -delta
    return (*arrows, ENTER)


def first_positive(options: Sequence[Option]) -> int:
    """Index of the approve-once option: the first positive one that does not remember."""
    for index, option in enumerate(options):
        if option.is_positive and not (option.is_always and index > 0):
            return index
    return -1


def always_option(options: Sequence[Option]) -> int:
    """Index of the "allow always / for this session" option, preferring "always"; or -1."""
    approve = first_positive(options)
    candidates = [i for i, option in enumerate(options) if i != approve and option.is_always]
    for index in candidates:
        if _ALWAYS_FIRST.search(options[index].text):
            return index
    return candidates[0] if candidates else -1


def negative_option(options: Sequence[Option]) -> int:
    """Index of the deny/cancel option, or -1."""
    for index, option in enumerate(options):
        if option.is_negative:
            return index
    return -1


def labels(options: Sequence[Option]) -> tuple[str, ...]:
    """The option labels, for a prompt's ``options`` and fingerprint."""
    return tuple(option.text for option in options)


def selected_label(options: Sequence[Option]) -> str | None:
    """The highlighted option's text, or None when no option is marked."""
    return next((option.text for option in options if option.selected), None)
