"""Claude Code's ``PermissionRequest`` hook as paw's channel: the records' shape, pure.

paw wires the hook per launch (``claude --settings FILE``, FILE in paw's state dir). Claude runs
the hook as ``/bin/sh -c <command>`` while its dialog is drawn, with one JSON object on stdin:
``hook_event_name``, ``tool_name``, ``tool_input``, ``session_id``, ``cwd``, ``permission_mode``,
``permission_suggestions`` and ``prompt_id`` (verified on 2.1.332; there is no per-request id:
paw's hook mints one). Its stdout ``{"hookSpecificOutput": {"hookEventName": "PermissionRequest",
"decision": {"behavior": "allow"|"deny", "message": ...}}}`` answers the dialog; no output leaves
the dialog to the human (docs/agents.md, "Structured channels").

The hook program (:mod:`paw.channel_hook`) writes one *record* per request; the adapter
(:mod:`paw.adapters.channels.claude`) reads it back. Both sign with the spawn's secret, so a
record of another agent, another spawn or a tampered copy does not verify. The secret binds
records to a spawn; it does not prove the writer was Claude (see SECURITY.md).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Mapping

from paw.core.channels.request import ChannelAnswer, ChannelRequest
from paw.core.models import PromptKind

SOURCE = "claude-hook"
RECORD_VERSION = 1
HOOK_EVENT = "PermissionRequest"

# Claude's hook timeout (seconds) paw writes into the settings, and how long paw's hook waits for
# paw's decision: shorter, so the hook returns nothing (Claude keeps its dialog: the screen path
# applies) before Claude ends it. Verified: on Claude's timeout the dialog stays, nothing runs.
HOOK_TIMEOUT_S = 600
WAIT_S = 570.0

# Claude's tool -> (paw's prompt kind, the tool_input field that is the guard's subject).
_TOOLS: dict[str, tuple[PromptKind, str]] = {
    "Bash": (PromptKind.SHELL, "command"),
    "Edit": (PromptKind.EDIT, "file_path"),
    "MultiEdit": (PromptKind.EDIT, "file_path"),
    "NotebookEdit": (PromptKind.EDIT, "notebook_path"),
    "Write": (PromptKind.WRITE, "file_path"),
    "WebFetch": (PromptKind.FETCH, "url"),
}

# How a hook's agent names its tools: (tool, tool_input) -> paw's kind and the exact subject.
Classify = Callable[[str, Mapping[str, object]], tuple[PromptKind, str | None]]

# The fields of a record, in the order they are signed.
_SIGNED = (
    "v", "source", "agent", "spawn", "id", "tool_name", "tool_input", "session_id", "hook_pid",
    "written_at",
)  # fmt: skip


def classify_tool(tool: str, tool_input: Mapping[str, object]) -> tuple[PromptKind, str | None]:
    """paw's kind and the exact subject of one Claude tool call (None: nothing to judge)."""
    if tool.startswith("mcp__"):
        return PromptKind.MCP, tool
    known = _TOOLS.get(tool)
    if known is None:
        return PromptKind.OTHER, None
    kind, key = known
    value = tool_input.get(key)
    return kind, value if isinstance(value, str) and value else None


def sign(secret: bytes, fields: Mapping[str, object]) -> str:
    """The record's MAC: HMAC-SHA256 over the signed fields as canonical JSON."""
    body = json.dumps([fields.get(k) for k in _SIGNED], sort_keys=True, ensure_ascii=False)
    return hmac.new(secret, body.encode("utf-8"), hashlib.sha256).hexdigest()


def make_record(
    *,
    secret: bytes,
    source: str = SOURCE,
    agent: str,
    spawn: str,
    request_id: str,
    event: Mapping[str, object],
    hook_pid: int,
    written_at: float,
) -> dict[str, object]:
    """The record the hook writes for one ``PermissionRequest`` event."""
    tool_input = event.get("tool_input")
    record: dict[str, object] = {
        "v": RECORD_VERSION,
        "source": source,
        "agent": agent,
        "spawn": spawn,
        "id": request_id,
        "tool_name": str(event.get("tool_name") or ""),
        "tool_input": dict(tool_input) if isinstance(tool_input, Mapping) else {},
        "session_id": str(event.get("session_id") or ""),
        "hook_pid": hook_pid,
        "written_at": written_at,
    }
    record["mac"] = sign(secret, record)
    return record


