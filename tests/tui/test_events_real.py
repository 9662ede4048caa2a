"""Event-driven sweeps of the TUI over real tmux: pane output (tmux control-mode ``%output``)
and structure changes trigger sweeps; with nothing happening nothing is captured.

Every app here runs with a safety sweep of an hour: whatever the TUI shows after its first
sweeps came through the event path, not a timer.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
import pytest
from libtmux.server import Server
from textual.pilot import Pilot

from paw.adapters.tmux.terminal import TmuxTerminal
from paw.cli.compose import build_supervisor
from paw.cli.tui import connection_for
from paw.supervisor.model import AgentStatus, AgentView, Snapshot
from paw.supervisor.service import Supervisor
from paw.tui.app import PawApp, make_app
from tests.support.budget import budget

pytestmark = [pytest.mark.tmux, pytest.mark.git]
SIZE = (120, 40)
HOUR = 3600.0


def config(socket: str, gate: Path | None = None) -> str:
    """Scripted kinds: ``late`` works a while, then asks; ``asks`` asks at once; ``gated``
    sits idle until the file ``gate`` exists, then asks (a prompt drawn exactly when the test
    says so, however slow the machine is: never a race against a fixed delay)."""
    kinds: dict[str, tuple[str, ...]] = {"late": ("busy 4", "shell ls -la")}
    kinds["asks"] = ("shell ls -la",)
    if gate is not None:
        kinds["gated"] = (f"wait {gate}", "shell ls -la")
    lines = ["[tmux]", f'socket_name = "{socket}"', ""]
    for kind, steps in kinds.items():
        command = ", ".join(f'"{p}"' for p in ("{python}", "-m", "paw.demo.agent", *steps))
        lines += [
            f"[agents.{kind}]",
            f"command = [{command}]",
            'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }',
            'detector = "scripted"',
            "",
        ]
    return "\n".join(lines)


def supervisor_for(repo: Path, server: Server) -> Supervisor:
    socket = server.socket_name or ""
    (repo / "paw.toml").write_text(config(socket, gate_of(repo)), encoding="utf-8")
    return build_supervisor(str(repo), socket_name=socket, control=True)


def gate_of(repo: Path) -> Path:
    """The file a ``gated`` agent of ``repo`` waits for (outside the repository)."""
    return repo.parent / "gate"


def open_gate(repo: Path) -> None:
    """Let the ``gated`` agents of ``repo`` draw their prompt."""
    gate_of(repo).write_text("go\n", encoding="utf-8")


class Recorder:
    """Every snapshot the app's sweeps returned, in order."""

    def __init__(self, supervisor: Supervisor) -> None:
        self.snapshots: list[Snapshot] = []
        inner = supervisor.poll_once

        def poll_once(**kwargs: Any) -> Snapshot:
            snapshot = inner(**kwargs)
            self.snapshots.append(snapshot)
            return snapshot

        supervisor.poll_once = poll_once  # type: ignore[method-assign]

    @property
    def last(self) -> Snapshot | None:
        return self.snapshots[-1] if self.snapshots else None


async def until(pilot: Pilot[None], check: Callable[[], bool], seconds: float) -> bool:
    end = time.monotonic() + budget(seconds)
    while time.monotonic() < end:
        if check():
            return True
        await pilot.pause(0.05)
    return check()


def terminal_of(supervisor: Supervisor) -> TmuxTerminal:
    terminal = supervisor.ctx.terminal
    assert isinstance(terminal, TmuxTerminal)
    return terminal


def shows_prompt(recorder: Recorder, agent: str) -> bool:
    last = recorder.last
    return last is not None and any(p.agent == agent for p in last.prompts)


async def start_events(pilot: Pilot[None], app: PawApp, supervisor: Supervisor) -> None:
    """Hand the app the connection's event source (as `paw tui` does once connected)."""
    app._connected(connection_for(supervisor))
    assert await until(pilot, app.events_live, 30), "the tmux event client never attached"


async def test_a_prompt_drawn_later_is_shown_without_a_poll_tick(
    git_repo: Path, server: Server
) -> None:
    supervisor = supervisor_for(git_repo, server)
    supervisor.spawn("worker", "gated", None)
    recorder = Recorder(supervisor)
    app = make_app(supervisor, poll_interval=HOUR, safety_interval=HOUR, autopoll=False)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await start_events(pilot, app, supervisor)
            app.request_poll()  # the one sweep asked for: it sees the agent with no prompt
            assert await until(
                pilot, lambda: any(v.name == "worker" for v in _views(recorder)), 30
            ), "the agent was never swept"
            assert not shows_prompt(recorder, "worker")
            sweeps = len(recorder.snapshots)
            open_gate(git_repo)  # the prompt is drawn now, after the sweeps (never a race)
            assert await until(pilot, lambda: shows_prompt(recorder, "worker"), 30), (
                "the prompt drawn after the first sweeps never reached the TUI"
            )
            assert len(recorder.snapshots) > sweeps  # sweeps that only events started
    finally:
        app.disconnect()


