"""paw's per-repository state directory (``.paw/``): small JSON documents and their locks.

The only store of paw's state (agent records, prompts seen, operations in progress). Every
write replaces a document atomically (temporary file, fsync, rename, fsync of the directory),
and read-modify-write sequences run under an ``flock`` shared by every paw process of the
repository, so parallel ``paw`` commands, the TUI and the CLI never lose each other's records.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TypeVar, cast

from paw.errors import PawError

_T = TypeVar("_T")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


class StateError(PawError):
    """paw's state directory cannot be read or written."""


class StateStore:
    """``<root>/<doc>.json`` documents, each replaced atomically, and ``<root>/<name>.lock``.

    ``root`` is the ``.paw`` directory; it is created on first use together with a
    ``.gitignore`` holding ``*``, so git never sees paw's state.
    """

    def __init__(self, root: str | Path) -> None:
        """Use the state directory ``root`` (usually ``<repo>/.paw``)."""
        self.root = Path(root)
        self._held = threading.local()  # lock name -> depth, per thread (locks are re-entrant)
        self._memo: dict[tuple[str, str], tuple[str | None, object]] = {}  # see read_parsed

    def ensure(self) -> None:
        """Create ``root`` and ``root/.gitignore`` when missing."""
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            ignore = self.root / ".gitignore"
            if not ignore.exists():
                _write_atomic(ignore, "*\n")
        except OSError as err:
            raise StateError(
                f"cannot create paw's state directory {self.root}: {_why(err)}"
            ) from err

    def check_writable(self) -> None:
        """Raise StateError unless paw can create, replace and lock files in ``root``.

        Run before any command creates something, so a read-only ``.paw/`` stops paw with one
        line instead of leaving a worktree without a record.
        """
        self.ensure()
        try:
            fd, tmp = tempfile.mkstemp(dir=self.root, prefix=".probe.", suffix=".tmp")
            os.close(fd)
            Path(tmp).unlink()
            for existing in self.root.glob("*.json*"):
                if existing.is_file() and not os.access(existing, os.W_OK):
                    raise PermissionError(13, "read-only file", str(existing))
        except OSError as err:
            raise StateError(
                f"paw's state directory {self.root} is not writable: {_why(err)}",
                hint="fix its permissions (paw keeps its agent records and audit log there)",
            ) from err

    def read(self, name: str) -> dict[str, object] | None:
        """The document ``<root>/<name>.json``; None when it does not exist.

        A document that exists but cannot be read or parsed is a StateError: treating it as
        empty would make paw forget agents and then overwrite their records.
        """
        text = self._read_text(name)
        return None if text is None else self._parse(name, text)

    def read_parsed(
        self, name: str, kind: str, parse: Callable[[dict[str, object] | None], _T]
    ) -> _T:
        """``parse(read(name))``, remembered: while the document's text is the text last
        parsed under ``kind``, the result of that parse is returned again (the file is still
        read every time; only JSON decoding and ``parse`` are saved). ``parse`` must return
        something immutable: every caller gets the same object."""
        text = self._read_text(name)
        memo = self._memo.get((name, kind))
        if memo is not None and memo[0] == text:
            return cast("_T", memo[1])
        value = parse(None if text is None else self._parse(name, text))
        self._memo[(name, kind)] = (text, value)
        return value

    def _read_text(self, name: str) -> str | None:
        path = self.root / f"{_checked_name(name)}.json"
        try:
            return path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except OSError as err:
            raise StateError(f"cannot read {path}: {_why(err)}") from err

    def _parse(self, name: str, text: str) -> dict[str, object]:
        path = self.root / f"{name}.json"
        try:
            value = json.loads(text)
        except ValueError as err:
            raise StateError(
                f"{path} is corrupt (not JSON)",
                hint="move it aside; paw rebuilds what it can from tmux and git",
            ) from err
        if not isinstance(value, dict):
            raise StateError(f"{path} is corrupt (not a JSON object)")
        return value

    def write(
        self,
        name: str,
        data: Mapping[str, object],
        *,
        durable: bool = True,
        parsed: tuple[str, object] | None = None,
    ) -> None:
        """Replace the document ``<root>/<name>.json`` atomically; ``durable``: on disk when
        this returns (the file and the directory are fsync'd; see :func:`_write_atomic`).
        ``parsed``: ``(kind, value)``, what :meth:`read_parsed` under ``kind`` gives for this
        text, remembered as if it had been read (a sweep reads back the prompts it wrote)."""
        self.ensure()
        # One line, no indent: json's C encoder (an indent takes the pure-Python one, 6x slower:
        # 9.4 ms for 200 agents, written three times per spawn). `jq .` reads it.
        text = json.dumps(dict(data), ensure_ascii=False, sort_keys=True, default=str)
        path = self.root / f"{_checked_name(name)}.json"
        try:
            _write_atomic(path, text + "\n", durable=durable)
        except OSError as err:
            if parsed is not None:
                self._memo.pop((name, parsed[0]), None)
            raise StateError(f"cannot write {path}: {_why(err)}") from err
        if parsed is not None:
            self._memo[(name, parsed[0])] = (text + "\n", parsed[1])

    def save_text(
        self, folder: str, name: str, text: str, *, group: str = "", keep: int = 0
    ) -> str:
        """Write a new file ``<root>/<folder>/<name>`` (readable by its owner only; not
        fsync'd: a record for people and agents to read, never read back by paw) and return
        its absolute path. It never replaces a file: when ``name`` is taken, the stem gets
        ``-2``, ``-3``, ... (created exclusively, so two writers never share one). With a
        ``group`` (how names start) and ``keep``, the group's files in ``folder`` but the
        newest ``keep`` (the new one among them, never deleted) are deleted."""
        path = self._save_new(folder, name, text)
        if group and keep > 0:
            self._keep_newest(path, group, keep)
        return str(path.absolute())

    def _keep_newest(self, new: Path, group: str, keep: int) -> None:
        def newest_first(path: Path) -> tuple[int, str]:
            try:
                return (path.stat().st_mtime_ns, path.name)
            except OSError:
                return (0, path.name)

        try:
            others = [p for p in new.parent.iterdir() if p.name.startswith(group) and p != new]
            for old in sorted(others, key=newest_first, reverse=True)[keep - 1 :]:
                old.unlink(missing_ok=True)
        except OSError:
            pass  # a file not deleted now is on the next save's list

    def _save_new(self, folder: str, name: str, text: str) -> Path:
        self.ensure()
        directory = self.root / _checked_name(folder)
        stem, dot, suffix = _checked_name(name).rpartition(".")
        if not stem:
            stem, dot, suffix = name, "", ""
        path = directory / name
        try:
            directory.mkdir(exist_ok=True)
            for number in range(1, 10_000):
                path = directory / (name if number == 1 else f"{stem}-{number}{dot}{suffix}")
                try:
                    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                except FileExistsError:
                    continue
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    out.write(text)
                return path
        except OSError as err:
            raise StateError(f"cannot write {path}: {_why(err)}") from err
        raise StateError(f"cannot write {path}: too many files of that name")

    @contextlib.contextmanager
    def lock(self, name: str) -> Iterator[None]:
        """An exclusive lock on ``<root>/<name>.lock`` shared by every paw process (blocking).

        ``flock`` locks belong to the open file, so two threads exclude each other too; the
        kernel drops the lock if the holder dies. Re-entrant within one thread.
        """
        with self._flock(name, blocking=True):
            yield

    @contextlib.contextmanager
    def try_lock(self, name: str) -> Iterator[bool]:
        """Like :meth:`lock` without waiting: yields False (holding nothing) when another
        process or thread holds it. paw holds ``op-<agent>`` while it spawns or removes that
        agent, so a free lock on an unfinished operation means its process died."""
        with self._flock(name, blocking=False) as held:
            yield held

    @contextlib.contextmanager
    def _flock(self, name: str, *, blocking: bool) -> Iterator[bool]:
        depth: dict[str, int] = self._held.__dict__.setdefault("depth", {})
        if depth.get(name, 0):
            depth[name] += 1
            try:
                yield True
            finally:
                depth[name] -= 1
            return
        self.ensure()
        path = self.root / f"{_checked_name(name)}.lock"
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as err:
            raise StateError(f"cannot open the lock {path}: {_why(err)}") from err
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
            except BlockingIOError:
                yield False
                return
            depth[name] = 1
            try:
                yield True
            finally:
                depth[name] = 0
        finally:
            os.close(fd)  # closing the descriptor releases the lock


def _checked_name(name: object) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise StateError(f"invalid state document name {name!r}")
    return name


def _why(err: OSError) -> str:
    return err.strerror or str(err)


def _write_atomic(path: Path, text: str, *, durable: bool = True) -> None:
    """Write via a temporary file in the same directory, fsync, rename, fsync the directory.

    Without ``durable`` nothing is fsync'd: every process still sees the old document or the
    new one whole (the rename is atomic), and so does paw after a crash of its own; a crash of
    the machine may lose the write, or leave the document unreadable on a filesystem that
    does not flush a file renamed over another (paw then says so and reads nothing from it)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        Path(tmp).replace(path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if not durable:
        return
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
