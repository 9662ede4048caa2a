"""The wake of a long-running paw process over real FIFOs and processes (issue 32): paw's hook
program's poke wakes every listener of the state dir, a flood is coalesced, a listener killed -9
blocks no hook and its FIFO is removed later, and a poke writes to nothing but a FIFO. The hub's
mark of a hook channel says when its directories surely did not change. The whole way (the real
hook program waking the TUI's sweeper): tests/tui/test_channel_wake_real.py."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from paw.adapters.channels import hub as hub_module
from paw.adapters.channels import wake as wake_module
from paw.adapters.channels.claude import wire_qwen
from paw.adapters.channels.hub import FileChannelHub
from paw.adapters.channels.wake import WakeListener
from paw.channel_hook import _write_atomic as write_atomic
from paw.channel_hook import poke
from paw.core.channels.wake import wake_dir
from tests.support.budget import budget


def _until(check: Callable[[], bool], seconds: float = 10.0) -> bool:
    end = time.monotonic() + budget(seconds)
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.01)
    return check()


class Counter:
    def __init__(self) -> None:
        self.calls = 0
        self.lock = threading.Lock()

    def __call__(self) -> None:
        with self.lock:
            self.calls += 1


@pytest.fixture
def listeners(tmp_path: Path) -> Iterator[list[WakeListener]]:
    made: list[WakeListener] = []
    yield made
    for listener in made:
        listener.close()


def _listen(tmp_path: Path, made: list[WakeListener], on_wake: Callable[[], None]) -> WakeListener:
    listener = WakeListener(tmp_path, on_wake)
    assert listener.start()
    made.append(listener)
    return listener


def test_a_poke_wakes_every_listener_and_a_closed_one_leaves_no_fifo(
    tmp_path: Path, listeners: list[WakeListener]
) -> None:
    one, two = Counter(), Counter()
    first = _listen(tmp_path, listeners, one)
    _listen(tmp_path, listeners, two)
    poke(wake_dir(tmp_path))
    assert _until(lambda: one.calls >= 1 and two.calls >= 1)
    assert first.path is not None
    assert first.path.exists()
    first.close()
    assert not first.path.exists()
    before = two.calls
    poke(wake_dir(tmp_path))  # the closed one's FIFO is gone; the other still wakes
    assert _until(lambda: two.calls > before)


def test_a_flood_of_pokes_is_coalesced_and_no_poke_after_it_is_lost(
    tmp_path: Path, listeners: list[WakeListener]
) -> None:
    count = Counter()
    _listen(tmp_path, listeners, count)
    directory = wake_dir(tmp_path)
    [fifo] = list(directory.glob("*.fifo"))
    fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    try:
        for _ in range(5000):  # a hostile writer: far more than the pipe holds at once
            with contextlib.suppress(BlockingIOError):
                os.write(fd, b"!" * 64)
    finally:
        os.close(fd)
    assert _until(lambda: count.calls >= 1)
    assert count.calls < 500  # one wake-up per gap, not one per poke
    settled = count.calls
    assert not _until(lambda: count.calls > settled + 2, 0.3)  # the flood is over: quiet
    poke(directory)  # a poke after the flood still wakes it
    assert _until(lambda: count.calls > settled)


def test_a_listener_killed_9_blocks_no_hook_and_its_fifo_is_removed_later(
    tmp_path: Path, listeners: list[WakeListener], monkeypatch: pytest.MonkeyPatch
) -> None:
    code = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from paw.adapters.channels.wake import WakeListener\n"
        "w = WakeListener(Path(sys.argv[1]), lambda: None)\n"
        "assert w.start()\n"
        "print(w.path, flush=True)\n"
        "time.sleep(600)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        dead = Path(proc.stdout.readline().decode().strip())
        assert dead.exists()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=budget(10))
    started = time.monotonic()
    poke(wake_dir(tmp_path))  # nobody reads it: the open fails at once, the hook goes on
    assert time.monotonic() - started < budget(2.0)
    assert dead.exists()  # young: left to its owner (a FIFO being made looks the same)
    monkeypatch.setattr(wake_module, "STALE_S", 0.0)
    count = Counter()
    _listen(tmp_path, listeners, count)
    assert not dead.exists()
    poke(wake_dir(tmp_path))
    assert _until(lambda: count.calls >= 1)


def test_a_poke_writes_to_nothing_but_a_fifo(tmp_path: Path) -> None:
    directory = wake_dir(tmp_path)
    directory.mkdir(parents=True)
    planted = directory / "planted.fifo"  # a regular file named like a FIFO
    planted.write_bytes(b"keep")
    target = tmp_path / "target"
    target.write_bytes(b"keep")
    (directory / "link.fifo").symlink_to(target)
    poke(directory)
    assert planted.read_bytes() == b"keep"
    assert target.read_bytes() == b"keep"
    poke(tmp_path / "nowhere")  # no wake directory: nothing to do, no error


def test_a_poke_follows_no_linked_wake_directory(
    tmp_path: Path, listeners: list[WakeListener]
) -> None:
    count = Counter()
    _listen(tmp_path / "elsewhere", listeners, count)  # a FIFO read by someone, elsewhere
    linked = wake_dir(tmp_path)
    linked.parent.mkdir(parents=True)
    linked.symlink_to(wake_dir(tmp_path / "elsewhere"))
    poke(linked)
    poke(wake_dir(tmp_path / "elsewhere"))  # (the same FIFO, reached directly: it is read)
    assert _until(lambda: count.calls >= 1)
    calls = count.calls
    poke(linked)
    assert not _until(lambda: count.calls > calls, 0.3)


def test_the_hubs_mark_is_stable_until_the_channel_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub = FileChannelHub(tmp_path, sys.executable)
    wiring = wire_qwen(tmp_path, "alice", "tok1", sys.executable)
    assert hub.mark("alice", "opencode", "tok1") is None  # a server channel: no mark
    first = hub.mark("alice", "qwen-code", "tok1")
    assert first != hub.mark("alice", "qwen-code", "tok1")  # just made: unsettled
    monkeypatch.setattr(hub_module, "UNSETTLED_S", 0.0)
    settled = hub.mark("alice", "qwen-code", "tok1")
    assert settled == hub.mark("alice", "qwen-code", "tok1")
    time.sleep(0.05)  # (so the directory's time differs from the one marked)
    write_atomic(wiring.directory / "req" / "abc.json", {})  # as the hook program writes
    marked = hub.mark("alice", "qwen-code", "tok1")
    assert marked != settled
    assert marked == hub.mark("alice", "qwen-code", "tok1")
    time.sleep(0.05)
    write_atomic(wiring.directory / "done" / "abc.json", {})
    assert hub.mark("alice", "qwen-code", "tok1") != marked


def test_the_hub_listens_and_stops(tmp_path: Path) -> None:
    hub = FileChannelHub(tmp_path, sys.executable)
    count = Counter()
    assert hub.listen(count)
    poke(wake_dir(tmp_path))
    assert _until(lambda: count.calls >= 1)
    hub.close()
    assert not list(wake_dir(tmp_path).glob("*.fifo"))
