"""Drive a live agent directly in tmux, without paw: for poking at a CLI and capturing dialogs.

``python -m tests.e2e.driver AGENT [COLS ROWS [SCENARIO]]`` starts the stub and the agent in a
private tmux server, prints how to attach and, given a scenario, sends ``SCENARIO <name>`` once
the agent is ready (or type ``SCENARIO shell``, ``edit``, ``write``, ``quote`` yourself).
Ctrl-C or SIGTERM stops everything and deletes the scratch space.
"""

from __future__ import annotations

import signal
import sys
import time
from typing import NamedTuple

from paw.adapters.pstree import PsutilInspector
from tests.e2e import agents
from tests.e2e.pane import POLL, Pane
from tests.e2e.stub_model import StubModel
from tests.support.budget import budget

START_TIMEOUT = budget(180.0)
ENTER = "Enter"

# A screen fragment that shows each agent is ready for input.
READY_MARKS: dict[str, tuple[str, ...]] = {
    "claude-code": ("? for shortcuts",),
    "codex": ("? for shortcuts", "Ask Codex"),
    "gemini-cli": ("Type your message",),
    "aider": ("diff>",),
    "qwen-code": ("Type your message",),
    "opencode": ("ctrl+p", "tab"),
    "kilocode": ("ctrl+p", "tab"),
    "cline": ("Ask anything", "What can I do for you?"),
    "continue-cli": ("Ask anything",),
    "mistral-vibe": ("Type /help",),
}


class Run(NamedTuple):
    """One live agent run: its workspace, stub and pane."""

    agent: str
    ws: agents.Workspace
    stub: StubModel
    pane: Pane


def start_run(agent: str, socket: str, cols: int, rows: int) -> Run:
    """Workspace, stub model and a pane running ``agent`` at ``cols``x``rows``."""
    ws = agents.make_workspace(agent)
    stub = StubModel(str(ws.repo)).start()
    try:
        pane = Pane.start(socket, agents.launch_argv(agent, ws, stub.url), ws.repo, cols, rows)
    except Exception:
        stub.stop()
        agents.remove_workspace(ws)
        raise
    return Run(agent, ws, stub, pane)


def stop_run(run: Run) -> None:
    """Kill the pane's tmux server and what ran in it (gemini-cli ignores the hangup), stop
    the stub, delete the workspace."""
    inspector = PsutilInspector()
    pid = _pane_pid(run.pane)
    trees = inspector.trees([int(pid)] if pid.isdigit() else [])
    run.pane.kill_server()
    inspector.end([p for tree in trees.values() for p in tree], budget(5.0))
    agents.cleanup(run.agent, run.ws)
    run.stub.stop()
    agents.remove_workspace(run.ws)


def _pane_pid(pane: Pane) -> str:
    try:
        return pane.info().get("pane_pid", "")
    except RuntimeError:  # the server is gone already
        return ""


def wait_ready(run: Run, timeout: float = START_TIMEOUT) -> str:
    """Wait until the agent's input is shown and the screen has settled."""
    marks = READY_MARKS[run.agent]
    run.pane.wait_for(lambda s: any(m in s for m in marks), timeout, f"{run.agent} to start")
    return run.pane.wait_stable(quiet=1.5, timeout=budget(60))


def send_scenario(run: Run, name: str, timeout: float = 30.0) -> None:
    """Type ``SCENARIO <name>``, check it shows, press Enter until the stub sees the request."""
    text = f"SCENARIO {name}"
    deadline = time.monotonic() + timeout
    typed = False
    while time.monotonic() < deadline:
        screen = run.pane.capture()
        if not typed or text not in screen:
            run.pane.type_text(text)
            typed = True
            _wait_shown(run.pane, text, 5.0)
        run.pane.send_keys(ENTER)
        if _wait_request(run.stub, name, 6.0):
            return
    raise TimeoutError(f"{run.agent} never sent {text!r}; screen:\n{run.pane.capture()}")


def _wait_shown(pane: Pane, text: str, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if text in pane.capture():
            return True
        time.sleep(POLL)
    return False


def _wait_request(stub: StubModel, name: str, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if stub.scenario_requests(name):
            return True
        time.sleep(POLL)
    return False


def main(argv: list[str]) -> int:
    """Run one agent against the stub until interrupted."""
    agent = argv[0] if argv else "claude-code"
    cols, rows = (int(argv[1]), int(argv[2])) if len(argv) > 2 else (120, 40)
    socket = f"pawdrive-{agent}"
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # clean up on kill too
    run = start_run(agent, socket, cols, rows)
    print(f"stub {run.stub.url}; attach with: tmux -L {socket} attach", flush=True)
    try:
        if len(argv) > 3:
            wait_ready(run)
            send_scenario(run, argv[3])
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        return 130
    finally:
        stop_run(run)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
