"""paw.guard: the public guard API (facade; being assembled)."""

from __future__ import annotations
