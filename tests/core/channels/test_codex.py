"""Codex's PermissionRequest hook as paw's channel, pure: the per-launch ``-c`` flags (the trust
hash Codex 0.171.0 computes) and the payloads captured live from the pinned Codex
(tests/fixtures/channels/codex/README.md says how)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from paw.core.channels import claude, codex, qwen
from paw.core.channels.request import ChannelAnswer, ChannelRequest
from paw.core.models import PromptKind

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "channels" / "codex"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


def test_the_trust_hash_is_the_one_codex_lists_for_the_handler() -> None:
    """Read from the pinned Codex's app-server (``hooks/list`` ``currentHash``) for these very
    handlers: a plain one, and one with a matcher and a command needing escapes."""
    assert codex.hook_hash("/bin/true", 30, None) == (
        "sha256:8c3ac6607114dd7be8f1c4db640dcd7ac4d28fb183f0fd0f21ef54024f8991af"
    )
    command = "/usr/bin/python3 -I -m paw.channel_hook '/x/é dir' a\"b 'sp' 600"
    assert codex.hook_hash(command, 600, "*") == (
        "sha256:e534b8953edac85570cc7f343d52b8cf318d1a1b4293d51042dbf3ec99bfd5e1"
    )


def test_the_flags_add_one_hook_and_trust_exactly_it() -> None:
    command = "/opt/py -I -m paw.channel_hook '/st ate/é\"\\x' a t 120 codex"
    flags = codex.launch_flags(command)
    assert flags[0::2] == ("-c", "-c")
    hooks_key, hooks_value = flags[1].split("=", 1)
    state_key, state_value = flags[3].split("=", 1)
    assert (hooks_key, state_key) == ("hooks.PermissionRequest", "hooks.state")
    # each value is TOML (Codex parses it so; a value that is not TOML would be a plain string)
    groups = tomllib.loads(f"v = {hooks_value}")["v"]
    assert groups == codex.render_settings(command)["hooks"]["PermissionRequest"]  # type: ignore[index]
    assert groups == [{"matcher": "*", "hooks": [
        {"type": "command", "command": command, "timeout": codex.HOOK_TIMEOUT_S}]}]  # fmt: skip
    state = tomllib.loads(f"v = {state_value}")["v"]
    assert state == {
        "/<session-flags>/config.toml:permission_request:0:0": {
            "trusted_hash": codex.hook_hash(command, codex.HOOK_TIMEOUT_S),
            "enabled": True,
        }
    }
    assert codex.WAIT_S < codex.HOOK_TIMEOUT_S  # paw's hook gives up before Codex ends it


@pytest.mark.parametrize(
    ("fixture", "kind", "subject"),
    [
        ("permission-request-shell.json", PromptKind.SHELL, "touch paw-shell.txt"),
        ("permission-request-shell-deny.json", PromptKind.SHELL, "touch paw-shell-denied.txt"),
        ("permission-request-edit.json", PromptKind.EDIT, "README.md"),
    ],
)
def test_a_captured_request_carries_the_exact_input(
    fixture: str, kind: PromptKind, subject: str
) -> None:
    payload = load(fixture)
    secret = b"k" * 32
    record = claude.make_record(
        secret=secret, source=codex.SOURCE, agent="c1", spawn="s", request_id="r",
        event=payload, hook_pid=2, written_at=0.0,
    )  # fmt: skip
    request = claude.parse_record(
        record, secret=secret, agent="c1", spawn="s", request_id="r", seen_at=1.0,
        source=codex.SOURCE, classify=codex.classify_tool,
    )  # fmt: skip
    assert isinstance(request, ChannelRequest)
    assert (request.kind, request.subject, request.tool) == (kind, subject, payload["tool_name"])
    assert request.raw == payload["tool_input"]
    assert request.source == "codex-hook"


@pytest.mark.parametrize(
    ("tool", "tool_input", "kind", "subject"),
    [
        ("apply_patch", {"command": "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch"},
         PromptKind.WRITE, "a.txt"),
        ("apply_patch", {"command": "*** Begin Patch\n*** Add File: a.txt\n+x\n"
                                    "*** Update File: b.txt\n@@\n-y\n+z\n*** End Patch"},
         PromptKind.EDIT, None),
        ("apply_patch", {"command": "*** Begin Patch\n*** Delete File: a.txt\n*** End Patch"},
         PromptKind.EDIT, "a.txt"),
        ("Bash", {"command": ""}, PromptKind.SHELL, None),
        ("Bash", {}, PromptKind.SHELL, None),
        ("mcp__srv__tool", {}, PromptKind.MCP, "mcp__srv__tool"),
        ("Something", {"command": "x"}, PromptKind.OTHER, None),
    ],
)  # fmt: skip
def test_tools_are_classified_by_their_exact_input(
    tool: str, tool_input: dict[str, object], kind: PromptKind, subject: str | None
) -> None:
    assert codex.classify_tool(tool, tool_input) == (kind, subject)


def test_the_decision_is_the_hook_output_codex_took() -> None:
    """Live on 0.171.0: allow ran the command with no dialog; deny ran nothing and the model got
    the message."""
    assert json.loads(qwen.render_decision(ChannelAnswer.ALLOW)) == {
        "hookSpecificOutput": {"hookEventName": "PermissionRequest",
                               "decision": {"behavior": "allow"}}}  # fmt: skip
    denied = json.loads(qwen.render_decision(ChannelAnswer.DENY, "no"))
    assert denied["hookSpecificOutput"]["decision"] == {"behavior": "deny", "message": "no"}