async def test_idle_panes_are_not_captured(git_repo: Path, server: Server) -> None:
    supervisor = supervisor_for(git_repo, server)
    supervisor.spawn("one", "asks", None)
    supervisor.spawn("two", "asks", None)
    recorder = Recorder(supervisor)
    app = make_app(supervisor, poll_interval=0.2, safety_interval=HOUR, autopoll=True)
    terminal = terminal_of(supervisor)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await start_events(pilot, app, supervisor)
            app.request_poll()
            assert await until(
                pilot, lambda: shows_prompt(recorder, "one") and shows_prompt(recorder, "two"), 30
            )
            # both agents now wait on a key and draw nothing: once the last event's sweep is
            # over, no sweep runs and nothing is captured (the poll timer runs every 0.2 s)
            captured = -1
            for _ in range(int(budget(30) / 0.5)):
                if terminal.panes_captured == captured and not app.feed.in_flight:
                    break
                captured = terminal.panes_captured
                await pilot.pause(0.5)
            sweeps = len(recorder.snapshots)
            await pilot.pause(2.0)  # an absence: a window of time in which nothing may happen
            assert terminal.panes_captured == captured
            assert len(recorder.snapshots) == sweeps
    finally:
        app.disconnect()


async def test_a_flooding_pane_does_not_starve_another(git_repo: Path, server: Server) -> None:
    supervisor = supervisor_for(git_repo, server)
    supervisor.spawn("worker", "late", None)
    recorder = Recorder(supervisor)
    app = make_app(supervisor, poll_interval=HOUR, safety_interval=HOUR, autopoll=False)
    socket = server.socket_name or ""
    try:
        async with app.run_test(size=SIZE) as pilot:
            await start_events(pilot, app, supervisor)
            app.request_poll()
            assert await until(pilot, lambda: bool(_views(recorder)), 30)
            # a pane of paw's own session printing as fast as it can, beside the agent
            flood = "yes paw-flood-line-$(seq -s . 1 40)"
            started = await asyncio.create_subprocess_exec(
                "tmux", "-L", socket, "new-window", "-d", "-t", f"={supervisor.session}", flood
            )  # fmt: skip
            assert await started.wait() == 0
            assert await until(pilot, lambda: shows_prompt(recorder, "worker"), 60), (
                "the agent's prompt never reached the TUI while another pane flooded"
            )
    finally:
        app.disconnect()


async def test_a_restarted_server_is_reconnected(git_repo: Path, server: Server) -> None:
    supervisor = supervisor_for(git_repo, server)
    supervisor.spawn("first", "asks", None)
    recorder = Recorder(supervisor)
    app = make_app(supervisor, poll_interval=0.3, safety_interval=HOUR, autopoll=True)
    terminal = terminal_of(supervisor)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await start_events(pilot, app, supervisor)
            assert await until(pilot, lambda: shows_prompt(recorder, "first"), 30)
            events = terminal._events
            assert events is not None
            connects = events.connects
            seen = len(recorder.snapshots)
            pid = int(server.cmd("display-message", "-p", "#{pid}").stdout[0])
            server.kill()
            assert await until(pilot, lambda: bool(_lost(recorder)), 30), "no sweep saw it"
            # kill-server returns before the server exits: a session made before it is gone
            # meets the dying server ("server exited unexpectedly")
            assert await until(pilot, lambda: not psutil.pid_exists(pid), 30), "server lives"
            # The event client's own reader notices the end of its client on a thread of its
            # own: a sweep the dying server's last notifications started may see the server
            # gone first (on a loaded machine, by seconds).
            assert await until(pilot, lambda: not app.events_live(), 30), "events still live"
            # a new server: paw's session comes back with a new agent
            supervisor.spawn("second", "asks", None)
            assert await until(pilot, lambda: events.connects > connects, 30), "no reconnect"
            assert await until(pilot, lambda: shows_prompt(recorder, "second"), 30)
            assert app.events_live()
            # From the first sweep that saw the server gone (a sweep just after kill-server can
            # still be answered by the dying server): never exited, never the old prompt.
            after = recorder.snapshots[seen:]
            lost = next(i for i, s in enumerate(after) if not s.tmux_ok)
            between = after[lost:]
            for snapshot in between:
                first = next(v for v in snapshot.agents if v.name == "first")
                assert first.status is not AgentStatus.EXITED, snapshot
                assert all(p.agent != "first" for p in snapshot.prompts), snapshot
            last = recorder.last
            assert last is not None
            first = next(v for v in last.agents if v.name == "first")
            assert first.status is AgentStatus.SERVER_RESTARTED
    finally:
        app.disconnect()


