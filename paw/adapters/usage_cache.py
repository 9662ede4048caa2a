"""Keep each usage file's parse while the file stays the same (see :mod:`paw.adapters.usage`).

A :class:`UsageCache` holds each session file's parse, keyed by the file, while its size and
modification time stay the same: in memory, and in ``.paw/usage-cache.json`` for the one-shot
commands, so `paw ls` at 200 agents opens no session file that did not change since the last
look. ``usage_data``/``usage_of`` turn a :class:`~paw.core.usage.Usage` into what the cache
stores and back; ``usage_valid`` refuses an entry paw cannot use (of another paw version).
"""

from __future__ import annotations

import dataclasses
import stat
from typing import TYPE_CHECKING, TypeVar, cast

from paw.core.usage import Usage

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from paw.adapters.state import StateStore

_T = TypeVar("_T")

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
