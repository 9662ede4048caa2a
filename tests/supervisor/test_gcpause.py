"""The TUI's long-lived objects are frozen after full collections, and thawed on exit."""

from __future__ import annotations

import gc

from paw.supervisor.gcpause import LongLived


def test_survivors_of_full_collections_are_frozen_until_uninstall() -> None:
    held = LongLived()
    try:
        held.install()
        assert held.installed
        assert gc.get_freeze_count() > 0  # what lived at the first picture
        kept = [[object()] for _ in range(1000)]  # new long-lived state
        before = gc.get_freeze_count()
        held.tick()
        assert gc.get_freeze_count() == before  # no full collection since: nothing to do
        gc.collect()  # a full collection: its survivors are frozen at the next tick
        held.tick()
        assert gc.get_freeze_count() >= before + len(kept)
    finally:
        held.uninstall()
    assert (held.installed, gc.get_freeze_count()) == (False, 0)
    assert held._collected not in gc.callbacks
