"""Agent names and paw's tmux session name: validation and derivation (pure)."""

from __future__ import annotations

import hashlib
import re

MAX_NAME_LENGTH = 40
_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
_SESSION_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name an agent, or None when it can.

    A name becomes a directory, a branch suffix and a tmux tag, so it is restricted to letters,
    digits, ``-`` and ``_`` (starting with a letter or digit): no shell or tmux metacharacters
    (``;``, quotes, ``:``, ``%``, ``.``, spaces), no slashes, no ``..``.
    """
    if not name:
        return "an agent name must not be empty"
    if len(name) > MAX_NAME_LENGTH:
        return f"agent name is longer than {MAX_NAME_LENGTH} characters"
    if _NAME_RE.fullmatch(name) is None:
        return (
            f"invalid agent name {name!r}: use letters, digits, '-' and '_' "
            "(starting with a letter or digit)"
        )
    return None


def is_valid_name(name: str) -> bool:
    """True when ``name`` can name an agent (see :func:`name_problem`)."""
    return name_problem(name) is None


def repo_hash(repo_root: str) -> str:
    """A short stable id of a repository root path (tags panes, names the session)."""
    return hashlib.sha256(repo_root.encode()).hexdigest()[:6]


def default_session_name(repo_root: str) -> str:
    """``pawd-<repo-name>-<short hash>``: unique per repository, never git-paw's ``paw-*``."""
    base = repo_root.rstrip("/").rsplit("/", 1)[-1] or "repo"
    safe = _SESSION_UNSAFE.sub("-", base).strip("-")[:30] or "repo"
    return f"pawd-{safe}-{repo_hash(repo_root)}"
