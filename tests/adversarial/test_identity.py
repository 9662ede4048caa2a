"""Keys and kills reach only the pane paw proved: a restarted tmux server is another server, a
process paw did not launch is not the agent (issue scenarios 1, 6, 9 and 12)."""

from __future__ import annotations

import json
import shlex
import signal
import sys
from typing import TYPE_CHECKING

import psutil
import pytest

from paw.cli.compose import build_supervisor
from paw.supervisor.model import AgentStatus
from tests.adversarial.ident_support import (
    Env,
    agent_argv,
    answers,
    audit,
    configure,
    events,
    listed,
    pane_exists,
    paw,
    screen,
    tmux,
    wait_for,
    wait_prompt,
)

if TYPE_CHECKING:
    from pathlib import Path

    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git]


def _key_recorder(env: Env, name: str) -> tuple[list[str], Path]:
    """A command that records every byte it receives into a file (an unrelated program)."""
    out = env.tmp / f"{name}.keys"
    code = (
        "import os, sys, tty; tty.setraw(0)\n"
        f"f = open({str(out)!r}, 'ab', buffering=0)\n"
        "while True:\n    b = os.read(0, 64)\n    f.write(b)\n"
    )
    return [sys.executable, "-c", code], out


def _restart_server_with_a_pane_at(env: Env, server: Server, pane_id: str) -> Path:
    """Kill the server, start a new one on the same socket, and create panes until one gets
    ``pane_id``: an unrelated program (it records the keys it gets) sits at the old agent's id."""
    server.kill()
    argv, keys = _key_recorder(env, "unrelated")
    assert wait_for(
        lambda: tmux(env, "new-session", "-d", "-s", "other", "sleep 600").returncode == 0
    )
    for _ in range(int(pane_id.lstrip("%")) + 1):
        panes = tmux(env, "list-panes", "-a", "-F", "#{pane_id}").stdout.split()
        if pane_id in panes:
            break
        made = tmux(env, "new-window", "-d", "-t", "other:", *argv)
        assert made.returncode == 0, made.stderr
    assert pane_exists(env, pane_id), tmux(env, "list-panes", "-a").stdout
    tmux(env, "respawn-pane", "-k", "-t", pane_id, *argv)

    def recorder_runs() -> bool:
        said = tmux(env, "display-message", "-p", "-t", pane_id, "#{pane_pid}").stdout.strip()
        try:
            return "tty.setraw" in " ".join(psutil.Process(int(said)).cmdline())
        except (ValueError, psutil.Error):
            return False

    assert wait_for(recorder_runs)  # the recorder runs in that pane (not merely: a process)
    return keys


def test_server_restart_reused_pane_id_gets_no_keys_and_no_kill(env: Env, server: Server) -> None:
    configure(env, "shell touch approved.txt")
    assert paw("spawn", "alice", "--agent", "scripted").returncode == 0
    prompt = wait_prompt(env, "touch approved.txt")
    keys = _restart_server_with_a_pane_at(env, server, prompt.pane_id)

    [view] = build_supervisor(str(env.repo)).poll_once().agents
    assert view.status is AgentStatus.SERVER_RESTARTED
    assert view.pane_id is None
    assert view.note is not None
    assert "tmux server restarted" in view.note

    done = paw("approve", prompt.id, "--yes")
    assert done.returncode == 1
    assert listed("prompts") == []
    assert paw("stop", "alice").returncode == 0
    assert pane_exists(env, prompt.pane_id), "stop killed an unrelated pane"
    assert paw("rm", "alice").returncode == 0
    assert pane_exists(env, prompt.pane_id), "rm killed an unrelated pane"
    assert (keys.read_bytes() if keys.exists() else b"") == b""
    assert events(env, "approve", decision="send") == []
    assert events(env, "outcome") == []
    assert answers(env) == []


def test_ls_with_the_server_gone_is_lost_not_exited(env: Env, server: Server) -> None:
    configure(env, "shell ls")
    assert paw("spawn", "alice", "--agent", "scripted").returncode == 0
    wait_prompt(env, "ls")
    server.kill()
    snapshot = build_supervisor(str(env.repo)).poll_once()
    assert not snapshot.tmux_ok
    [view] = snapshot.agents
    assert view.status is AgentStatus.LOST
    assert view.note == "tmux server gone or unreachable"
    assert not view.alive


def test_agent_replaced_in_its_pane_is_not_the_agent_until_adopted(env: Env) -> None:
    configure(env, "shell touch approved.txt")
    assert paw("spawn", "alice", "--agent", "scripted").returncode == 0
    first = wait_prompt(env, "touch approved.txt")
    # A look-alike: the same interpreter and module, started later in the same (tagged) pane.
    done = tmux(env, "respawn-pane", "-k", "-t", first.pane_id, *agent_argv(env))
    assert done.returncode == 0, done.stderr
    assert wait_for(lambda: "touch approved.txt" in screen(env, first.pane_id)), screen(
        env, first.pane_id
    )

    def replaced() -> bool:
        [view] = build_supervisor(str(env.repo)).poll_once().agents
        return view.status is AgentStatus.REPLACED

    assert wait_for(replaced)
    [view] = build_supervisor(str(env.repo)).poll_once().agents
    assert view.note == "agent replaced — run `paw adopt`"
    assert listed("prompts") == []
    refused = paw("approve", first.id, "--yes")
    assert refused.returncode == 1
    assert answers(env) == []

    # paw adopt binds the process that runs there now; its prompt is a new occurrence
    adopted = paw("adopt", first.pane_id)
    assert adopted.returncode == 0, adopted.stderr
    second = wait_prompt(env, "touch approved.txt", other_than={first.id})
    assert second.id != first.id
    assert paw("approve", second.id, "--yes").returncode == 0
    assert wait_for(lambda: len(answers(env)) == 1)
    assert [a["key"] for a in answers(env)] == ["y"]
    assert events(env, "adopt", agent="alice", rebind=True)


