"""`paw tui` in a real terminal: a tmux pane runs it, keys go in with send-keys, the screen
comes back with capture-pane, and the approval must reach the agent's pane."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import psutil
import pytest

from paw.cli.compose import build_supervisor
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
    tui = psutil.Process(
        int(server.cmd("display-message", "-p", "-t", ui, "#{pane_pid}").stdout[0])
    )
    # exactly one: a child the sweeper is forking shows its cmdline for an instant too
    assert wait_for(lambda: len(sweepers(tui)) == 1), f"not one sweeper: {sweepers(tui)}"
    (sweeper,) = sweepers(tui)
    server.cmd("send-keys", "-t", ui, "a")
    assert wait_for(lambda: "received key 'y'" in capture(socket, prompt.pane_id)), capture(
        socket, prompt.pane_id
    )
    sent = [r for r in audit_records(git_repo) if r.get("decision") == "send"]
    assert [(r["prompt_id"], r["keys"]) for r in sent] == [(prompt.id, ["y"])]
    assert wait_for(lambda: "idle" in capture(socket, ui)), capture(socket, ui)
    server.cmd("send-keys", "-t", ui, "q")
    # paw quit: its process ended (tmux 3.3a under load can leave it unreaped, a zombie, and
    # its pane open for more than 30 s: the pane's end is tmux's business, not paw's)
    assert wait_for(lambda: ended(tui), budget(30)), capture(socket, ui)
    assert wait_for(lambda: not sweeper.is_running()), "the sweeper outlived the TUI"


def ended(process: psutil.Process) -> bool:
    """The process exited (reaped, or a zombie nobody reaped yet)."""
    try:
        return process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def sweepers(tui: psutil.Process) -> list[psutil.Process]:
    """The TUI's sweeper processes (`python -m paw.cli.sweeper`)."""
    try:
        children = tui.children(recursive=True)
    except psutil.Error:
        return []
    found = []
    for child in children:
        try:
            if "paw.cli.sweeper" in child.cmdline():
                found.append(child)
        except psutil.Error:
            continue
    return found


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


def start_tui(server: Server, repo: Path, size: tuple[int, int]) -> str:
    """`paw tui` in a pane of ``size`` columns x rows; returns the pane id.

    The pane's environment says another size (COLUMNS/LINES as a process that imported readline
    exports them): paw must draw at the terminal's own size.
    """
    command = " ".join(
        shlex.quote(part)
        for part in (sys.executable, "-m", "paw", "tui", "-C", str(repo), "--interval", "0.2")
    )
    env = ["-e", "TERM=xterm-256color", "-e", "TEXTUAL_ANIMATIONS=none"]
    env += ["-e", "COLUMNS=60", "-e", "LINES=20"]
    width, height = (str(n) for n in size)
    server.cmd("new-session", "-d", "-s", "ui", "-x", width, "-y", height, *env, command)
    return str(server.cmd("display-message", "-p", "-t", "ui", "#{pane_id}").stdout[0])


def queue_rows(screen: str) -> dict[str, str]:
    """The prompt queue's rows by agent (the demo agents' prompts are shell commands)."""
    rows = {}
    for line in screen.splitlines():
        cells = line.strip("│ ").split()
        if len(cells) > 2 and cells[1] == "shell":
            rows[cells[0]] = line
    return rows


def test_paw_tui_at_80x24_keeps_queue_card_and_keys_visible_under_toasts(
    git_repo: Path, server: Server
) -> None:
    # Three prompts arrive while paw is open: they ring and show notifications. The
    # notifications must not hide the queue's verdicts, the card or the footer's help and quit.
    socket = server.socket_name or ""
    supervisor = make_supervisor(git_repo, socket)
    ui = start_tui(server, git_repo, (80, 24))
    assert wait_for(lambda: "● tmux" in capture(socket, ui), timeout=30), capture(socket, ui)
    for role in ("safe", "push", "danger"):
        supervisor.spawn(role, KINDS[role], "a test task")
    seen: list[str] = []

    def toasted_with_three_prompts() -> bool:
        seen[:] = [capture(socket, ui)]
        toast = "New prompt" in seen[0] or "new prompts" in seen[0]  # (a burst has one)
        return toast and len(queue_rows(seen[0])) == 3

    assert wait_for(toasted_with_three_prompts, timeout=40), seen
    screen = seen[0]
    rows = queue_rows(screen)
    assert "allow" in rows["safe"]
    assert "confirm" in rows["push"]
    assert "block" in rows["danger"]
    lines = screen.rstrip("\n").splitlines()
    assert len(lines) == 24
    assert "? Help" in lines[-1]
    assert "q Quit" in lines[-1]
    assert " asks: " in screen or "no prompt to answer" in screen  # the card


