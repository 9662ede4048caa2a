"""Path classification for sensitive and agent-instruction files (placeholder, being written)."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paw.core.config import GuardConfig


class PathClass(StrEnum):
    """What a path is to the guard."""

    SENSITIVE = "sensitive"
    INSTRUCTION = "instruction"
    ORDINARY = "ordinary"


def classify_path(path: str, config: GuardConfig | None = None) -> PathClass:
    """Classify one repository-relative or absolute path (no status prefix)."""
    del config
    name = path.rsplit("/", 1)[-1].lower()
    if name in {"agents.md", "claude.md", "gemini.md"}:
        return PathClass.INSTRUCTION
    if name == ".env" or name.endswith((".pem", ".key")):
        return PathClass.SENSITIVE
    return PathClass.ORDINARY
