"""The runner's stop watch (pure timing over a real thread): one wake-up each time the stop
marker turns to "stop", none for a marker it cannot read, none after it is closed."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from paw.errors import PawError
from paw.supervisor.wave.stopwatch import StopWatch
from tests.support.budget import budget


def _until(predicate: Callable[[], bool], seconds: float = budget(30.0)) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def test_the_watch_wakes_once_per_stop_and_reads_an_unreadable_marker_as_no_stop() -> None:
    looks: list[bool | Exception] = [PawError("corrupt"), False, True, True, True]
    woke = threading.Event()
    seen: list[int] = []

    def stopped() -> bool:
        seen.append(1)
        answer = looks.pop(0) if looks else True
        if isinstance(answer, Exception):
            raise answer
        return answer

    watch = StopWatch(stopped, woke.set, every_s=0.01)
    watch.start()
    try:
        assert woke.wait(budget(30.0))
        assert _until(lambda: len(seen) >= 8)  # it keeps looking while stopped: no new wake
        assert watch.wakes == 1
    finally:
        watch.close()
    after = len(seen)  # closed (its thread joined): no more looks
    assert len(seen) == after
