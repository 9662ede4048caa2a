"""Typing a line into an agent's input: the only place paw types free text (send, typed tasks)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paw.supervisor.context import Context

ENTER = "Enter"
ECHO_TIMEOUT_S = 2.0  # how long to wait for the typed text to show before pressing Enter
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
    for _ in range(int(ECHO_TIMEOUT_S / POLL_S) if tail else 0):
        captures = ctx.terminal.sweep([pane_id])
        screen = " ".join((captures[0].text or "").split()) if captures else ""
        if tail in screen:
            break
        ctx.sleep(POLL_S)
    ctx.sleep(SETTLE_S)
