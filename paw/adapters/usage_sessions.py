"""Find and read Cline's, Continue's and Mistral Vibe's session files (see
:mod:`paw.core.usage_sessions`): only regular files are opened (a FIFO named like one never
is), only sessions run in the worktree (or below it) and begun since the agent's start count,
and every parse is kept by the :class:`~paw.adapters.usage_cache.UsageCache` while the file's size
and mtime stay."""

from __future__ import annotations

import bisect
import dataclasses
import functools
from pathlib import Path
from typing import TYPE_CHECKING, cast

from paw.adapters.usage import home_of, list_folders
from paw.adapters.usage_cache import UsageCache, usage_data, usage_of, usage_valid
from paw.core.usage_sessions import (
    count_cline_responses,
    count_vibe_completions,
    is_agents_session,
    is_session_name,
    parse_cline_session,
    parse_continue_index,
    parse_continue_session,
    parse_vibe_meta,
    parse_vibe_projection,
    vibe_generation,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from paw.core.usage import Usage


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def _cline_summary(path: Path) -> object:
    found = parse_cline_session(_text(path))
    return None if found is None else [found[0], found[1], usage_data(found[2])]


def _cline_summary_valid(data: object) -> bool:
    if data is None:
        return True
    return (
        isinstance(data, list)
        and len(data) == 3
        and isinstance(data[0], str)
        and (data[1] is None or type(data[1]) in (int, float))
        and data[2] is not None
        and usage_valid(data[2])
    )


def _cline_responses(path: Path) -> object:
    return count_cline_responses(_text(path))


def _count_valid(data: object) -> bool:
    return type(data) is int


def read_cline(
    worktree: str, env: Mapping[str, str], since: float | None, cache: UsageCache
) -> Usage | None:
    """Cline keeps each session in ``<sessions>/<id>/<id>.json`` (its ``cwd``, ``started_at``
    and totals) beside ``<id>.messages.json`` (its responses); the sessions folder:
    ``CLINE_SESSION_DATA_DIR``, else ``$CLINE_DATA_DIR/sessions``, else
    ``$CLINE_DIR/data/sessions`` (``CLINE_DIR`` else ``~/.cline``)."""
    sessions = _cline_sessions_dir(env)
    index = cache.once(f"cline\0{sessions}", lambda: _cline_index(sessions, cache))
    total: Usage | None = None
    at = bisect.bisect_left(index, (worktree,))  # the sessions of it and below it follow
    while at < len(index) and index[at][0].startswith(worktree):
        cwd, started, path = index[at]
        at += 1
        if not is_agents_session(cwd, started, worktree, since):
            continue
        summary = cache.parsed(
            f"cline\0{path}", path, functools.partial(_cline_summary, path), _cline_summary_valid
        )
        found = usage_of(summary[2]) if isinstance(summary, list) else None
        if found is None:
            continue
        messages = path.with_name(path.name.removesuffix(".json") + ".messages.json")
        if messages.exists():
            found = _with_responses(found, "cline", messages, _cline_responses, cache)
        total = found if total is None else total + found
    return total


def _cline_sessions_dir(env: Mapping[str, str]) -> Path:
    named = (env.get("CLINE_SESSION_DATA_DIR") or "").strip()
    if named:
        return Path(named)
    data = (env.get("CLINE_DATA_DIR") or "").strip()
    if data:
        return Path(data) / "sessions"
    root = (env.get("CLINE_DIR") or "").strip()
    return (Path(root) if root else home_of(env) / ".cline") / "data" / "sessions"


def _cline_index(sessions: Path, cache: UsageCache) -> list[tuple[str, float | None, Path]]:
    """Every session file with the directory it ran in and when it started: once per look,
    whatever the number of agents; sorted by the directory (searched by prefix). A folder
    whose name is not a plain session id, or a file stating no usage, is left out."""
    index: list[tuple[str, float | None, Path]] = []
    for name in list_folders(sessions):
        path = sessions / name / f"{name}.json"
        if not is_session_name(name) or not path.is_file():
            continue
        summary = cache.parsed(
            f"cline\0{path}", path, functools.partial(_cline_summary, path), _cline_summary_valid
        )
        if isinstance(summary, list):
            index.append((str(summary[0]), cast("float | None", summary[1]), path))
    return sorted(index, key=lambda entry: (entry[0], str(entry[2])))


def _continue_index_data(path: Path) -> object:
    return [list(entry) for entry in parse_continue_index(_text(path))]


def _continue_index_valid(data: object) -> bool:
    return isinstance(data, list) and all(
        isinstance(e, list)
        and len(e) == 3
        and isinstance(e[0], str)
        and isinstance(e[1], str)
        and (e[2] is None or type(e[2]) in (int, float))
        for e in data
    )


def read_continue(
    worktree: str, env: Mapping[str, str], since: float | None, cache: UsageCache
) -> Usage | None:
    """Continue's ``cn`` keeps each session in ``<global dir>/sessions/<id>.json``, and
    ``sessions.json`` beside them lists each one's workspace and creation time (the global
    dir: ``CONTINUE_GLOBAL_DIR``, relative to the worktree when relative; else
    ``~/.continue``)."""
    named = env.get("CONTINUE_GLOBAL_DIR")
    if named:
        root = Path(named) if Path(named).is_absolute() else Path(worktree) / named
    else:
        root = home_of(env) / ".continue"
    sessions = root / "sessions"
    listing = sessions / "sessions.json"
    index = cache.once(
        f"continue\0{sessions}",
        lambda: (
            cache.parsed(
                f"continue-index\0{listing}",
                listing,
                functools.partial(_continue_index_data, listing),
                _continue_index_valid,
            )
            if listing.is_file()
            else []
        ),
    )
    total: Usage | None = None
    for session, directory, created in index if isinstance(index, list) else []:
        if not is_agents_session(directory, created, worktree, since):
            continue
        path = sessions / f"{session}.json"
        if not path.is_file():
            continue  # listed, its file not written yet (or deleted)
        found = usage_of(
            cache.parsed(
                f"continue\0{path}",
                path,
                functools.partial(_continue_file, path),
                usage_valid,
            )
        )
        if found is not None:
            total = found if total is None else total + found
    return total


def _continue_file(path: Path) -> object:
    return usage_data(parse_continue_session(_text(path)))


def _vibe_meta(path: Path) -> object:
    found = parse_vibe_meta(_text(path))
    return None if found is None else list(found)


def _vibe_meta_valid(data: object) -> bool:
    return data is None or (
        isinstance(data, list)
        and len(data) == 2
        and isinstance(data[0], str)
        and (data[1] is None or type(data[1]) in (int, float))
    )


def _vibe_generation(path: Path) -> object:
    return vibe_generation(_text(path))


def _vibe_generation_valid(data: object) -> bool:
    return data is None or (isinstance(data, str) and data.isdigit())


def _vibe_projection(path: Path) -> object:
    return usage_data(parse_vibe_projection(_text(path)))


def _vibe_completions(path: Path) -> object:
    return count_vibe_completions(_text(path))


def read_vibe(
    worktree: str, env: Mapping[str, str], since: float | None, cache: UsageCache
) -> Usage | None:
    """Mistral Vibe keeps each session in ``<VIBE_HOME>/logs/session/unified/<id>/`` (else
    ``~/.vibe``): ``meta.json`` names its directory and start; ``CURRENT`` its latest snapshot,
    ``generations/<generation>/``, whose ``projection-state.json`` holds the session's running
    total and ``runtime-state.json`` its model calls. Each session run in the worktree (or below
    it) and begun since ``since`` counts whole."""
    named = (env.get("VIBE_HOME") or "").strip()
    home = Path(named).expanduser() if named else home_of(env) / ".vibe"
    sessions = home / "logs" / "session" / "unified"
    index = cache.once(f"vibe\0{sessions}", lambda: _vibe_index(sessions, cache))
    total: Usage | None = None
    at = bisect.bisect_left(index, (worktree,))  # the sessions of it and below it follow
    while at < len(index) and index[at][0].startswith(worktree):
        cwd, started, folder = index[at]
        at += 1
        if not is_agents_session(cwd, started, worktree, since):
            continue
        current = folder / "CURRENT"
        if not current.is_file():
            continue
        generation = cache.parsed(
            f"vibe-current\0{current}",
            current,
            functools.partial(_vibe_generation, current),
            _vibe_generation_valid,
        )
        if not isinstance(generation, str):
            continue
        snapshot = folder / "generations" / generation
        projection, runtime = snapshot / "projection-state.json", snapshot / "runtime-state.json"
        if not projection.is_file():
            continue
        found = usage_of(
            cache.parsed(
                f"vibe\0{projection}",
                projection,
                functools.partial(_vibe_projection, projection),
                usage_valid,
            )
        )
        if found is None:
            continue
        if runtime.is_file():
            found = _with_responses(found, "vibe", runtime, _vibe_completions, cache)
        total = found if total is None else total + found
    return total


def _vibe_index(sessions: Path, cache: UsageCache) -> list[tuple[str, float | None, Path]]:
    """Every session folder with the directory it ran in and when it started: once per look;
    sorted by the directory (searched by prefix). A folder whose name is not a plain session
    id, or whose ``meta.json`` names no directory, is left out."""
    index: list[tuple[str, float | None, Path]] = []
    for name in list_folders(sessions):
        meta = sessions / name / "meta.json"
        if not is_session_name(name) or not meta.is_file():
            continue
        found = cache.parsed(
            f"vibe-meta\0{meta}", meta, functools.partial(_vibe_meta, meta), _vibe_meta_valid
        )
        if isinstance(found, list):
            index.append((str(found[0]), cast("float | None", found[1]), sessions / name))
    return sorted(index, key=lambda entry: (entry[0], str(entry[2])))


def _with_responses(
    found: Usage, kind: str, path: Path, count: Callable[[Path], object], cache: UsageCache
) -> Usage:
    """``found`` with its number of responses, counted in ``path`` by ``count`` (its parse
    kept by ``cache``; 0 when the file cannot be read)."""
    counted = cache.parsed(
        f"{kind}-responses\0{path}", path, functools.partial(count, path), _count_valid
    )
    return dataclasses.replace(found, requests=counted if isinstance(counted, int) else 0)
