"""The wave view (`w`): rows parked-first, the header, the runner line, an unreadable state file,
and decisions that go through the supervisor (fake supervisor), then the same over the real
runner, real tmux and git with the scripted agent."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from textual.pilot import Pilot

from paw.adapters.wave_watch import WaveWatcher
from paw.cli.compose import build_supervisor
from paw.tui.app import PawApp, make_app
from paw.tui.screens.block import BlockDialog
from paw.tui.screens.confirm import ConfirmDialog
from paw.tui.screens.main import MainScreen
from paw.tui.widgets.agent_list import AgentList
from paw.tui.widgets.wave_panel import RESUME_HINT, WaveTable
from tests.support.budget import budget
from tests.tui.conftest import screen_text, settle
from tests.tui.real_world import audit_records, capture, wait_for
from tests.tui.wave_real import PARKED, kill_runner, parked, start_runner, wait_until_parked
from tests.tui.wave_world import wave_state, wave_supervisor, write_wave

if TYPE_CHECKING:
    from libtmux.server import Server

    from tests.tui.fake_supervisor import FakeSupervisor

HOUR = 3600.0  # the timer never fires: tests sweep with request_poll
SIZE = (120, 40)


async def until(pilot: Pilot[None], check: Callable[[], bool], seconds: float = 10.0) -> bool:
    """Let the app run until ``check`` holds (or ``seconds`` pass)."""
    for _ in range(int(budget(seconds) / 0.05)):
        if check():
            return True
        await pilot.pause(0.05)
    return check()


async def sweep(pilot: Pilot[None]) -> None:
    """One sweep now, and its result on screen."""
    app = pilot.app
    assert isinstance(app, PawApp)
    await settle(pilot)
    app.request_poll()
    await settle(pilot)


def shown(app: PawApp) -> bool:
    """Whether the wave view is on screen."""
    return app.main.wave_shown


def table(app: PawApp) -> WaveTable:
    return app.main.query_one(WaveTable)


async def select_task(pilot: Pilot[None], name: str) -> None:
    """Move the wave table's cursor to ``name`` with the arrow keys."""
    app = pilot.app
    assert isinstance(app, PawApp)
    keys = table(app).visible_keys
    move = keys.index(name) - table(app).cursor_row
    await pilot.press(*(["down"] * move if move > 0 else ["up"] * -move))
    await settle(pilot)
    assert table(app).selected_key == name


@pytest.fixture
def waves_dir(tmp_path: Path) -> Path:
    return tmp_path / ".paw" / "waves"


@pytest.fixture
def fake_wave(waves_dir: Path) -> tuple[FakeSupervisor, PawApp]:
    fake = wave_supervisor()
    write_wave(waves_dir, wave_state(fake))
    return fake, make_app(fake, poll_interval=HOUR, waves=WaveWatcher(waves_dir).read)


@pytest.fixture
def runner_like(waves_dir: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A live process that names a wave in its command line, as the runner does, and whose pid
    is in the runner's lock file."""
    proc = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(120)", "wave", "run"]
    )  # fmt: skip
    waves_dir.mkdir(parents=True, exist_ok=True)
    (waves_dir / "night.lock").write_text(str(proc.pid), encoding="ascii")
    yield proc
    if proc.poll() is None:
        proc.kill()
    proc.wait(10)


# -- over the fake supervisor, the state made by the wave core ---------------------------------


async def test_rows_parked_first_then_dialog_stuck_checking_running_queued_failed_done(
    fake_wave: tuple[FakeSupervisor, PawApp],
) -> None:
    _, app = fake_wave
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not shown(app)
        await pilot.press("w")
        await settle(pilot)
        assert shown(app)
        rows = table(app).rows_shown
        statuses = [(r.task, r.status) for r in rows]
        # push's prompt (95 s) is older than clean's (40 s): the longest waiting on top
        assert statuses == [
            ("push", "waiting"),
            ("clean", "waiting"),
            ("docs", "stuck"),
            ("tests", "checking"),
            ("api", "running"),
            ("later", "queued"),
            ("lint", "done"),
        ]
        text = screen_text(app)
        assert "wave night" in text
        assert RESUME_HINT in text  # no runner holds the wave
        assert "waiting 2" in text
        assert "stuck 1" in text
        assert "1h00m/8h00m" in text  # the wave's time against its budget
        assert "59m/2h00m" in text  # a task's
        push_line = next(line for line in text.splitlines() if " push " in line)
        assert "git push" in push_line
        assert "confirm" in push_line
        clean_line = next(line for line in text.splitlines() if " clean " in line)
        assert "block" in clean_line
        tests_line = next(line for line in text.splitlines() if " tests " in line)
        assert "1✗ 1/2" in tests_line  # one failed check run, one of two follow-ups sent
        await pilot.press("w")
        await settle(pilot)
        assert not shown(app)
        assert isinstance(app.focused, AgentList)


