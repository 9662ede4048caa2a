"""One module per agent CLI: its signatures as data plus ``detect_screen(text) -> Detection``."""

from __future__ import annotations
