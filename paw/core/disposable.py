"""Which ignored paths are disposable (dependency and build caches ``paw rm`` may delete)."""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence


def is_disposable(path: str, patterns: Sequence[str]) -> bool:
    """True when a component of ``path`` matches one of the ``patterns`` (shell globs).

    >>> is_disposable("web/node_modules/", ("node_modules",))
    True
    >>> is_disposable(".env", ("node_modules", "*.pyc"))
    False
    """
    parts = [p for p in path.rstrip("/").split("/") if p]
    return any(fnmatch.fnmatchcase(part, pat) for part in parts for pat in patterns)
