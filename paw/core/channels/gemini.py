"""Gemini CLI's ``Notification`` hook of type ``ToolPermission``: an observe-only channel (pure).

Verified on Gemini CLI 0.61.0 (docs/agents.md, "Structured channels: verified on the pinned
versions"; ``tests/e2e/test_channel_gemini_live.py``): a command hook registered for
``Notification`` in a settings file named by ``GEMINI_CLI_SYSTEM_DEFAULTS_PATH`` (per launch; the
user's settings untouched) runs *before* Gemini draws its permission dialog, and Gemini waits
for it. Its stdin is one JSON object ``{session_id, transcript_path, cwd, hook_event_name:
"Notification", timestamp, notification_type: "ToolPermission", message, details}``; ``details``
carries the exact input: ``{type: "exec", command, rootCommand}``, ``{type: "edit", filePath,
fileDiff, newContent}``, ``{type: "mcp", serverName, toolName}``, ``{type: "info", urls}``.
There is no request id, and nothing the hook prints answers the dialog.

So the hook returns at once (Gemini draws nothing until it has), and its record has no live
writer paw could prove when the dialog is up: the record is a *claim* (``observe_only``) that
may name the screen's prompt, never stand for one (:mod:`paw.core.channels.fuse`).
"""

from __future__ import annotations

from collections.abc import Mapping

from paw.core.models import PromptKind

SOURCE = "gemini-notification"
EVENT = "Notification"
NOTIFICATION_TYPE = "ToolPermission"
# The variable naming the per-launch settings file (Gemini's system-defaults layer, the lowest).
DEFAULTS_VAR = "GEMINI_CLI_SYSTEM_DEFAULTS_PATH"
# Gemini's hook timeout (milliseconds): paw's hook returns at once; a slow start on a loaded
# machine must not end it, and Gemini draws its dialog only after it.
HOOK_TIMEOUT_MS = 15_000

# details.type -> paw's kind and the field holding the exact subject.
_TYPES: dict[str, tuple[PromptKind, str]] = {
    "exec": (PromptKind.SHELL, "command"),
    "edit": (PromptKind.EDIT, "filePath"),
    "info": (PromptKind.FETCH, "urls"),
}


def is_tool_permission(event: object) -> bool:
    """Whether the hook's stdin is a ``ToolPermission`` notification with its details."""
    return (
        isinstance(event, Mapping)
        and event.get("hook_event_name") == EVENT
        and event.get("notification_type") == NOTIFICATION_TYPE
        and isinstance(event.get("details"), Mapping)
    )


def as_tool_event(event: Mapping[str, object]) -> dict[str, object]:
    """The notification in the shape paw's hook records (:func:`paw.core.channels.claude.
    make_record`): ``tool_name`` is the details' ``type``, ``tool_input`` the details."""
    details = event.get("details")
    tool_input = dict(details) if isinstance(details, Mapping) else {}
    return {
        "hook_event_name": EVENT,
        "tool_name": str(tool_input.get("type") or ""),
        "tool_input": tool_input,
        "session_id": str(event.get("session_id") or ""),
    }


def classify_tool(tool: str, tool_input: Mapping[str, object]) -> tuple[PromptKind, str | None]:
    """paw's kind and the exact subject of one notification's details (None: nothing to judge).
    ``info`` names its URLs as a list: the subject only when it names exactly one. ``mcp`` is
    ``<server> <tool>``, as Gemini's dialog (and paw's detector) names it."""
    if tool == "mcp":
        server, name = tool_input.get("serverName"), tool_input.get("toolName")
        whole = isinstance(server, str) and server and isinstance(name, str) and name
        return PromptKind.MCP, f"{server} {name}" if whole else None
    kind, field = _TYPES.get(tool, (PromptKind.OTHER, ""))
    value = tool_input.get(field) if field else None
    if field == "urls" and isinstance(value, list):
        value = value[0] if len(value) == 1 else None
    return kind, value if isinstance(value, str) and value else None


def render_settings(command: str) -> dict[str, object]:
    """The per-launch settings paw names with ``GEMINI_CLI_SYSTEM_DEFAULTS_PATH``: hooks on,
    and only the Notification hook."""
    hook = {"type": "command", "command": command, "timeout": HOOK_TIMEOUT_MS}
    return {"hooksConfig": {"enabled": True}, "hooks": {EVENT: [{"matcher": "*", "hooks": [hook]}]}}


def hook_command(settings: object) -> str | None:
    """The hook command a settings file paw wrote records (None: not that shape)."""
    try:
        command = settings["hooks"][EVENT][0]["hooks"][0]["command"]  # type: ignore[index]
    except (KeyError, IndexError, TypeError):
        return None
    return command if isinstance(command, str) else None
