"""Qwen Code's ``PermissionRequest`` hook payload, parsed into paw's ``ChannelRequest`` (pure).

Verified on Qwen Code 0.24.4 (docs/agents.md, "Structured channels: verified on the pinned
versions"): a command hook registered for ``PermissionRequest`` in a settings file named by
``QWEN_CODE_SYSTEM_DEFAULTS_PATH`` (per launch; the user's settings untouched) runs *before* the
dialog is drawn, and Qwen waits for it. Its stdin is one JSON object:
``{session_id, transcript_path, cwd, hook_event_name: "PermissionRequest", timestamp,
permission_mode, prompt_id, tool_name, tool_input}`` with the tool's exact arguments
(``permission_suggestions`` is documented but not sent). Its stdout answers *that* invocation:
``render_decision`` gives the JSON; an empty stdout (or a hook that times out or fails) lets
Qwen show its own dialog.

The payload carries no id of its own (``prompt_id`` names the turn, shared by every tool call in
it): the hook process is the request, and the bridge that runs it mints ``request_id``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from paw.core.channels.request import ChannelAnswer, ChannelRequest, ChannelState
from paw.core.models import PromptKind

SOURCE = "qwen-hook"
EVENT = "PermissionRequest"

# Qwen's hook timeout (seconds) paw writes into the per-launch settings, and how long paw's hook
# waits for paw's decision: shorter, so the hook returns nothing and Qwen draws its own dialog
# (the screen path applies) before Qwen ends the hook. While the hook waits Qwen draws *no*
# dialog (it runs the hook first), so a human at the pane has nothing to answer: the wait is
# kept short enough for them, long enough for a human deciding in paw. (Qwen reads a timeout of
# 1000 or more as milliseconds: keep it below.)
HOOK_TIMEOUT_S = 150
WAIT_S = 120.0

# Qwen's runtime tool id -> paw's kind and the argument holding the exact input.
_TOOLS: dict[str, tuple[PromptKind, str]] = {
    "run_shell_command": (PromptKind.SHELL, "command"),
    "edit": (PromptKind.EDIT, "file_path"),
    "write_file": (PromptKind.WRITE, "file_path"),
    "web_fetch": (PromptKind.FETCH, "url"),
}


def parse_permission_request(
    payload: object,
    *,
    agent: str,
    request_id: str,
    now: float,
    can_answer: bool = False,
) -> ChannelRequest | None:
    """The hook's stdin as a ``ChannelRequest``; ``None`` when it is not a PermissionRequest of
    that shape. ``can_answer`` is the caller's to say: true only while the hook process that
    carries this request still waits for its answer."""
    if not isinstance(payload, Mapping) or payload.get("hook_event_name") != EVENT:
        return None
    tool = payload.get("tool_name")
    tool_input = payload.get("tool_input")
    session = payload.get("session_id")
    if not isinstance(tool, str) or not tool or not isinstance(tool_input, Mapping):
        return None
    if not isinstance(session, str) or not session or not request_id:
        return None
    kind, subject = classify_tool(tool, tool_input)
    raw: dict[str, object] = {
        "session_id": session,
        "cwd": _text(payload.get("cwd")),
        "permission_mode": _text(payload.get("permission_mode")),
        "prompt_id": _text(payload.get("prompt_id")),
        "tool_input": dict(tool_input),
    }
    return ChannelRequest(
        agent=agent,
        source=SOURCE,
        request_id=request_id,
        tool=tool,
        kind=kind,
        subject=subject,
        raw=raw,
        state=ChannelState.PENDING,
        can_answer=can_answer,
        seen_at=now,
    )


def classify_tool(tool: str, tool_input: Mapping[str, object]) -> tuple[PromptKind, str | None]:
    """paw's kind and the exact subject of one Qwen tool call (None: nothing to judge)."""
    kind, field = _TOOLS.get(tool, (_other_kind(tool), ""))
    value = tool_input.get(field) if field else None
    return kind, value if isinstance(value, str) and value else None


def render_settings(command: str) -> dict[str, object]:
    """The per-launch settings paw names with ``QWEN_CODE_SYSTEM_DEFAULTS_PATH``: only the
    PermissionRequest hook (Qwen runs it as ``bash -c <command>``)."""
    hook = {"type": "command", "command": command, "timeout": HOOK_TIMEOUT_S}
    return {"hooks": {EVENT: [{"matcher": "", "hooks": [hook]}]}}


def render_decision(answer: ChannelAnswer, message: str = "") -> str:
    """The hook's stdout for ``answer``. ``ALWAYS`` is never rendered (Qwen would have to be
    told which rule to persist: paw leaves that to the dialog), so it raises ``ValueError``."""
    if answer is ChannelAnswer.ALWAYS:
        raise ValueError("Qwen Code's hook answers once: 'always' is the dialog's")
    decision: dict[str, object] = {"behavior": "allow" if answer is ChannelAnswer.ALLOW else "deny"}
    if answer is ChannelAnswer.DENY and message:
        decision["message"] = message
    return json.dumps({"hookSpecificOutput": {"hookEventName": EVENT, "decision": decision}})


def _other_kind(tool: str) -> PromptKind:
    return PromptKind.MCP if tool.startswith("mcp__") else PromptKind.OTHER


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""
