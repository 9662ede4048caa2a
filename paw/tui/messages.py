"""App-wide messages posted from worker threads (``post_message`` is thread-safe)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

from paw.supervisor.details import AgentDetails

__all__ = [
    "ActionFailed",
    "AgentDetails",
    "DecisionMade",
    "DecisionRequest",
    "DetailsRead",
    "PanesPolled",
    "PollFailed",
]

if TYPE_CHECKING:
    from paw.core.wave_view import WaveReading
    from paw.supervisor.model import Decision, Snapshot


@dataclass(frozen=True, slots=True)
class DecisionRequest:
    """One human decision on one live prompt, as sent to the supervisor."""

    prompt_id: str
    agent: str
    deny: bool = False
    always: bool = False
    confirmed: bool = False
    override: str | None = None


class PanesPolled(Message):
    """A sweep finished. A newer sweep replaces an unprocessed older one (no flooding)."""

    def __init__(
        self,
        snapshot: Snapshot,
        details: AgentDetails | None = None,
        audit: list[dict[str, object]] | None = None,
        *,
        wave: WaveReading | None = None,
        waves: bool = False,
        early: bool = False,
    ) -> None:
        super().__init__()
        self.snapshot = snapshot
        self.details = details
        self.audit = audit
        self.wave = wave  # the latest wave (None: there is none)
        self.waves = waves  # whether waves were looked for at all
        # a channel-only look's picture (paw.supervisor.feed.Picture.early): no sweep's, so
        # handling it acknowledges no push of a sweeper's
        self.early = early

    def can_replace(self, message: Message) -> bool:
        """Drop a stale, unhandled sweep in favour of this one (an early look replaces only
        an early look: the sweep's picture it would drop is the one a sweeper waits to hear
        was handled)."""
        return isinstance(message, PanesPolled) and (message.early or not self.early)


class DetailsRead(Message):
    """The selected agent's pane preview (and maybe diff), read after its sweep's picture."""

    def __init__(self, details: AgentDetails) -> None:
        super().__init__()
        self.details = details

    def can_replace(self, message: Message) -> bool:
        """A newer preview replaces an unhandled older one unless that one carries a diff
        this one lacks (the diff is read less often)."""
        return isinstance(message, DetailsRead) and (
            self.details.diff is not None or message.details.diff is None
        )


class PollFailed(Message):
    """A sweep raised; ``tmux_lost`` when the error is tmux's."""

    def __init__(self, error: str, *, tmux_lost: bool) -> None:
        super().__init__()
        self.error = error
        self.tmux_lost = tmux_lost

    def can_replace(self, message: Message) -> bool:
        """Repeated failures coalesce into the newest one."""
        return isinstance(message, PollFailed)


class DecisionMade(Message):
    """The supervisor answered a :class:`DecisionRequest`."""

    def __init__(self, request: DecisionRequest, decision: Decision) -> None:
        super().__init__()
        self.request = request
        self.decision = decision


class ActionFailed(Message):
    """A supervisor operation started by the human failed (refusal, tmux error, …)."""

    def __init__(self, what: str, error: str) -> None:
        super().__init__()
        self.what = what
        self.error = error