def _views(recorder: Recorder) -> tuple[AgentView, ...]:
    last = recorder.last
    return () if last is None else last.agents


def _lost(recorder: Recorder) -> bool:
    last = recorder.last
    return (
        last is not None
        and not last.tmux_ok
        and all(v.status is AgentStatus.LOST for v in last.agents)
        and not last.prompts
    )


async def test_a_commit_in_a_quiet_worktree_is_counted_beside_the_sweeps_and_shown(
    git_repo: Path, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The TUI counts worktrees on workers: a commit in a quiet agent's worktree moves its
    status mark, a safety-less sweep starts the count, and the count's end asks for the
    sweep that shows it (nothing else would sweep: the pane stays quiet)."""
    from paw.supervisor.sweep import counts

    monkeypatch.setattr(counts, "MARK_EVERY_S", 0.0)  # every sweep reads the status marks
    supervisor = supervisor_for(git_repo, server)
    supervisor.spawn("quiet", "asks", None)
    recorder = Recorder(supervisor)
    app = make_app(supervisor, poll_interval=HOUR, safety_interval=HOUR, autopoll=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await start_events(pilot, app, supervisor)
            assert supervisor.ctx.settings.count_in_background
            assert await until(pilot, lambda: shows_prompt(recorder, "quiet"), 30)

            def ahead() -> int:
                last = recorder.last
                view = next((v for v in last.agents if v.name == "quiet"), None) if last else None
                return view.stat.ahead if view is not None and view.stat.counted else -1

            assert await until(pilot, lambda: ahead() == 0, 30)
            worktree = Path(supervisor.agent("quiet").worktree)
            (worktree / "new.txt").write_text("x\n", encoding="utf-8")
            git = ["git", "-C", str(worktree), "-c", "user.name=t", "-c", "user.email=t@t"]
            await asyncio.to_thread(subprocess.run, [*git, "add", "new.txt"], check=True)
            await asyncio.to_thread(subprocess.run, [*git, "commit", "-qm", "x"], check=True)
            app.request_poll()  # one sweep sees the mark move and starts the count
            assert await until(pilot, lambda: ahead() == 1, 30), recorder.last
    finally:
        app.disconnect()


async def test_the_tui_follows_its_sweepers_pushes_and_watches_itself_once_it_dies(
    git_repo: Path, server: Server
) -> None:
    """With a sweeper, the TUI runs no event client: a prompt drawn later comes as a picture
    the sweeper pushed on its own events (no sweep asked for it). Killed, the sweeper is no
    longer followed: the TUI starts its own event client and a later prompt still arrives."""
    import os
    import signal

    from paw.cli.tui import start_sweeper

    supervisor = supervisor_for(git_repo, server)
    supervisor.spawn("worker", "gated", None)
    recorder = Recorder(supervisor)  # the sweeps the TUI asks for (here or in the sweeper)
    sweeper = start_sweeper(supervisor, str(git_repo), server.socket_name)
    assert sweeper is not None
    app = make_app(supervisor, poll_interval=0.3, safety_interval=HOUR, autopoll=True)
    started: list[psutil.Process] = []
    try:
        async with app.run_test(size=SIZE) as pilot:
            app._connected(connection_for(supervisor, sweeper=sweeper))
            assert await until(pilot, app.events_live, 60), "the sweeper's events never came"
            assert terminal_of(supervisor)._events is None  # no event client of its own

            def shown(agent: str) -> bool:
                snapshot = app.main.snapshot
                return snapshot is not None and any(p.agent == agent for p in snapshot.prompts)

            def listed(agent: str) -> bool:
                snapshot = app.main.snapshot
                return snapshot is not None and any(v.name == agent for v in snapshot.agents)

            # The sweeps asked for before the events came (the timer's, the first safety
            # sweep) are over; only then is the prompt drawn: however slow the sweeper was to
            # start, it is drawn after them (a fixed delay here raced the sweeper's start).
            assert await until(pilot, lambda: listed("worker") and not app.feed.in_flight, 30)
            assert not shown("worker")
            open_gate(git_repo)
            assert await until(pilot, lambda: shown("worker"), 30), "the prompt never came"
            assert not shows_prompt(recorder, "worker")  # pushed, not asked for
            # a control client of the killed sweeper can stay attached, and kill-server then
            # waits on it for ever: what the sweeper started is ended below, by PID
            started.extend(psutil.Process(sweeper.pid).children(recursive=True))
            os.kill(sweeper.pid, signal.SIGKILL)
            assert await until(pilot, lambda: terminal_of(supervisor).events_live(), 30)
            assert await until(pilot, app.events_live, 30)
            supervisor.spawn("second", "asks", None)
            assert await until(pilot, lambda: shown("second"), 30), "no prompt after the kill"
    finally:
        app.disconnect()
        sweeper.close()
        for process in started:
            with contextlib.suppress(psutil.Error):
                process.kill()
