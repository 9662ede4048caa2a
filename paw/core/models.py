"""Frozen value types shared by detection, the guard and the supervisor.

Hot-path values are ``dataclass(frozen=True, slots=True)``: cheap to build on every sweep.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Action(StrEnum):
    """The guard's three outcomes, ordered by severity."""

    ALLOW = "allow"
    CONFIRM = "confirm"
    BLOCK = "block"

    @property
    def severity(self) -> int:
        """0 for allow, 1 for confirm, 2 for block."""
        return _SEVERITY[self]


_SEVERITY = {Action.ALLOW: 0, Action.CONFIRM: 1, Action.BLOCK: 2}


@dataclass(frozen=True, slots=True)
class Finding:
    """One rule that fired: its stable id, its action and a human-readable reason."""

    rule: str
    action: Action
    reason: str


@dataclass(frozen=True, slots=True)
class Verdict:
    """The guard's decision on one command, path or prompt.

    ``action`` is the most severe of ``findings`` (``allow`` when there are none).
    ``rule`` is the id of the first most-severe finding, for display.
    """

    action: Action
    findings: tuple[Finding, ...] = ()

    @property
    def reasons(self) -> tuple[str, ...]:
        """Human-readable reasons, most severe first."""
        return tuple(f.reason for f in self._ordered())

    @property
    def rules(self) -> tuple[str, ...]:
        """Stable rule ids (see docs/guardrails.md), most severe first, without repeats."""
        seen: dict[str, None] = {}
        for f in self._ordered():
            seen.setdefault(f.rule, None)
        return tuple(seen)

    @property
    def rule(self) -> str | None:
        """The id of the deciding rule, or None for a plain allow."""
        ordered = self._ordered()
        return ordered[0].rule if ordered else None

    def _ordered(self) -> list[Finding]:
        return sorted(self.findings, key=lambda f: -f.action.severity)

    @classmethod
    def from_findings(cls, findings: tuple[Finding, ...] | list[Finding]) -> Verdict:
        """Build a verdict whose action is the most severe finding's."""
        found = tuple(findings)
        action = max((f.action for f in found), key=lambda a: a.severity, default=Action.ALLOW)
        return cls(action=action, findings=found)

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready mapping: ``verdict``, ``reasons``, ``rules``."""
        return {
            "verdict": self.action.value,
            "reasons": list(self.reasons),
            "rules": list(self.rules),
        }


class PromptKind(StrEnum):
    """What a live prompt asks for."""

    SHELL = "shell"
    EDIT = "edit"
    WRITE = "write"
    FETCH = "fetch"
    MCP = "mcp"
    TRUST = "trust"
    QUESTION = "question"
    OTHER = "other"


class DetectionState(StrEnum):
    """What an agent's pane shows right now."""

    PROMPT = "prompt"
    BUSY = "busy"
    IDLE = "idle"
    UNKNOWN = "unknown"


_DIALOG_KINDS = frozenset({PromptKind.TRUST, PromptKind.QUESTION})


@dataclass(frozen=True, slots=True)
class Prompt:
    """A live prompt at the live position of an agent's UI.

    ``approve_keys`` etc. are tmux key names for one ``send-keys`` call. Empty ``approve_keys``
    means paw must not approve it with a generic key (a question or picker).
    """

    kind: PromptKind
    subject: str | None
    question: str
    approve_keys: tuple[str, ...]
    deny_keys: tuple[str, ...]
    fingerprint: str
    always_keys: tuple[str, ...] | None = None
    options: tuple[str, ...] = ()
    dialog: bool = False  # a dialog, not a tool permission (set by paw.core.detect.dialogs)

    @property
    def needs_human(self) -> bool:
        """A dialog only a human can answer, not a plain tool permission: folder trust,
        sign-in, an agent's question or picker (no generic approve). The agent is shown as
        ``waiting``, and a generic approve key is never sent to it."""
        return self.dialog or self.kind in _DIALOG_KINDS or not self.approve_keys


@dataclass(frozen=True, slots=True)
class PromptSource:
    """Where a prompt came from (issue 32): the screen alone (``screen``: the agent has no
    channel), or the fusion of the agent's channel with its screen, named by
    :class:`paw.core.channels.fuse.Fusion` (``agree``, ``channel-only``, ``screen-only``,
    ``disagree``). A disagreement carries both subjects: the channel's exact input and what
    the screen draws."""

    name: str = "screen"
    request_id: str | None = None  # the channel's request id (agree, channel-only, disagree)
    channel_subject: str | None = None  # the channel's exact input
    screen_subject: str | None = None  # the subject the screen draws
    reason: str = ""  # why they disagree, or what the fusion rests on

    def to_dict(self) -> dict[str, object]:
        """The fields ``paw prompts --json`` adds to each prompt."""
        return {
            "source": self.name,
            "channel_request": self.request_id,
            "channel_subject": self.channel_subject,
            "screen_subject": self.screen_subject,
            "source_reason": self.reason or None,
        }


SCREEN_SOURCE = PromptSource()


@dataclass(frozen=True, slots=True)
class Detection:
    """The detector's answer for one screen."""

    state: DetectionState
    agent: str
    prompt: Prompt | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    source: PromptSource = SCREEN_SOURCE  # where its prompt came from (set by the channel's fusion)
