"""Find and read the files where an agent CLI records its usage (see :mod:`paw.core.usage`).

Where the files are follows the agent's environment as paw starts it: paw's own environment
with the kind's ``[agents.<kind>] env`` of paw.toml on top (``HOME``, ``CLAUDE_CONFIG_DIR``,
``CODEX_HOME``, ``GEMINI_CLI_HOME``, ``QWEN_HOME``, ``QWEN_RUNTIME_DIR``, ``XDG_DATA_HOME``,
``OPENCODE_DB``, ``KILO_DB``, ``CLINE_DIR``, ``CLINE_DATA_DIR``, ``CLINE_SESSION_DATA_DIR``,
``CONTINUE_GLOBAL_DIR``, ``VIBE_HOME``). Only the sessions of the task's worktree count: Claude
Code's and Qwen Code's are filed under its path, Codex's name it on their first line (and only
logs of the days since the task started are opened), Gemini CLI's folder names it in its
``.project_root``, opencode's and Kilo Code's sessions have it as their ``directory``, Cline's
as their ``cwd``, Continue's index and Vibe's ``meta.json`` as their workspace. Within them,
only what was written since paw started the agent counts: an agent before it in the same
worktree path (a wave run again) is not its (Cline's, Continue's and Vibe's sessions count
whole, by when they began). Databases are opened read-only, never written.

A :class:`~paw.adapters.usage_cache.UsageCache` keeps each file's parse while its size and
modification time stay the same (in memory, and in ``.paw/usage-cache.json`` for the one-shot
commands): `paw ls` at 200 agents opens no session file that did not change since the last
look.
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
import os
from pathlib import Path
from typing import TYPE_CHECKING

from paw.adapters import usage_db
from paw.adapters.usage_cache import UsageCache, usage_data, usage_of, usage_valid
from paw.core.usage import (
    Usage,
    UsageReading,
    claude_project_dir,
    codex_session_cwd,
    is_within,
    parse_claude_session,
    parse_codex_rollout,
    parse_gemini_chat,
    parse_qwen_chat,
    usage_source,
)
from paw.core.usage_aider import LOG_KINDS, OWN_LOG_UNKNOWN

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

# Claude Code shortens very long project folder names: folders sharing this many leading
# characters with the worktree's are opened, and their lines filtered by their `cwd`.
_CLAUDE_PREFIX = 100
_DAY_S = 86400.0


def _cwd_valid(data: object) -> bool:
    return data is None or isinstance(data, str)


def read_usage(
    kind: str,
    worktree: str,
    env: Mapping[str, str],
    since: float | None,
    cache: UsageCache | None = None,
    *,
    log: Path | None = None,
) -> UsageReading:
    """What ``kind``'s agent used in ``worktree`` since ``since`` (a time; None: ever); unchanged
    files are not read again (``cache``); ``log``: see :mod:`paw.adapters.usage_logs`."""
    source = usage_source(kind)
    if source is None:
        return UsageReading(None, unknown=f"paw does not read {kind}'s usage")
    cache = cache or UsageCache()
    try:
        if kind not in LOG_KINDS:
            usage = _READERS[kind](worktree, env, since, cache)
        else:
            from paw.adapters.usage_logs import read_aider, user_aider_log  # (imports this)

            usage = None if log is None or not log.exists() else read_aider(log, since, cache)
            if usage is None and user_aider_log(worktree, env):
                return UsageReading(None, source, unknown=OWN_LOG_UNKNOWN)
            if log is None or not log.exists():
                return UsageReading(None, source, unknown=f"no {source}: {LOG_KINDS[kind]}")
    except OSError as err:
        return UsageReading(None, source, unknown=f"{source} unreadable: {err.strerror or err}")
    if usage is None:
        return UsageReading(None, source, unknown=f"no usage in {source} for its worktree")
    return UsageReading(usage, source)


def home_of(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or Path.home())


def _lines(path: Path) -> Iterator[str]:
    with path.open(encoding="utf-8", errors="replace") as handle:
        yield from handle


def _claude(
    worktree: str, env: Mapping[str, str], since: float | None, cache: UsageCache
) -> Usage | None:
    config = env.get("CLAUDE_CONFIG_DIR")
    projects = (Path(config) if config else home_of(env) / ".claude") / "projects"
    return _projectlist_folders("claude", projects, worktree, since, cache, _claude_file)


def _qwen(
    worktree: str, env: Mapping[str, str], since: float | None, cache: UsageCache
) -> Usage | None:
    """Qwen Code files its chats like Claude Code: ``<runtime dir>/projects/<the worktree's
    path, every character but letters and digits as ->/chats/<session>.jsonl`` (the runtime
    dir: ``QWEN_RUNTIME_DIR``, else ``QWEN_HOME``, else ``~/.qwen``)."""
    base = env.get("QWEN_RUNTIME_DIR") or env.get("QWEN_HOME")
    projects = (Path(base).expanduser() if base else home_of(env) / ".qwen") / "projects"
    return _projectlist_folders("qwen", projects, worktree, since, cache, _qwen_file)


def _projectlist_folders(
    kind: str,
    projects: Path,
    worktree: str,
    since: float | None,
    cache: UsageCache,
    parse: Callable[[Path, str, float | None], object],
) -> Usage | None:
    """The usage in the ``.jsonl`` files of the project folders named after ``worktree`` (or a
    folder below it) in ``projects``."""
    names = cache.once(f"{kind}\0{projects}", lambda: list_folders(projects))
    wanted = claude_project_dir(worktree.rstrip("/"))[:_CLAUDE_PREFIX]
    total: Usage | None = None
    at = bisect.bisect_left(names, wanted)  # the names starting with it follow, in order
    while at < len(names) and names[at].startswith(wanted):
        folder = projects / names[at]
        at += 1
        for path in _jsonl(folder):
            found = usage_of(
                cache.parsed(
                    f"{kind}\0{worktree}\0{since}\0{path}",
                    path,
                    functools.partial(parse, path, worktree, since),
                    usage_valid,
                )
            )
            if found is not None:
                total = found if total is None else total + found
    return total


def _claude_file(path: Path, worktree: str, since: float | None) -> object:
    return usage_data(parse_claude_session(_lines(path), worktree, since))


def _qwen_file(path: Path, worktree: str, since: float | None) -> object:
    return usage_data(parse_qwen_chat(_lines(path), worktree, since))


def _gemini(
    worktree: str, env: Mapping[str, str], since: float | None, cache: UsageCache
) -> Usage | None:
    """Gemini CLI keeps each project's chats in ``<gemini dir>/tmp/<short id>/chats/`` (the
    gemini dir: ``$GEMINI_CLI_HOME/.gemini``, else ``~/.gemini``); the folder's
    ``.project_root`` names the project's path (the worktree, or a folder below it)."""
    home = env.get("GEMINI_CLI_HOME")
    tmp = (Path(home) if home else home_of(env)) / ".gemini" / "tmp"
    index = cache.once(f"gemini\0{tmp}", lambda: _gemini_index(tmp, cache))
    total: Usage | None = None
    at = bisect.bisect_left(index, (worktree,))  # the folders of it and below it follow
    while at < len(index) and index[at][0].startswith(worktree):
        root, folder = index[at]
        at += 1
        if not is_within(root, worktree):
            continue
        for path in _jsonl(folder / "chats"):
            found = usage_of(
                cache.parsed(
                    f"gemini\0{since}\0{path}",
                    path,
                    functools.partial(_gemini_file, path, since),
                    usage_valid,
                )
            )
            if found is not None:
                total = found if total is None else total + found
    return total


