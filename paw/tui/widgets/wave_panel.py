"""The wave view (`w`): the wave's header line and one row per task, parked prompts first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from paw.core.models import Action
from paw.core.printable import printable, printable_line
from paw.core.wave_view import (
    CHECKING,
    DIALOG,
    DONE,
    FAILED,
    PARKED,
    QUEUED,
    STARTING,
    STUCK,
    WAITING,
    WaveRow,
    status_counts,
    wave_elapsed,
    wave_rows,
)
from paw.tui.format import VERDICT_STYLE, format_duration, shorten
from paw.tui.widgets.static import QuietStatic
from paw.tui.widgets.table import KeyedTable, Row

if TYPE_CHECKING:
    from paw.core.wave_view import WaveReading

STATUS_STYLE = {
    WAITING: "bold yellow",
    PARKED: "bold yellow",
    DIALOG: "bold yellow",
    STUCK: "bold magenta",
    CHECKING: "bold cyan",
    "running": "cyan",
    STARTING: "cyan",
    QUEUED: "dim",
    FAILED: "bold red",
    DONE: "green",
}
RESUME_HINT = "runner stopped; paw wave resume"
WIDE = 100  # from this width the agent column stays in view
NOTE_WIDTH = 44  # the last column: the parked prompt, or why the task ended


def format_progress(elapsed: float | None, budget: float | None) -> Text:
    """``3m/2h00m``: the time a task (or the wave) has run against its budget; red when over."""
    if elapsed is None:
        return Text("—", style="dim")
    text = format_duration(elapsed)
    if budget is None:
        return Text(text)
    over = elapsed > budget
    return Text(f"{text}/{format_duration(budget)}", style="bold red" if over else "")


def format_checks(row: WaveRow) -> Text:
    """``1✗ 1/2``: check runs with the last result (✓ passed, ✗ failed), then the follow-ups
    sent of those allowed; ``none`` for a task without a check."""
    if row.has_check is False:
        return Text("none", style="dim")
    retries = f"{row.followups}/{row.retries}" if row.retries is not None else f"{row.followups}"
    if not row.checks:
        return Text(f"0 {retries}", style="dim")
    mark, style = ("✗", "red") if row.last_check_failed else ("✓", "green")
    text = Text(str(row.checks))
    text.append(mark, style=style)
    text.append(f" {retries}")
    return text


def format_note(row: WaveRow, now: float, width: int = NOTE_WIDTH) -> Text:
    """The parked prompt (kind, subject, verdict, age), or what else the task waits on (a
    task parked over its budget: what it spent of which budget, before any prompt)."""
    if row.status == PARKED and row.budget_parked:
        return Text(shorten(printable_line(row.budget_parked), width), style="yellow")
    prompt = row.prompt
    if prompt is not None:
        verdict = prompt.verdict
        age = format_duration(now - prompt.first_seen)
        room = width - len(prompt.kind) - len(verdict) - len(age) - 3
        subject = shorten(prompt.subject or prompt.question, max(8, room))
        text = Text(f"{prompt.kind} ", style="bold")
        text.append(subject)
        text.append(" ")
        text.append(verdict, style=_verdict_style(verdict))
        text.append(f" {age}", style="dim")
        return text
    if row.status == DIALOG:
        return Text(f"a dialog: t attaches ({format_duration(now - (row.since or now))})")
    if row.status == STUCK:
        return Text(f"unchanged for {format_duration(now - (row.since or now))}", style="magenta")
    if row.status in (DONE, FAILED) and row.outcome:
        return Text(shorten(row.outcome, width), style="dim" if row.status == DONE else "red")
    return Text("")


def _verdict_style(verdict: str) -> str:
    try:
        return VERDICT_STYLE[Action(verdict)]
    except (ValueError, KeyError):
        return "bold"


class WaveTable(KeyedTable):
    """The tasks of the wave; row keys are task names."""

    FIXED_HEIGHT = True  # #wave-table is 1fr in paw.tcss

    COLUMNS = (
        ("task", "Task"),
        ("status", "Status"),
        ("time", "Time/budget"),
        ("checks", "Check/retry"),
        ("note", "Prompt / note"),
        ("agent", "Agent"),
    )

    rows_shown: tuple[WaveRow, ...] = ()
    _reading: WaveReading | None = None
    _now = 0.0

    def show_wave(self, reading: WaveReading | None, now: float) -> None:
        """One row per task of ``reading``'s wave (none while it cannot be read). The note is
        cut to what the other columns leave, so the task's verdict stays on screen."""
        self._reading, self._now = reading, now
        state = reading.state if reading is not None else None
        rows = tuple(wave_rows(state, now)) if state is not None else ()
        self.rows_shown = rows
        fixed = [
            (
                Text(r.task),
                Text(r.status, style=STATUS_STYLE.get(r.status, "")),
                format_progress(r.elapsed_s, r.budget_s),
                format_checks(r),
            )
            for r in rows
        ]
        width = self._note_width(fixed, [r.agent for r in rows])
        cells: list[Row] = [
            (r.task, (*cells, format_note(r, now, width), Text(r.agent, style="dim")))
            for r, cells in zip(rows, fixed, strict=True)
        ]
        self.show_rows(cells)

    def _note_width(self, rows: list[tuple[Text, Text, Text, Text]], agents: list[str]) -> int:
        """What the other columns leave for the note. From 100 cells the agent column is kept
        in view; below, the note takes the rest and the agent (``<wave>-<task>``, also on the
        card) is past the right edge."""
        width = self.size.width or self._hidden_width()
        if not width:
            return NOTE_WIDTH
        used = sum(
            max([len(label), *(row[i].cell_len for row in rows)])
            for i, (_, label) in enumerate(self.COLUMNS[:4])
        )
        shown = len(self.COLUMNS) - 1
        if width >= WIDE:
            used += max([len("Agent"), *(len(a) for a in agents)])
            shown += 1
        gaps = 2 * shown + 1  # cell padding, and the scrollbar's room
        return max(width - used - gaps, 24)

    def _hidden_width(self) -> int:
        """The width the table will have when `w` shows it (paw.tcss: the whole width below
        100 columns, two thirds up to 140 beside the pane), inside the panel's border; so
        that the first frame of the wave view is cut right too."""
        screen = self.app.size.width
        column = screen if screen < WIDE else min(140, screen * 2 // 3)
        return max(column - 2, 0)

    def on_resize(self) -> None:
        """Cut the notes to the new width."""
        if self.rows_shown:
            self.show_wave(self._reading, self._now)

    def row(self, task: str | None) -> WaveRow | None:
        """The shown row of ``task``."""
        return next((r for r in self.rows_shown if r.task == task), None)


_DOING = {
    PARKED: "is parked for you: its agent is left running and its work kept; paw types nothing "
    "more to it and runs no check (t attaches, m types a message)",
    DIALOG: "waits on a dialog only you can answer: t attaches to its pane",
    STUCK: "is stuck: its screen, worktree and commits have not changed while it is not busy "
    "(t attaches, m types a message; paw never nudges it)",
    CHECKING: "has finished its turn; paw runs its check",
    "running": "is working",
    STARTING: "is starting",
    QUEUED: "has not started (max_parallel, depends_on or the wave's budget)",
    FAILED: "failed",
    DONE: "is done",
}


def render_task_card(row: WaveRow | None, now: float, *, parked_shown: bool) -> Text:
    """The card of a wave task without a live prompt to decide: what it does, or why its
    parked prompt cannot be decided here. ``parked_shown``: paw's last sweep shows the
    parked prompt (then the prompt card is shown instead of this)."""
    if row is None:
        return Text("No task selected.", style="dim")
    text = Text(style="dim")
    text.append(f"{row.task}", style="bold")
    text.append(f" ({row.agent}) {_DOING.get(row.status, row.status)}")
    if row.outcome and row.status in (DONE, FAILED):
        text.append(f": {printable(row.outcome)}")
    text.append(".")
    if row.status == PARKED and row.budget_parked:
        text.append(f"\nWhy: {printable_line(row.budget_parked)}.")
    if row.prompt is not None and not parked_shown:
        text.append(
            f"\nIts parked prompt ({row.prompt.kind} {printable_line(row.prompt.subject or '')}) "
            "is not on "
            "screen in paw's last sweep (answered, changed, or not seen yet): nothing to "
            "decide here."
        )
    if row.status in (STUCK, DIALOG) and row.since is not None:
        text.append(f"\nFor {format_duration(now - row.since)}. Enter: go to its agent.")
    return text


class WaveHeader(QuietStatic):
    """``wave night  running  ● runner  12m/8h  waiting 1  running 2  done 3``."""

    def show_wave(self, reading: WaveReading | None, now: float) -> None:
        """Summarise ``reading`` (None: no wave in this repository)."""
        self.show(render_wave_header(reading, now))


def render_wave_header(reading: WaveReading | None, now: float) -> Text:
    """The wave's header: name, status, runner, elapsed vs budget, counts per status; or the
    one-line error of an unreadable state file; or how to start a wave."""
    text = Text()
    if reading is None:
        text.append("No wave in this repository: ", style="dim")
        text.append("paw wave run FILE", style="bold")
        text.append(" starts one (docs/waves.md).", style="dim")
        return text
    text.append(f" wave {reading.name} ", style="bold reverse")
    state = reading.state
    if state is None:
        text.append(f"  ✖ {' '.join((reading.error or 'unreadable').split())}", style="bold red")
        return text
    text.append(f"  {state.status}", style="bold")
    if state.status == "running":
        if reading.runner_alive:
            text.append("  ● runner", style="bold green")
        else:
            text.append(f"  ✖ {RESUME_HINT}", style="bold red")
    text.append("  ")
    text.append_text(format_progress(wave_elapsed(state, now), state.budget_s))
    if state.over_budget:
        text.append(" over budget", style="bold red")
    text.append("\n")
    for status, count in status_counts(wave_rows(state, now)).items():
        text.append(f" {status} ")
        text.append(str(count), style=STATUS_STYLE.get(status, "bold"))
        text.append(" ")
    return text
