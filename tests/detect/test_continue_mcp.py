"""Continue CLI's MCP tool call is listed as kind ``mcp`` with the tool's name as its subject.

Continue draws an MCP tool by its bare name (``paw_probe(hello from paw)``, no server) with its
generic preview ``⎿ Will call paw_probe with 1 argument``; its own tools have names of their own
(``Bash``, ``Read``…). The screen is the live capture ``continue-cli/mcp_120x40`` (an MCP server
of tests/e2e/mcp_server.py, the call proven to run on Enter).
"""

from __future__ import annotations

from paw.core.detect import detect
from paw.core.models import DetectionState, PromptKind
from tests.detect.corpus import LIVE

SCREEN = (LIVE / "continue-cli" / "mcp_120x40" / "screen.txt").read_text(encoding="utf-8")


def test_mcp_tool_call_is_kind_mcp_with_the_tool_name() -> None:
    found = detect(SCREEN, "continue-cli")
    assert found.state is DetectionState.PROMPT
    assert found.prompt is not None
    assert (found.prompt.kind, found.prompt.subject) == (PromptKind.MCP, "paw_probe")


def test_one_of_continues_own_tools_is_not_mcp() -> None:
    screen = SCREEN.replace("paw_probe(", "Read(    ").replace("call paw_probe", "call Read     ")
    found = detect(screen, "continue-cli")
    assert found.prompt is not None
    assert found.prompt.kind is PromptKind.OTHER


def test_a_tool_without_the_generic_preview_is_not_taken_for_mcp() -> None:
    screen = SCREEN.replace("⎿ Will call paw_probe with 1 argument", "⎿ Will do something else  ")
    found = detect(screen, "continue-cli")
    assert found.prompt is not None
    assert found.prompt.kind is PromptKind.OTHER