async def test_wave_key_is_in_the_footer_and_help(
    fake_wave: tuple[FakeSupervisor, PawApp],
) -> None:
    _, app = fake_wave
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "w Wave" in screen_text(app).splitlines()[-1]
        await pilot.press("question_mark")
        await settle(pilot)
        assert "Show the wave" in screen_text(app)


async def test_without_a_wave_the_key_is_not_offered(waves_dir: Path) -> None:
    app = make_app(wave_supervisor(), poll_interval=HOUR, waves=WaveWatcher(waves_dir).read)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "w Wave" not in screen_text(app).splitlines()[-1]
        await pilot.press("w")
        await settle(pilot)
        assert not shown(app)
        write_wave(waves_dir, wave_state(wave_supervisor()))  # a wave starts meanwhile
        await sweep(pilot)
        assert "w Wave" in screen_text(app).splitlines()[-1]
        await pilot.press("w")
        await settle(pilot)
        assert shown(app)


async def test_approve_from_the_wave_view_goes_through_the_supervisor(
    fake_wave: tuple[FakeSupervisor, PawApp],
) -> None:
    fake, app = fake_wave
    push_id = next(p.id for p in fake.prompts.values() if p.agent == "night-push")
    clean_id = next(p.id for p in fake.prompts.values() if p.agent == "night-clean")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        # block: one key opens the override dialog, nothing is sent
        await select_task(pilot, "clean")
        await pilot.press("a")
        assert await until(pilot, lambda: isinstance(app.screen, BlockDialog))
        await pilot.press("escape")
        await settle(pilot)
        assert fake.sent_keys == []
        # confirm: the dialog first, then the supervisor sends
        await select_task(pilot, "push")
        await pilot.press("a")
        assert await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        assert fake.sent_keys == []
        await pilot.press("y")
        await settle(pilot)
        assert [pane for pane, _ in fake.sent_keys] == [fake.panes["night-push"]]
        approvals = [c[1] for c in fake.calls if c[0] == "approve"]
        # the block went nowhere (the dialog asks before the supervisor); the confirm went
        # twice: asked, then confirmed by the human
        assert approvals == [(push_id, False, False, None), (push_id, False, True, None)]
        assert clean_id not in {a[0] for a in approvals}  # type: ignore[index]


async def test_enter_on_a_task_selects_its_agent(
    fake_wave: tuple[FakeSupervisor, PawApp],
) -> None:
    _, app = fake_wave
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        await select_task(pilot, "docs")
        await pilot.press("enter")
        await settle(pilot)
        assert not app.main.wave_shown
        assert app.main.query_one(AgentList).selected_key == "night-docs"
        assert app.main.shown_agent == "night-docs"


async def test_a_corrupt_state_file_is_one_line_then_recovers(
    waves_dir: Path,
) -> None:
    fake = wave_supervisor()
    good = wave_state(fake)
    path = write_wave(waves_dir, good)
    path.write_text('{"name": "night", "tasks": [', encoding="utf-8")  # cut off mid-write
    watcher = WaveWatcher(waves_dir)
    app = make_app(fake, poll_interval=HOUR, waves=watcher.read)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        text = screen_text(app)
        assert "✖ .paw/waves/night.json is not valid JSON" in text
        assert "Traceback" not in text
        assert table(app).rows_shown == ()
        path.write_text('{"name": "night", "tasks": "many"}', encoding="utf-8")
        await sweep(pilot)
        assert ".paw/waves/night.json is corrupt:" in screen_text(app)
        write_wave(waves_dir, good)
        await sweep(pilot)
        assert "is corrupt" not in screen_text(app)
        assert len(table(app).rows_shown) == len(good.tasks)


