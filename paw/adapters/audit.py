"""The append-only audit log: :class:`~paw.core.ports.AuditLog` as fsynced JSON lines."""

from __future__ import annotations

import getpass
import json
import os
from collections.abc import Mapping
from pathlib import Path

from paw.core.printable import printable
from paw.errors import PawError

_TAIL_BLOCK = 1 << 14


class AuditError(PawError):
    """The audit log cannot be written: paw must not act without its record."""


class JsonlAuditLog:
    """``.paw/audit.jsonl``: one JSON object per line, each fsynced before ``append`` returns."""

    def __init__(self, path: str | Path) -> None:
        """Use the log at ``path`` (created, with its directory, on first append)."""
        self.path = Path(path)
        # the last tail read, by the file's identity, size and time and the count asked
        self._tail: tuple[tuple[int, int, int, int], list[dict[str, object]]] | None = None

    def append(self, record: Mapping[str, object], *, sync: bool = True) -> None:
        """Write ``record`` as one line and fsync it (record, then act). ``sync=False``, for
        observations: the line is written at once (every process reads it, a kill of paw
        keeps it) and reaches the disk with the next synced record's fsync, which covers the
        whole file."""
        # the exact text as JSON data; a bidi, zero-width or C1 character as its JSON escape, so
        # `tail -f` or `cat` of the file cannot act on a terminal (C0 JSON escapes itself)
        line = printable(json.dumps(record, ensure_ascii=False, sort_keys=True, default=str))
        line += "\n"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, _complete_line_prefix(fd) + line.encode())
                if sync:
                    os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as err:
            raise AuditError(f"cannot write the audit log {self.path}: {err}") from err

    def read(self) -> list[dict[str, object]]:
        """All records, oldest first; a torn or garbled line (a crash mid-write) is skipped."""
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return []
        except OSError as err:
            raise AuditError(f"cannot read the audit log {self.path}: {err}") from err
        records = []
        for line in text.splitlines():
            try:
                value = json.loads(line)
            except ValueError:
                continue
            if isinstance(value, dict):
                records.append(value)
        return records

    def tail(self, n: int) -> list[dict[str, object]]:
        """The last ``n`` records, read from the end of the file (a sweeping TUI asks every
        sweep, 40 times a second at 200 agents; the log only grows, so a file of the same
        inode, size and modification time as the last read is not read again)."""
        if n <= 0:
            return []
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return []
        except OSError as err:
            raise AuditError(f"cannot read the audit log {self.path}: {err}") from err
        key = (st.st_ino, st.st_size, st.st_mtime_ns, n)
        seen = self._tail
        if seen is not None and seen[0] == key:
            return list(seen[1])
        records = self._read_tail(n)
        self._tail = (key, records)  # (a record appended since the stat: read again next time)
        return list(records)

    def _read_tail(self, n: int) -> list[dict[str, object]]:
        try:
            with self.path.open("rb") as fh:
                end = fh.seek(0, os.SEEK_END)
                data = b""
                at = end
                while at > 0 and data.count(b"\n") <= n:
                    step = min(_TAIL_BLOCK, at)
                    at -= step
                    fh.seek(at)
                    data = fh.read(step) + data
        except FileNotFoundError:
            return []
        except OSError as err:
            raise AuditError(f"cannot read the audit log {self.path}: {err}") from err
        lines = data.decode("utf-8", "replace").splitlines()
        if at > 0:
            lines = lines[1:]  # the first line read may be the end of a longer one
        records = []
        for line in lines:
            try:
                value = json.loads(line)
            except ValueError:
                continue
            if isinstance(value, dict):
                records.append(value)
        return records[-n:]


def _complete_line_prefix(fd: int) -> bytes:
    """A newline when the file ends mid-line (a torn write), so the new record starts clean."""
    size = os.fstat(fd).st_size
    if size == 0:
        return b""
    return b"" if os.pread(fd, 1, size - 1) == b"\n" else b"\n"


def current_user() -> str:
    """The login name for audit records ("unknown" when it cannot be determined)."""
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "unknown"


def current_tty() -> str | None:
    """The controlling terminal of paw (e.g. ``/dev/pts/3``), None when there is none."""
    for fd in (0, 1, 2):
        try:
            return os.ttyname(fd)
        except OSError:
            continue
    return None
