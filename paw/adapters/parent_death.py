"""Helpers that die with paw: Linux's parent-death signal (``PR_SET_PDEATHSIG``) for the
long-lived helpers :func:`paw.adapters.proc.spawn` starts, and the one thread that forks them.

A tmux control-mode client does not always end when paw dies: tmux passes the client's stdin and
stdout to the server, and a server with output still queued for a control client whose reader is
gone waits for that output forever (tmux 3.3), so the client stays attached, counts as someone
watching the session, and the server outlives ``kill-server``. The kernel ends such a helper
instead: each is started with ``PR_SET_PDEATHSIG`` = SIGKILL set between fork and exec.

The signal fires when the *thread* that forked the helper ends, not the process, and paw starts
clients from short-lived worker threads; so every such helper is forked by one daemon thread
that lives as long as paw (:func:`call`). Elsewhere than Linux this is a no-op
(:func:`available` is False) and the callers' own cleanup is all there is.
"""

from __future__ import annotations

import functools
import os
import queue
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


@functools.cache
def _prctl() -> Any:
    """libc's ``prctl``, resolved once in paw (never in a child between fork and exec); None
    elsewhere than Linux. ctypes is imported here: one-shot commands never pay for it."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # deferred: only a helper that must die with paw needs it

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl  # libc's symbols are the program's
    except (OSError, AttributeError):
        return None
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    prctl.restype = ctypes.c_int
    return prctl


def available() -> bool:
    """True where helpers can be bound to paw's life (Linux)."""
    return _prctl() is not None


def preexec(parent: int) -> Callable[[], None]:
    """The function to run in the child between fork and exec: ask for SIGKILL when the forking
    thread ends, then end at once if ``parent`` (paw's pid) is already gone (it died between
    the fork and the request, so the signal will never come)."""
    prctl = _prctl()

    def bind() -> None:
        if prctl is not None:
            prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return bind


_Job = tuple[Callable[[], Any], "queue.SimpleQueue[tuple[bool, Any]]"]
_jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
_thread: threading.Thread | None = None
_thread_pid = 0
_lock = threading.Lock()


def call(start: Callable[[], Any]) -> Any:
    """Run ``start`` (a Popen with :func:`preexec`) on the long-lived forking thread and return
    its result (or raise its exception)."""
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
