"""Live-prompt detection: screen text in, :class:`~paw.core.models.Detection` out.

``detect(screen, agent)`` is pure: no I/O, no clock. Only a prompt at the live position of the
agent's UI counts (see docs/agents.md); busy indicators are checked before prompts.
"""

from __future__ import annotations

from paw.core.detect.dialogs import mark_dialog
from paw.core.detect.registry import agent_kinds, load_detector, load_input_reader
from paw.core.models import Detection, DetectionState

AGENTS: tuple[str, ...] = agent_kinds()

__all__ = ["AGENTS", "detect", "read_input"]


def detect(screen: str, agent: str) -> Detection:
    """Detect what ``agent``'s pane shows in ``screen`` (a capture, escape sequences allowed).

    Unknown agents, and agents whose detector is not installed, give state ``unknown``.
    """
    detector = load_detector(agent)
    if detector is None:
        return Detection(
            state=DetectionState.UNKNOWN, agent=agent, notes=(f"no detector for {agent!r}",)
        )
    found = detector(screen)
    prompt = mark_dialog(found.prompt) if found.prompt is not None else None
    if found.agent != agent or prompt is not found.prompt:
        return Detection(state=found.state, agent=agent, prompt=prompt, notes=found.notes)
    return found


def read_input(screen: str, agent: str) -> str | None:
    """What ``agent``'s input line holds in ``screen``: "" when it is empty, the text typed
    into it otherwise, None when paw cannot read it (no reader for the agent, no input line
    where the agent draws it, a layout the reader does not know). Fail closed: only "" is
    an empty input."""
    reader = load_input_reader(agent)
    if reader is None:
        return None
    return reader(screen)
