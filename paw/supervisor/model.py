"""What the supervisor shows to its front ends (CLI, TUI): frozen snapshots and outcomes.

The TUI depends only on these types and on :class:`SupervisorApi`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from paw.core.models import (
    SCREEN_SOURCE,
    DetectionState,
    Prompt,
    PromptKind,
    PromptSource,
    Verdict,
)

# The sources whose prompt the agent's channel answers (:class:`paw.core.channels.fuse.Fusion`)
CHANNEL_ANSWERS = frozenset({"agree", "channel-only"})
PANE_KINDS = frozenset({PromptKind.TRUST, PromptKind.QUESTION})  # dialogs, whatever the source

LOCAL_HOST = "local"  # the host name of this machine's agents when paw also drives hosts


def pane_key(host: str | None, pane_id: str) -> str:
    """A pane's name in the pane events of every machine: its tmux id (``%3``) on this machine,
    ``HOST:%3`` on a host (each host's tmux server numbers its panes from ``%0`` too).

    >>> pane_key(None, "%3"), pane_key("local", "%3"), pane_key("build", "%3")
    ('%3', '%3', 'build:%3')
    """
    return pane_id if host in (None, LOCAL_HOST) else f"{host}:{pane_id}"


class AgentStatus(StrEnum):
    """An agent's life as paw sees it."""

    BUSY = "busy"
    PROMPT = "prompt"
    WAITING = "waiting"  # a dialog only a human can answer (trust, sign-in, a question)
    IDLE = "idle"
    UNKNOWN = "unknown"
    EXITED = "exited"  # the pane is gone, or its agent process is no longer running
    LOST = "lost"  # no tmux server answers: paw cannot tell whether the agent runs
    SERVER_RESTARTED = "server-restarted"  # its pane was on a tmux server that is gone
    REPLACED = "replaced"  # its pane runs a process paw did not launch (`paw adopt` binds it)


@dataclass(frozen=True, slots=True)
class WorktreeStat:
    """Counts for an agent's worktree. ``counted`` is False when paw has no count to show
    (not counted yet, git could not count it, an adopted agent, a host out of reach): the
    zeros then mean nothing, never "clean"."""

    uncommitted: int = 0
    untracked: int = 0
    ahead: int = 0
    behind: int = 0
    insertions: int = 0
    deletions: int = 0
    counted: bool = True


@dataclass(frozen=True, slots=True)
class AgentView:
    """One supervised agent in a snapshot."""

    name: str
    kind: str
    pane_id: str | None
    # True: its pane runs the agent; False: it does not; None: unknown (its tmux server or its
    # host cannot be reached)
    alive: bool | None
    status: AgentStatus
    status_since: float  # epoch seconds when the status last changed
    branch: str
    worktree: str
    stat: WorktreeStat
    task: str | None = None
    # why the agent is not running ("tmux server restarted"), or the dialog it waits on
    note: str | None = None
    # an operation another paw process is carrying out on it right now: "spawning",
    # "removing", "approving" or "denying" (keys being sent), or "reconciling" (keys sent to it
    # over a host's link that dropped: their delivery is unknown); None when there is none
    operation: str | None = None
    host: str | None = None  # the machine it runs on, when paw drives hosts (`paw host add`)
    # the agent runs a version other than the one paw's detection was verified with (said once
    # per agent where its prompts could otherwise be missed silently); None when they agree
    version_note: str | None = None

    @property
    def event_key(self) -> str | None:
        """Its pane's name in pane events (:func:`pane_key`); None without a pane."""
        return None if self.pane_id is None else pane_key(self.host, self.pane_id)


def only_in_the_pane(prompt: Prompt, source: PromptSource) -> bool:
    """A dialog only a human can answer, in the agent's pane (:attr:`Prompt.needs_human`),
    but for a tool request the agent's channel carries (``agree``, ``channel-only``): paw
    answers that through the channel, so the keys it lacks (a hook's request draws no dialog)
    do not make it a dialog. A folder trust or a question stays the pane's."""
    by_channel = source.name in CHANNEL_ANSWERS and source.request_id is not None
    if by_channel and not prompt.dialog and prompt.kind not in PANE_KINDS:
        return False
    return prompt.needs_human


@dataclass(frozen=True, slots=True)
class LivePrompt:
    """A live prompt the human can decide on, with the guard's verdict on its subject."""

    id: str  # short: one occurrence of a prompt (asked again after an answer: a new id)
    agent: str  # agent name
    kind: str  # agent kind (claude-code, …)
    pane_id: str
    prompt: Prompt
    verdict: Verdict
    first_seen: float  # epoch seconds
    source: PromptSource = SCREEN_SOURCE  # the screen, the agent's channel, or both (issue 32)

    @property
    def only_in_the_pane(self) -> bool:
        """A dialog only a human can answer, in the agent's pane (:attr:`Prompt.needs_human`),
        but for a tool request the agent's channel carries (``agree``, ``channel-only``): paw
        answers that through the channel, so the keys it lacks (a hook's request draws no
        dialog) do not make it a dialog. A folder trust or a question stays the pane's."""
        return only_in_the_pane(self.prompt, self.source)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One sweep's picture."""

    taken_at: float
    agents: tuple[AgentView, ...]
    prompts: tuple[LivePrompt, ...]
    tmux_ok: bool = True
    error: str | None = None
    # CPU seconds the sweep took in the thread that made it (a TUI paces its sweeps by it;
    # not part of the picture: two sweeps of one screen are the same picture)
    cpu_s: float = field(default=0.0, compare=False)


class Outcome(StrEnum):
    """What an approval or denial did."""

    SENT = "sent"  # keys sent and the prompt cleared or changed
    SENT_UNCONFIRMED = "sent-unconfirmed"  # keys sent, prompt still shown afterwards
    NOT_SENT = "not-sent"  # a decision paw recorded but stopped before sending (reconciled)
    INTERRUPTED = "interrupted"  # paw stopped while sending: keys may or may not have gone
    # the keys were handed to a host's link and it dropped before the host answered: they may
    # have reached the agent; reconciled from the host's screen once it answers again
    DELIVERY_UNKNOWN = "delivery-unknown"
    NOT_DELIVERED = "not-delivered"  # reconciled: the prompt was still shown on reconnect
    REFUSED = "refused"  # nothing sent; see reason
    NEEDS_CONFIRMATION = "needs-confirmation"  # verdict is confirm and confirmed=False
    NEEDS_OVERRIDE = "needs-override"  # verdict is block and no override reason given


@dataclass(frozen=True, slots=True)
class Decision:
    """The result of ``approve``/``deny``."""

    outcome: Outcome
    prompt_id: str
    reason: str
    verdict: Verdict | None = None
    keys: tuple[str, ...] = ()
    confirmation: str | None = None  # text to show before a confirm-verdict approval


class SupervisorApi(Protocol):
    """The operations front ends use. Every key ever sent goes through approve/deny/send."""

    def poll_once(self) -> Snapshot:
        """Sweep every supervised pane once (one batched tmux call) and return the picture."""
        ...

    def approve(
        self,
        prompt_id: str,
        *,
        always: bool = False,
        confirmed: bool = False,
        override: str | None = None,
    ) -> Decision:
        """Re-verify, record, then send the approve keys of a live prompt."""
        ...

    def deny(self, prompt_id: str) -> Decision:
        """Re-verify, record, then send the deny keys of a live prompt."""
        ...

    def capture_ansi(self, agent: str) -> str:
        """The agent pane's visible screen with colours (for previews)."""
        ...

    def diff(self, agent: str) -> str:
        """``git diff`` of the agent's worktree against its base (for the diff view)."""
        ...

    def audit_tail(self, n: int) -> list[dict[str, object]]:
        """The last ``n`` audit records."""
        ...

    def spawn(self, name: str, kind: str, task: str | None) -> AgentView:
        """Create a worktree and a pane and launch the agent."""
        ...

    def send(self, agent: str, text: str) -> None:
        """Type ``text`` literally into the agent's input and press Enter."""
        ...

    def stop(self, agent: str) -> None:
        """End the agent and its pane; keep the work."""
        ...

    def remove(self, agent: str, *, force: bool = False) -> str:
        """Remove worktree and branch (refuses unsaved work unless forced, then snapshots)."""
        ...


__all__ = [
    "AgentStatus",
    "AgentView",
    "Decision",
    "DetectionState",
    "LivePrompt",
    "Outcome",
    "Snapshot",
    "SupervisorApi",
    "WorktreeStat",
]
