"""Directory allowlist checks (git-guardrails' ``isPathAllowed``, made component-wise)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path


def _resolve(path: str | os.PathLike[str]) -> Path:
    return Path(path).expanduser().resolve(strict=False)


def is_path_allowed(
    path: str | os.PathLike[str], allowed_dirs: Iterable[str | os.PathLike[str]]
) -> bool:
    """True if ``path`` lies inside (or is) one of ``allowed_dirs``.

    Both sides are resolved first (``~``, ``..`` and symlinks, also for paths that do not exist
    yet), then compared component by component: ``/home/user-evil`` is not inside ``/home/user``
    (git-guardrails compares string prefixes), and a symlink inside an allowed directory that
    points outside it is outside. Relative paths are taken from the current directory. An empty
    ``allowed_dirs`` allows nothing.
    """
    target = _resolve(path)
    return any(target.is_relative_to(_resolve(d)) for d in allowed_dirs)
