"""Fuse an agent's channel with its screen: which source a prompt rests on and what it allows.

Four outcomes (issue 32; docs/architecture.md, "Two sources"):

- ``AGREE``: one pending channel request and a live screen prompt whose subject is a rendering of
  the channel's exact input (cut or wrapped as the agent draws it). Approvable; the guard judges
  the channel's exact input, so a wrapped field no longer forces ``confirm``.
- ``CHANNEL_ONLY``: one pending request, no prompt readable on the screen (an unknown layout, a
  narrow tile). Answerable through the channel only, never by keys.
- ``SCREEN_ONLY``: a live screen prompt, the channel said nothing. As today (keys, today's proof),
  marked so the human knows.
- ``DISAGREE``: the channel and the screen differ, or two claims are pending at once. Shown with
  both; never approved by one key or by a standing rule.
- ``ANSWERED``: paw answered a request through the channel moments ago; a dialog still drawn is
  the agent taking that answer, never a prompt to answer again (by keys or otherwise).

Pure: no clock, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from paw.core.channels.request import ChannelRequest, ChannelState
from paw.core.detect import is_unrecognised_dialog
from paw.core.detect.prompts import INCOMPLETE_NOTE_PREFIX, WRAP_NOTE
from paw.core.models import Detection, DetectionState, Prompt, PromptKind, PromptSource


class Fusion(StrEnum):
    """Which sources a prompt rests on."""

    NONE = "none"  # no prompt on either
    AGREE = "agree"
    CHANNEL_ONLY = "channel-only"
    SCREEN_ONLY = "screen-only"
    DISAGREE = "disagree"
    ANSWERED = "answered"  # paw answered through the channel; the agent is taking it


@dataclass(frozen=True, slots=True)
class Fused:
    """One agent's prompt as both sources tell it."""

    fusion: Fusion
    detection: Detection
    request: ChannelRequest | None = None
    reason: str = ""
    others: tuple[ChannelRequest, ...] = ()  # further pending claims (DISAGREE)

    @property
    def keys_allowed(self) -> bool:
        """Keys may answer (with today's proof before send): the screen shows the prompt and
        nothing contradicts it. Never for channel-only or disagreeing prompts."""
        return self.fusion in (Fusion.AGREE, Fusion.SCREEN_ONLY)

    @property
    def channel_allowed(self) -> bool:
        """An answer may go through the channel, bound to the request id."""
        return (
            self.fusion in (Fusion.AGREE, Fusion.CHANNEL_ONLY)
            and self.request is not None
            and self.request.can_answer
        )

    @property
    def rules_allowed(self) -> bool:
        """A standing rule (a wave's, an ``always``) may approve it, if the guard allows the
        judged input: never a disagreeing prompt; a channel-only one only through the channel."""
        if self.fusion is Fusion.SCREEN_ONLY:
            return True
        return self.channel_allowed

    @property
    def judged(self) -> Prompt | None:
        """The prompt the guard judges: the channel's exact input where the channel carries it
        (AGREE, CHANNEL_ONLY), the screen's where only it does, nothing for DISAGREE."""
        prompt = self.detection.prompt
        if self.fusion is Fusion.SCREEN_ONLY:
            return prompt
        if self.fusion not in (Fusion.AGREE, Fusion.CHANNEL_ONLY) or self.request is None:
            return None
        req = self.request
        if prompt is not None and self.fusion is Fusion.AGREE:
            return replace(prompt, kind=req.kind, subject=req.subject)
        return Prompt(
            kind=req.kind,
            subject=req.subject,
            question=f"{req.tool} (from the agent's channel)",
            approve_keys=(),
            deny_keys=(),
            fingerprint=f"channel:{req.source}:{req.request_id}",
        )

    @property
    def judged_notes(self) -> tuple[str, ...]:
        """The detector's notes the guard should see: a channel's exact input was not joined
        from screen rows nor cut by the agent's drawing, so the wrap and incomplete-subject
        notes no longer apply to it."""
        notes = self.detection.notes
        if self.fusion in (Fusion.AGREE, Fusion.CHANNEL_ONLY):
            drop = (_WRAP_PREFIX, INCOMPLETE_NOTE_PREFIX)
            return tuple(n for n in notes if not n.startswith(drop))
        return notes

    @property
    def source(self) -> PromptSource:
        """Where the prompt came from, as ``paw prompts`` and the TUI say it, and as the
        occurrence is bound: the fusion's name, the request id, and both subjects (the
        channel's exact input, the screen's drawing; a disagreement shows both)."""
        req, prompt = self.request, self.detection.prompt
        shown = (
            prompt.subject
            if prompt is not None and self.fusion is not Fusion.CHANNEL_ONLY
            else None
        )
        return PromptSource(
            name=self.fusion.value,
            request_id=req.request_id if req is not None else None,
            channel_subject=req.subject if req is not None else None,
            screen_subject=shown,
            reason=self.reason,
        )


# How the plain table and the TUI name a prompt's source, compactly.
SOURCE_LABELS = {
    "screen": "screen",
    Fusion.AGREE.value: "both",
    Fusion.CHANNEL_ONLY.value: "channel",
    Fusion.SCREEN_ONLY.value: "screen-only",
    Fusion.DISAGREE.value: "DISAGREE",
}


