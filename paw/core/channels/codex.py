"""Codex's ``PermissionRequest`` hook as paw's channel: the per-launch flags and the payload, pure.

Verified on Codex 0.171.0 (docs/agents.md, "Structured channels: verified on the pinned
versions"). A hook given with ``-c 'hooks.PermissionRequest=[…]'`` belongs to Codex's "session
flags" layer; Codex runs only hooks it trusts, and reads that trust from ``hooks.state`` in the
user's config *and* in the session flags. So two ``-c`` flags wire it for that one launch, without
a review screen and without touching the user's ``~/.codex``:

- ``hooks.PermissionRequest=[{matcher="*", hooks=[{type="command", command=CMD, timeout=T}]}]``;
- ``hooks.state={"/<session-flags>/config.toml:permission_request:0:0"={trusted_hash=H,
  enabled=true}}``, ``H`` being :func:`hook_hash` of exactly that handler (Codex lists the same
  key and hash as ``key``/``currentHash`` in its app-server's ``hooks/list``).

Codex runs the hook *before* it draws its dialog, and draws none while it runs (``Running
hook``); it runs it as ``/bin/bash -c CMD`` (which bash replaces by CMD's one program), a child of
Codex's native program, with one JSON object on stdin: ``{session_id, turn_id, transcript_path,
cwd, hook_event_name: "PermissionRequest", model, permission_mode, tool_name, tool_input}``.
``tool_input`` is ``{command, description}``: for ``Bash`` the exact command the model asked to
run, for ``apply_patch`` the patch's text (no request id: paw's hook mints one). Its stdout
``{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior":
"allow"|"deny", "message": …}}}`` answers that one request (Qwen's shape:
:func:`paw.core.channels.qwen.render_decision`); no output, a failure or the timeout make Codex
draw its own dialog.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

from paw.core.models import PromptKind

SOURCE = "codex-hook"
EVENT = "PermissionRequest"
SNAKE_EVENT = "permission_request"
# The key Codex gives the first handler of the first group of the session flags' hooks.
TRUST_KEY = f"/<session-flags>/config.toml:{SNAKE_EVENT}:0:0"
MATCHER = "*"

# Codex's hook timeout (seconds) paw passes, and how long paw's hook waits for paw's decision:
# shorter, so the hook returns nothing and Codex draws its own dialog (the screen path applies)
# before Codex ends the hook. While it waits Codex draws *no* dialog: a human at the pane has
# nothing to answer, so the wait is kept short enough for them.
HOOK_TIMEOUT_S = 150
WAIT_S = 120.0

_PATCH_FILE = ("*** Add File: ", "*** Update File: ", "*** Delete File: ")


def hook_hash(command: str, timeout_s: int, matcher: str | None = MATCHER) -> str:
    """The hash Codex trusts a command handler by: ``sha256:`` and the hex SHA-256 of the
    handler's identity as compact JSON with sorted keys (checked against the pinned Codex's
    ``hooks/list`` ``currentHash``, non-ASCII commands included)."""
    handler = {"async": False, "command": command, "timeout": timeout_s, "type": "command"}
    identity: dict[str, object] = {"event_name": SNAKE_EVENT, "hooks": [handler]}
    if matcher is not None:
        identity["matcher"] = matcher
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def launch_flags(command: str, timeout_s: int = HOOK_TIMEOUT_S) -> tuple[str, ...]:
    """The ``-c`` flags that add and trust the hook for one launch of ``codex``."""
    cmd = _toml_string(command)
    group = (
        f'[{{matcher={_toml_string(MATCHER)}, hooks=[{{type="command", command={cmd}, '
        f"timeout={timeout_s}}}]}}]"
    )
    digest = hook_hash(command, timeout_s)
    state = f"{{{_toml_string(TRUST_KEY)}={{trusted_hash={_toml_string(digest)}, enabled=true}}}}"
    return ("-c", f"hooks.{EVENT}={group}", "-c", f"hooks.state={state}")


def render_settings(command: str, timeout_s: int = HOOK_TIMEOUT_S) -> dict[str, object]:
    """The hook table :func:`launch_flags` passes, as JSON (paw keeps it beside the secret: it
    names the exact command, the proof's reference)."""
    hook = {"type": "command", "command": command, "timeout": timeout_s}
    return {"hooks": {EVENT: [{"matcher": MATCHER, "hooks": [hook]}]}}


def classify_tool(tool: str, tool_input: Mapping[str, object]) -> tuple[PromptKind, str | None]:
    """paw's kind and the exact subject of one Codex tool call (None: nothing to judge).

    ``Bash``: the command. ``apply_patch``: an edit (a write when it only adds files) whose
    subject is the one file it touches, as the patch names it; a patch over several files has
    none (the guard cannot judge it by one path)."""
    value = tool_input.get("command")
    text = value if isinstance(value, str) and value else None
    if tool == "Bash":
        return PromptKind.SHELL, text
    if tool == "apply_patch":
        files = _patch_files(text or "")
        adds_only = bool(files) and all(op == _PATCH_FILE[0] for op, _ in files)
        kind = PromptKind.WRITE if adds_only else PromptKind.EDIT
        paths = {path for _, path in files}
        return kind, paths.pop() if len(paths) == 1 else None
    if tool.startswith("mcp__"):
        return PromptKind.MCP, tool
    return PromptKind.OTHER, None


def _patch_files(patch: str) -> list[tuple[str, str]]:
    return [
        (op, line[len(op) :].strip())
        for line in patch.splitlines()
        for op in _PATCH_FILE
        if line.startswith(op) and line[len(op) :].strip()
    ]


def _toml_string(text: str) -> str:
    """``text`` as a TOML basic string (JSON's escapes are TOML's, but for \\u007f)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007F")
