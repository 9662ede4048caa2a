"""Cline's ``PreToolUse`` hook payload, parsed into paw's ``ChannelRequest`` (pure).

Verified on Cline 3.0.65 (docs/agents.md, "Structured channels: verified on the pinned
versions"; ``tests/e2e/test_channel_cline_live.py``): an executable file named ``PreToolUse``
(or ``PreToolUse.sh``, ``.py``, …) in ``$CLINE_DIR/hooks`` runs before **every** tool call,
asked or not, as a child of the ``cline`` process, which waits for it before drawing any
dialog. Its stdin is one JSON object ``{clineVersion, timestamp, taskId, sessionContext,
workspaceRoots, workspaceInfo, userId, agent_id, parent_agent_id, hookName: "tool_call",
iteration, tool_call: {id, name, input}, preToolUse: {toolName, parameters}}``:
``tool_call.input`` is the tool's exact input (``preToolUse.parameters`` the same with every
value turned into a string). Its stdout cannot grant: ``{"cancel": true, "errorMessage"}`` ends
the turn, ``context`` adds text for the model, ``overrideInput`` rewrites the input; nothing
approves.

paw does not wire it (``--hooks-dir`` loads nothing on 3.0.65, and the only directories read
are the user's config, the worktree's, and ``~/Documents/Cline/Hooks``), and a record from it
has no live writer while the dialog is shown: the parser keeps ``can_answer`` false and the
payload is a claim a screen prompt may be cross-checked against, never a request to answer.
"""

from __future__ import annotations

from collections.abc import Mapping

from paw.core.channels.request import ChannelRequest, ChannelState
from paw.core.models import PromptKind

SOURCE = "cline-hook"
EVENT = "tool_call"  # the payload's hookName for a PreToolUse file hook

# Cline's tool name -> paw's kind, for the tools whose exact subject paw reads from the input.
_KINDS: dict[str, PromptKind] = {
    "run_commands": PromptKind.SHELL,
    "editor": PromptKind.EDIT,
    "fetch_web_content": PromptKind.FETCH,
}


def parse_pre_tool_use(
    payload: object, *, agent: str, request_id: str, now: float
) -> ChannelRequest | None:
    """The hook's stdin as a ``ChannelRequest`` (never answerable); ``None`` when it is not a
    ``tool_call`` payload of that shape. The payload does not say whether Cline will ask: a
    read Cline runs unasked is reported the same way."""
    if not isinstance(payload, Mapping) or payload.get("hookName") != EVENT:
        return None
    call = payload.get("tool_call")
    if not isinstance(call, Mapping):
        return None
    tool = call.get("name")
    tool_input = call.get("input")
    task = payload.get("taskId")
    if not isinstance(tool, str) or not tool or not isinstance(tool_input, Mapping):
        return None
    if not isinstance(task, str) or not task or not request_id:
        return None
    kind, subject = classify_tool(tool, tool_input)
    raw: dict[str, object] = {
        "task_id": task,
        "tool_call_id": _text(call.get("id")),
        "agent_id": _text(payload.get("agent_id")),
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
        can_answer=False,
        seen_at=now,
    )


def classify_tool(tool: str, tool_input: Mapping[str, object]) -> tuple[PromptKind, str | None]:
    """paw's kind and the exact subject of one Cline tool call (None: nothing to judge).

    ``run_commands`` carries a list of commands: the subject is one per line, as Cline's dialog
    draws them. ``editor`` carries the absolute ``path``. A field of another shape is no subject
    (fail closed: the guard then asks)."""
    kind = _KINDS.get(tool, PromptKind.MCP if tool == "use_mcp_tool" else PromptKind.OTHER)
    if kind is PromptKind.SHELL:
        commands = tool_input.get("commands")
        if isinstance(commands, list) and commands and all(isinstance(c, str) for c in commands):
            text = "\n".join(commands)
            return kind, text if text.strip() else None
        return kind, None
    if kind is PromptKind.EDIT:
        path = tool_input.get("path")
        return kind, path if isinstance(path, str) and path else None
    return kind, None


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""
