"""A prompt of a wave's agent on `paw serve`'s page names its wave and task: real tmux and git,
a real `paw wave run` of one scripted task that asks a ``confirm`` (parked for a human), and a
real `paw serve` read over HTTP. The card's parts, pure: tests/web/test_parts.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest

from tests.support.budget import budget
from tests.web.test_serve import Web, _card, _serve, _stop, _wait_prompt

if TYPE_CHECKING:
    from pathlib import Path

    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git]

AGENT = """\
[agents.demo-push]
command = {command}
detector = "scripted"
task_flag = "--task"
match = {{ interpreters = ["python"], scripts = ["paw.demo.agent"] }}
"""
WAVE = """\
name = "night"
agent = "demo-push"
poll_s = 0.5
settle_s = 1

[notify]
bell = false

[[tasks]]
name = "push"
task = "push the branch"
"""


def test_a_wave_agents_prompt_card_names_its_wave_and_task(
    git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.chdir(git_repo)
    command = json.dumps(["{python}", "-m", "paw.demo.agent", "busy 0.3",
                          "shell git push origin feature"])  # fmt: skip
    (git_repo / "paw.toml").write_text(AGENT.format(command=command), encoding="utf-8")
    wave = tmp_path / "night.toml"
    wave.write_text(WAVE, encoding="utf-8")
    runner = subprocess.Popen(
        [sys.executable, "-m", "paw", "wave", "run", str(wave), "--quiet"], cwd=git_repo,
        env={**os.environ}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    proc, url = _serve(git_repo, "--no-qr")
    try:
        parts = urlsplit(url)
        assert parts.port is not None
        web = Web(proc, "127.0.0.1", parts.port, parts.query.removeprefix("token="), git_repo)
        web.login()
        card = _card(web, _wait_prompt(web, "git push origin feature"))
        assert "<div class='meta wave'>wave <b>night</b> · task <b>push</b></div>" in card
        assert " · night-push " in card  # the agent, beside it
    finally:
        _stop(proc)
        runner.terminate()
        try:
            runner.wait(timeout=budget(60))
        except subprocess.TimeoutExpired:
            runner.kill()
            runner.wait()
