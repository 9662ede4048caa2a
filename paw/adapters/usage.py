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

A :class:`UsageCache` keeps each file's parse while its size and modification time stay the
same (in memory, and in ``.paw/usage-cache.json`` for the one-shot commands): `paw ls` at
200 agents opens no session file that did not change since the last look.
"""

from __future__ import annotations

import bisect
import dataclasses
import datetime as dt
import functools
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, cast

from paw.adapters import usage_db
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

    from paw.adapters.state import StateStore

_T = TypeVar("_T")

# Claude Code shortens very long project folder names: folders sharing this many leading
# characters with the worktree's are opened, and their lines filtered by their `cwd`.
_CLAUDE_PREFIX = 100
_DAY_S = 86400.0


CACHE_DOC = "usage-cache"
_CACHE_MAX = 20000  # entries kept on disk (the newest looks win; a dropped one is read again)


class UsageCache:
    """Each session file's parse, kept while the file's size and mtime stay (see the module's
    docstring); the folder listings of one look. ``store``: where it is kept between
    processes (None: in memory only). Not shared between threads."""

    def __init__(self, store: StateStore | None = None) -> None:
        """Empty; the stored entries are read at the first look."""
        self._store = store
        self._entries: dict[str, list[object]] | None = None
        self._dirty = False
        self._listings: dict[str, object] = {}

    def _loaded(self) -> dict[str, list[object]]:
        if self._entries is None:
            self._entries = {}
            if self._store is not None:
                from paw.errors import PawError

                try:
                    data = self._store.read(CACHE_DOC)
                except PawError:
                    data = None  # unreadable or corrupt: read the files again
                files = data.get("files") if isinstance(data, dict) else None
                if isinstance(files, dict):
                    self._entries = {
                        str(k): v for k, v in files.items() if isinstance(v, list) and len(v) == 3
                    }
        return self._entries

    def parsed(
        self, key: str, path: Path, parse: Callable[[], object], valid: Callable[[object], bool]
    ) -> object:
        """``parse()`` of ``path``, or what it gave when the file had this size and mtime
        (an entry ``valid`` refuses, e.g. of another paw version: parsed again)."""
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            return None  # a FIFO or a device named like a session file: never opened
        entries = self._loaded()
        entry = entries.get(key)
        if (
            entry is not None
            and entry[0] == info.st_size
            and entry[1] == info.st_mtime_ns
            and valid(entry[2])
        ):
            return entry[2]
        value = parse()
        entries.pop(key, None)  # to the end: the newest are kept when the cache is capped
        entries[key] = [info.st_size, info.st_mtime_ns, value]
        self._dirty = True
        return value

    def once(self, key: str, read: Callable[[], _T]) -> _T:
        """``read()`` (a folder's listing), once per look (:meth:`new_look` forgets them):
        200 agents in one `paw ls` list each folder once."""
        if key not in self._listings:
            self._listings[key] = read()
        return cast("_T", self._listings[key])

    def new_look(self) -> None:
        """Folders are listed again from now on (new sessions, new days)."""
        self._listings.clear()

    def save(self) -> None:
        """Keep the entries for the next process (atomically; a failure only costs a read)."""
        if self._store is None or not self._dirty or self._entries is None:
            return
        from paw.errors import PawError

        entries = self._entries
        if len(entries) > _CACHE_MAX:
            entries = dict(list(entries.items())[-_CACHE_MAX:])
        try:
            self._store.write(CACHE_DOC, {"files": entries}, durable=False)
        except PawError:
            return
        self._dirty = False


def usage_data(usage: Usage | None) -> object:
    return None if usage is None else dataclasses.asdict(usage)


def usage_of(data: object) -> Usage | None:
    if not isinstance(data, dict):
        return None
    try:
        return Usage(**data)
    except TypeError:
        return None


def usage_valid(data: object) -> bool:
    """A cached usage paw can use: None (no usage in the file) or a whole Usage."""
    if data is None:
        return True
    usage = usage_of(data)
    if usage is None:
        return False
    counts = (getattr(usage, f.name) for f in dataclasses.fields(usage) if f.name != "cost_usd")
    cost = usage.cost_usd
    return all(type(c) is int for c in counts) and (cost is None or type(cost) in (int, float))


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
