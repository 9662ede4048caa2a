"""A wave runner's sleep between ticks, cut short by a hook channel's poke (issue 32): a poke
ends it at once, one that comes during a tick ends the next sleep at once (never lost), and a
flood of pokes makes at most one early tick per gap. Real threads and clock."""

from __future__ import annotations

import threading
import time

from paw.supervisor.channels import WakeableSleep
from tests.support.budget import budget


def test_a_poke_ends_the_sleep_and_one_during_a_tick_is_not_lost() -> None:
    sleep = WakeableSleep(min_gap_s=0.0)
    timer = threading.Timer(0.05, sleep.wake)
    timer.start()
    started = time.monotonic()
    sleep(budget(600))  # without the poke: ten minutes
    assert time.monotonic() - started < budget(30)
    assert sleep.woken == 1
    sleep.wake()  # (during the tick that follows)
    started = time.monotonic()
    sleep(budget(600))
    assert time.monotonic() - started < budget(30)
    assert sleep.woken == 2
    timer.join()


def test_a_flood_makes_at_most_one_early_tick_per_gap() -> None:
    sleep = WakeableSleep(min_gap_s=0.2)
    stop = threading.Event()

    def flood() -> None:
        while not stop.is_set():
            sleep.wake()

    thread = threading.Thread(target=flood, daemon=True)
    thread.start()
    try:
        started = time.monotonic()
        ticks = 0
        while time.monotonic() - started < 1.0:
            sleep(600)
            ticks += 1
        elapsed = time.monotonic() - started
    finally:
        stop.set()
        thread.join(budget(10))
    assert ticks <= elapsed / 0.2 + 2  # the first is at once, then one per gap


def test_without_a_poke_it_sleeps_its_time() -> None:
    sleep = WakeableSleep()
    started = time.monotonic()
    sleep(0.1)
    assert time.monotonic() - started >= 0.1
    assert sleep.woken == 0
