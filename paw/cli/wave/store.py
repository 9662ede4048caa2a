"""Where a repository's waves are kept (``.paw/waves/``): which wave a command means, its state,
and the lock its one runner holds."""

from __future__ import annotations

import argparse
import fcntl
import os
from pathlib import Path
from typing import TYPE_CHECKING

from paw.cli import UsageError
from paw.errors import PawError

if TYPE_CHECKING:
    from paw.adapters.state import StateStore
    from paw.core.wave import WaveState

WAVES_DIR = "waves"
STOP_SUFFIX = ".stop"


def repo_and_docs(args: argparse.Namespace) -> tuple[str, StateStore]:
    from paw.adapters.state import StateStore
    from paw.cli.compose import STATE_DIR, find_repo_root

    root = find_repo_root(args.repo)
    return root, StateStore(Path(root) / STATE_DIR / WAVES_DIR)


def wave_name(docs: StateStore, name: str | None) -> str:
    if name is not None:
        if docs.read(name) is None:
            raise UsageError(f"no wave named {name!r} (see `paw wave status`)")
        return name
    files = (
        [p for p in docs.root.glob("*.json") if "." not in p.stem]  # not <wave>.stop/.outbox
        if docs.root.is_dir()
        else []
    )
    if not files:
        raise UsageError("no wave has run in this repository", hint=None)
    return max(files, key=lambda p: p.stat().st_mtime).stem


def read_state(docs: StateStore, name: str) -> WaveState:
    from pydantic import ValidationError

    from paw.core.wave import WaveState

    data = docs.read(name)
    if data is None:
        raise UsageError(f"no wave named {name!r}")
    try:
        return WaveState.model_validate(data)
    except ValidationError as err:
        raise PawError(f".paw/waves/{name}.json is corrupt: {err.errors()[0]['msg']}") from err


class RunnerLock:
    """``.paw/waves/<name>.lock``, held by the one runner of a wave (freed even by kill -9)."""

    def __init__(self, docs: StateStore, name: str) -> None:
        """Nothing is locked until :meth:`acquire`."""
        docs.root.mkdir(parents=True, exist_ok=True)
        self.path = docs.root / f"{name}.lock"
        self.fd = -1

    def acquire(self) -> bool:
        """Take the lock without waiting; False when another runner holds it."""
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.fd)
            self.fd = -1
            return False
        os.ftruncate(self.fd, 0)
        os.write(self.fd, str(os.getpid()).encode())
        return True

    def held_by_other(self) -> bool:
        """True while some runner holds the lock."""
        if self.acquire():
            self.release()
            return False
        return True

    def release(self) -> None:
        """Free the lock."""
        if self.fd >= 0:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = -1


def started_wave(args: argparse.Namespace, purpose: str) -> tuple[StateStore, str, WaveState, Path]:
    """The wave ``args.name`` names (default: the latest), its state and its file, which must
    still be there (``purpose``: what for, said when it is gone)."""
    _root, docs = repo_and_docs(args)
    name = wave_name(docs, args.name)
    state = read_state(docs, name)
    path = Path(state.file)
    if not path.is_file():
        raise UsageError(f"the wave file {state.file} is gone; restore it to {purpose}")
    return docs, name, state, path
