"""The prompt queue (oldest first) and the detail card of the selected prompt."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from paw.core.channels.fuse import Fusion, source_label, source_text
from paw.core.printable import printable
from paw.supervisor.model import AgentStatus
from paw.tui.format import VERDICT_STYLE, format_duration, format_verdict, shorten, sort_prompts
from paw.tui.widgets.static import QuietStatic
from paw.tui.widgets.table import KeyedTable, Row

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rich.console import Console

    from paw.core.models import PromptSource
    from paw.supervisor.model import AgentView, LivePrompt


class PromptQueue(KeyedTable):
    """Live prompts, oldest first. Row keys are prompt ids."""

    FIXED_HEIGHT = True  # #prompts is 1fr in paw.tcss, its scrollbar always there

    COLUMNS = (
        ("agent", "Agent"),
        ("kind", "Kind"),
        ("subject", "Subject"),
        ("verdict", "Verdict"),
        ("age", "Age"),
    )

    _prompts: tuple[LivePrompt, ...] = ()
    _now = 0.0

    def show_prompts(self, prompts: Sequence[LivePrompt], now: float) -> None:
        """Show ``prompts``; ages are measured against ``now``. Subjects and verdicts are cut
        to share the table's width, so no column runs past its right edge."""
        self._prompts, self._now = tuple(prompts), now
        ordered = sort_prompts(prompts)
        cells = [(p.agent, _kind(p), format_duration(now - p.first_seen)) for p in ordered]
        subject_width, verdict_width = self.text_widths(cells)
        rows: list[Row] = [
            (
                p.id,
                (
                    agent,
                    kind,
                    shorten(p.prompt.subject or p.prompt.question, subject_width),
                    format_verdict(p, verdict_width),
                    age,
                ),
            )
            for p, (agent, kind, age) in zip(ordered, cells, strict=True)
        ]
        self.show_rows(rows)

    def text_widths(self, cells: Sequence[tuple[str, str, str]]) -> tuple[int, int]:
        """Cells for the subject and the verdict: what the other columns leave, shared."""
        width = self.scrollable_content_region.width  # (the scrollbar's columns left out)
        if not width:
            return (26, 26)
        fixed = sum(
            max([len(label), *(len(row[i]) for row in cells)])
            for i, label in enumerate(("Agent", "Kind", "Age"))
        )
        gaps = 2 * len(self.COLUMNS) + 1  # cell padding, and a column to spare
        room = max(width - fixed - gaps, 24)
        subject = max(room * 9 // 20, 12)
        return (subject, max(room - subject, 12))

    def on_resize(self) -> None:
        """Cut the texts to the new width."""
        if self._prompts:
            self.show_prompts(self._prompts, self._now)


def _kind(prompt: LivePrompt) -> str:
    """The kind cell: what the prompt asks for and, for an agent with a channel, where it came
    from (``shell·both``: the channel and the screen agree; ``shell·DISAGREE``)."""
    kind = prompt.prompt.kind.value
    return kind if prompt.source.name == "screen" else f"{kind}·{source_label(prompt.source)}"


class PromptCard(QuietStatic):
    """The selected prompt in full: question, subject, verdict with every reason, keys."""

    # It fills #prompt-card-box, whose height paw.tcss fixes: a new prompt selected redraws the
    # card alone, never a layout pass of the screen, and the queue above it keeps its height
    # as prompts come and go. A text taller than the card ends with a line saying how many
    # lines are cut (the dialog that `a` opens on a prompt to confirm or a blocked one lists
    # every reason).
    FIXED_SIZE = True

    _text: Text | None = None

    def show(self, text: Text) -> None:
        """Show ``text``, cut to the card's height."""
        self._text = text
        size = self.size
        super().show(fit_lines(text, size.width, size.height, self.app.console))

    def on_resize(self) -> None:
        """Cut the text again for the new size."""
        if self._text is not None:
            self.show(self._text)

    def show_prompt(
        self,
        prompt: LivePrompt | None,
        *,
        agent: AgentView | None = None,
        waiting: Sequence[LivePrompt] = (),
        no_agents: bool = False,
    ) -> None:
        """Describe ``prompt``; without one, say why and where the prompts that wait are."""
        self.show(render_prompt_card(prompt, agent=agent, waiting=waiting, no_agents=no_agents))


def fit_lines(text: Text, width: int, height: int, console: Console) -> Text:
    """``text`` as it fits ``height`` lines of ``width`` cells: whole when it fits (or before
    the widget has a size), else its first lines and a last one saying how many more there
    are."""
    if width <= 0 or height <= 0:
        return text
    lines = text.wrap(console, width)
    if len(lines) <= height:
        return text
    kept = [*lines[: height - 1], Text(f"… {len(lines) - height + 1} more lines", "dim italic")]
    return Text("\n").join(kept)


def render_prompt_card(
    prompt: LivePrompt | None,
    *,
    agent: AgentView | None = None,
    waiting: Sequence[LivePrompt] = (),
    no_agents: bool = False,
) -> Text:
    """The text of a :class:`PromptCard`.

    ``agent`` is the agent under the cursor and ``waiting`` every prompt shown in the queue:
    with no prompt selected, the card says whose prompt is missing and how to reach the others.
    ``no_agents``: paw supervises none yet (the card then says how to start one).
    """
    if prompt is None and no_agents:
        text = Text("No agents yet. Press ", style="dim")
        text.append("n", style="bold")
        text.append(" to spawn one.")
        return text
    if prompt is None:
        return render_no_prompt(agent, waiting)
    text = _render_prompt(prompt)
    if agent is not None and agent.name == prompt.agent and agent.version_note:
        text.append(f"\n{agent.name} {agent.version_note}", style="yellow")
    return text


def _render_prompt(prompt: LivePrompt) -> Text:
    action = prompt.verdict.action
    text = Text()
    text.append(f"{prompt.agent}", style="bold")
    text.append(f" ({prompt.kind}) asks: {printable(prompt.prompt.question)}\n")
    if prompt.prompt.subject:
        text.append(f"{prompt.prompt.kind.value}: ", style="dim")
        text.append(f"{printable(prompt.prompt.subject)}\n", style="bold")
    _render_source(text, prompt.source)
    text.append(action.value, style=VERDICT_STYLE[action])
    rules = ", ".join(prompt.verdict.rules)
    if rules:
        text.append(f" [{rules}]", style="dim")
    for reason in prompt.verdict.reasons:
        text.append(f"\n  • {printable(reason)}")
    if prompt.only_in_the_pane:
        text.append(
            f"\nA {prompt.prompt.kind.value} dialog, not a tool permission: paw never answers it "
            "with a key. Press t to attach and answer it.",
            style="italic",
        )
    return text


def _render_source(text: Text, source: PromptSource) -> None:
    """Where the prompt came from (nothing for an agent without a channel: as before); a
    disagreement names both subjects, each on its own line."""
    said = source_text(source)
    if not said:
        return
    if source.name != Fusion.DISAGREE.value:
        text.append(f"{printable(said)}\n", style="dim")
        return
    why = f" ({source.reason})" if source.reason else ""
    text.append(f"The agent's channel and its screen disagree{printable(why)}:\n", style="bold red")
    for label, subject in (("channel", source.channel_subject), ("screen", source.screen_subject)):
        text.append(f"  {label}: ", style="dim")
        text.append(f"{printable(subject) if subject is not None else '(nothing)'}\n", style="bold")


_DOING = {
    AgentStatus.BUSY: "is working",
    AgentStatus.IDLE: "is idle",
    AgentStatus.UNKNOWN: "is running (its screen is not recognised)",
    AgentStatus.EXITED: "has exited",
    AgentStatus.LOST: "cannot be seen: the tmux server is gone or unreachable",
    AgentStatus.SERVER_RESTARTED: "was on a tmux server that restarted: its pane is gone",
    AgentStatus.REPLACED: "runs a process paw did not launch: `paw adopt` binds it",
    AgentStatus.PROMPT: "shows something paw cannot answer: press t to attach",
    AgentStatus.WAITING: "waits on a dialog only you can answer: press t to attach",
}


def render_no_prompt(agent: AgentView | None, waiting: Sequence[LivePrompt]) -> Text:
    """The card when the selection has no prompt: what the agent does, what waits elsewhere."""
    text = Text(style="dim")
    if agent is not None:
        text.append(agent.name, style="bold")
        text.append(
            f" {_DOING.get(agent.status, 'is ' + agent.status.value)}; no prompt to answer."
        )
        if agent.version_note:  # where a prompt paw cannot read would otherwise go unsaid
            text.append(f"\n{agent.name} {agent.version_note}", style="yellow")
    others = sort_prompts(p for p in waiting if agent is None or p.agent != agent.name)
    if not others:
        if agent is None:
            text.append("No prompt waiting.")
        return text
    if agent is not None:
        text.append("\n")
    many = len(others) > 1
    other = "other " if agent is not None else ""
    text.append(f"{len(others)} {other}prompt{'s' if many else ''} wait{'' if many else 's'}")
    text.append(" (oldest: ")
    text.append(others[0].agent, style="bold")
    text.append("): press ")
    text.append("tab", style="bold")
    text.append(" for the prompt queue.")
    return text
