"""Helpers that die with paw: Linux's parent-death signal (``PR_SET_PDEATHSIG``) for the
long-lived helpers :func:`paw.adapters.proc.spawn` starts, and the one thread that forks them.

A tmux control-mode client does not always end when paw dies: tmux passes the client's stdin and
stdout to the server, and a server with output still queued for a control client whose reader is
gone waits for that output forever (tmux 3.3), so the client stays attached, counts as someone
watching the session, and the server outlives ``kill-server``. The kernel ends such a helper
instead: each is started through util-linux's ``setpriv --pdeathsig KILL``, which asks for the
signal and then executes the helper (the setting is kept across that exec).

No Python runs between fork and exec: a ``preexec_fn`` makes CPython run its before-fork hooks
and take the import lock around the fork, and a paw thread importing a module while another
logged or collected garbage deadlocked there (the forking thread held logging's lock and waited
for the import lock; the importing thread held that and waited for logging's) — a `paw serve`
then never answered. ``setpriv`` keeps the fork a plain one.

The signal fires when the *thread* that forked the helper ends, not the process, and paw starts
clients from short-lived worker threads; so every such helper is forked by one daemon thread
that lives as long as paw (:func:`call`). Elsewhere than Linux, or without ``setpriv``, this is
a no-op (:func:`available` is False) and the callers' own cleanup is all there is (the next
paw's sweep client ends the clients a killed paw left: :mod:`paw.adapters.tmux.clients`).
"""

from __future__ import annotations

import functools
import os
import queue
import shutil
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any


@functools.cache
def _setpriv() -> str | None:
    """util-linux's ``setpriv`` (found once); None elsewhere than Linux or where it is missing."""
    if not sys.platform.startswith("linux"):
        return None
    return shutil.which("setpriv")


def available() -> bool:
    """True where helpers can be bound to paw's life (Linux with util-linux's ``setpriv``)."""
    return _setpriv() is not None


def bound(argv: Sequence[str], *, cwd: str | None = None) -> list[str]:
    """``argv`` started so that the kernel sends it SIGKILL when the forking thread ends.

    Raises:
        FileNotFoundError: the program is not there (as starting it directly would: the
            wrapper itself would start and only then fail).
    """
    program = argv[0]
    if os.sep in program:
        where = Path(cwd or ".") / program  # (an absolute program ignores the cwd)
        found = str(where) if where.is_file() and os.access(where, os.X_OK) else None
    else:
        found = shutil.which(program)
    if found is None:
        raise FileNotFoundError(2, "No such file or directory", program)
    setpriv = _setpriv()
    if setpriv is None:
        return list(argv)
    return [setpriv, "--pdeathsig", "KILL", "--", *argv]


_Job = tuple[Callable[[], Any], "queue.SimpleQueue[tuple[bool, Any]]"]
_jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
_thread: threading.Thread | None = None
_thread_pid = 0
_lock = threading.Lock()


def call(start: Callable[[], Any]) -> Any:
    """Run ``start`` (a Popen of a :func:`bound` argv) on the long-lived forking thread and
    return its result (or raise its exception)."""
    if threading.current_thread() is _thread:
        return start()
    _ensure_thread()
    answer: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
    _jobs.put((start, answer))
    ok, value = answer.get()
    if ok:
        return value
    raise value


def _ensure_thread() -> None:
    global _thread, _thread_pid
    with _lock:
        if _thread is not None and _thread.is_alive() and _thread_pid == os.getpid():
            return
        _thread_pid = os.getpid()
        _thread = threading.Thread(target=_serve, name="paw-helper-spawner", daemon=True)
        _thread.start()


def _serve() -> None:
    while True:
        start, answer = _jobs.get()
        try:
            answer.put((True, start()))
        except BaseException as err:  # noqa: BLE001 - handed back to the caller
            answer.put((False, err))
