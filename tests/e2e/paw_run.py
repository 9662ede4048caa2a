"""Run a real agent through paw itself: ``paw spawn``, ``paw prompts --json``, ``paw approve``,
``paw deny``, ``paw send`` — each a ``python -m paw`` subprocess against a private tmux socket.

The scratch repository gets a ``paw.toml`` whose ``[agents.<kind>]`` table points the installed
binary at the stub model (command and environment); the tmux server is started first, with a
clean environment and the pane size under test, so the agent's pane inherits both.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any, NamedTuple

from paw.adapters.pstree import PsutilInspector
from paw.cli.demo import kill_tmux_server
from tests.e2e import agents
from tests.e2e.pane import POLL, Pane
from tests.e2e.stub_model import StubModel
from tests.support.budget import budget

SESSION = "pawe2e"
AGENT_NAME = "e2e"
PAW_TIMEOUT = budget(240.0)


class PawRun(NamedTuple):
    """One agent supervised by paw in a scratch repository."""

    agent: str
    ws: agents.Workspace
    worktree: Path
    stub: StubModel
    socket: str
    env: dict[str, str]

    @property
    def pane(self) -> Pane:
        """The agent's pane (the only window paw created in the session)."""
        out = subprocess.run(
            ["tmux", "-L", self.socket, "list-panes", "-a", "-F", "#{pane_id} #{@paw_agent}"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.split("\n")
        pane_id = next((line.split()[0] for line in out if line.endswith(f" {AGENT_NAME}")), "")
        return Pane(self.socket, pane_id or f"={SESSION}:{AGENT_NAME}")


def _toml_str(value: str) -> str:
    return json.dumps(value)


def _paw_toml(
    agent: str, worktree_root: Path, env: dict[str, str], home: Path | None = None
) -> str:
    """paw.toml for the scratch repository; ``home`` fills ``{home}`` in the agent's flags."""
    command = [str(agents.binary_path(agent)), *agents.agent_args(agent, home)]
    env_items = ", ".join(f"{_toml_str(k)} = {_toml_str(v)}" for k, v in env.items())
    return "\n".join(
        [
            "[tmux]",
            f'session = "{SESSION}"',
            "[worktrees]",
            f"root = {_toml_str(str(worktree_root))}",
            f"[agents.{agent}]",
            f"command = [{', '.join(_toml_str(c) for c in command)}]",
            # kilo takes over a minute to come up on a loaded machine: spawn waits for it.
            f"startup_timeout_s = {int(budget(240))}",
            f"env = {{ {env_items} }}",
            "",
        ]
    )


def base_env(ws: agents.Workspace, socket: str) -> dict[str, str]:
    """The clean environment of paw and of the tmux server (the agent inherits it)."""
    node_bin = str(agents.agents_home() / "node_modules" / ".bin")
    return {
        "PATH": f"{node_bin}:{os.environ.get('PATH', '/usr/local/bin:/usr/bin:/bin')}",
        "TERM": "xterm-256color",
        "COLORTERM": "truecolor",
        "LANG": "C.UTF-8",
        "NO_UPDATE_NOTIFIER": "1",
        "PAW_TMUX_SOCKET": socket,
        **agents.git_env(ws.home),
    }


def start(agent: str, cols: int, rows: int) -> PawRun:
    """Scratch repo + paw.toml + stub + a sized tmux server; nothing spawned yet."""
    ws = agents.make_workspace(agent)
    worktree = ws.root / "wt" / AGENT_NAME
    stub = StubModel(str(worktree)).start()
    socket = f"pawe2e-{uuid.uuid4().hex[:8]}"
    agent_env = agents.SPECS[agent].setup(ws._replace(repo=worktree), stub.url)
    (ws.repo / "paw.toml").write_text(_paw_toml(agent, ws.root / "wt", agent_env, ws.home), "utf-8")
    env = base_env(ws, socket)
    size = [f"-x{cols}", f"-y{rows}"]
    tmux = ["tmux", "-L", socket, "-f", "/dev/null"]
    subprocess.run(
        [*tmux, "new-session", "-d", "-s", SESSION, *size, "-c", str(ws.repo)],
        env=env,
        check=True,
    )
    subprocess.run(
        [*tmux, "set-option", "-g", "default-size", f"{cols}x{rows}"], env=env, check=True
    )
    return PawRun(agent, ws, worktree, stub, socket, env)


def set_up_wave(ws: agents.Workspace, agent: str, worktree: Path, stub_url: str) -> dict[str, str]:
    """Set ``agent`` up against the stub model at ``stub_url`` for a wave whose task works in
    ``worktree``, and write ``paw.toml``: the agent's own environment."""
    agent_env = agents.SPECS[agent].setup(ws._replace(repo=worktree), stub_url)
    (ws.repo / "paw.toml").write_text(_paw_toml(agent, ws.root / "wt", agent_env), "utf-8")
    return agent_env


def start_wave(
    ws: agents.Workspace, env: dict[str, str], socket: str, wave_text: str
) -> subprocess.Popen[str]:
    """A 120x40 tmux session on ``socket``, then ``paw wave run`` of ``wave_text`` (written to
    ``wave.toml``) in its own process, its output piped."""
    subprocess.run(
        ["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", SESSION,
         "-x120", "-y40", "-c", str(ws.repo)],
        env=env, check=True,
    )  # fmt: skip
    wave = ws.root / "wave.toml"
    wave.write_text(wave_text, encoding="utf-8")
    return subprocess.Popen(
        [sys.executable, "-m", "paw", "wave", "run", str(wave), "--quiet", "--json"],
        cwd=ws.repo, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


def stop(run: PawRun) -> None:
    """Kill the tmux server and what ran in its panes (gemini-cli ignores the hangup), stop
    the stub, delete the scratch space."""
    listed = subprocess.run(
        ["tmux", "-L", run.socket, "list-panes", "-a", "-F", "#{pane_pid}"],
        capture_output=True, text=True, check=False,
    ).stdout.split()  # fmt: skip
    inspector = PsutilInspector()
    trees = inspector.trees([int(pid) for pid in listed if pid.isdigit()])
    kill_tmux_server(run.socket)  # the socket file too: tmux leaves it behind
    inspector.end([p for tree in trees.values() for p in tree], budget(5.0))
    agents.cleanup(run.agent, run.ws)
    run.stub.stop()
    agents.remove_workspace(run.ws)


def paw(run: PawRun, *args: str, timeout: float = PAW_TIMEOUT) -> subprocess.CompletedProcess[str]:
    """``python -m paw ARGS`` in the scratch repository."""
    return subprocess.run(
        [sys.executable, "-m", "paw", *args],
        cwd=run.ws.repo,
        env=run.env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def spawn(run: PawRun, task: str) -> dict[str, Any]:
    """``paw spawn e2e --agent KIND --task TASK --json``."""
    done = paw(run, "spawn", AGENT_NAME, "--agent", run.agent, "--task", task, "--json")
    if done.returncode != 0:
        raise AssertionError(f"paw spawn failed ({done.returncode}): {done.stderr}{done.stdout}")
    result: dict[str, Any] = json.loads(done.stdout)["agent"]
    return result


def prompts(run: PawRun) -> list[dict[str, Any]]:
    """``paw prompts --json``."""
    done = paw(run, "prompts", "--json")
    if done.returncode != 0:
        raise AssertionError(f"paw prompts failed ({done.returncode}): {done.stderr}")
    items: list[dict[str, Any]] = json.loads(done.stdout)["prompts"]
    return items


def wait_prompt(run: PawRun, timeout: float) -> dict[str, Any]:
    """Poll ``paw prompts --json`` until a live prompt is listed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        items = prompts(run)
        if items:
            return items[0]
        time.sleep(POLL)
    raise TimeoutError(f"paw listed no prompt within {timeout:.0f}s")


def wait_no_prompt(run: PawRun, timeout: float) -> None:
    """Poll until ``paw prompts`` lists nothing."""
    deadline = time.monotonic() + timeout
    while prompts(run):
        if time.monotonic() > deadline:
            raise TimeoutError(f"a prompt was still listed after {timeout:.0f}s")
        time.sleep(POLL)


def decide(run: PawRun, verb: str, prompt_id: str) -> dict[str, Any]:
    """``paw approve|deny ID --json`` (approve with ``--yes``: the test is the human)."""
    extra = ("--yes",) if verb == "approve" else ()
    done = paw(run, verb, prompt_id, *extra, "--json")
    try:
        result: dict[str, Any] = json.loads(done.stdout)
    except ValueError:
        raise AssertionError(f"paw {verb} failed ({done.returncode}): {done.stderr}") from None
    result["exit"] = done.returncode
    return result


def send(run: PawRun, text: str) -> None:
    """``paw send e2e TEXT``."""
    done = paw(run, "send", AGENT_NAME, text)
    if done.returncode != 0:
        raise AssertionError(f"paw send failed ({done.returncode}): {done.stderr}")
