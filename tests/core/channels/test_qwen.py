"""Qwen Code's PermissionRequest hook payload as paw's ChannelRequest: payloads captured live
from the pinned Qwen Code (tests/fixtures/channels/qwen/README.md says how)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paw.core.channels.qwen import parse_permission_request, render_decision
from paw.core.channels.request import ChannelAnswer, ChannelState
from paw.core.models import PromptKind

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "channels" / "qwen"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(
    ("fixture", "kind", "subject"),
    [
        ("permission-request-shell.json", PromptKind.SHELL, "touch paw-shell.txt"),
        ("permission-request-edit.json", PromptKind.EDIT, "/home/user/work/demo/README.md"),
        ("permission-request-write.json", PromptKind.WRITE, "/home/user/work/demo/paw-new.txt"),
    ],
)
def test_a_captured_request_carries_the_exact_input(
    fixture: str, kind: PromptKind, subject: str
) -> None:
    payload = load(fixture)
    request = parse_permission_request(payload, agent="q1", request_id="hook-1", now=3.0)
    assert request is not None
    assert request.kind is kind
    assert request.subject == subject
    assert request.tool == payload["tool_name"]
    assert request.raw["tool_input"] == payload["tool_input"]
    assert request.request_id == "hook-1"
    assert request.agent == "q1"
    assert request.source == "qwen-hook"
    assert request.state is ChannelState.PENDING
    assert not request.can_answer  # only the bridge holding the hook open may say so


def test_the_bridge_says_whether_it_can_answer() -> None:
    payload = load("permission-request-shell.json")
    request = parse_permission_request(
        payload, agent="q1", request_id="hook-1", now=0.0, can_answer=True
    )
    assert request is not None
    assert request.can_answer


@pytest.mark.parametrize(
    "mutate",
    [
        lambda p: p.__setitem__("hook_event_name", "PreToolUse"),
        lambda p: p.pop("tool_name"),
        lambda p: p.__setitem__("tool_input", "touch x"),
        lambda p: p.pop("session_id"),
    ],
)
def test_another_shape_lists_nothing(mutate: Any) -> None:
    payload = load("permission-request-shell.json")
    mutate(payload)
    assert parse_permission_request(payload, agent="q", request_id="h", now=0.0) is None


def test_no_minted_id_lists_nothing() -> None:
    payload = load("permission-request-shell.json")
    assert parse_permission_request(payload, agent="q", request_id="", now=0.0) is None


def test_a_missing_command_is_no_subject() -> None:
    payload = load("permission-request-shell.json")
    del payload["tool_input"]["command"]
    request = parse_permission_request(payload, agent="q", request_id="h", now=0.0)
    assert request is not None
    assert request.subject is None


def test_unknown_and_mcp_tools_have_no_subject() -> None:
    payload = load("permission-request-shell.json")
    payload["tool_name"] = "mcp__files__delete"
    mcp = parse_permission_request(payload, agent="q", request_id="h", now=0.0)
    assert mcp is not None
    assert mcp.kind is PromptKind.MCP
    assert mcp.subject is None
    payload["tool_name"] = "save_memory"
    other = parse_permission_request(payload, agent="q", request_id="h", now=0.0)
    assert other is not None
    assert other.kind is PromptKind.OTHER
    assert other.subject is None


def test_the_decisions_are_the_shape_qwen_took_live() -> None:
    allow = json.loads(render_decision(ChannelAnswer.ALLOW))
    assert allow == {
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow"},
        }
    }
    deny = json.loads(render_decision(ChannelAnswer.DENY, "denied by paw"))
    assert deny["hookSpecificOutput"]["decision"] == {
        "behavior": "deny",
        "message": "denied by paw",
    }
    with pytest.raises(ValueError, match="always"):
        render_decision(ChannelAnswer.ALWAYS)
