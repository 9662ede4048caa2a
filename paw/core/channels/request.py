"""The one shape every channel's pending request takes, whatever carried it.

Each channel (``paw.adapters.channels.<source>``) parses its agent's own payload into a
``ChannelRequest``; the supervisor fuses it with the screen's ``Detection`` of the same agent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from paw.core.models import PromptKind


class ChannelState(StrEnum):
    """Where a channel's request stands, as the channel reports it."""

    PENDING = "pending"  # the agent holds the request open
    RESOLVED = "resolved"  # answered (by paw through the channel, or at the pane)
    TIMED_OUT = "timed-out"  # the channel gave up waiting (the agent may show its dialog)


class ChannelAnswer(StrEnum):
    """An answer bound to one request."""

    ALLOW = "allow"  # this once
    ALWAYS = "always"  # this and alike, for the session (only where the channel offers it)
    DENY = "deny"


@dataclass(frozen=True, slots=True)
class ChannelRequest:
    """One permission request an agent reported through its channel.

    ``subject`` is the exact input the guard judges (the whole command, the path, the URL), never
    a rendering of it. ``raw`` is the tool input as the agent sent it. ``can_answer`` is true only
    where an answer reaches this request and nothing else (the agent holds it open).
    ``observe_only`` marks a claim no live process vouches for.
    """

    agent: str  # paw's agent name the channel was wired for at spawn
    source: str  # the channel: "claude-hook", "opencode-server", ...
    request_id: str  # the agent's id, or one paw's channel minted for it
    tool: str  # the agent's own tool name ("Bash", "edit", ...)
    kind: PromptKind
    subject: str | None
    raw: Mapping[str, object] = field(default_factory=dict)
    state: ChannelState = ChannelState.PENDING
    can_answer: bool = False
    seen_at: float = 0.0  # wall clock when paw first read it
    # A claim paw cannot tie to a live writer (Gemini's notification hook has exited before its
    # dialog is drawn): it may name the screen's prompt, never stand for one (no channel-only
    # listing) nor lift the screen's verdict (see paw.core.channels.fuse).
    observe_only: bool = False
