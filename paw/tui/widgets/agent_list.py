"""The agents table: name, kind, state with time in state, branch, short diff stat."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.tui.format import (
    format_name,
    format_stat,
    format_status,
    matches_filter,
    sort_agents,
)
from paw.tui.widgets.table import KeyedTable, Row

if TYPE_CHECKING:
    from collections.abc import Sequence

    from paw.supervisor.model import AgentView


class AgentList(KeyedTable):
    """Every supervised agent, waiting ones first. Row keys are agent names."""

    COLUMNS = (
        ("name", "Agent"),
        ("kind", "Kind"),
        ("state", "State"),
        ("branch", "Branch"),
        ("diff", "Diff"),
    )

    def show_agents(self, agents: Sequence[AgentView], now: float, needle: str = "") -> None:
        """Show ``agents`` that match ``needle``; ages are measured against ``now``."""
        rows: list[Row] = [
            (a.name, (format_name(a), a.kind, format_status(a, now), a.branch, format_stat(a.stat)))
            for a in sort_agents(agents)
            if matches_filter(a, needle)
        ]
        self.show_rows(rows)
