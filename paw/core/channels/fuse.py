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

An *observe-only* claim (``ChannelRequest.observe_only``: Gemini's notification hook, which has
exited before its dialog is drawn, so no live process vouches for its record) never stands for a
prompt: without a screen prompt it is ignored. With one:

- ``OBSERVED``: it names the screen's prompt (a rendering of its input, cut or wrapped). The
  prompt carries the claim's whole input as its subject and is answered by keys with the screen's
  proof; where the screen does not show that input whole, the guard's verdict is never better
  than ``confirm`` (an unproven claim must not lift a cut or joined subject to ``allow``).
- ``DISPUTED``: it names something else. The screen's prompt stands (its subject, keys with the
  screen's proof), judged never better than ``confirm``, both shown, no standing rule.

A screen subject a detector marks incomplete (cut) agrees with an exact input it is the start
of: the channel supplies the whole.

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
    OBSERVED = "observed"  # an observe-only claim names the screen's prompt (keys, screen proof)
    DISPUTED = "disputed"  # an observe-only claim names something else: the screen stands


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
        nothing contradicts it. Never for channel-only or disagreeing prompts; an observe-only
        claim (observed, disputed) leaves the screen's proof as the only one."""
        return self.fusion in (Fusion.AGREE, Fusion.SCREEN_ONLY, Fusion.OBSERVED, Fusion.DISPUTED)

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
        judged input: never a disagreeing prompt; a channel-only one only through the channel;
        an observed one as the screen's (its verdict never better than the screen shows)."""
        if self.fusion in (Fusion.SCREEN_ONLY, Fusion.OBSERVED):
            return True
        return self.channel_allowed

    @property
    def judged(self) -> Prompt | None:
        """The prompt the guard judges: the channel's exact input where the channel carries it
        (AGREE, CHANNEL_ONLY), the screen's where only it does, nothing for DISAGREE."""
        prompt = self.detection.prompt
        if self.fusion is Fusion.SCREEN_ONLY:
            return prompt
        if self.fusion in (Fusion.OBSERVED, Fusion.DISPUTED):
            return self._observed(prompt)
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

    def _observed(self, prompt: Prompt | None) -> Prompt | None:
        """The screen's prompt named by an observe-only claim: its whole input as the subject
        (OBSERVED) or as the screen draws it (DISPUTED); bound to the claim's id, so a claim
        that changes between listing and approval changes the prompt (the proof refuses)."""
        req = self.request
        if prompt is None or req is None:
            return prompt
        bound = f"{prompt.fingerprint}+{self.fusion.value}:{req.request_id}"
        if self.fusion is Fusion.DISPUTED:
            return replace(prompt, fingerprint=bound)
        return replace(prompt, kind=req.kind, subject=req.subject, fingerprint=bound)

    @property
    def judged_notes(self) -> tuple[str, ...]:
        """The detector's notes the guard should see: a channel's exact input was not joined
        from screen rows nor cut by the agent's drawing, so the wrap and incomplete-subject
        notes no longer apply to it. An observe-only claim proves nothing: the screen's notes
        stay, and where the screen does not vouch for the claim whole (``reason``) a note
        keeps the verdict at ``confirm`` or stricter."""
        notes = self.detection.notes
        if self.fusion in (Fusion.AGREE, Fusion.CHANNEL_ONLY):
            drop = (_WRAP_PREFIX, INCOMPLETE_NOTE_PREFIX)
            return tuple(n for n in notes if not n.startswith(drop))
        if self.fusion in (Fusion.OBSERVED, Fusion.DISPUTED) and self.reason:
            return (*notes, f"{CLAIM_NOTE_PREFIX}: {self.reason}")
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
    Fusion.OBSERVED.value: "observed",
    Fusion.DISPUTED.value: "DISPUTED",
}


def claimed_sides(source: PromptSource) -> tuple[str, ...]:
    """What an observe-only fusion's prompt may be besides its subject: the claim's input and
    the screen's drawing (the guard judges each too: neither is proven); () for any other."""
    if source.name not in (Fusion.OBSERVED.value, Fusion.DISPUTED.value):
        return ()
    return tuple(s for s in (source.channel_subject, source.screen_subject) if s)


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
    if source.name == Fusion.OBSERVED.value:
        shown = (
            ""
            if source.screen_subject == source.channel_subject
            else f"; the screen shows {source.screen_subject!r}"
        )
        return (
            f"from the screen, named whole by the agent's hook{rid} (a claim paw cannot prove"
            f"{shown}); answered by keys with the screen's proof"
            + (f" ({source.reason})" if source.reason else "")
        )
    if source.name == Fusion.DISPUTED.value:
        return (
            f"from the screen; the agent's hook{rid} names something else: "
            f"{source.channel_subject!r}, the screen shows {source.screen_subject!r} "
            f"({source.reason}); judged no better than confirm"
        )
    if source.name == Fusion.DISAGREE.value:
        return (
            f"the channel and the screen disagree{rid}: the channel asks "
            f"{source.channel_subject!r}, the screen shows {source.screen_subject!r}"
            + (f" ({source.reason})" if source.reason else "")
        )
    return ""


