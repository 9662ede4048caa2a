"""The main screen's panels: the filter, which panel shows (lists, pane, diff: one at a time
below 100 columns), the wave view and the help screen."""

from __future__ import annotations

from textual import on
from textual.screen import Screen
from textual.widgets import Input, TabbedContent, Tabs

from paw.tui.widgets.agent_list import AgentList
from paw.tui.widgets.prompt_queue import PromptQueue


class ScreenPanels(Screen[None]):
    """Keys that change what the main screen shows; the main screen supplies the drawing."""

    needle: str  # the filter's text
    _last_table: str | None  # the table that had focus last

    def _sync_selection(self) -> None:
        """Make the card, pane and diff follow the selection (the main screen overrides this)."""

    def _show_tables(self) -> None:
        """Draw the agents and the queue (the main screen overrides this)."""

    def _refresh_footer(self) -> None:
        """Refresh the footer's keys (the main screen overrides this)."""

    @property
    def wave_shown(self) -> bool:
        """Whether the wave view is on screen (`w`): then the wave's row is the selection."""
        return self.has_class("-wave")

    def action_wave(self) -> None:
        """Show the wave view, or go back to the agents and prompts."""
        if self.wave_shown:
            self._leave_wave()
            self._focus_table()
        else:
            self.add_class("-wave")
            self.remove_class("-show-right")  # narrow: the lists column is where the wave is
            self.query_one("#wave-table").focus()
        self._sync_selection()

    def _leave_wave(self) -> None:
        self.remove_class("-wave")

    def action_filter(self) -> None:
        """Show the filter input and focus it."""
        self._leave_wave()
        box = self.query_one("#filter", Input)
        box.add_class("-visible")
        box.focus()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.needle = event.value.strip()
        self._show_tables()

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self) -> None:
        self.query_one(AgentList).focus()

    def action_clear_filter(self) -> None:
        """Clear and hide the filter (and leave the wave view)."""
        self._leave_wave()
        box = self.query_one("#filter", Input)
        box.value = ""
        box.remove_class("-visible")
        self.query_one(AgentList).focus()

    @property
    def narrow(self) -> bool:
        """Below 100 columns one panel shows at a time: the lists, the pane or the diff."""
        return self.has_class("-narrow")

    @property
    def view(self) -> str:
        """What the screen shows: ``lists`` (narrow only), ``pane`` or ``diff``."""
        if self.narrow and not self.has_class("-show-right"):
            return "lists"
        return "diff" if self.query_one(TabbedContent).active == "tab-diff" else "pane"

    def next_view(self) -> str:
        """What `v` shows next: pane and diff in turn; below 100 columns the lists too."""
        order = ("lists", "pane", "diff") if self.narrow else ("pane", "diff")
        current = self.view if self.view in order else "pane"
        return order[(order.index(current) + 1) % len(order)]

    def action_view(self, target: str) -> None:
        """Show the lists, the selected agent's pane or its diff."""
        tabs = self.query_one(TabbedContent)
        if target == "lists":
            self.remove_class("-show-right")
            self._focus_table()
        else:
            tabs.active = f"tab-{target}"
            if self.narrow:
                self.add_class("-show-right")
                tabs.query_one(Tabs).focus()  # the tables are hidden
        self._refresh_footer()

    def _focus_table(self) -> None:
        if self.wave_shown:
            self.query_one("#wave-table").focus()
        elif not isinstance(self.focused, AgentList | PromptQueue):
            self.query_one(PromptQueue if self._last_table == "prompts" else AgentList).focus()

    def on_resize(self) -> None:
        """Wider or narrower: `v` may mean something else, and the lists must be reachable."""
        if not self.narrow and self.has_class("-show-right"):
            self.remove_class("-show-right")
        self._refresh_footer()

    def action_help(self) -> None:
        """List every key."""
        from paw.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())
