"""The last records of the audit log, one line each."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

_FIELDS = ("event", "agent", "outcome", "verdict", "subject", "reason", "keys")


class AuditTail(Static):
    """The tail of ``.paw/audit.jsonl`` (newest last)."""

    def show_records(self, records: Sequence[Mapping[str, object]]) -> None:
        """Show ``records`` (oldest first)."""
        if not records:
            self.update(Text("No audit records yet.", style="dim"))
            return
        self.update(Text("\n").join(render_record(r) for r in records))


def render_record(record: Mapping[str, object]) -> Text:
    """One audit record as a line: known fields first, in a fixed order."""
    text = Text(no_wrap=True, overflow="ellipsis")
    when = record.get("ts") or record.get("time")
    if isinstance(when, str):
        text.append(when[11:19] if len(when) >= 19 else when, style="dim")
        text.append(" ")
    for name in _FIELDS:
        value = record.get(name)
        if value in (None, "", [], ()):
            continue
        shown = " ".join(map(str, value)) if isinstance(value, list | tuple) else str(value)
        style = "bold" if name == "event" else ""
        text.append(f"{name}=", style="dim")
        text.append(shown + " ", style=style)
    return text