_WRAP_PREFIX = WRAP_NOTE.split(":", 1)[0]
# The note an observe-only claim adds where the screen does not vouch for it whole: the guard
# never judges such a prompt better than confirm (paw.core.approval.evaluate_subject).
CLAIM_NOTE_PREFIX = "unproven channel claim"

# Screen kinds a channel request of a given kind may be drawn as.
_COMPATIBLE: dict[PromptKind, frozenset[PromptKind]] = {
    PromptKind.EDIT: frozenset({PromptKind.EDIT, PromptKind.WRITE}),
    PromptKind.WRITE: frozenset({PromptKind.EDIT, PromptKind.WRITE}),
}


def fuse(detection: Detection, requests: Sequence[ChannelRequest]) -> Fused:
    """Fuse one agent's screen ``detection`` with its channel's ``requests``."""
    observed = [r for r in requests if r.observe_only and r.state is ChannelState.PENDING]
    requests = [r for r in requests if not r.observe_only]
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
        if observed:
            latest = max(observed, key=lambda r: (r.seen_at, r.request_id))
            return _observe(detection, prompt, latest)
        return Fused(Fusion.SCREEN_ONLY, detection, None, "the channel said nothing")
    req = pending[0]
    if prompt is None:
        return Fused(Fusion.CHANNEL_ONLY, detection, req, "the screen shows no readable prompt")
    if is_unrecognised_dialog(detection):  # a dialog the agent's detector cannot read
        why = "the screen shows a dialog paw cannot read"
        return Fused(Fusion.CHANNEL_ONLY, detection, req, why)
    why = disagreement(req, prompt, cut=_cut(detection))
    if why:
        return Fused(Fusion.DISAGREE, detection, req, why)
    return Fused(Fusion.AGREE, detection, req)


def _observe(detection: Detection, prompt: Prompt, req: ChannelRequest) -> Fused:
    """An observe-only claim beside the screen's prompt: OBSERVED when it is a rendering of
    the claim (``reason`` says when the screen does not show it whole), else DISPUTED."""
    if is_unrecognised_dialog(detection):
        return Fused(Fusion.DISPUTED, detection, req, "the screen shows a dialog paw cannot read")
    why = disagreement(req, prompt, cut=_cut(detection))
    if why:
        return Fused(Fusion.DISPUTED, detection, req, why)
    if _whole_on_screen(prompt.subject, req.subject, detection.notes):
        return Fused(Fusion.OBSERVED, detection, req)
    why = "the screen does not show it whole on its own rows (cut or wrapped): the hook's word"
    return Fused(Fusion.OBSERVED, detection, req, why)


def _cut(detection: Detection) -> bool:
    """Whether the detector says the screen's subject is not whole (cut, shortened)."""
    return any(n.startswith(INCOMPLETE_NOTE_PREFIX) for n in detection.notes)


def _whole_on_screen(shown: str | None, exact: str | None, notes: Sequence[str]) -> bool:
    """Whether the screen shows ``exact`` whole, on its own rows: not joined from wrapped
    rows, not cut, the same text but for the width of its spaces."""
    if shown is None or exact is None:
        return shown is exact
    if any(n.startswith((_WRAP_PREFIX, INCOMPLETE_NOTE_PREFIX)) for n in notes):
        return False
    return " ".join(shown.split()) == " ".join(exact.split())


def disagreement(req: ChannelRequest, prompt: Prompt, *, cut: bool = False) -> str:
    """Why the screen's ``prompt`` is not a rendering of the channel's request ('' if it is).
    ``cut``: the detector marked the screen's subject incomplete (its start may be all of it
    that is drawn)."""
    if prompt.needs_human and prompt.kind in (PromptKind.TRUST, PromptKind.QUESTION):
        return f"the screen shows a {prompt.kind} dialog, the channel a {req.tool} request"
    if prompt.kind is not req.kind and prompt.kind not in _COMPATIBLE.get(req.kind, frozenset()):
        return f"the screen asks for {prompt.kind}, the channel for {req.kind} ({req.tool})"
    if req.subject is None or prompt.subject is None:
        if req.subject is None and prompt.subject is None:
            return ""
        return "only one of the two names what it would do"
    if is_rendering(prompt.subject, req.subject, path=req.kind in _PATH_KINDS, cut=cut):
        return ""
    return "the screen's subject is not a rendering of the channel's exact input"


_PATH_KINDS = frozenset({PromptKind.EDIT, PromptKind.WRITE})
_SPACE = re.compile(r"\s+")
_ELLIPSES = ("…", "...")


def is_rendering(shown: str, exact: str, *, path: bool = False, cut: bool = False) -> bool:
    """Whether ``shown`` (joined from screen rows) is ``exact`` as an agent draws it: wrapped
    (whitespace differs), cut with an ellipsis (the kept pieces in order, the first at the
    start), or, for a path, shown relative (``exact`` ends with it at a ``/``). ``cut``: the
    screen's subject is marked incomplete, and its start of ``exact`` is a rendering too."""
    a, b = _SPACE.sub("", shown), _SPACE.sub("", exact)
    if not a:
        return False
    if a == b or (cut and b.startswith(a)):
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
