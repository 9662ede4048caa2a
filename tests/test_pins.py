"""scripts/install-agents pins exactly the agent versions paw verified (paw/core/verified.py)."""

from __future__ import annotations

import re
from pathlib import Path

from paw.core.verified import VERIFIED_VERSIONS

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "install-agents"
PACKAGES = {
    "claude-code": "@anthropic-ai/claude-code",
    "codex": "@openai/codex",
    "gemini-cli": "@google/gemini-cli",
    "qwen-code": "@qwen-code/qwen-code",
    "opencode": "opencode-ai",
    "aider": "aider-chat",
    "kilocode": "@kilocode/cli",
    "cline": "cline",
    "continue-cli": "@continuedev/cli",
    "mistral-vibe": "mistral-vibe",
}


def test_install_agents_pins_the_verified_versions() -> None:
    text = SCRIPT.read_text(encoding="utf-8")
    pinned = {
        agent: match.group(1)
        for agent, package in PACKAGES.items()
        if (match := re.search(re.escape(package) + r"(?:@|==)([0-9][0-9.]*)", text))
    }
    assert pinned == VERIFIED_VERSIONS