def parse_record(
    doc: object,
    *,
    secret: bytes,
    agent: str,
    spawn: str,
    request_id: str,
    seen_at: float,
    source: str = SOURCE,
    classify: Classify | None = None,
) -> ChannelRequest | str:
    """The request a record claims, or why it is refused (one line).

    Refused: not this version's shape, a MAC that does not verify with this spawn's secret,
    another agent or spawn, an id that is not the record's file name (a copy), another hook's
    record (``source``: a Qwen hook's record is not a Claude one). ``classify`` reads the
    agent's own tool names (Claude's by default)."""
    if not isinstance(doc, dict) or doc.get("v") != RECORD_VERSION:
        return "not a paw channel record"
    mac = doc.get("mac")
    if not isinstance(mac, str) or not hmac.compare_digest(mac, sign(secret, doc)):
        return "its signature does not verify with this spawn's secret"
    if doc.get("agent") != agent or doc.get("spawn") != spawn:
        return f"it names agent {doc.get('agent')!r}, spawn {doc.get('spawn')!r}"
    if doc.get("id") != request_id:
        return "its id is not its file's name (a copy)"
    if doc.get("source") != source:
        return f"it is a {doc.get('source')!r} record, not a {source!r} one"
    tool = doc.get("tool_name")
    tool_input = doc.get("tool_input")
    if not isinstance(tool, str) or not isinstance(tool_input, dict):
        return "it carries no tool"
    kind, subject = (classify or classify_tool)(tool, tool_input)
    return ChannelRequest(
        agent=agent,
        source=source,
        request_id=request_id,
        tool=tool,
        kind=kind,
        subject=subject,
        raw=tool_input,
        can_answer=True,
        seen_at=seen_at,
    )


def hook_pid_of(doc: object) -> int | None:
    """The pid the record names as its writer (verified by the adapter, never trusted)."""
    pid = doc.get("hook_pid") if isinstance(doc, dict) else None
    return pid if isinstance(pid, int) and not isinstance(pid, bool) and pid > 1 else None


def make_answer(
    secret: bytes, *, agent: str, spawn: str, request_id: str, answer: str
) -> dict[str, object]:
    """paw's decision for one request, signed so the hook takes it only for its own id."""
    doc: dict[str, object] = {"agent": agent, "spawn": spawn, "id": request_id, "answer": answer}
    doc["mac"] = _answer_mac(secret, doc)
    return doc


def parse_answer(
    doc: object, *, secret: bytes, agent: str, spawn: str, request_id: str
) -> ChannelAnswer | None:
    """The decision an answer file carries for ``request_id``, or None (not for it, forged)."""
    if not isinstance(doc, dict):
        return None
    mac = doc.get("mac")
    if not isinstance(mac, str) or not hmac.compare_digest(mac, _answer_mac(secret, doc)):
        return None
    if (doc.get("agent"), doc.get("spawn"), doc.get("id")) != (agent, spawn, request_id):
        return None
    try:
        answer = ChannelAnswer(str(doc.get("answer")))
    except ValueError:
        return None
    return answer if answer is not ChannelAnswer.ALWAYS else None  # not offered by this channel


def _answer_mac(secret: bytes, doc: Mapping[str, object]) -> str:
    fields = [doc.get(k) for k in ("agent", "spawn", "id", "answer")]
    body = json.dumps(fields, ensure_ascii=False)
    return hmac.new(secret, b"answer:" + body.encode("utf-8"), hashlib.sha256).hexdigest()


def render_decision(answer: ChannelAnswer) -> str:
    """The hook's stdout for ``answer`` (one JSON line)."""
    decision: dict[str, object] = {"behavior": "allow" if answer is ChannelAnswer.ALLOW else "deny"}
    if answer is ChannelAnswer.DENY:
        decision["message"] = "denied through paw"
    output = {"hookSpecificOutput": {"hookEventName": HOOK_EVENT, "decision": decision}}
    return json.dumps(output)


def render_settings(command: str) -> dict[str, object]:
    """The per-launch settings paw passes with ``--settings``: only the PermissionRequest hook."""
    hook = {"type": "command", "command": command, "timeout": HOOK_TIMEOUT_S}
    return {"hooks": {HOOK_EVENT: [{"matcher": "*", "hooks": [hook]}]}}
