"""opencode's (and Kilo Code's) permission events, parsed into paw's ``ChannelRequest`` (pure).

The TUI of opencode is a client of its own HTTP server; paw has it listen on a port paw picked
(``--port``) behind a per-spawn password (``OPENCODE_SERVER_PASSWORD``, Kilo's
``KILO_SERVER_PASSWORD``). Verified on opencode 1.18.33 and Kilo 7.7.7 (docs/agents.md,
"Structured channels: verified on the pinned versions"):

- ``GET /event`` (server-sent events) sends ``permission.asked`` with ``properties`` =
  ``{id, sessionID, permission, patterns, metadata, always, tool: {messageID, callID}}`` and,
  once answered (through the server or at the pane), ``permission.replied`` =
  ``{sessionID, requestID, reply}``. ``permission.updated`` (which some SDK stubs name) is
  never sent.
- ``GET /permission`` lists the pending requests in the same shape as ``permission.asked``'s
  properties (``/api/permission/request`` answers an empty list while a request is pending).
- The exact input is in ``metadata``: ``command`` for ``bash``; ``filepath`` (absolute) and
  ``diff`` for ``edit`` (writes of new files too). ``patterns`` is opencode's own split of the
  input for its rules (a command's parts, the path relative to the project): never the subject.

Everything here is a claim from the agent's process; a payload that is not exactly the shape
above gives ``None`` (nothing listed), never a guessed request.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from paw.core.channels.request import ChannelAnswer, ChannelRequest, ChannelState
from paw.core.models import PromptKind

SOURCE = "opencode-server"

ASKED = "permission.asked"
REPLIED = "permission.replied"

# opencode's permission name -> paw's kind. Anything else (``external_directory``, ``doom_loop``,
# an MCP tool's own name, ``task``, ...) is OTHER with no subject: the guard then asks a human.
_KINDS: dict[str, PromptKind] = {
    "bash": PromptKind.SHELL,
    "edit": PromptKind.EDIT,
    "webfetch": PromptKind.FETCH,
}

# The metadata field that holds the exact input, per permission.
_SUBJECT_FIELDS: dict[str, str] = {"bash": "command", "edit": "filepath", "webfetch": "url"}

# paw's answer -> opencode's ``reply`` value.
REPLIES: dict[ChannelAnswer, str] = {
    ChannelAnswer.ALLOW: "once",
    ChannelAnswer.ALWAYS: "always",
    ChannelAnswer.DENY: "reject",
}

# A new file's diff: the hunk starts from an empty old side.
_NEW_FILE_HUNK = "@@ -0,0 +"


@dataclass(frozen=True, slots=True)
class Replied:
    """A ``permission.replied`` event: the request is answered, by someone."""

    session_id: str
    request_id: str
    reply: str  # "once" | "always" | "reject"


def parse_permission(
    props: object, *, agent: str, now: float, source: str = SOURCE
) -> ChannelRequest | None:
    """One pending request (``permission.asked``'s properties, or an item of
    ``GET /permission``) as a ``ChannelRequest``; ``None`` when it is not that shape."""
    if not isinstance(props, Mapping):
        return None
    request_id = props.get("id")
    session_id = props.get("sessionID")
    permission = props.get("permission")
    metadata = props.get("metadata", {})
    if not (_is_id(request_id, "per_") and _is_id(session_id, "ses_")):
        return None
    if not isinstance(permission, str) or not permission or not isinstance(metadata, Mapping):
        return None
    kind = _KINDS.get(permission, PromptKind.OTHER)
    subject = _subject(permission, metadata)
    if kind is PromptKind.EDIT and subject is not None and _is_new_file(metadata):
        kind = PromptKind.WRITE
    raw: dict[str, object] = {
        "sessionID": session_id,
        "permission": permission,
        "patterns": _strings(props.get("patterns")),
        "always": _strings(props.get("always")),
        "metadata": dict(metadata),
    }
    tool = props.get("tool")
    if isinstance(tool, Mapping):
        raw["tool"] = {k: v for k, v in tool.items() if isinstance(v, str)}
    return ChannelRequest(
        agent=agent,
        source=source,
        request_id=str(request_id),
        tool=permission,
        kind=kind,
        subject=subject,
        raw=raw,
        state=ChannelState.PENDING,
        can_answer=True,
        seen_at=now,
    )


def parse_replied(props: object) -> Replied | None:
    """``permission.replied``'s properties; ``None`` when they are not that shape."""
    if not isinstance(props, Mapping):
        return None
    request_id = props.get("requestID")
    session_id = props.get("sessionID")
    reply = props.get("reply")
    if not (_is_id(request_id, "per_") and _is_id(session_id, "ses_")):
        return None
    if reply not in ("once", "always", "reject"):
        return None
    return Replied(str(session_id), str(request_id), str(reply))


def parse_event(
    event: object, *, agent: str, now: float, source: str = SOURCE
) -> ChannelRequest | Replied | None:
    """One decoded ``/event`` message: a new request, a reply, or ``None`` (anything else)."""
    if not isinstance(event, Mapping):
        return None
    kind = event.get("type")
    props = event.get("properties")
    if kind == ASKED:
        return parse_permission(props, agent=agent, now=now, source=source)
    if kind == REPLIED:
        return parse_replied(props)
    return None


