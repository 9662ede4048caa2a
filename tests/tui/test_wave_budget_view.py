"""A wave task parked over its token budget, as the TUI's wave view shows it: the real runner
(`paw wave run`, its own process) over a private tmux server and a real git repository reads
the task's agent's usage from a Codex session log and parks the task (its agent left running);
the TUI, `paw wave status` and `paw wave report` all say "parked", with what it spent of which
budget."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from paw.adapters.wave_watch import WaveWatcher
from paw.cli.compose import build_supervisor
from paw.tui.app import make_app
from paw.tui.widgets.wave_panel import WaveTable
from tests.support.budget import budget
from tests.tui.conftest import screen_text, settle
from tests.tui.real_world import capture, wait_for
from tests.tui.wave_real import kill_runner, state, task

if TYPE_CHECKING:
    from libtmux.server import Server

PAW = [sys.executable, "-m", "paw"]
HOUR = 3600.0  # the timer never fires: the test sweeps with request_poll
SIZE = (120, 40)
REASON = "over its budget: 20 of 15 tokens"

# A scripted agent read by Codex's detector and usage reader (`detector = "codex"`): its
# usage is what the Codex session log under CODEX_HOME says for its worktree. It works a
# moment, then sits idle at its input (`wait` for a file never made).
PAW_TOML = """
[agents.demo-spend]
command = ["{python}", "-m", "paw.demo.agent", "busy 0.3", "wait never-made"]
detector = "codex"
task_flag = "--task"
match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }
env = { CODEX_HOME = "@HOME@" }
"""

WAVE_TOML = """
name = "night"
agent = "demo-spend"
poll_s = 0.5
idle_poll_s = 0.5
settle_s = 1
task_budget_s = 3600

[notify]
bell = false
tmux_badge = false

[[tasks]]
name = "spend"
task = "spend tokens"
budget_tokens = 15
"""


def _codex_log(home: Path, worktree: Path) -> None:
    """Codex's session log of the task's worktree: one response, 12 tokens in and 8 out (as
    the stub model answers; Codex writes the running total as a `token_count` event)."""
    day = home / "sessions" / time.strftime("%Y/%m/%d")
    day.mkdir(parents=True)
    meta = {"type": "session_meta", "payload": {"id": "s1", "cwd": str(worktree)}}
    total = {"input_tokens": 12, "cached_input_tokens": 0, "output_tokens": 8}
    count = {"type": "event_msg", "payload": {"type": "token_count",
                                              "info": {"total_token_usage": total}}}  # fmt: skip
    lines = [json.dumps(meta), json.dumps(count)]
    (day / "rollout-2026-01-01T00-00-00-s1.jsonl").write_text("\n".join(lines) + "\n", "utf-8")


def _start_runner(repo: Path, socket: str, wave: Path) -> subprocess.Popen[str]:
    """`paw wave run` (the real runner, its own process)."""
    return subprocess.Popen(
        [*PAW, "wave", "run", str(wave), "--quiet"], cwd=repo,
        env={**os.environ, "PAW_TMUX_SOCKET": socket}, text=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip


def _paw(repo: Path, socket: str, *args: str) -> str:
    done = subprocess.run(
        [*PAW, *args], cwd=repo, env={**os.environ, "PAW_TMUX_SOCKET": socket},
        capture_output=True, text=True, timeout=budget(60.0), check=True,
    )  # fmt: skip
    return done.stdout


@pytest.mark.tmux
@pytest.mark.git
@pytest.mark.timeout(300)
async def test_a_task_parked_over_its_token_budget_is_parked_in_every_front_end(
    git_repo: Path, server: Server, tmp_path: Path
) -> None:
    socket = server.socket_name or ""
    home = tmp_path / "codex-home"
    worktree = (git_repo.parent / f"{git_repo.name}-paw" / "night-spend").resolve()
    _codex_log(home, worktree)
    config = PAW_TOML.replace("@HOME@", str(home))
    (git_repo / "paw.toml").write_text(config, encoding="utf-8")
    wave = tmp_path / "night.toml"
    wave.write_text(WAVE_TOML, encoding="utf-8")
    runner = _start_runner(git_repo, socket, wave)
    try:

        def parked() -> bool:
            if runner.poll() is not None:
                raise AssertionError(f"the runner ended: {runner.stderr.read()}")  # type: ignore[union-attr]
            return task(git_repo, "spend").get("budget_parked") is not None

        assert wait_for(parked, budget(90.0), 0.2), json.dumps(state(git_repo), indent=1)[:3000]
        spent = task(git_repo, "spend")
        assert spent["budget_parked"] == REASON  # the real budget path parked it
        assert spent["phase"] == "running"  # parked, never ended

        supervisor = build_supervisor(str(git_repo), socket_name=socket)
        watcher = WaveWatcher(git_repo / ".paw" / "waves")
        app = make_app(supervisor, poll_interval=HOUR, waves=watcher.read)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            app.request_poll()
            await settle(pilot)
            await pilot.press("w")
            await settle(pilot)
            rows = app.main.query_one(WaveTable).rows_shown
            assert [(r.task, r.status) for r in rows] == [("spend", "parked")]
            assert rows[0].budget_parked == REASON
            text = screen_text(app)
            line = next(ln for ln in text.splitlines() if ln.startswith("│ spend  "))
            assert REASON in line, text
            counts = next(ln for ln in text.splitlines() if " parked 1 " in ln)  # the header
            assert "running" not in counts, text
            # the card: what it means, and why
            assert "spend (night-spend) is parked for you" in text, text
            assert f"Why: {REASON}." in text, text
        supervisor.close()

        # the agent still runs (parked, never killed)
        def agent_alive() -> bool:
            panes = server.cmd("list-panes", "-a", "-F", "#{pane_id} #{pane_dead}").stdout
            screens = [capture(socket, p.split()[0]) for p in panes if p.endswith(" 0")]
            return any("task: spend tokens" in s and "demo>" in s for s in screens)

        assert wait_for(agent_alive, budget(30.0), 0.2)
        assert task(git_repo, "spend")["phase"] == "running"

        # the command line says it the same way
        status = _paw(git_repo, socket, "wave", "status")
        assert f"spend: parked ({REASON}, paw attach night-spend)" in status, status
        report = _paw(git_repo, socket, "wave", "report")
        assert "| spend | parked |" in report, report
        assert f"- parked: {REASON}" in report, report
        data = json.loads(_paw(git_repo, socket, "wave", "report", "--json"))
        assert (data["tasks"][0]["status"], data["tasks"][0]["budget_parked"]) == (
            "parked",
            REASON,
        )
    finally:
        kill_runner(runner)
