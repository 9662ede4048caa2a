"""``python -m paw``."""

from __future__ import annotations

from paw.cli import run

run()
