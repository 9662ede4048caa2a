"""Where a path on this machine really leads: symlinks followed, for the guard to compare."""

from __future__ import annotations

import os
import socket
from pathlib import Path


def resolve_path(path: str) -> str | None:
    """``path`` with every symlink followed (missing tails kept as written), or None when the
    filesystem cannot tell (a link loop, a permission error): the guard then confirms."""
    try:
        real = os.path.realpath(path, strict=False)
        if Path(real).is_symlink():  # a loop leaves a link unresolved at the end
            return None
    except (OSError, ValueError, RuntimeError):
        return None
    return real


def home_directory() -> str | None:
    """The user's home directory (absolute), or None when this process cannot tell: the guard
    places ``~/…`` there (it reads no environment itself)."""
    try:
        home = str(Path("~").expanduser())
    except RuntimeError:  # no HOME and no password entry
        return None
    return home if home.startswith("/") else None


def machine_name() -> str:
    """This machine's name (``socket.gethostname()``; "" when it has none): messages name it
    beside the repository, for someone who runs paw on more than one."""
    try:
        return socket.gethostname()
    except OSError:
        return ""
