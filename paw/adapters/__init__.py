"""paw.adapters."""

from __future__ import annotations
