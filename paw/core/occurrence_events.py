"""The events that move a prompt occurrence through :func:`paw.core.occurrence.step`, the
effects it hands back, and the process identity they carry. Pure values; the machine and the
record live in :mod:`paw.core.occurrence`, which re-exports every name here."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class ProcIdentity(BaseModel):
    """One process, identified across pid reuse by its start time."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    pid: int
    create_time: float
    exe: str = ""  # the executable, when known (a process that exec'd another is not the same)


# -- events ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seen:
    """A sweep sees a prompt no watched occurrence matches: a new occurrence (its id chosen
    by the caller, unique in the table)."""

    id: str
    agent: str
    kind: str
    pane_id: str
    fingerprint: str
    prompt_kind: str
    subject: str | None
    question: str
    proc: ProcIdentity
    server: str


@dataclass(frozen=True, slots=True)
class SeenAgain:
    """A sweep of the occurrence's agent still shows it."""

    sender_running: bool = False  # the paw process recorded as sending still runs
    host_readable: bool = True  # the agent's tmux server answered the sweep


@dataclass(frozen=True, slots=True)
class Gone:
    """A sweep of the occurrence's agent no longer shows it."""

    sender_running: bool = False
    host_readable: bool = True
    agent_alive: bool = True  # the agent's process still runs
    client_attached: bool = False  # a terminal is attached to the agent's pane


@dataclass(frozen=True, slots=True)
class Decided:
    """A human's decision to send keys, proven and guarded, recorded before they go."""

    action: str  # approve / deny
    sender: ProcIdentity | None  # the paw process that sends
    user: str


class Delivery(StrEnum):
    """What became of keys handed to the terminal."""

    SENT = "sent"  # the terminal took them (verification follows)
    FAILED = "failed"  # the terminal failed: they may or may not have reached the agent
    UNKNOWN = "unknown"  # handed to a host's link that dropped before the host answered


@dataclass(frozen=True, slots=True)
class KeysSent:
    """The decided keys were handed to the terminal (the sender's word: whatever a sweep
    concluded meanwhile, the occurrence had keys sent)."""

    action: str
    user: str
    delivery: Delivery = Delivery.SENT


@dataclass(frozen=True, slots=True)
class Verified:
    """The sender watched the screen after the keys (cleared, or still shown: either way
    the occurrence is answered)."""

    action: str
    user: str


@dataclass(frozen=True, slots=True)
class ChannelRequested:
    """The agent's channel holds ``request_id`` open for this occurrence with its exact input
    (a sweep, or approve's proof capture, read it fused with the screen as ``source``)."""

    request_id: str
    source: str  # the fusion: agree / channel-only / disagree
    subject: str | None  # the channel's exact input


@dataclass(frozen=True, slots=True)
class ChannelResolved:
    """The agent took an answer to the request: paw's through the channel (the sender's word:
    ``action`` and ``user``), or, as a sweep reads the channel (``action`` None), an answer
    paw gave and whose sender is to be reconciled, or one given outside paw."""

    request_id: str
    action: str | None = None
    user: str = ""
    sender_running: bool = False  # (action None) the paw process recorded as sending runs


@dataclass(frozen=True, slots=True)
class ChannelTimedOut:
    """The channel gave up waiting on the request (the agent may draw its dialog; an answer
    through the channel no longer reaches it). The sender's word (``action``): its answer was
    not taken in time."""

    request_id: str
    action: str | None = None
    user: str = ""


@dataclass(frozen=True, slots=True)
class ChannelWithdrawn:
    """The request is no longer held open (answered at the pane or by another process, or the
    agent dropped it). The sender's word (``action``): the channel refused its answer."""

    request_id: str
    action: str | None = None
    user: str = ""


ChannelEvent = ChannelRequested | ChannelResolved | ChannelTimedOut | ChannelWithdrawn
Event = Seen | SeenAgain | Gone | Decided | KeysSent | Verified | ChannelEvent
"""Everything that moves an occurrence. New events join here (see the module docstring)."""


# -- effects -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NoteSeen:
    """Audit "prompt-seen" (with the guard's verdict, which the caller has), not fsync'd."""


@dataclass(frozen=True, slots=True)
class NoteEnded:
    """Audit "prompt-ended" outside paw, not fsync'd."""

    client_attached: bool
    reason: str = "the prompt went away while paw sent nothing"


@dataclass(frozen=True, slots=True)
class RecordOutcome:
    """Audit the outcome of an earlier decision (fsync'd): ``action`` is that decision's."""

    action: str | None
    outcome: str  # a paw.supervisor.model.Outcome value
    reason: str
    confirmed: str | None = None


Effect = NoteSeen | NoteEnded | RecordOutcome
Effects = tuple[Effect, ...]
