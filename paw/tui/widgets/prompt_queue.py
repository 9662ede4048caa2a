"""The prompt queue (oldest first) and the detail card of the selected prompt."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from paw.tui.format import VERDICT_STYLE, format_duration, format_verdict, shorten, sort_prompts
from paw.tui.widgets.static import QuietStatic
from paw.tui.widgets.table import KeyedTable, Row

if TYPE_CHECKING:
    from collections.abc import Sequence

    from paw.supervisor.model import LivePrompt


class PromptQueue(KeyedTable):
    """Live prompts, oldest first. Row keys are prompt ids."""

    COLUMNS = (
        ("agent", "Agent"),
        ("kind", "Kind"),
        ("subject", "Subject"),
        ("verdict", "Verdict"),
        ("age", "Age"),
    )

    def show_prompts(self, prompts: Sequence[LivePrompt], now: float) -> None:
        """Show ``prompts``; ages are measured against ``now``."""
        rows: list[Row] = [
            (
                p.id,
                (
                    p.agent,
                    p.prompt.kind.value,
                    shorten(p.prompt.subject or p.prompt.question, 26),
                    format_verdict(p, 26),
                    format_duration(now - p.first_seen),
                ),
            )
            for p in sort_prompts(prompts)
        ]
        self.show_rows(rows)


class PromptCard(QuietStatic):
    """The selected prompt in full: question, subject, verdict with every reason, keys."""

    def show_prompt(self, prompt: LivePrompt | None) -> None:
        """Describe ``prompt`` (or say that nothing waits)."""
        self.show(render_prompt_card(prompt))


def render_prompt_card(prompt: LivePrompt | None) -> Text:
    """The text of a :class:`PromptCard`."""
    if prompt is None:
        return Text("No prompt waiting.", style="dim")
    action = prompt.verdict.action
    text = Text()
    text.append(f"{prompt.agent}", style="bold")
    text.append(f" ({prompt.kind}) asks: {prompt.prompt.question}\n")
    if prompt.prompt.subject:
        text.append(f"{prompt.prompt.kind.value}: ", style="dim")
        text.append(f"{prompt.prompt.subject}\n", style="bold")
    text.append(action.value, style=VERDICT_STYLE[action])
    rules = ", ".join(prompt.verdict.rules)
    if rules:
        text.append(f" [{rules}]", style="dim")
    for reason in prompt.verdict.reasons:
        text.append(f"\n  • {reason}")
    if not prompt.prompt.approve_keys:
        text.append("\nNot approvable with a key: attach to answer it.", style="italic")
    return text
