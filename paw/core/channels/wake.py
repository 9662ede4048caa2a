"""Where a hook channel's program pokes the long-running paw processes that sweep (pure names).

Each long-running paw process (the TUI's sweeper, the TUI sweeping itself, ``paw serve``, a
wave runner) that reads the agents' hook channels makes a FIFO of its own in the state dir's
wake directory and reads it; paw's hook program writes one byte to every FIFO there right after
its record landed (and after its outcome did). A poke carries nothing: it only says "look now".
The records on disk stay the truth, read and proven by the sweep as always; a poke from anyone
else costs a look, never a decision (:mod:`paw.adapters.channels.wake`).
"""

from __future__ import annotations

from pathlib import Path

WAKE_DIR = ".wake"  # under ``<state>/channels/`` (no agent's name starts with a dot)
SUFFIX = ".fifo"
MAX_POKED = 64  # FIFOs one hook pokes at most (each is one paw process sweeping this repo)


def wake_dir(state_root: Path) -> Path:
    """The wake directory of paw's state dir ``state_root``."""
    return state_root / "channels" / WAKE_DIR


def wake_dir_of(channel: Path) -> Path:
    """The wake directory for a spawn's channel directory ``<state>/channels/<agent>/<spawn>``."""
    return channel.parent.parent / WAKE_DIR
