"""The main screen: agents, prompt queue, live pane, diff, audit tail; a sweep's picture drawn
and the selection every key acts on.

Its rooms: :mod:`.keys` (bindings), :mod:`.panels` (filter, views, wave view, help),
:mod:`.toasts` (new prompts announced) and :mod:`.actions` (every human action: each either
opens a dialog or hands a request to a thread worker; the supervisor is only ever called from
workers, never on the UI thread).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.events import DescendantFocus
from textual.widgets import DataTable, Input, Static, TabbedContent, TabPane

from paw.core.models import Action
from paw.supervisor.model import AgentStatus
from paw.tui.messages import (
    ActionFailed,
    AgentDetails,
    DecisionMade,
    DecisionRequest,
    DetailsRead,
    PanesPolled,
    PollFailed,
)
from paw.tui.screens.actions import AgentActions
from paw.tui.screens.keys import (
    AGENT_ACTIONS,
    FOOTER_DROP_ORDER,
    GATED_ACTIONS,
    MAIN_BINDINGS,
    PROMPT_ACTIONS,
)
from paw.tui.screens.panels import ScreenPanels
from paw.tui.screens.toasts import PromptToasts
from paw.tui.widgets.agent_list import AgentList
from paw.tui.widgets.audit_tail import AuditTail
from paw.tui.widgets.diff_view import DiffView
from paw.tui.widgets.footer import KeyFooter
from paw.tui.widgets.header import CountsHeader
from paw.tui.widgets.pane_preview import PanePreview
from paw.tui.widgets.prompt_queue import PromptCard, PromptQueue
from paw.tui.widgets.static import AFTER_FRAME_S

if TYPE_CHECKING:
    from paw.core.wave_view import WaveReading, WaveRow
    from paw.supervisor.model import AgentView, LivePrompt, Snapshot
    from paw.tui.widgets.wave_panel import WaveHeader, WaveTable


def waited_since_prompts(snapshot: Snapshot) -> tuple[AgentView, ...]:
    """The agents, an agent at a prompt timed from its oldest live prompt (as the queue times
    it): the table and the queue then agree on one prompt's age, and the first row (the
    longest waiting agent) holds the oldest prompt, which the TUI selects first."""
    oldest: dict[str, float] = {}
    for p in snapshot.prompts:
        oldest[p.agent] = min(oldest.get(p.agent, p.first_seen), p.first_seen)
    return tuple(
        replace(a, status_since=oldest[a.name])
        if a.status in (AgentStatus.PROMPT, AgentStatus.WAITING) and a.name in oldest
        else a
        for a in snapshot.agents
    )


class MainScreen(ScreenPanels, AgentActions):
    """Everything at a glance; decisions with single keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *MAIN_BINDINGS,
        Binding("escape", "clear_filter", "Clear filter", show=False),
    ]
    FOOTER_DROP_ORDER = FOOTER_DROP_ORDER
    AUTO_FOCUS = "#agents"  # focus lands on the table at once (not the filter, then the table)
    # Small terminals: drop the right panel below 100 columns, the audit tail below 32 rows.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]  # noqa: RUF012 - Textual's type
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]  # noqa: RUF012 - Textual's type

    def __init__(self) -> None:
        super().__init__(id="main")
        self.snapshot: Snapshot | None = None
        self._snapshot_seen = 0.0  # time.monotonic() when the snapshot arrived
        self._ages_at = 0  # whole seconds after it that the tables were last drawn for
        self.shown_agent: str | None = None  # whose pane and diff are on screen
        self.needle = ""
        self._toasts = PromptToasts(self)
        self._shown_error: str | None = None  # the banner starts empty and hidden
        self._footer_state: tuple[bool | str | None, ...] | None = None
        self._queued: tuple[LivePrompt, ...] = ()  # the prompts the queue shows
        self._last_table: str | None = "agents"  # the table that had focus last
        self.wave: WaveReading | None = None  # the latest wave, as the last sweep read it
        self._wave_mounting = False  # the wave view's widgets are (being) mounted

    def compose(self) -> ComposeResult:
        """Header, banner, the two columns, the audit tail, the footer."""
        yield CountsHeader(id="counts")
        yield Static("", id="error-banner", markup=False)
        with Horizontal(id="columns"):
            with Vertical(id="left"):
                yield Input(placeholder="filter agents…", id="filter")
                yield AgentList(id="agents")
                yield PromptQueue(id="prompts")
                yield Vertical(id="wave")  # its widgets are mounted once a wave shows up
                with VerticalScroll(id="prompt-card-box"):
                    yield PromptCard(id="prompt-card")
            with TabbedContent(id="right", initial="tab-pane"):
                with TabPane("Pane", id="tab-pane"):
                    yield PanePreview(id="preview")
                with TabPane("Diff", id="tab-diff"), VerticalScroll():
                    yield DiffView(id="diff")
        yield AuditTail(id="audit")
        yield KeyFooter()

    def on_mount(self) -> None:
        """Titles, empty states, focus."""
        self.query_one("#agents").border_title = "Agents"
        self.query_one("#prompts").border_title = "Prompts (oldest first)"
        self.query_one("#audit").border_title = "Audit log"
        self.query_one("#wave").border_title = "Wave (w: back to the agents)"
        self.query_one(CountsHeader).show_snapshot(None)
        self.query_one(PromptCard).show(Text("Looking for agents and their prompts…", style="dim"))
        self.query_one(AuditTail).show_records([])
        self.query_one(PanePreview).show_capture(None, "")
        self.query_one(DiffView).show_diff(None, "")
        self.query_one(AgentList).focus()

    # -- sweeps -------------------------------------------------------------------------------

    def on_panes_polled(self, message: PanesPolled) -> None:
        """Redraw from a sweep; ring for prompts that were not there before."""
        snapshot = message.snapshot
        first = self.snapshot is None
        self.snapshot = snapshot
        self._snapshot_seen = time.monotonic()
        self._ages_at = 0
        self._show_error(None if snapshot.tmux_ok else (snapshot.error or "tmux is not running"))
        self.query_one(CountsHeader).show_snapshot(snapshot)
        self._show_tables()
        if message.details is not None:
            self._show_details(message.details)
        if message.audit is not None:
            self.query_one(AuditTail).show_records(message.audit)
        if message.waves:
            self.wave = message.wave
            self._show_wave()
        self._toasts.announce(snapshot.prompts, quiet=first)
        self._refresh_footer()
        if first:
            self.set_timer(AFTER_FRAME_S, self._first_picture_shown, name="first-picture")
        handled = getattr(self.app, "picture_handled", None)
        if callable(handled) and not message.early:  # a sweeper may push its next picture
            handled()

    def _first_picture_shown(self) -> None:
        first_shown = getattr(self.app, "first_picture_shown", None)
        if callable(first_shown):
            first_shown()

    def on_details_read(self, message: DetailsRead) -> None:
        """The selected agent's pane preview and diff, read after the sweep's picture."""
        self._show_details(message.details)

    def _show_details(self, details: AgentDetails) -> None:
        if details.agent != self.shown_agent:
            return
        preview = self.query_one(PanePreview)
        preview.show_capture(details.agent, details.preview_ansi)
        if details.usage is not None:  # what the agent used (its own records), or why unknown
            preview.border_subtitle = details.usage
        if details.diff is not None:
            self.query_one(DiffView).show_diff(details.agent, details.diff)

    def on_poll_failed(self, message: PollFailed) -> None:
        """Show the banner and drop the stale prompts: nothing is approvable without tmux."""
        self._show_error(message.error)
        if self.snapshot is not None:
            self.snapshot = replace(self.snapshot, prompts=(), tmux_ok=False, error=message.error)
            self._show_tables()
        self.query_one(CountsHeader).show_snapshot(self.snapshot)

    def _show_error(self, error: str | None) -> None:
        if error == self._shown_error:
            return
        self._shown_error = error
        banner = self.query_one("#error-banner", Static)
        banner.update(f"✖ {error}" if error else "")
        banner.set_class(error is not None, "-visible")

    def refresh_ages(self) -> None:
        """Show the ages as they are now, between sweeps: with pane events, a screen that
        does not change is not swept again for up to the safety sweep's interval (30 s), and
        the ages would stand still, then jump. Only when a whole second has passed."""
        if self.snapshot is None or self.wave_shown:
            return
        elapsed = int(time.monotonic() - self._snapshot_seen)
        # (the app's timer ticks on while the app closes: the tables may be gone already)
        shown = bool(self.query(AgentList)) and bool(self.query(PromptQueue))
        if elapsed > self._ages_at and shown:
            self._ages_at = elapsed
            self._show_tables(elapsed)

    def _show_tables(self, elapsed: float = 0.0) -> None:
        if self.snapshot is None:
            return
        now = self.snapshot.taken_at + elapsed
        agents = self.query_one(AgentList)
        agents.show_agents(waited_since_prompts(self.snapshot), now, self.needle)
        visible = set(agents.visible_keys)
        self._queued = tuple(p for p in self.snapshot.prompts if p.agent in visible)
        self.query_one(PromptQueue).show_prompts(self._queued, now)
        self._sync_selection()

    def _show_wave(self) -> None:
        now = self.snapshot.taken_at if self.snapshot is not None else 0.0
        widgets = self._wave_widgets()
        if widgets is None:
            if self.wave is not None and not self._wave_mounting:
                self._wave_mounting = True
                self.run_worker(self._mount_wave(), name="mount-wave", exit_on_error=False)
            return
        header, table = widgets
        header.show_wave(self.wave, now)
        table.show_wave(self.wave, now)
        if self.wave_shown:
            self._sync_selection()

    async def _mount_wave(self) -> None:
        """Mount the wave view's widgets (their modules are imported only where a wave has
        run, after the first frame: the TUI's start-up does not pay for them)."""
        from paw.tui.widgets.wave_panel import WaveHeader, WaveTable

        await self.query_one("#wave").mount(WaveHeader(id="wave-head"), WaveTable(id="wave-table"))
        self._show_wave()
        self._refresh_footer()

    def _wave_widgets(self) -> tuple[WaveHeader, WaveTable] | None:
        """The wave view's header and table, once mounted."""
        if not self._wave_mounting:
            return None
        try:
            header = self.query_one("#wave-head")
            table = self.query_one("#wave-table")
        except NoMatches:
            return None
        return cast("WaveHeader", header), cast("WaveTable", table)

    # -- selection ----------------------------------------------------------------------------
    # Keys act on what the cursor shows *now*: both properties read the tables' cursors
    # synchronously, never state updated later by queued highlight messages.

    @property
    def wave_row(self) -> WaveRow | None:
        """The wave task under the wave table's cursor."""
        widgets = self._wave_widgets()
        if widgets is None:
            return None
        table = widgets[1]
        return table.row(table.selected_key)

    @property
    def queue_in_charge(self) -> bool:
        """Whether the prompt queue's cursor is the selection: the queue has focus, or had it
        last among the two tables (focus is on the pane or the diff)."""
        focused = self.focused
        if isinstance(focused, AgentList | PromptQueue):
            return isinstance(focused, PromptQueue)
        return self._last_table == "prompts"

    @property
    def selected_agent(self) -> str | None:
        """The agent under the cursor (the prompt's agent when the queue has focus)."""
        if self.wave_shown:
            row = self.wave_row
            return row.agent if row is not None and self._agent_view(row.agent) else None
        queue = self.query_one(PromptQueue)
        if self.queue_in_charge:
            prompt = self.find_prompt(queue.selected_key)
            return prompt.agent if prompt else None
        return self.query_one(AgentList).selected_key

    @property
    def selected_prompt(self) -> LivePrompt | None:
        """The prompt keys act on: the queue's cursor row when the queue has focus, else the
        oldest prompt of the agent under the agents table's cursor (None if it has none)."""
        queue = self.query_one(PromptQueue)
        if self.wave_shown:
            row = self.wave_row
            if row is None:
                return None
            parked = self.find_prompt(row.prompt.id) if row.prompt is not None else None
            if parked is not None and parked.agent == row.agent:
                return parked
            agent: str | None = row.agent  # not parked yet, or the runner is not running
        elif self.queue_in_charge:
            return self.find_prompt(queue.selected_key)
        else:
            agent = self.query_one(AgentList).selected_key
        if agent is None or self.snapshot is None:
            return None
        mine = [p for p in self.snapshot.prompts if p.agent == agent]
        return min(mine, key=lambda p: p.first_seen) if mine else None

    def _agent_view(self, name: str | None) -> AgentView | None:
        if name is None or self.snapshot is None:
            return None
        return next((a for a in self.snapshot.agents if a.name == name), None)

    def find_prompt(self, prompt_id: str | None) -> LivePrompt | None:
        """The live prompt ``prompt_id`` of the latest sweep, if it is still there."""
        if prompt_id is None or self.snapshot is None:
            return None
        return next((p for p in self.snapshot.prompts if p.id == prompt_id), None)

    @on(DataTable.RowHighlighted)
    def _row_highlighted(self) -> None:
        self._sync_selection()

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        """Focus moved between the tables: the selection may have changed."""
        if isinstance(event.widget, AgentList | PromptQueue):
            self._last_table = event.widget.id
        self._sync_selection()

    @on(DataTable.RowSelected, "#wave-table")
    def _wave_row_selected(self) -> None:
        """`enter` on a task: back to the agents, with its agent selected."""
        row = self.wave_row
        if row is None:
            return
        agents = self.query_one(AgentList)
        if row.agent not in agents.visible_keys and self.needle:
            self.action_clear_filter()
        if row.agent not in agents.visible_keys:
            self.notify(f"{row.agent} is not running (task {row.status}).", severity="warning")
            return
        self._leave_wave()
        agents.move_cursor(row=agents.visible_keys.index(row.agent), animate=False)
        agents.focus()
        self._sync_selection()

    def _sync_selection(self) -> None:
        """Make the queue's cursor, the card, the pane and the diff follow the selection."""
        queue = self.query_one(PromptQueue)
        prompt = self.selected_prompt
        if self.wave_shown:
            pass  # the queue is hidden; the card follows the wave's row
        elif self.queue_in_charge:
            queue.show_cursor = True
        else:  # what is lit is what keys act on: no row for an agent without a prompt
            lit = prompt is not None and prompt.id in queue.visible_keys
            if prompt is not None and lit:
                row = queue.visible_keys.index(prompt.id)
                if row != queue.cursor_row:
                    queue.move_cursor(row=row, animate=False)
            queue.show_cursor = lit
        agent = self.selected_agent
        no_agents = self.snapshot is not None and self.snapshot.tmux_ok and not self.snapshot.agents
        card = self.query_one(PromptCard)
        if self.wave_shown and prompt is None:
            now = self.snapshot.taken_at if self.snapshot is not None else 0.0
            from paw.tui.widgets.wave_panel import render_task_card

            card.show(render_task_card(self.wave_row, now, parked_shown=False))
        else:
            card.show_prompt(
                prompt, agent=self._agent_view(agent), waiting=self._queued, no_agents=no_agents
            )
        if agent is not None and agent != self.shown_agent:
            self.shown_agent = agent
            tabs = self.query_one(TabbedContent)
            tabs.get_tab("tab-pane").label = f"Pane: {agent}"
            tabs.get_tab("tab-diff").label = f"Diff: {agent}"
            self.query_one(PanePreview).show_capture(agent, "")
            self.query_one(DiffView).show_diff(agent, "")
            self.app.call_later(self.paw.request_poll)
        self._refresh_footer()

    def _refresh_footer(self) -> None:
        """Refresh the footer when a key became available or unavailable, and only then: each
        refresh recomposes every key of the footer (tens of ms with 50 agents, keys wait)."""
        state = (*(self.check_action(action, ()) for action in GATED_ACTIONS), self.next_view())
        if state != self._footer_state:
            self._footer_state = state
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out prompt keys without a prompt, agent keys without an agent."""
        if action in PROMPT_ACTIONS:
            prompt = self.selected_prompt
            if prompt is None or (action != "deny" and not prompt.prompt.approve_keys):
                # greyed, not hidden: hiding a key lays the footer out again each time a
                # prompt comes and goes (a layout pass on a prompt's way to the screen)
                return None
            if action == "always":
                return bool(prompt.prompt.always_keys) and prompt.verdict.action is Action.ALLOW
            return True
        if action in AGENT_ACTIONS:
            return True if self.selected_agent is not None else None
        if action == "view":
            return parameters == (self.next_view(),) or False  # False hides the other labels
        if action == "wave":  # only where a wave has run: the footer keeps its room otherwise
            return self._wave_widgets() is not None
        return True

    # -- decisions ----------------------------------------------------------------------------

    def on_decision_made(self, message: DecisionMade) -> None:
        """Follow up a supervisor answer: dialogs for confirm/block, a toast otherwise."""
        self.follow_up(message.request, message.decision)

    def on_action_failed(self, message: ActionFailed) -> None:
        """A refusal or error from a human-started operation."""
        self.notify(message.error, title=f"{message.what} failed", severity="error", timeout=8)

    def make_request(self, *, deny: bool = False, always: bool = False) -> DecisionRequest | None:
        """A request for the selected prompt, or None (with a hint) when there is none."""
        prompt = self.selected_prompt
        if prompt is None:
            self.notify("No prompt selected.", severity="warning")
            return None
        return DecisionRequest(prompt_id=prompt.id, agent=prompt.agent, deny=deny, always=always)
