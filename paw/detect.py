"""``paw.detect``: the public detection API (``detect(screen, agent) -> Detection``).

A thin re-export of :mod:`paw.core.detect`, pure and headless like the guard.
"""

from __future__ import annotations

from paw.core.detect import AGENTS, detect
from paw.core.models import Detection, DetectionState, Prompt, PromptKind

__all__ = ["AGENTS", "Detection", "DetectionState", "Prompt", "PromptKind", "detect"]
