"""`paw stop` ends what ran in the agent's pane, also a process that ignores the hangup of
a killed pane (gemini-cli does), and never a process it did not prove to be that agent's."""

from __future__ import annotations

import json
import subprocess
import sys

import psutil
import pytest

from tests.adversarial.ident_support import (
    Env,
    configure,
    events,
    listed,
    paw,
    screen,
    tmux,
    wait_for,
)

pytestmark = [pytest.mark.tmux, pytest.mark.git]

DEAF = (
    "import signal, time\n"
    "signal.signal(signal.SIGHUP, signal.SIG_IGN)\n"
    "print('deaf agent ready', flush=True)\n"
    "time.sleep(600)\n"
)


def test_stop_ends_an_agent_that_ignores_the_hangup(env: Env) -> None:
    # a custom kind (no detector): spawn does not wait for an input it cannot read
    command = json.dumps(["{python}", "-c", DEAF])
    (env.repo / "paw.toml").write_text(f"[agents.deaf]\ncommand = {command}\n", "utf-8")
    done = paw("spawn", "deaf", "--agent", "deaf")
    assert done.returncode == 0, done.stderr
    pane = listed("ls")[0]["pane_id"]
    assert wait_for(lambda: "deaf agent ready" in screen(env, pane))
    pid = int(tmux(env, "display-message", "-p", "-t", pane, "#{pane_pid}").stdout)
    agent = psutil.Process(pid)
    # the control: killing the pane alone leaves it running, unseen
    stray = subprocess.Popen([sys.executable, "-c", DEAF], start_new_session=True)
    try:
        done = paw("stop", "deaf")
        assert done.returncode == 0, done.stderr
        assert wait_for(lambda: not agent.is_running() or agent.status() == "zombie")
        assert [e["pids"] for e in events(env, "stop-ended", agent="deaf")] == [[pid]]
        assert stray.poll() is None  # a process paw did not launch is left alone
    finally:
        stray.kill()
        stray.wait()
        if agent.is_running():
            agent.kill()


def test_stop_of_an_agent_that_exits_on_hangup_signals_nothing(env: Env) -> None:
    configure(env, "busy 600")
    assert paw("spawn", "calm", "--agent", "scripted").returncode in (0, 5)
    assert paw("stop", "calm").returncode == 0
    assert events(env, "stop", agent="calm")
    assert not events(env, "stop-ended", agent="calm")
