"""Typing a line into an agent's input: the only place paw types free text (send, typed tasks)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.supervisor.waiting import poll

if TYPE_CHECKING:
    from paw.supervisor.context import Context

ENTER = "Enter"
ECHO_TIMEOUT_S = 10.0  # wall clock: how long the typed text may take to show before Enter
POLL_S = 0.05
SETTLE_S = 0.15  # after the echo: longer than a terminal's paste-detection window


def type_line(ctx: Context, pane_id: str, text: str) -> None:
    """Type ``text`` literally, wait until the pane shows it, then press Enter.

    Some agents (codex) read a burst of text followed at once by Enter as a paste and keep the
    Enter as a newline in their input; an Enter sent after the echo submits the line.
    """
    ctx.terminal.send_text(pane_id, text)
    _await_echo(ctx, pane_id, text)
    ctx.terminal.send_keys(pane_id, (ENTER,))


def _await_echo(ctx: Context, pane_id: str, text: str) -> None:
    tail = " ".join(text.split())[-24:]

    def echoed() -> bool | None:
        captures = ctx.terminal.sweep([pane_id])
        screen = " ".join((captures[0].text or "").split()) if captures else ""
        return True if tail in screen else None

    if tail:
        poll(ctx, ECHO_TIMEOUT_S, POLL_S, echoed)
    ctx.sleep(SETTLE_S)
