"""Structured prompt channels: what an agent itself says it is asking (pure types and logic).

An agent with a channel (a hook it runs, a server beside its TUI) tells paw that a permission
request is pending, with the exact tool input, and some accept the answer bound to that request.
A channel is a *claim* written from inside the agent's process tree, never proof on its own: the
screen stays the cross-check (see docs/architecture.md, "Two sources").
"""

from __future__ import annotations

from paw.core.channels.request import ChannelAnswer, ChannelRequest, ChannelState

__all__ = ["ChannelAnswer", "ChannelRequest", "ChannelState"]
