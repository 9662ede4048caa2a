"""Find and read the files where an agent CLI records its usage (see :mod:`paw.core.usage`).

Where the files are follows the agent's environment as paw starts it: paw's own environment
with the kind's ``[agents.<kind>] env`` of paw.toml on top (``HOME``, ``CLAUDE_CONFIG_DIR``,
``CODEX_HOME``). Only the sessions of the task's worktree count: Claude Code's are filed
under the worktree's path, Codex's name it on their first line (and only logs of the days
since the task started are opened).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING

from paw.core.usage import (
    SOURCES,
    Usage,
    UsageReading,
    claude_project_dir,
    codex_session_cwd,
    is_within,
    parse_claude_session,
    parse_codex_rollout,
)

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

# Claude Code shortens very long project folder names: folders sharing this many leading
# characters with the worktree's are opened, and their lines filtered by their `cwd`.
_CLAUDE_PREFIX = 100
_DAY_S = 86400.0


def read_usage(
    kind: str, worktree: str, env: Mapping[str, str], since: float | None
) -> UsageReading:
    """What ``kind``'s agent used in ``worktree`` since ``since`` (a time; None: ever)."""
    source = SOURCES.get(kind)
    if source is None:
        return UsageReading(None, unknown=f"paw does not read {kind}'s usage")
    try:
        usage = _claude(worktree, env) if kind == "claude-code" else _codex(worktree, env, since)
    except OSError as err:
        return UsageReading(None, source, unknown=f"{source} unreadable: {err.strerror or err}")
    if usage is None:
        return UsageReading(None, source, unknown=f"no usage in {source} for its worktree")
    return UsageReading(usage, source)


def _home(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or Path.home())


def _lines(path: Path) -> Iterator[str]:
    with path.open(encoding="utf-8", errors="replace") as handle:
        yield from handle


def _claude(worktree: str, env: Mapping[str, str]) -> Usage | None:
    config = env.get("CLAUDE_CONFIG_DIR")
    projects = (Path(config) if config else _home(env) / ".claude") / "projects"
    if not projects.is_dir():
        return None
    wanted = claude_project_dir(worktree.rstrip("/"))
    total: Usage | None = None
    for folder in sorted(projects.iterdir()):
        if not folder.is_dir() or not folder.name.startswith(wanted[:_CLAUDE_PREFIX]):
            continue
        for path in sorted(folder.rglob("*.jsonl")):
            found = parse_claude_session(_lines(path), worktree)
            if found is not None:
                total = found if total is None else total + found
    return total


def _codex(worktree: str, env: Mapping[str, str], since: float | None) -> Usage | None:
    home = env.get("CODEX_HOME")
    sessions = (Path(home) if home else _home(env) / ".codex") / "sessions"
    if not sessions.is_dir():
        return None
    total: Usage | None = None
    for path in _codex_logs(sessions, since):
        with path.open(encoding="utf-8", errors="replace") as handle:
            cwd = codex_session_cwd(handle.readline())
        if cwd is None or not is_within(cwd, worktree):
            continue
        found = parse_codex_rollout(_lines(path))
        if found is not None:
            total = found if total is None else total + found
    return total


def _codex_logs(sessions: Path, since: float | None) -> list[Path]:
    """The session logs of the days since ``since`` (a day early: the folders are named in
    local time); every log when ``since`` is None."""
    if since is None:
        return sorted(sessions.rglob("rollout-*.jsonl"))
    first = dt.date.fromtimestamp(since - _DAY_S)
    logs: list[Path] = []
    for day in sorted(sessions.glob("[0-9]*/[0-9]*/[0-9]*")):
        try:
            date = dt.date(int(day.parent.parent.name), int(day.parent.name), int(day.name))
        except ValueError:
            continue
        if date >= first:
            logs += sorted(day.glob("rollout-*.jsonl"))
    return logs
