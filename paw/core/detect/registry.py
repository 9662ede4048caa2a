"""Which module detects which agent: agent id -> module path, imported lazily.

Each module exposes ``detect_screen(text: str) -> Detection``. Adding an agent means adding one
module under ``paw.core.detect.agents`` and one line here (plus a fixture folder).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Protocol, cast

if TYPE_CHECKING:
    from paw.core.models import Detection

AGENT_MODULES: dict[str, str] = {
    "claude-code": "paw.core.detect.agents.claude_code",
    "codex": "paw.core.detect.agents.codex",
    "gemini-cli": "paw.core.detect.agents.gemini_cli",
    "aider": "paw.core.detect.agents.aider",
    "qwen-code": "paw.core.detect.agents.qwen_code",
    "opencode": "paw.core.detect.agents.opencode",
    "kilocode": "paw.core.detect.agents.kilocode",
    "cline": "paw.core.detect.agents.cline",
    "continue-cli": "paw.core.detect.agents.continue_cli",
    "mistral-vibe": "paw.core.detect.agents.mistral_vibe",
    # paw's own scripted demo agent; its module ships with the supervisor.
    "scripted": "paw.core.detect.agents.scripted",
}


class ScreenDetector(Protocol):
    """The one function every agent module exposes."""

    def __call__(self, text: str) -> Detection:
        """Detect the state of ``text``, a captured pane of this agent."""
        ...


def load_detector(agent: str) -> ScreenDetector | None:
    """The ``detect_screen`` function for ``agent``, or None if unknown or not installed."""
    module_path = AGENT_MODULES.get(agent)
    if module_path is None:
        return None
    try:
        module = importlib.import_module(module_path)
    except ModuleNotFoundError as err:
        if err.name != module_path:  # a real bug inside the module: let it surface
            raise
        return None
    detector = getattr(module, "detect_screen", None)
    return cast("ScreenDetector", detector) if callable(detector) else None
