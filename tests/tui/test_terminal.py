"""`paw tui` in a real terminal: a tmux pane runs it, keys go in with send-keys, the screen
comes back with capture-pane, and the approval must reach the agent's pane."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from paw.cli.demo import kill_tmux_server, tmux_socket_path
from tests.support.budget import budget
from tests.tui.real_world import (
    KINDS,
    audit_records,
    capture,
    make_supervisor,
    wait_for,
    wait_for_prompts,
)

if TYPE_CHECKING:
    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git]


def test_paw_tui_in_tmux_pane_approves_prompt(git_repo: Path, server: Server) -> None:
    socket = server.socket_name or ""
    supervisor = make_supervisor(git_repo, socket)
    supervisor.spawn("safe", KINDS["safe"], "a test task")
    (prompt,) = wait_for_prompts(supervisor, 1)
    command = " ".join(
        shlex.quote(part)
        for part in (sys.executable, "-m", "paw", "tui", "-C", str(git_repo), "--interval", "0.2")
    )
    env = ["-e", "TERM=xterm-256color", "-e", "TEXTUAL_ANIMATIONS=none"]
    server.cmd("new-session", "-d", "-s", "ui", "-x", "120", "-y", "40", *env, command)
    ui = server.cmd("display-message", "-p", "-t", "ui", "#{pane_id}").stdout[0]

    assert wait_for(lambda: "ls -la" in capture(socket, ui) and "allow" in capture(socket, ui)), (
        capture(socket, ui)
    )
    server.cmd("send-keys", "-t", ui, "a")
    assert wait_for(lambda: "received key 'y'" in capture(socket, prompt.pane_id)), capture(
        socket, prompt.pane_id
    )
    sent = [r for r in audit_records(git_repo) if r.get("decision") == "send"]
    assert [(r["prompt_id"], r["keys"]) for r in sent] == [(prompt.id, ["y"])]
    assert wait_for(lambda: "idle" in capture(socket, ui)), capture(socket, ui)
    server.cmd("send-keys", "-t", ui, "q")
    assert wait_for(lambda: server.cmd("has-session", "-t", "ui").returncode != 0)  # paw quit


def test_paw_tui_attach_shows_agent_pane_and_comes_back(git_repo: Path, server: Server) -> None:
    socket = server.socket_name or ""
    supervisor = make_supervisor(git_repo, socket)
    supervisor.spawn("safe", KINDS["safe"], "a test task")
    (prompt,) = wait_for_prompts(supervisor, 1)
    outer = f"{socket}-outer"  # the human's terminal: another tmux server
    command = " ".join(
        shlex.quote(part) for part in (sys.executable, "-m", "paw", "tui", "-C", str(git_repo))
    )
    tmux_outer = ["tmux", "-L", outer]
    try:
        subprocess.run(
            [*tmux_outer, "-f", "/dev/null", "new-session", "-d", "-s", "ui", "-x", "120",
             "-y", "40", "-e", "TERM=xterm-256color", command],
            check=True,
        )  # fmt: skip
        assert wait_for(lambda: "ls -la" in capture(outer, "ui")), capture(outer, "ui")
        subprocess.run([*tmux_outer, "send-keys", "-t", "ui", "t"], check=True)
        # the agent's own screen (its prompt box) now fills the human's terminal...
        assert wait_for(lambda: attached(capture(outer, "ui"))), capture(outer, "ui")
        # ...until the human detaches (prefix d), and paw is back
        subprocess.run([*tmux_outer, "send-keys", "-t", "ui", "C-b", "d"], check=True)
        assert wait_for(lambda: "Agents" in capture(outer, "ui")), capture(outer, "ui")
        assert "received key" not in capture(socket, prompt.pane_id)  # attaching sent nothing
    finally:
        kill_tmux_server(outer)
    assert not tmux_socket_path(outer).exists()


def attached(screen: str) -> bool:
    """The agent's screen fills the terminal: its prompt box shows and paw's tables do not."""
    return "paw-demo permission" in screen and "Agents" not in screen


def test_paw_tui_config_error_found_after_first_frame_ends_cleanly(
    git_repo: Path, server: Server
) -> None:
    # The config is read by the connector, after the first frame: the TUI must end, restore
    # the terminal and print the one-line error with exit code 2, never a traceback.
    (git_repo / "paw.toml").write_text("[tmux]\nsocket_name = 5\n", encoding="utf-8")
    socket = server.socket_name or ""
    paw = " ".join(
        shlex.quote(part) for part in (sys.executable, "-m", "paw", "tui", "-C", str(git_repo))
    )
    command = f"{paw}; echo exit=$?; sleep 60"
    server.cmd("new-session", "-d", "-s", "ui", "-x", "100", "-y", "30",
               "-e", "TERM=xterm-256color", command)  # fmt: skip
    assert wait_for(lambda: "exit=" in capture(socket, "ui")), capture(socket, "ui")
    screen = capture(socket, "ui")
    assert "paw: paw.toml:2: tmux.socket_name" in screen
    assert "exit=2" in screen
    assert "Traceback" not in screen
    assert "Agents" not in screen  # the alternate screen is gone


def test_paw_demo_in_a_real_pane_shows_three_verdicts_and_cleans_up(server: Server) -> None:
    # README's first command, as a newcomer sees it: the TUI first, then the three agents with
    # allow / confirm / block; quitting ends the demo's own tmux server and prints next steps.
    socket = server.socket_name or ""
    paw = " ".join(
        shlex.quote(p) for p in (sys.executable, "-m", "paw", "demo", "--interval", "0.2")
    )
    server.cmd("new-session", "-d", "-s", "ui", "-x", "120", "-y", "40",
               "-e", "TERM=xterm-256color", f"exec {paw}")  # fmt: skip
    ui = server.cmd("display-message", "-p", "-t", "ui", "#{pane_id}").stdout[0]
    demo_socket = (
        f"paw-demo-{server.cmd('display-message', '-p', '-t', ui, '#{pane_pid}').stdout[0]}"
    )
    assert wait_for(lambda: "waiting 3" in capture(socket, ui), timeout=budget(90)), capture(
        socket, ui
    )
    screen = capture(socket, ui)
    for verdict in ("allow", "confirm", "block"):
        assert verdict in screen
    alive = subprocess.run(["tmux", "-L", demo_socket, "ls"], capture_output=True, check=False)
    assert alive.returncode == 0  # the demo's agents run on their own server
    server.cmd("set-option", "-t", "ui", "remain-on-exit", "on")
    server.cmd("send-keys", "-t", ui, "q")
    assert wait_for(lambda: "paw spawn" in capture(socket, ui)), capture(socket, ui)
    gone = subprocess.run(["tmux", "-L", demo_socket, "ls"], capture_output=True, check=False)
    assert gone.returncode != 0  # and that server is gone
    assert not tmux_socket_path(demo_socket).exists()  # with its socket file