def source_label(source: PromptSource) -> str:
    """The compact name of ``source`` (``both``: the channel and the screen agree)."""
    return SOURCE_LABELS.get(source.name, source.name)


def source_text(source: PromptSource) -> str:
    """One line saying where the prompt came from ('' for the screen of an agent with no
    channel: as before channels); a disagreement names both subjects."""
    rid = f" (request {source.request_id})" if source.request_id else ""
    if source.name == Fusion.AGREE.value:
        return f"from the agent's channel{rid}, and the screen agrees"
    if source.name == Fusion.CHANNEL_ONLY.value:
        return (
            f"from the agent's channel only{rid}: the screen shows no prompt paw can read; "
            "answered through the channel, never by keys"
        )
    if source.name == Fusion.SCREEN_ONLY.value:
        return "from the screen only: the agent's channel said nothing"
    if source.name == Fusion.DISAGREE.value:
        return (
            f"the channel and the screen disagree{rid}: the channel asks "
            f"{source.channel_subject!r}, the screen shows {source.screen_subject!r}"
            + (f" ({source.reason})" if source.reason else "")
        )
    return ""


_WRAP_PREFIX = WRAP_NOTE.split(":", 1)[0]

# Screen kinds a channel request of a given kind may be drawn as.
_COMPATIBLE: dict[PromptKind, frozenset[PromptKind]] = {
    PromptKind.EDIT: frozenset({PromptKind.EDIT, PromptKind.WRITE}),
    PromptKind.WRITE: frozenset({PromptKind.EDIT, PromptKind.WRITE}),
}


def fuse(detection: Detection, requests: Sequence[ChannelRequest]) -> Fused:
    """Fuse one agent's screen ``detection`` with its channel's ``requests``."""
    pending = [r for r in requests if r.state is ChannelState.PENDING]
    prompt = detection.prompt if detection.state is DetectionState.PROMPT else None
    answered = [r for r in requests if r.state is ChannelState.RESOLVED]
    if answered:
        why = f"request {answered[0].request_id} was answered through the channel"
        return Fused(Fusion.ANSWERED, detection, answered[0], why, tuple(pending))
    if len(pending) > 1:
        first, *rest = pending
        why = f"{len(pending)} requests claimed at once by the channel"
        return Fused(Fusion.DISAGREE, detection, first, why, tuple(rest))
    if not pending:
        if prompt is None:
            return Fused(Fusion.NONE, detection)
        return Fused(Fusion.SCREEN_ONLY, detection, None, "the channel said nothing")
    req = pending[0]
    if prompt is None:
        return Fused(Fusion.CHANNEL_ONLY, detection, req, "the screen shows no readable prompt")
    if is_unrecognised_dialog(detection):  # a dialog the agent's detector cannot read
        why = "the screen shows a dialog paw cannot read"
        return Fused(Fusion.CHANNEL_ONLY, detection, req, why)
    why = disagreement(req, prompt)
    if why:
        return Fused(Fusion.DISAGREE, detection, req, why)
    return Fused(Fusion.AGREE, detection, req)


def disagreement(req: ChannelRequest, prompt: Prompt) -> str:
    """Why the screen's ``prompt`` is not a rendering of the channel's request ('' if it is)."""
    if prompt.needs_human and prompt.kind in (PromptKind.TRUST, PromptKind.QUESTION):
        return f"the screen shows a {prompt.kind} dialog, the channel a {req.tool} request"
    if prompt.kind is not req.kind and prompt.kind not in _COMPATIBLE.get(req.kind, frozenset()):
        return f"the screen asks for {prompt.kind}, the channel for {req.kind} ({req.tool})"
    if req.subject is None or prompt.subject is None:
        if req.subject is None and prompt.subject is None:
            return ""
        return "only one of the two names what it would do"
    if is_rendering(prompt.subject, req.subject, path=req.kind in _PATH_KINDS):
        return ""
    return "the screen's subject is not a rendering of the channel's exact input"


_PATH_KINDS = frozenset({PromptKind.EDIT, PromptKind.WRITE})
_SPACE = re.compile(r"\s+")
_ELLIPSES = ("…", "...")


def is_rendering(shown: str, exact: str, *, path: bool = False) -> bool:
    """Whether ``shown`` (joined from screen rows) is ``exact`` as an agent draws it: wrapped
    (whitespace differs), cut with an ellipsis (the kept pieces in order, the first at the
    start), or, for a path, shown relative (``exact`` ends with it at a ``/``)."""
    a, b = _SPACE.sub("", shown), _SPACE.sub("", exact)
    if not a:
        return False
    if a == b:
        return True
    if path and b.endswith("/" + a.lstrip("./")):
        return True
    return any(mark in a and _pieces_in_order(a.split(mark), b) for mark in _ELLIPSES)


def _pieces_in_order(pieces: list[str], text: str) -> bool:
    if not any(pieces):
        return False
    at = 0
    for n, piece in enumerate(pieces):
        if not piece:
            continue
        found = text.find(piece, at)
        if found < 0 or (n == 0 and found != 0):
            return False
        if n == len(pieces) - 1 and not text.endswith(piece):
            return False
        at = found + len(piece)
    return True
