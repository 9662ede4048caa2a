"""Small pieces shared by the sub-command modules."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paw.core.config import GuardConfig

STATE_DIR = ".paw"  # paw's state directory, at the repository's root


def add_json_flag(parser: argparse.ArgumentParser) -> None:
    """Add the standard ``--json`` flag."""
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")


def find_config(start: str | None) -> Path | None:
    """The nearest paw.toml at or above ``start`` (default: the current directory)."""
    here = Path(start or ".").resolve()
    for folder in (here, *here.parents):
        candidate = folder / "paw.toml"
        if candidate.is_file():
            return candidate
    return None


def load_guard_config(explicit: str | None, cwd: str | None) -> GuardConfig | None:
    """The ``[guard]`` table of paw.toml (explicit file, else the nearest one), or None."""
    from paw.adapters.config_store import format_problem, load_config
    from paw.cli import UsageError

    path = Path(explicit) if explicit else find_config(cwd)
    if path is None:
        return None
    if not path.is_file():
        raise UsageError(f"{path}: no such config file")
    config, problems = load_config(path)
    if problems or config is None:
        raise UsageError("; ".join(format_problem(p) for p in problems) or f"{path}: invalid")
    return config.guard


def find_repo_root(start: str | None = None) -> str:
    """The main worktree of the repository containing ``start`` (default: the cwd).

    Outside a repository (or for a missing ``-C`` directory) a one-line error, never git's own
    message. Light on imports: the TUI calls it before its first frame."""
    from paw.adapters.git.runner import GitCli
    from paw.cli import UsageError
    from paw.errors import GitError, PawError

    where = start or str(Path.cwd())
    if not Path(where).is_dir():
        raise UsageError(f"no such directory: {where}")
    try:
        return GitCli().repo_root(where)
    except GitError as err:
        text = err.message.lower()
        if "not a git repository" in text or "not inside a git repository" in text:
            where_ = "" if start is None else f"{start} is "
            advice = "cd into one, pass -C DIR, or try `paw demo`"
            raise PawError(f"{where_}not inside a git repository ({advice})") from err
        raise