def test_paw_tui_at_120x40_preview_shows_the_agents_whole_line(
    git_repo: Path, server: Server
) -> None:
    # The agent's pane is 120 columns wide, the preview about half of that: a long line of the
    # agent wraps in the preview instead of being cut at its edge.
    socket = server.socket_name or ""
    supervisor = make_supervisor(git_repo, socket)
    task = "tidy the repository, then list every file and report back in full to the human ant-end"
    supervisor.spawn("safe", KINDS["safe"], task)
    wait_for_prompts(supervisor, 1)
    ui = start_tui(server, git_repo, (120, 40))
    assert wait_for(lambda: "ant-end" in capture(socket, ui), timeout=30), capture(socket, ui)
    screen = capture(socket, ui)
    assert "ls -la" in screen
    footer = screen.rstrip("\n").splitlines()[-1]
    for key in ("a Approve", "? Help", "x Stop", "r Remove", "/ Filter", "v Diff", "q Quit"):
        assert key in footer


def test_paw_tui_shows_a_subject_with_markup_brackets_as_asked(
    git_repo: Path, server: Server
) -> None:
    # The command an agent asks to run is pane text a model chose. Rich markup in it (a `[/]`
    # in a sed expression) once ended the TUI with a MarkupError; `[bold]` tags vanished.
    socket = server.socket_name or ""
    (git_repo / "paw.toml").write_text(
        "\n".join(
            [
                "[tmux]",
                f'socket_name = "{socket}"',
                "[agents.brackets]",
                (
                    'command = ["{python}", "-m", "paw.demo.agent", '
                    "\"shell sed 's/[/]/x/' [bold]notes[/bold]\"]"
                ),
                'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }',
                'detector = "scripted"',
                'task_flag = "--task"',
                "",
            ]
        ),
        encoding="utf-8",
    )
    supervisor = build_supervisor(str(git_repo), socket_name=socket)
    supervisor.spawn("brackets", "brackets", "a test task")
    wait_for_prompts(supervisor, 1)
    ui = start_tui(server, git_repo, (160, 40))
    subject = "sed 's/[/]/x/' [bold]notes[/bold]"
    assert wait_for(lambda: subject in capture(socket, ui), timeout=30), capture(socket, ui)
    screen = capture(socket, ui)
    assert "Traceback" not in screen
    assert "MarkupError" not in screen


def test_paw_tui_shows_bidi_and_invisible_characters_of_a_subject_escaped(
    git_repo: Path, server: Server
) -> None:
    # A subject with a right-to-left override and invisible characters: raw, the queue's
    # columns shift and the card reads `echo done txt.exe`; escaped, the user sees what is there.
    socket = server.socket_name or ""
    subject = "echo done \u202eexe.txt\u00adx\u2063y\u2066z\u2069"
    step = json.dumps(f"shell {subject}", ensure_ascii=True)
    (git_repo / "paw.toml").write_text(
        f'[tmux]\nsocket_name = "{socket}"\n[agents.bidi]\n'
        f'command = ["{{python}}", "-m", "paw.demo.agent", {step}]\n'
        'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }\n'
        'detector = "scripted"\ntask_flag = "--task"\n',
        encoding="utf-8",
    )
    supervisor = build_supervisor(str(git_repo), socket_name=socket)
    supervisor.spawn("bidi", "bidi", "a test task")
    wait_for_prompts(supervisor, 1)
    ui = start_tui(server, git_repo, (160, 40))
    shown = "echo done \\u202eexe.txt\\u00adx\\u2063y\\u2066z\\u2069"
    # the card shows it whole; the queue (a narrower column) at least its start
    assert wait_for(lambda: shown in capture(socket, ui), timeout=30), capture(socket, ui)
    screen = capture(socket, ui)
    assert "echo done \\u202eexe" in "".join(queue_rows(screen).values())
    for char in ("\u202e", "\u00ad", "\u2063", "\u2066", "\u2069"):
        assert char not in screen, f"{char!r} reached the terminal raw"
