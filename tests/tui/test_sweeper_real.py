"""The TUI's sweeper process (paw.cli.sweep_child, `python -m paw.cli.sweeper`) over real
tmux, git and the scripted agent: its pictures are the ones a sweep here would give, a prompt it
saw is approved by the TUI's own process (fresh proof, audit first), and whatever happens to it
(killed, stuck, tmux gone, the TUI killed) the TUI sweeps on and no process is left behind."""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest
from libtmux.server import Server

from paw.cli.compose import build_supervisor
from paw.cli.sweep_child import SweepChild, read_frame, sweeper_argv, write_frame
from paw.cli.tui import start_sweeper
from paw.supervisor.model import Outcome, Snapshot
from paw.supervisor.service import Supervisor
from tests.support.budget import budget
from tests.tui.real_world import audit_records, capture

pytestmark = [pytest.mark.tmux, pytest.mark.git]


def config(socket: str) -> str:
    steps = ("shell ls -la",)
    command = ", ".join(f'"{p}"' for p in ("{python}", "-m", "paw.demo.agent", *steps))
    return "\n".join(
        [
            "[tmux]",
            f'socket_name = "{socket}"',
            "[agents.asks]",
            f"command = [{command}]",
            'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }',
            'detector = "scripted"',
            "",
        ]
    )


def wait_for(check: Callable[[], bool], seconds: float = 30.0) -> bool:
    end = time.monotonic() + budget(seconds)
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.05)
    return check()


def tui_supervisor(repo: Path, server: Server) -> Supervisor:
    socket = server.socket_name or ""
    (repo / "paw.toml").write_text(config(socket), encoding="utf-8")
    return build_supervisor(str(repo), socket_name=socket, control=True)


def started(supervisor: Supervisor, repo: Path) -> SweepChild:
    child = start_sweeper(supervisor, str(repo), None)
    assert child is not None
    assert child.wait_ready(budget(60)), child.why_gone
    return child


def one_agent_swept_elsewhere(repo: Path, server: Server) -> tuple[Supervisor, SweepChild]:
    """A TUI's supervisor with one agent that asks, and its sweeper up. What the spawn's own
    look at its agent left is dropped: an observation here means this process swept."""
    supervisor = tui_supervisor(repo, server)
    supervisor.spawn("one", "asks", None)
    child = started(supervisor, repo)
    supervisor.ctx.memory.observed.clear()
    return supervisor, child


def gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def kill_server(server: Server) -> None:
    """Kill the server and wait until its process is gone: ``kill-server`` returns before the
    server has exited, and a session made meanwhile met the dying server ("server exited
    unexpectedly"), a race of the test's own making."""
    pid = int(server.cmd("display-message", "-p", "#{pid}").stdout[0])
    server.kill()
    assert wait_for(lambda: gone(pid)), f"the tmux server {pid} outlived kill-server"