def test_agent_restarted_by_its_wrapper_gets_a_new_prompt_id(env: Env) -> None:
    agent = " ".join(f"'{a}'" for a in agent_argv(env))
    configure(env, "shell touch approved.txt", command=["sh", "-c", f"{agent}; stty sane; {agent}"])
    assert paw("spawn", "alice", "--agent", "scripted").returncode == 0
    first = wait_prompt(env, "touch approved.txt")
    agent_pid = _agent_pid(env, first.pane_id)
    psutil.Process(agent_pid).send_signal(signal.SIGKILL)
    # the same question from the restarted agent (a descendant of what paw launched)
    second = wait_prompt(env, "touch approved.txt", other_than={first.id})
    assert _agent_pid(env, first.pane_id) != agent_pid
    stale = paw("approve", first.id, "--yes")
    assert stale.returncode == 1
    assert answers(env) == []
    done = paw("approve", second.id, "--yes")
    assert done.returncode == 0, done.stderr
    assert wait_for(lambda: len(answers(env)) == 1)
    seen = [r for r in audit(env) if r.get("event") == "prompt-seen"]
    assert [r["prompt_id"] for r in seen] == [first.id, second.id]
    assert seen[0]["pid"] == agent_pid
    assert seen[1]["pid"] != agent_pid


def _agent_pid(env: Env, pane_id: str) -> int:
    pid = int(tmux(env, "display-message", "-p", "-t", pane_id, "#{pane_pid}").stdout)
    found = [
        p.pid for p in psutil.Process(pid).children(recursive=True)
        if "paw.demo.agent" in " ".join(p.cmdline())
    ]  # fmt: skip
    assert found, "the scripted agent is not running"
    return found[0]


def test_adopted_pane_look_alike_started_later_is_not_the_agent(env: Env) -> None:
    configure(env, "shell touch approved.txt")
    tmux(env, "new-session", "-d", "-s", "mine", "-x", "120", "-y", "40", "-c", str(env.repo))
    pane = tmux(env, "display-message", "-p", "-t", "mine:", "#{pane_id}").stdout.strip()
    command = " ".join(f"'{a}'" for a in agent_argv(env))
    tmux(env, "send-keys", "-t", pane, command, "Enter")
    assert wait_for(lambda: "touch approved.txt" in screen(env, pane))
    adopted = paw("adopt", pane, "--name", "bob", "--agent", "scripted")
    assert adopted.returncode == 0, adopted.stderr
    first = wait_prompt(env, "touch approved.txt")
    # the adopted agent ends; a look-alike is started later by the pane's shell
    psutil.Process(_agent_pid(env, pane)).send_signal(signal.SIGKILL)
    tmux(env, "send-keys", "-t", pane, "clear", "Enter")
    tmux(env, "send-keys", "-t", pane, command, "Enter")

    def replaced() -> bool:
        [view] = build_supervisor(str(env.repo)).poll_once().agents
        return view.status is AgentStatus.REPLACED

    assert wait_for(replaced)
    assert listed("prompts") == []
    assert paw("approve", first.id, "--yes").returncode == 1
    assert paw("stop", "bob").returncode == 0
    assert pane_exists(env, pane), "stop killed a pane whose adopted agent was gone"
    assert answers(env) == []


def test_agents_do_not_hold_paws_tmux_server(env: Env) -> None:
    configure(env, "busy 600")
    seen = env.tmp / "agent-env.json"
    probe = env.tmp / "agent-tmux.txt"
    # the agent's first act: note its environment and try tmux's default server
    dump = f"import json, os; json.dump(dict(os.environ), open({str(seen)!r}, 'w'))"
    script = (
        f"{sys.executable} -c {shlex.quote(dump)}; "
        f"tmux list-panes -a > {probe} 2>&1; echo rc=$? >> {probe}; "
        + " ".join(shlex.quote(a) for a in agent_argv(env))
    )
    configure(env, "busy 600", command=["sh", "-c", script])
    assert paw("spawn", "alice", "--agent", "scripted").returncode == 0
    assert wait_for(lambda: probe.exists() and "rc=" in probe.read_text(encoding="utf-8"))
    environ = json.loads(seen.read_text(encoding="utf-8"))
    assert "TMUX" not in environ
    assert "TMUX_PANE" not in environ
    text = probe.read_text(encoding="utf-8")
    assert "rc=0" not in text, text  # a plain `tmux` reaches no server from the agent
    assert "%" not in text.split("rc=")[0]