def _gemini_file(path: Path, since: float | None) -> object:
    return usage_data(parse_gemini_chat(_lines(path), since))


def _project_root(path: Path) -> object:
    text = path.read_text(encoding="utf-8", errors="replace").strip()
    return text.rstrip("/") if text.startswith("/") else None


def _gemini_index(tmp: Path, cache: UsageCache) -> list[tuple[str, Path]]:
    """Every project folder with the path its ``.project_root`` names, sorted by the path
    (searched by prefix); a folder without one is left out."""
    index: list[tuple[str, Path]] = []
    for name in list_folders(tmp):
        marker = tmp / name / ".project_root"
        if not marker.is_file():
            continue
        root = cache.parsed(
            f"gemini-root\0{marker}", marker, functools.partial(_project_root, marker), _cwd_valid
        )
        if isinstance(root, str):
            index.append((root, tmp / name))
    return sorted(index)


def _codex_cwd(path: Path) -> object:
    return codex_session_cwd(_first_line(path))


def _codex_file(path: Path, since: float | None) -> object:
    return usage_data(parse_codex_rollout(_lines(path), since))


def list_folders(projects: Path) -> list[str]:
    """The names of the project folders, sorted (searched by prefix)."""
    if not projects.is_dir():
        return []
    with os.scandir(projects) as entries:
        return sorted(e.name for e in entries if e.is_dir())


