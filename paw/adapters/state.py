"""paw's per-repository state directory (``.paw/``): one JSON file per agent."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from paw.errors import PawError

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


class StateError(PawError):
    """paw's state directory cannot be read or written."""


class StateStore:
    """``<root>/agents/<name>.json`` records and ``<root>/<doc>.json`` documents, each written
    atomically.

    ``root`` is the ``.paw`` directory; it is created on first write together with a
    ``.gitignore`` holding ``*``, so git never sees paw's state.
    """

    def __init__(self, root: str | Path) -> None:
        """Use the state directory ``root`` (usually ``<repo>/.paw``)."""
        self.root = Path(root)
        self.agents_dir = self.root / "agents"

    def ensure(self) -> None:
        """Create ``root``, ``root/agents`` and ``root/.gitignore`` when missing."""
        try:
            self.agents_dir.mkdir(parents=True, exist_ok=True)
            ignore = self.root / ".gitignore"
            if not ignore.exists():
                _write_atomic(ignore, "*\n")
        except OSError as err:
            raise StateError(f"cannot create paw's state directory {self.root}: {err}") from err

    def read(self, name: str) -> dict[str, object] | None:
        """The document ``<root>/<name>.json``, None when it does not exist (or is unreadable)."""
        return _read_record(self.root / f"{_checked_name(name)}.json")

    def write(self, name: str, data: Mapping[str, object]) -> None:
        """Replace the document ``<root>/<name>.json`` atomically."""
        self.ensure()
        text = json.dumps(dict(data), ensure_ascii=False, indent=2, sort_keys=True, default=str)
        try:
            _write_atomic(self.root / f"{_checked_name(name)}.json", text + "\n")
        except OSError as err:
            raise StateError(f"cannot write {name!r} in {self.root}: {err}") from err

    @contextlib.contextmanager
    def lock(self, name: str) -> Iterator[None]:
        """An exclusive lock on ``<root>/<name>.lock`` shared by every paw process (blocking).

        ``flock`` locks belong to the open file, so two threads of one process exclude each
        other too; the kernel drops the lock if the holder dies.
        """
        self.ensure()
        path = self.root / f"{_checked_name(name)}.lock"
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as err:
            raise StateError(f"cannot open the lock {path}: {err}") from err
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing the descriptor releases the lock

    def save(self, record: dict[str, object]) -> None:
        """Write ``record`` (which must hold a valid ``name``) to ``agents/<name>.json``."""
        name = _checked_name(record.get("name"))
        self.ensure()
        text = json.dumps(record, ensure_ascii=False, indent=2, sort_keys=True, default=str)
        try:
            _write_atomic(self.agents_dir / f"{name}.json", text + "\n")
        except OSError as err:
            raise StateError(f"cannot save agent {name!r}: {err}") from err

    def load(self, name: str) -> dict[str, object] | None:
        """The record of agent ``name``, None when there is none (or it is unreadable)."""
        return _read_record(self.agents_dir / f"{_checked_name(name)}.json")

    def load_all(self) -> list[dict[str, object]]:
        """Every agent record, sorted by file name; unreadable files are skipped."""
        try:
            paths = sorted(self.agents_dir.glob("*.json"))
        except OSError as err:
            raise StateError(f"cannot list {self.agents_dir}: {err}") from err
        records = [_read_record(path) for path in paths]
        return [record for record in records if record is not None]

    def delete(self, name: str) -> None:
        """Forget agent ``name`` (no error when it is not recorded)."""
        try:
            (self.agents_dir / f"{_checked_name(name)}.json").unlink(missing_ok=True)
        except OSError as err:
            raise StateError(f"cannot delete agent {name!r}: {err}") from err


def _checked_name(name: object) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise StateError(f"invalid agent name {name!r} (letters, digits, '.', '_', '-')")
    return name


def _read_record(path: Path) -> dict[str, object] | None:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _write_atomic(path: Path, text: str) -> None:
    """Write via a temporary file in the same directory, fsync, rename, fsync the directory."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        Path(tmp).replace(path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
