"""paw: a supervisor for parallel coding agents, and a guard layer for agent shell and git actions.

The package root imports nothing heavy: ``import paw`` must stay cheap.
"""

from __future__ import annotations

__version__ = "0.1.0"
