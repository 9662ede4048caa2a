"""paw.tui."""

from __future__ import annotations