def test_frames_round_trip_and_a_cut_frame_ends_the_stream() -> None:
    out = io.BytesIO()
    write_frame(out, ("snapshot", {"a": 1}))
    write_frame(out, ("counted",))
    data = out.getvalue()
    stream = io.BytesIO(data)
    assert read_frame(stream) == ("snapshot", {"a": 1})
    assert read_frame(stream) == ("counted",)
    assert read_frame(stream) is None
    assert read_frame(io.BytesIO(data[:-1])) == ("snapshot", {"a": 1})
    cut = io.BytesIO(data[: len(data) // 3])
    assert read_frame(cut) is None
    assert read_frame(io.BytesIO(b"\xff\xff\xff\xff" + b"x" * 8)) is None  # absurd length


def test_the_sweepers_prompt_is_approved_by_the_tui_process(git_repo: Path, server: Server) -> None:
    supervisor, child = one_agent_swept_elsewhere(git_repo, server)
    try:
        seen: list[Snapshot] = []

        def asks() -> bool:
            seen[:] = [supervisor.poll_once()]
            return bool(seen[0].prompts)

        assert wait_for(asks), seen
        snapshot = seen[0]
        assert child.alive
        assert supervisor.ctx.memory.observed == {}  # the TUI's process never swept
        (prompt,) = snapshot.prompts
        assert prompt.prompt.subject == "ls -la"
        assert [a.name for a in snapshot.agents] == ["one"]
        decision = supervisor.approve(prompt.id)
        assert decision.outcome in (Outcome.SENT, Outcome.SENT_UNCONFIRMED), decision
        socket = server.socket_name or ""
        assert wait_for(lambda: "received key 'y'" in capture(socket, prompt.pane_id))
        events = [r["event"] for r in audit_records(git_repo) if r.get("prompt_id") == prompt.id]
        assert events[0] == "prompt-seen"  # noted by the sweeper, before any decision
        assert "approve" in events
    finally:
        child.close()
    assert gone(child.pid)


def test_a_killed_sweeper_leaves_the_tui_sweeping_itself(git_repo: Path, server: Server) -> None:
    supervisor, child = one_agent_swept_elsewhere(git_repo, server)
    started: list[psutil.Process] = []
    try:
        assert supervisor.poll_once().agents
        assert supervisor.ctx.memory.observed == {}
        # What the sweeper started (its tmux control-mode clients, its helpers): a control
        # client whose reader was killed can stay attached, and a kill-server then waits on
        # it for ever (the server and the client both left running): ended here by PID.
        started.extend(psutil.Process(child.pid).children(recursive=True))
        os.kill(child.pid, signal.SIGKILL)
        assert wait_for(lambda: not child.alive)
        assert child.why_gone == "it exited"
        snapshot = supervisor.poll_once()  # here now
        assert [a.name for a in snapshot.agents] == ["one"]
        assert "one" in supervisor.ctx.memory.observed
    finally:
        child.close()
        end_all(started)


def end_all(processes: list[psutil.Process]) -> None:
    """End the processes a test started that are still running (by PID, checked by psutil's
    start-time identity, so a reused PID is never hit)."""
    for process in processes:
        with contextlib.suppress(psutil.Error):
            process.kill()


def test_tmux_gone_and_back_is_shown_as_a_sweep_here_would_show_it(
    git_repo: Path, server: Server
) -> None:
    supervisor, child = one_agent_swept_elsewhere(git_repo, server)
    try:
        assert supervisor.poll_once().agents
        kill_server(server)
        snapshot = supervisor.poll_once()
        assert child.alive  # the sweeper's picture, not one made here
        assert supervisor.ctx.memory.observed == {}
        assert not snapshot.tmux_ok
        assert snapshot.error
        assert [a.status.value for a in snapshot.agents] == ["lost"]  # never "exited"
        assert snapshot.prompts == ()
        supervisor.spawn("two", "asks", None)  # a new server on the same socket
        seen: list[Snapshot] = []

        def back() -> bool:
            seen[:] = [supervisor.poll_once()]
            return seen[0].tmux_ok and any(p.agent == "two" for p in seen[0].prompts)

        assert wait_for(back), seen
        assert child.alive
        statuses = {a.name: a.status.value for a in seen[0].agents}
        assert statuses["one"] != "exited"  # its server restarted: not an exit of its own
    finally:
        child.close()
    assert gone(child.pid)


def test_the_sweeper_ends_when_the_tui_is_killed(git_repo: Path, server: Server) -> None:
    (git_repo / "paw.toml").write_text(config(server.socket_name or ""), encoding="utf-8")
    script = textwrap.dedent(
        f"""
        import sys, time
        from paw.cli.sweep_child import SweepChild, sweeper_argv
        child = SweepChild(sweeper_argv({str(git_repo)!r}, None), cwd={str(git_repo)!r})
        assert child.wait_ready(), child.why_gone
        print(child.pid, flush=True)
        time.sleep(3600)
        """
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=git_repo
    )
    try:
        assert parent.stdout is not None
        line = parent.stdout.readline()
        assert line.strip().isdigit(), line
        pid = int(line)
        assert not gone(pid)
        parent.kill()  # kill -9: no close(), no atexit
        parent.wait(timeout=budget(10))
        assert wait_for(lambda: gone(pid)), f"the sweeper {pid} outlived its TUI"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


def test_paw_sweeper_0_keeps_the_sweeps_in_the_tui(
    git_repo: Path, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    supervisor = tui_supervisor(git_repo, server)
    monkeypatch.setenv("PAW_SWEEPER", "0")
    assert start_sweeper(supervisor, str(git_repo), None) is None
    assert supervisor.sweep_elsewhere is None
    one_shot = build_supervisor(str(git_repo), socket_name=server.socket_name)
    monkeypatch.delenv("PAW_SWEEPER")
    assert start_sweeper(one_shot, str(git_repo), None) is None  # no control mode: a command


def test_argv_names_the_socket_only_when_given() -> None:
    assert sweeper_argv("/r", None)[-2:] == ["--root", "/r"]
    assert sweeper_argv("/r", "s")[-2:] == ["--socket", "s"]


def test_the_sweeper_answers_each_request_and_freezes_what_lives_long() -> None:
    """``serve``: one answer per request byte, errors as a sweep raised them; after the first
    picture what survives a collection is frozen (a full collection walked 200 agents' worth of
    objects and stopped the sweep behind it), and it is all handed back when the input ends."""
    import gc

    from paw.cli.sweeper import serve
    from paw.errors import PawError, TmuxError

    frozen: list[int] = []
    script: list[BaseException | None] = [None, TmuxError("gone"), PawError("x", hint="h"), None]

    class Sweeps:
        def poll_once(self, *, publish: Callable[[Snapshot], None] | None = None) -> Snapshot:
            frozen.append(gc.get_freeze_count())
            error = script.pop(0)
            if error is not None:
                raise error
            return Snapshot(1.0, (), ())

    sent: list[tuple[object, ...]] = []
    assert gc.get_freeze_count() == 0
    serve(Sweeps(), io.BytesIO(b"ssss"), sent.append)
    assert sent == [
        ("snapshot", Snapshot(1.0, (), ()), ()),
        ("raise", "tmux", "gone", None),
        ("raise", "paw", "x", "h"),
        ("snapshot", Snapshot(1.0, (), ()), ()),
    ]
    assert frozen[0] == 0
    assert all(count > 0 for count in frozen[1:])
    assert gc.get_freeze_count() == 0


def test_the_sweeper_sends_the_picture_before_the_write_and_a_late_failure_next() -> None:
    """A picture given early is sent once, before the sweep's write; a write that fails after
    it is the answer to the next request (one answer per request, nothing lost)."""
    from paw.adapters.state import StateError
    from paw.cli.sweeper import serve

    sent: list[tuple[object, ...]] = []
    picture = Snapshot(2.0, (), ())
    script = ["early", "early-then-fail", "plain"]

    class Sweeps:
        def poll_once(self, *, publish: Callable[[Snapshot], None] | None = None) -> Snapshot:
            step = script.pop(0)
            if step.startswith("early"):
                assert publish is not None
                publish(picture)
                assert sent[-1] == ("snapshot", picture, ())  # out before the write below
                if step.endswith("fail"):
                    raise StateError("cannot write prompts.json: disk full")
            return picture

    serve(Sweeps(), io.BytesIO(b"ssss"), sent.append)
    assert sent == [
        ("snapshot", picture, ()),
        ("snapshot", picture, ()),
        ("raise", "paw", "cannot write prompts.json: disk full", None),  # the 3rd request
        ("snapshot", picture, ()),  # the 4th: the plain sweep
    ]


def test_a_sweep_gives_its_picture_early_while_it_still_holds_the_prompts_lock(
    git_repo: Path, server: Server
) -> None:
    """The picture with a new prompt goes before prompts.json is written, and no paw process
    can take the prompts lock until that write is done (approval waits for it)."""
    import threading

    from paw.supervisor.records import PROMPTS_LOCK, load_prompts, save_prompts

    supervisor = tui_supervisor(git_repo, server)
    supervisor.spawn("one", "asks", None)
    assert wait_for(lambda: bool(supervisor.poll_once().prompts))
    save_prompts(supervisor.ctx.state, {})  # the prompt is new to the next sweep
    supervisor.ctx.memory.observed.clear()
    early: list[tuple[Snapshot, int, bool]] = []

    def give(snapshot: Snapshot) -> None:
        took = threading.Event()

        def other() -> None:
            with supervisor.ctx.state.lock(PROMPTS_LOCK):
                took.set()

        thread = threading.Thread(target=other)
        thread.start()
        blocked = not took.wait(0.2)
        early.append((snapshot, len(load_prompts(supervisor.ctx.state)), blocked))
        # (the thread takes the lock once the sweep's write is done)
        threading.Thread(target=thread.join).start()

    def swept() -> bool:
        return bool(supervisor.poll_once(publish=give).prompts)

    try:
        assert wait_for(swept)
        snapshot, recorded, blocked = early[-1]
        assert [p.agent for p in snapshot.prompts] == ["one"]
        assert recorded == 0  # the new prompt was not on disk yet when the picture went
        assert blocked
        assert [r.agent for r in load_prompts(supervisor.ctx.state).values()] == ["one"]
        calls = len(early)
        supervisor.poll_once(publish=give)  # nothing new to write: no early picture
        assert len(early) == calls
    finally:
        supervisor.close()


def test_a_followed_sweeper_pushes_on_its_own_events_one_picture_per_acknowledgement() -> None:
    """``serve`` after ``f``: a pane event (through the pump, debounced) starts a sweep whose
    picture is pushed with the panes that drew; the next push waits for ``a`` (the TUI handled
    the one before); a request is still answered as a request; a pushed sweep that fails is
    told as ``pushed-raise``; whether events arrive is told once per change."""
    import queue
    import threading

    from paw.cli.sweeper import serve
    from paw.errors import TmuxError
    from paw.supervisor.pump import EventPump

    script: list[BaseException | None] = [None, None, TmuxError("gone"), None]

    class Sweeps:
        def poll_once(self, *, publish: Callable[[Snapshot], None] | None = None) -> Snapshot:
            error = script.pop(0) if script else None
            if error is not None:
                raise error
            return Snapshot(3.0, (), ())

    sent: queue.Queue[tuple[object, ...]] = queue.Queue()
    read_end, write_end = os.pipe()
    requests = os.fdopen(read_end, "rb", buffering=0)
    to_child = os.fdopen(write_end, "wb", buffering=0)
    live = [True]
    from paw.cli.sweeper import Inbox

    inbox = Inbox()
    pump = EventPump(inbox.pane_due)
    pump.start()
    server = threading.Thread(
        target=serve,
        args=(Sweeps(), requests, sent.put),
        kwargs={"pump": pump, "live": lambda: live[0], "inbox": inbox},
    )
    server.start()

    def next_frame() -> tuple[object, ...]:
        return sent.get(timeout=budget(10))

    def nothing_for(seconds: float) -> bool:
        try:
            frame = sent.get(timeout=seconds)
        except queue.Empty:
            return True
        raise AssertionError(f"unexpected {frame}")

    try:
        pump.note("%1")  # not followed yet: no sweep
        assert nothing_for(0.3)
        to_child.write(b"f")
        picture = Snapshot(3.0, (), ())
        assert next_frame() == ("pushed", picture, ("%1",))  # the event noted before
        assert next_frame() == ("live", True)
        # (a picture of no agents: from now on only structure events count, as in the TUI)
        pump.note("%2")
        assert nothing_for(0.3)
        pump.note(None)
        assert nothing_for(0.3)  # not acknowledged: no push
        to_child.write(b"a")
        assert next_frame() == ("pushed", picture, ())
        to_child.write(b"a")
        pump.note(None)
        assert next_frame() == ("pushed-raise", "tmux", "gone", None)  # the 3rd sweep failed
        pump.note(None)  # (no picture went: no acknowledgement is waited for)
        assert next_frame() == ("pushed", picture, ())
        live[0] = False
        to_child.write(b"s")  # a request, not acknowledged: still answered
        assert next_frame() == ("snapshot", picture, ())
        assert next_frame() == ("live", False)
    finally:
        to_child.close()
        server.join(timeout=budget(10))
        pump.stop()
    assert not server.is_alive()  # the end of the input ends it


def test_a_followed_sweeper_pushes_the_prompt_and_the_tui_sends_no_request(
    git_repo: Path, server: Server
) -> None:
    """Over real tmux: once followed, the agent's prompt reaches the TUI's side as a pushed
    picture (the sweeper's own pane events started the sweep), with its pane among those that
    drew; the sweeper says its events arrive; killed, it is no longer followed."""
    import queue

    supervisor = tui_supervisor(git_repo, server)
    child = started(supervisor, git_repo)
    pictures: queue.Queue[tuple[Snapshot, frozenset[str]]] = queue.Queue()
    failures: list[object] = []
    try:
        assert child.follow(lambda s, panes: pictures.put((s, panes)), failures.append)
        view = supervisor.spawn("one", "asks", None)
        end = time.monotonic() + budget(30)
        seen: tuple[Snapshot, frozenset[str]] | None = None
        drew: set[str] = set()
        while time.monotonic() < end:
            try:
                seen = pictures.get(timeout=0.5)
            except queue.Empty:
                continue
            drew |= seen[1]
            child.handled()
            if seen[0].prompts:
                break
        assert seen is not None
        assert seen[0].prompts, seen
        assert seen[0].prompts[0].prompt.subject == "ls -la"
        assert view.pane_id in drew
        assert wait_for(child.events_live)
        assert failures == []
        os.kill(child.pid, signal.SIGKILL)
        assert wait_for(lambda: not child.following)
        assert not child.events_live()
    finally:
        child.close()