def test_the_state_is_parsed_only_when_its_file_changed(waves_dir: Path) -> None:
    fake = wave_supervisor()
    state = wave_state(fake)
    path = write_wave(waves_dir, state)
    watcher = WaveWatcher(waves_dir)
    first = watcher.read()
    assert first is not None
    assert first.state is not None
    for _ in range(5):
        assert watcher.read() is first
    assert watcher.parses == 1
    state.task("api").followups = 1
    write_wave(waves_dir, state)  # replaced: another inode, size or mtime
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    again = watcher.read()
    assert watcher.parses == 2
    assert again is not None
    assert again.state is not None
    assert again.state.task("api").followups == 1
    (waves_dir / "night.stop.json").write_text('{"stop": false}', encoding="utf-8")
    assert watcher.read() is again  # the stop file is not a wave
    (waves_dir / "night.outbox.json").write_text('{"attempted": {}}', encoding="utf-8")
    assert watcher.read() is again  # nor are the delivery marks of its messages


def test_no_wave_directory_is_no_wave(tmp_path: Path) -> None:
    assert WaveWatcher(tmp_path / "nowhere").read() is None


async def test_runner_alive_then_killed(
    fake_wave: tuple[FakeSupervisor, PawApp], runner_like: subprocess.Popen[bytes]
) -> None:
    _, app = fake_wave
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        text = screen_text(app)
        assert "● runner" in text
        assert RESUME_HINT not in text
        runner_like.kill()
        runner_like.wait(10)
        await sweep(pilot)
        assert f"✖ {RESUME_HINT}" in screen_text(app)


# -- the real runner, real tmux and git, the scripted agent -------------------------------------


@pytest.mark.tmux
@pytest.mark.git
@pytest.mark.timeout(300)
async def test_real_wave_parked_first_approve_through_proof_and_runner_killed(
    git_repo: Path, server: Server
) -> None:
    socket = server.socket_name or ""
    runner = start_runner(git_repo, socket)
    try:
        wait_until_parked(git_repo, runner)
        ids = {name: parked(git_repo, name)["id"] for name in PARKED}  # type: ignore[index]
        supervisor = build_supervisor(str(git_repo), socket_name=socket)
        watcher = WaveWatcher(git_repo / ".paw" / "waves")
        app = make_app(supervisor, poll_interval=HOUR, waves=watcher.read)
        async with app.run_test(size=SIZE) as pilot:
            await sweep(pilot)
            await pilot.press("w")
            await settle(pilot)
            rows = table(app).rows_shown
            assert [r.status for r in rows] == ["waiting"] * 3 + ["done"]
            assert {r.task for r in rows[:3]} == set(PARKED)
            assert rows[0].prompt is not None
            verdicts = {r.task: r.prompt.verdict for r in rows[:3] if r.prompt}
            assert verdicts == {"push": "confirm", "wipe": "block", "list": "allow"}
            assert "● runner" in screen_text(app)
            panes = {p.agent: p.pane_id for p in app.main.snapshot.prompts}  # type: ignore[union-attr]

            # block: one key is never enough
            await select_task(pilot, "wipe")
            await pilot.press("a")
            assert await until(pilot, lambda: isinstance(app.screen, BlockDialog))
            await pilot.press("escape")
            await settle(pilot)
            assert "received key" not in capture(socket, panes["night-wipe"])

            # the prompt changed after paw's sweep (someone answered it in the pane and the
            # agent asks something else): the approval is refused, nothing is sent
            await select_task(pilot, "list")
            assert app.main.selected_prompt is not None
            assert app.main.selected_prompt.id == ids["list"]
            server.cmd("send-keys", "-t", panes["night-list"], "n")
            assert wait_for(lambda: "ls -l docs" in capture(socket, panes["night-list"]))
            await pilot.press("a")
            await settle(pilot)
            await pilot.pause(0.5)
            assert "received key 'y'" not in capture(socket, panes["night-list"])
            decisions = [
                r.get("decision")
                for r in audit_records(git_repo)
                if r.get("prompt_id") == ids["list"] and r["event"] == "approve"
            ]
            assert decisions == ["refuse"]

            # confirm: the dialog, then proof, record, send
            await select_task(pilot, "push")
            await pilot.press("a")
            assert await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
            await pilot.press("y")
            sent = await until(
                pilot, lambda: "received key 'y'" in capture(socket, panes["night-push"]), 30
            )
            assert sent, capture(socket, panes["night-push"])
            assert isinstance(app.screen, MainScreen)
            sends = [
                r
                for r in audit_records(git_repo)
                if r.get("prompt_id") == ids["push"] and r.get("decision") == "send"
            ]
            assert len(sends) == 1
            assert "approved by rule" not in str(sends[0]["user"])

            # kill -9 of the runner: the header says so, and how to go on
            kill_runner(runner)
            await sweep(pilot)
            assert f"✖ {RESUME_HINT}" in screen_text(app)
        supervisor.close()
    finally:
        kill_runner(runner)


