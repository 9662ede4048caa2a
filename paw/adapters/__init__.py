"""paw's adapters: the only code with side effects (subprocesses, tmux, git, disk).

Each module implements one port of :mod:`paw.core.ports` (or a small store) and translates
the failures of its technology into :mod:`paw.errors` exceptions.
"""

from __future__ import annotations
