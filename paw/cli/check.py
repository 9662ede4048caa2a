"""`paw` sub-commands: detect (placeholder until its issue lands)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register this module's sub-commands (none yet)."""