@pytest.mark.tmux
@pytest.mark.git
@pytest.mark.timeout(300)
def test_real_terminal_80x24_shows_the_wave_parked_first(git_repo: Path, server: Server) -> None:
    socket = server.socket_name or ""
    runner = start_runner(git_repo, socket)
    try:
        wait_until_parked(git_repo, runner)
        # the shell reaps the TUI and writes its exit status: tmux 3.3a under load has left a
        # pane's ended process unreaped (a zombie, the pane not dead) for more than 30 s
        status = git_repo.parent / "tui-exit-status"
        command = " ".join(
            (sys.executable, "-m", "paw", "tui", "-C", str(git_repo), "--interval", "0.2")
        )
        command = f"{command}; echo $? > {status}"
        env = ["-e", "TERM=xterm-256color", "-e", "TEXTUAL_ANIMATIONS=none"]
        server.cmd("new-session", "-d", "-s", "ui", "-x", "80", "-y", "24", *env, command)
        # a TUI that ends leaves its last words on screen (else the pane and its text vanish)
        server.cmd("set-option", "-t", "ui", "remain-on-exit", "on")
        ui = str(server.cmd("display-message", "-p", "-t", "ui", "#{pane_id}").stdout[0])
        assert wait_for(lambda: "● tmux" in capture(socket, ui), budget(30)), capture(socket, ui)

        def footer() -> str:
            return capture(socket, ui).rstrip("\n").splitlines()[-1]

        assert wait_for(lambda: "w Wave" in footer(), budget(30)), capture(socket, ui)
        server.cmd("send-keys", "-t", ui, "w")
        assert wait_for(lambda: "● runner" in capture(socket, ui), budget(30)), capture(socket, ui)
        assert wait_for(lambda: "confirm" in capture(socket, ui)), capture(socket, ui)
        screen = capture(socket, ui)
        lines = screen.rstrip("\n").splitlines()
        assert len(lines) == 24
        rows = [ln.strip("│ ").split() for ln in lines]
        order = [c[0] for c in rows if len(c) > 1 and c[1] in ("waiting", "done")]
        assert set(order[:3]) == set(PARKED), screen
        assert order[3:] == ["quick"], screen
        push = next(ln for ln in lines if ln.strip("│ ").startswith("push "))
        assert "git push" in push
        assert "confirm" in push
        assert "q Quit" in lines[-1]
        kill_runner(runner)
        assert wait_for(lambda: RESUME_HINT in capture(socket, ui), budget(30)), (
            server.cmd("list-panes", "-a", "-F", "#{pane_id} #{pane_dead}").stdout,
            capture(socket, ui),
        )
        assert not status.exists(), capture(socket, ui)
        server.cmd("send-keys", "-t", ui, "q")
        assert wait_for(status.exists, budget(30)), capture(socket, ui)
        assert wait_for(lambda: status.read_text().strip() != ""), capture(socket, ui)
        assert status.read_text().strip() == "0", capture(socket, ui)
    finally:
        kill_runner(runner)