def _jsonl(folder: Path) -> list[Path]:
    """The ``.jsonl`` files in ``folder`` and below it, sorted."""
    found: list[Path] = []
    for top, _dirs, files in os.walk(folder):
        found += (Path(top, f) for f in files if f.endswith(".jsonl"))
    return sorted(found)


def _first_line(path: Path) -> str:
    with path.open(encoding="utf-8", errors="replace") as handle:
        return handle.readline()


def _codex(
    worktree: str, env: Mapping[str, str], since: float | None, cache: UsageCache
) -> Usage | None:
    home = env.get("CODEX_HOME")
    sessions = (Path(home) if home else home_of(env) / ".codex") / "sessions"
    total: Usage | None = None
    first = None if since is None else dt.date.fromtimestamp(since - _DAY_S)
    index = cache.once(f"codex\0{sessions}", lambda: _codex_index(sessions, cache))
    at = bisect.bisect_left(index, (worktree,))  # the logs of it and below it follow
    while at < len(index) and index[at][0].startswith(worktree):
        cwd, path, day = index[at]
        at += 1
        if first is not None and day is not None and day < first:
            continue
        if not is_within(cwd, worktree):
            continue
        found = usage_of(
            cache.parsed(
                f"codex\0{since}\0{path}",
                path,
                functools.partial(_codex_file, path, since),
                usage_valid,
            )
        )
        if found is not None:
            total = found if total is None else total + found
    return total


# The readers of paw.adapters.usage_sessions (it imports this module, so each is imported when
# it is first called), named directly: a misspelt one fails mypy and ruff, not a reading.


def _cline(
    worktree: str, env: Mapping[str, str], since: float | None, cache: UsageCache
) -> Usage | None:
    from paw.adapters.usage_sessions import read_cline

    return read_cline(worktree, env, since, cache)


def _continue(
    worktree: str, env: Mapping[str, str], since: float | None, cache: UsageCache
) -> Usage | None:
    from paw.adapters.usage_sessions import read_continue

    return read_continue(worktree, env, since, cache)


def _vibe(
    worktree: str, env: Mapping[str, str], since: float | None, cache: UsageCache
) -> Usage | None:
    from paw.adapters.usage_sessions import read_vibe

    return read_vibe(worktree, env, since, cache)


# each reader by the kind whose files it reads (one line each: a new agent adds its own; the
# spec's ``usage_source`` names it, and tests/adapters/test_usage_agents.py holds the two equal)
_READERS: dict[str, Callable[[str, Mapping[str, str], float | None, UsageCache], Usage | None]] = {}
_READERS["claude-code"] = _claude
_READERS["codex"] = _codex
_READERS["gemini-cli"] = _gemini
_READERS["qwen-code"] = _qwen
_READERS["opencode"] = usage_db.read_opencode
_READERS["kilocode"] = usage_db.read_kilo
_READERS["cline"] = _cline
_READERS["continue-cli"] = _continue
_READERS["mistral-vibe"] = _vibe


def _codex_index(sessions: Path, cache: UsageCache) -> list[tuple[str, Path, dt.date | None]]:
    """Every session log with the working directory it names and its day folder
    (``YYYY/MM/DD``, local time; None outside such folders): once per look, whatever the
    number of agents; sorted by the directory (searched by prefix). A log without one is
    left out."""
    index: list[tuple[str, Path, dt.date | None]] = []
    for path in _codex_logs(sessions, None):
        cwd = cache.parsed(
            f"codex-cwd\0{path}", path, functools.partial(_codex_cwd, path), _cwd_valid
        )
        day = path.parent
        try:
            date: dt.date | None = dt.date(
                int(day.parent.parent.name), int(day.parent.name), int(day.name)
            )
        except ValueError:
            date = None
        if isinstance(cwd, str):
            index.append((cwd, path, date))
    return sorted(index, key=lambda entry: (entry[0], str(entry[1])))


def _codex_logs(sessions: Path, since: float | None) -> list[Path]:
    """The session logs of the days since ``since`` (a day early: the folders are named in
    local time); every log when ``since`` is None."""
    if not sessions.is_dir():
        return []
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
