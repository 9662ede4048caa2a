"""Watch a repository's wave state for the TUI: ``.paw/waves/<name>.json``, re-read on change.

Each call costs a directory listing, one ``stat`` per wave file, and (while the wave runs) one
small read of the runner's lock file: the state itself is parsed only when its file changed
(path, inode, size or mtime). A corrupt or partial file becomes a one-line error, never an
exception.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from pydantic import ValidationError

from paw.core.wave import WaveState
from paw.core.wave_view import WaveReading

STOP_SUFFIX = ".stop.json"  # `paw wave stop` writes <wave>.stop.json beside the state
LOCK_SUFFIX = ".lock"  # the runner holds <wave>.lock and writes its pid into it


def _runner_alive(lock: Path) -> bool:
    """Whether the process whose pid the runner lock names still runs a paw wave runner.

    The TUI never takes the lock itself (even for an instant: a runner starting then would
    be refused); it reads the pid the runner wrote after taking it, and asks the kernel."""
    try:
        pid = int(lock.read_text(encoding="ascii").strip() or "0")
    except (OSError, ValueError):
        return False
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, owned by someone else
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return Path("/proc/self").exists() is False  # no /proc (macOS): the pid is enough
    except OSError:
        return True
    return b"wave" in cmdline  # a pid reused by another program is not the runner


class WaveWatcher:
    """The latest wave of one repository, read again only when its state file changed."""

    def __init__(self, directory: str | Path) -> None:
        """``directory`` is ``<repo>/.paw/waves`` (it may not exist yet)."""
        self.directory = Path(directory)
        self._key: tuple[object, ...] | None = None
        self._reading: WaveReading | None = None
        self.parses = 0  # how many times a state file was parsed (tests and benchmarks)

    def _latest(self) -> tuple[Path, os.stat_result] | None:
        newest: tuple[Path, os.stat_result] | None = None
        try:
            entries = list(os.scandir(self.directory))
        except OSError:
            return None
        for entry in entries:
            name = entry.name
            if not name.endswith(".json") or "." in name[: -len(".json")]:
                continue  # a temporary file, <wave>.stop.json, <wave>.outbox.json
            try:
                stat = entry.stat()
            except OSError:
                continue  # replaced between the listing and the stat
            if newest is None or stat.st_mtime_ns > newest[1].st_mtime_ns:
                newest = (Path(entry.path), stat)
        return newest

    def read(self) -> WaveReading | None:
        """The latest wave's state and whether its runner is alive; None without any wave."""
        latest = self._latest()
        if latest is None:
            self._key = self._reading = None
            return None
        path, stat = latest
        key = (path, stat.st_ino, stat.st_size, stat.st_mtime_ns)
        if key != self._key or self._reading is None:
            self._reading = self._parse(path)
            self._key = key
        reading = self._reading
        state = reading.state
        alive = False
        if state is not None and state.status == "running":
            alive = _runner_alive(path.with_name(f"{path.stem}{LOCK_SUFFIX}"))
        if alive != reading.runner_alive:
            reading = WaveReading(reading.name, state, alive, reading.error)
            self._reading = reading
        return reading

    def _parse(self, path: Path) -> WaveReading:
        self.parses += 1
        name = path.stem
        where = f".paw/waves/{path.name}"
        try:
            data = json.loads(path.read_bytes())
        except FileNotFoundError:
            return WaveReading(name, None, False, f"{where} went away while paw read it")
        except OSError as err:
            return WaveReading(name, None, False, f"cannot read {where}: {err.strerror}")
        except (ValueError, UnicodeDecodeError) as err:
            return WaveReading(name, None, False, f"{where} is not valid JSON ({err})")
        try:
            state = WaveState.model_validate(data)
        except ValidationError as err:
            first = err.errors()[0]
            field = ".".join(str(p) for p in first["loc"])
            problem = f"{field}: {first['msg']}" if field else str(first["msg"])
            return WaveReading(name, None, False, f"{where} is corrupt: {problem}")
        return WaveReading(state.name, state, False)
