"""The last records of the audit log, one line each."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from paw.core.printable import printable_line
from paw.tui.widgets.static import QuietStatic

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

_FIELDS = ("agent", "decision", "outcome", "verdict", "subject", "keys", "override", "text")
_STYLES = {"block": "red", "confirm": "yellow", "allow": "green", "sent": "bold green"}


class AuditTail(QuietStatic):
    """The tail of ``.paw/audit.jsonl``: the newest records that fit, newest last."""

    FIXED_SIZE = True  # paw.tcss #audit: seven lines

    _records: tuple[Text, ...] = ()
    _tail_shown: list[Mapping[str, object]] | None = None

    def show_records(self, records: Sequence[Mapping[str, object]]) -> None:
        """Show the newest of ``records`` (given oldest first) that fit the panel (every
        picture brings the tail; the same records as last time are not drawn again)."""
        if self._tail_shown is not None and list(records) == self._tail_shown:
            return
        self._tail_shown = list(records)
        self._records = tuple(render_record(r) for r in records)
        self._draw()

    def on_resize(self) -> None:
        """Re-cut the tail to the new height."""
        self._draw()

    def _draw(self) -> None:
        if not self._records:
            self.show(Text("No audit records yet.", style="dim"))
            return
        self.show(Text("\n").join(newest(self._records, self.size.height)))


def newest(lines: Sequence[Text], height: int) -> Sequence[Text]:
    """The last ``height`` lines (at least one): a log's tail shows its newest entries.

    >>> [t.plain for t in newest([Text("a"), Text("b"), Text("c")], 2)]
    ['b', 'c']
    """
    return lines[-max(height, 1) :]


def render_record(record: Mapping[str, object]) -> Text:
    """One audit record as a line: the event, then known fields in a fixed order."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(str(record.get("event", "?")), style="bold")
    for name in _FIELDS:
        shown = _value(record.get(name))
        if shown:
            text.append(f" {name}=", style="dim")
            text.append(shown, style=_STYLES.get(shown, ""))
    return text


def _value(value: object) -> str:
    """The value as shown: one line, controls, bidi and zero-width characters escaped (the
    audit file keeps the exact text)."""
    return printable_line(_plain(value))


def _plain(value: object) -> str:
    if value is None or value in ("", [], ()):
        return ""
    if isinstance(value, dict):  # a verdict: {"verdict": "confirm", "reasons": [...]}
        return str(value.get("verdict", ""))
    if isinstance(value, list | tuple):
        return " ".join(map(str, value))
    return str(value)
