"""Read the usage opencode and Kilo Code keep in their SQLite databases (see
:mod:`paw.core.usage`): opened read-only (``mode=ro``), never written; the rows of the sessions
run in the worktree (or below it) go to the pure parser."""

from __future__ import annotations

import sqlite3
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING

from paw.core.usage import Usage, parse_opencode_messages

if TYPE_CHECKING:
    from collections.abc import Mapping


def read_opencode(
    worktree: str, env: Mapping[str, str], since: float | None, cache: object
) -> Usage | None:
    """opencode's database: ``OPENCODE_DB`` (a path, or a name in its data folder), else
    ``opencode.db`` in ``$XDG_DATA_HOME/opencode`` (else ``~/.local/share/opencode``)."""
    del cache  # one query per look: nothing worth keeping
    return _sessions_db(_data_db(env, "opencode", "OPENCODE_DB"), worktree, since)


def read_kilo(
    worktree: str, env: Mapping[str, str], since: float | None, cache: object
) -> Usage | None:
    """Kilo Code's database (an opencode fork, the same tables): ``KILO_DB``, else
    ``kilo.db`` in ``$XDG_DATA_HOME/kilo`` (else ``~/.local/share/kilo``)."""
    del cache
    return _sessions_db(_data_db(env, "kilo", "KILO_DB"), worktree, since)


def _data_db(env: Mapping[str, str], name: str, variable: str) -> Path:
    """``<data dir>/<name>/<name>.db``, or the database ``variable`` names (a path, or a
    name in that folder)."""
    data = env.get("XDG_DATA_HOME")
    folder = (
        Path(data) if data else Path(env.get("HOME") or Path.home()) / ".local" / "share"
    ) / name
    named = env.get(variable)
    return folder / named if named and named != ":memory:" else folder / f"{name}.db"


# The messages of the sessions run in a worktree (or below it): opencode's schema.
_SESSIONS_SQL = (
    "SELECT s.directory, m.data FROM message AS m JOIN session AS s ON s.id = m.session_id"
    " WHERE s.directory = ? OR substr(s.directory, 1, ?) = ?"
)


def _sessions_db(database: Path, worktree: str, since: float | None) -> Usage | None:
    """The usage in an opencode-shaped SQLite database (opened read-only, never written;
    none when it does not exist)."""
    if not database.is_file():
        return None
    root = worktree.rstrip("/")
    uri = f"file:{urllib.parse.quote(str(database))}?mode=ro"
    try:
        connection = sqlite3.connect(uri, uri=True, timeout=2.0)
        try:
            rows = connection.execute(_SESSIONS_SQL, (root, len(root) + 1, root + "/")).fetchall()
        finally:
            connection.close()
    except sqlite3.Error as err:
        raise OSError(f"{database.name}: {err}") from err
    return parse_opencode_messages(
        ((str(directory), str(data)) for directory, data in rows), root, since
    )
