"""Cline's PreToolUse hook payload as paw's ChannelRequest: payloads captured live from the
pinned Cline (tests/fixtures/channels/cline/README.md says how). Never answerable: the hook
cannot grant, and it has exited before Cline draws its dialog."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paw.core.channels.cline import classify_tool, parse_pre_tool_use
from paw.core.channels.request import ChannelState
from paw.core.models import PromptKind

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "channels" / "cline"
README = "/home/user/work/demo/README.md"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(
    ("fixture", "kind", "subject"),
    [
        ("pre-tool-use-shell.json", PromptKind.SHELL, "touch paw-shell.txt"),
        ("pre-tool-use-shell-cancel.json", PromptKind.SHELL, "touch paw-shell-denied.txt"),
        ("pre-tool-use-edit.json", PromptKind.EDIT, README),
        ("pre-tool-use-read.json", PromptKind.OTHER, None),
    ],
)
def test_a_captured_payload_carries_the_exact_input(
    fixture: str, kind: PromptKind, subject: str | None
) -> None:
    payload = load(fixture)
    request = parse_pre_tool_use(payload, agent="c1", request_id="hook-1", now=3.0)
    assert request is not None
    assert (request.kind, request.subject) == (kind, subject)
    assert request.tool == payload["tool_call"]["name"]
    assert request.raw["tool_input"] == payload["tool_call"]["input"]
    assert request.raw["tool_call_id"] == payload["tool_call"]["id"]
    assert (request.agent, request.source, request.request_id) == ("c1", "cline-hook", "hook-1")
    assert request.state is ChannelState.PENDING
    assert not request.can_answer


def test_several_commands_are_one_per_line_as_the_dialog_draws_them() -> None:
    kind, subject = classify_tool("run_commands", {"commands": ["git status", "ls -la"]})
    assert (kind, subject) == (PromptKind.SHELL, "git status\nls -la")


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        ("run_commands", {"commands": "touch x"}),  # a string, not Cline's list
        ("run_commands", {"commands": []}),
        ("run_commands", {"commands": ["touch x", 3]}),
        ("run_commands", {"commands": ["  "]}),
        ("editor", {"path": ""}),
        ("editor", {"file_path": README}),
        ("fetch_web_content", {"url": "https://example.invalid"}),  # not verified: no subject
    ],
    ids=["string", "empty", "non-string", "blank", "empty-path", "other-key", "fetch"],
)
def test_an_input_of_another_shape_has_no_subject(tool: str, tool_input: dict[str, Any]) -> None:
    assert classify_tool(tool, tool_input)[1] is None


@pytest.mark.parametrize(
    "mutate",
    [
        lambda p: p.update(hookName="tool_result"),
        lambda p: p.pop("tool_call"),
        lambda p: p.update(tool_call={"id": "x", "name": "", "input": {}}),
        lambda p: p.update(tool_call={"id": "x", "name": "editor", "input": "README.md"}),
        lambda p: p.pop("taskId"),
    ],
    ids=["post-tool-use", "no-call", "no-name", "input-not-object", "no-task"],
)
def test_a_payload_of_another_shape_is_not_a_request(mutate: Any) -> None:
    payload = load("pre-tool-use-shell.json")
    mutate(payload)
    assert parse_pre_tool_use(payload, agent="c1", request_id="hook-1", now=0.0) is None


def test_no_request_without_an_id() -> None:
    payload = load("pre-tool-use-shell.json")
    assert parse_pre_tool_use(payload, agent="c1", request_id="", now=0.0) is None
    assert parse_pre_tool_use([], agent="c1", request_id="hook-1", now=0.0) is None