def parse_pending(
    payload: object, *, agent: str, now: float, source: str = SOURCE
) -> tuple[ChannelRequest, ...] | None:
    """``GET /permission``'s body: every well-formed pending request; ``None`` when the body is
    not a list (then nothing can be said about what is pending)."""
    if not isinstance(payload, list):
        return None
    found = (parse_permission(item, agent=agent, now=now, source=source) for item in payload)
    return tuple(r for r in found if r is not None)


def same_claim(a: ChannelRequest, b: ChannelRequest) -> bool:
    """Two reports of one request id say the same thing (a resend or the list's copy)."""
    return (a.request_id, a.tool, a.kind, a.subject, a.raw) == (
        b.request_id,
        b.tool,
        b.kind,
        b.subject,
        b.raw,
    )


def _subject(permission: str, metadata: Mapping[str, object]) -> str | None:
    field = _SUBJECT_FIELDS.get(permission)
    if field is None:
        return None
    value = metadata.get(field)
    return value if isinstance(value, str) and value else None


def _is_new_file(metadata: Mapping[str, object]) -> bool:
    diff = metadata.get("diff")
    return isinstance(diff, str) and _NEW_FILE_HUNK in diff and "\n-" not in _body(diff)


def _body(diff: str) -> str:
    """The diff without its ``---``/``+++`` header lines."""
    return "\n".join(
        line for line in diff.splitlines() if not line.startswith(("---", "+++", "Index:"))
    )


def _is_id(value: object, prefix: str) -> bool:
    return (
        isinstance(value, str)
        and value.startswith(prefix)
        and len(value) <= 128
        and value[len(prefix) :].isalnum()
    )


def _strings(value: object) -> tuple[str, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        return ()
    return tuple(v for v in value if isinstance(v, str))


# A hostile or broken server cannot grow paw's memory without bound.
MAX_PENDING = 256
MAX_CLOSED = 4096


class Book:
    """What one opencode server has said, folded: the requests it holds open, and those it has
    closed (answered, or no longer listed). Pure bookkeeping; the adapter feeds it under a lock.

    - A ``permission.asked`` for an id already closed is a replay: ignored (never reopened).
    - A second claim for a pending id that says something else marks the request conflicted:
      no subject, not answerable (the guard then asks a human, and the channel sends nothing).
    - Until the first ``GET /permission`` after a (re)connection, nothing is listed: events
      may have been missed while the stream was down.
    """

    def __init__(self) -> None:
        self.synced = False
        self.open: dict[str, ChannelRequest] = {}
        self.closed: dict[str, ChannelState] = {}
        self.answered: set[str] = set()  # answered by paw, the reply event not seen yet
        self.replies: dict[str, str] = {}  # the reply the server says it took, per closed id

    def ask(self, request: ChannelRequest) -> None:
        """A request the server reports pending."""
        rid = request.request_id
        if rid in self.closed:
            return
        known = self.open.get(rid)
        if known is None:
            if len(self.open) < MAX_PENDING:
                self.open[rid] = request
            return
        if not same_claim(known, request):
            self.open[rid] = _conflicted(known)

    def reply(self, replied: Replied) -> None:
        """The server says the request is answered (and how)."""
        self.close(replied.request_id, ChannelState.RESOLVED)
        self.replies[replied.request_id] = replied.reply

    def close(self, request_id: str, state: ChannelState) -> None:
        """The request is no longer open."""
        self.open.pop(request_id, None)
        self.answered.discard(request_id)
        self.closed[request_id] = state
        while len(self.closed) > MAX_CLOSED:
            oldest = next(iter(self.closed))
            del self.closed[oldest]
            self.replies.pop(oldest, None)

    def sync(self, listed: Sequence[ChannelRequest]) -> None:
        """The server's list of pending requests, read right after (re)subscribing."""
        ids = {r.request_id for r in listed}
        for rid in [rid for rid in self.open if rid not in ids]:
            self.close(rid, ChannelState.RESOLVED)
        for request in listed:
            self.ask(request)
        self.synced = True

    def lose(self) -> None:
        """The event stream is down: nothing can be vouched for until the next sync."""
        self.synced = False

    def pending(self) -> list[ChannelRequest]:
        """The requests to list: open, not answered by paw already; none while unsynced."""
        if not self.synced:
            return []
        return [r for rid, r in self.open.items() if rid not in self.answered]

    def state(self, request_id: str) -> ChannelState:
        """PENDING while the server holds it open (and the stream is up); RESOLVED once
        answered or no longer listed, and for an id the server never reported; TIMED_OUT for
        an open request while the stream is down (the channel cannot vouch for it)."""
        if request_id in self.open:
            return ChannelState.PENDING if self.synced else ChannelState.TIMED_OUT
        return self.closed.get(request_id, ChannelState.RESOLVED)

    def refusal(self, request_id: str) -> str | None:
        """Why an answer to ``request_id`` must not be sent now (``None``: it may)."""
        if not self.synced:
            return "channel-down"
        request = self.open.get(request_id)
        if request is None:
            return "not-pending"
        if request_id in self.answered:
            return "already-answered"
        if not request.can_answer:
            return "conflicting-claims"
        return None


def _conflicted(request: ChannelRequest) -> ChannelRequest:
    return ChannelRequest(
        agent=request.agent,
        source=request.source,
        request_id=request.request_id,
        tool=request.tool,
        kind=request.kind,
        subject=None,
        raw=request.raw,
        state=request.state,
        can_answer=False,
        seen_at=request.seen_at,
    )
