"""The agent CLI versions paw's detectors were verified against (see docs/agents.md)."""

from __future__ import annotations

import re

VERIFIED_VERSIONS: dict[str, str] = {
    "claude-code": "2.1.332",
    "codex": "0.171.0",
    "gemini-cli": "0.61.0",
    "aider": "0.86.2",
    "qwen-code": "0.24.4",
    "opencode": "1.18.33",
    "kilocode": "7.7.7",
    "cline": "3.0.65",
    "continue-cli": "1.5.47",
    "mistral-vibe": "3.0.2",
}
"""Agent id -> the version whose live prompts the e2e suite verified."""

BINARIES: dict[str, str] = {
    "claude-code": "claude",
    "codex": "codex",
    "gemini-cli": "gemini",
    "aider": "aider",
    "qwen-code": "qwen",
    "opencode": "opencode",
    "kilocode": "kilo",
    "cline": "cline",
    "continue-cli": "cn",
    "mistral-vibe": "vibe",
}
"""Agent id -> the command its package installs."""

_VERSION = re.compile(r"\d+\.\d+\.\d+")


def parse_version(text: str) -> str | None:
    """The first ``X.Y.Z`` in a ``--version`` output.

    >>> parse_version("codex-cli 0.171.0")
    '0.171.0'
    >>> parse_version("no version here") is None
    True
    """
    found = _VERSION.search(text)
    return found.group(0) if found else None
