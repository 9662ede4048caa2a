"""Helpers bound to paw's life (``proc.spawn(die_with_paw=True)``): started from any thread,
they outlive that thread (the parent-death signal follows the forking thread, so one long-lived
thread forks them all), and a failure to start is raised to the caller as before."""

from __future__ import annotations

import select
import subprocess
import sys
import threading

import pytest

from paw.adapters import parent_death, proc
from tests.support.budget import budget

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the parent-death signal")


def test_parent_death_is_available_on_linux() -> None:
    assert parent_death.available()


def test_a_bound_helper_started_from_a_thread_outlives_that_thread() -> None:
    started: list[subprocess.Popen[bytes]] = []
    worker = threading.Thread(target=lambda: started.append(proc.spawn(["cat"], die_with_paw=True)))
    worker.start()
    worker.join()
    helper = started[0]
    assert helper.stdin is not None
    assert helper.stdout is not None
    try:
        helper.stdin.write(b"still here\n")  # it answers after its thread ended
        helper.stdin.flush()
        ready, _, _ = select.select([helper.stdout], [], [], budget(30))
        assert ready, "the helper did not answer"
        assert helper.stdout.readline() == b"still here\n"
    finally:
        proc.finish(helper)


def test_a_bound_helper_that_cannot_start_raises_to_its_caller() -> None:
    with pytest.raises(FileNotFoundError):
        proc.spawn(["paw-no-such-program-here"], die_with_paw=True)


def test_a_bound_helper_starts_while_another_thread_holds_the_import_lock() -> None:
    """No Python runs between fork and exec: with a ``preexec_fn`` CPython takes the import
    lock (and runs the before-fork hooks, logging's lock among them) around the fork, and a
    `paw serve` whose main thread was importing while its sweep started a tmux client hung
    for good (each thread held the lock the other waited for)."""
    import _imp

    started: list[subprocess.Popen[bytes]] = []
    done = threading.Event()

    def spawn() -> None:
        started.append(proc.spawn(["cat"], die_with_paw=True))
        done.set()

    _imp.acquire_lock()  # as a thread in the middle of an import holds it
    try:
        worker = threading.Thread(target=spawn, daemon=True)
        worker.start()
        in_time = done.wait(budget(20))
    finally:
        _imp.release_lock()
    worker.join(budget(30))
    for helper in started:
        proc.finish(helper)
    assert in_time, "starting a helper waited for the import lock another thread held"


def test_a_bound_helper_is_started_through_setpriv_and_a_missing_one_is_said() -> None:
    argv = parent_death.bound(["tmux", "-V"])
    assert argv[-2:] == ["tmux", "-V"]
    assert argv[1:4] == ["--pdeathsig", "KILL", "--"]
    with pytest.raises(FileNotFoundError):
        parent_death.bound(["./paw-no-such-program-here"], cwd="/")
