"""opencode's and Kilo Code's server as a structured channel, live: the pinned CLI in a real tmux
pane at 80x24 against the stub model, wired by ``wire_opencode`` (its own port on 127.0.0.1,
a per-spawn password). The request arrives with the exact input (a command that wraps on the
screen arrives whole); an answer through the channel allows or denies it, the TUI's dialog
closes and the agent moves on; a wrong, stale or forged id answers nothing, from this paw
process or another one; without the password the server answers nothing; a request a human
answers at the pane is seen resolved and answered no more. paw's channel sends no key: the only
keys are the scenario's messages and, last, the human's Enter.

Needs the CLIs from ``scripts/install-agents``; fails (never skips) without them.
"""

from __future__ import annotations

import http.client
import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from paw.adapters.channels.opencode import OpencodeChannel
from paw.adapters.channels.opencode_wiring import OpencodeServer, wire_opencode
from paw.adapters.pstree import PsutilInspector
from paw.core.channels.request import ChannelAnswer, ChannelRequest, ChannelState
from paw.core.models import PromptKind
from paw.errors import ChannelRefused
from tests.e2e import agents
from tests.e2e.driver import Run, send_scenario, stop_run, wait_ready
from tests.e2e.pane import Pane
from tests.e2e.scenarios import SCENARIOS, Action
from tests.e2e.stub_model import StubModel
from tests.support.budget import budget

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(int(budget(900)))]
PASSWORD_VARS = {"opencode": "OPENCODE_SERVER_PASSWORD", "kilocode": "KILO_SERVER_PASSWORD"}

WAIT = budget(180.0)
# Longer than two rows of an 80-column pane: the screen wraps it, the channel must not.
LONG = (
    "printf '%s\\n' 'paw channel check: a long harmless command that wraps at eighty "
    "columns and is judged whole by the guard, never rebuilt from screen rows' > paw-long.txt"
)
DIALOG = "Permission required"


@pytest.fixture
def long_scenario() -> Iterator[str]:
    SCENARIOS["channel_long"] = Action("shell", command=LONG)
    yield "channel_long"
    del SCENARIOS["channel_long"]


def _start(agent: str, state_dir: Path) -> tuple[Run, OpencodeServer]:
    ws = agents.make_workspace(agent)
    stub = StubModel(str(ws.repo)).start()
    flags, env, server = wire_opencode("chan1", state_dir, kind=agent)
    # paw's spawn gives the password through its launcher (tests/adapters/channels/test_hub.py);
    # this pane, started by the test itself, gets it in its environment
    env = {**env, PASSWORD_VARS[agent]: server.password}
    argv = agents.launch_argv(agent, ws, stub.url)
    at = argv.index("-i") + 1
    argv[at:at] = [f"{k}={v}" for k, v in env.items()]
    argv += flags
    try:
        pane = Pane.start(f"pawchan-{agent}-{uuid.uuid4().hex[:8]}", argv, ws.repo, 80, 24)
    except Exception:
        stub.stop()
        agents.remove_workspace(ws)
        raise
    return Run(agent, ws, stub, pane), server


def _post(server: OpencodeServer, path: str, body: object, *, auth: bool = True) -> int:
    conn = http.client.HTTPConnection(server.host, server.port, timeout=budget(20))
    headers = {"Content-Type": "application/json"}
    if auth:
        headers["Authorization"] = server.authorization()
    try:
        conn.request("POST", path, body=json.dumps(body), headers=headers)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def _in_tree(pid: int, root: int) -> bool:
    return any(p.pid == pid for p in PsutilInspector().tree(root))


def _wait_request(channel: OpencodeChannel, run: Run) -> ChannelRequest:
    found = channel.wait_pending(WAIT)
    assert found, f"no request through the channel; screen:\n{run.pane.capture()}"
    (request,) = found
    return request


def _wait_dialog_gone(run: Run) -> None:
    run.pane.wait_for(lambda s: DIALOG not in s, WAIT, "the permission dialog to close")


@pytest.mark.parametrize("agent", ["opencode", "kilocode"])
def test_the_channel_carries_the_exact_input_and_answers_the_request(
    installed_agents: Path, tmp_path: Path, agent: str, long_scenario: str
) -> None:
    del installed_agents
    run, server = _start(agent, tmp_path / "state")
    pane_pid = int(run.pane.info()["pane_pid"])
    channel = OpencodeChannel(server, is_agent=lambda pid: _in_tree(pid, pane_pid))
    try:
        wait_ready(run)
        # The agent itself listens on paw's port.
        run.pane.wait_for(lambda _: bool(channel.listener_pids()), WAIT, "the agent's server")
        assert all(_in_tree(pid, pane_pid) for pid in channel.listener_pids())
        channel.start()
        assert channel.wait_connected(WAIT)
        assert channel.pending() == []

        # Allow: the exact, whole command, although the 80-column screen wraps it.
        send_scenario(run, long_scenario)
        request = _wait_request(channel, run)
        assert request.kind is PromptKind.SHELL
        assert request.subject == LONG, request.raw
        assert request.can_answer
        assert request.agent == "chan1"
        screen = run.pane.wait_for(lambda s: DIALOG in s, WAIT, "the dialog on screen")
        assert LONG not in screen.replace("\n", "")  # the screen shows it cut or wrapped

        # A wrong id answers nothing: refused by paw, and by the server itself.
        with pytest.raises(ChannelRefused) as refused:
            channel.answer("per_forged0000000000000000", ChannelAnswer.ALLOW)
        assert refused.value.reason == "not-pending"
        path = "/permission/per_forged0000000000000000/reply"
        assert _post(server, path, {"reply": "once"}) == 404
        # Without the spawn's password the server answers nothing, even the right id.
        assert (
            _post(server, f"/permission/{request.request_id}/reply", {"reply": "once"}, auth=False)
            == 401
        )
        assert channel.state(request.request_id) is ChannelState.PENDING
        assert not (run.ws.repo / "paw-long.txt").exists()

        channel.answer(request.request_id, ChannelAnswer.ALLOW)
        assert channel.wait_state(request.request_id, ChannelState.RESOLVED, WAIT)
        assert channel.reply_of(request.request_id) == "once"
        _wait_dialog_gone(run)
        run.pane.wait_for(
            lambda s: (run.ws.repo / "paw-long.txt").exists(), WAIT, "the command to run"
        )
        assert "wraps at eighty" in (run.ws.repo / "paw-long.txt").read_text(encoding="utf-8")

        # Stale: the answered id answers nothing again, here or from another paw process.
        with pytest.raises(ChannelRefused):
            channel.answer(request.request_id, ChannelAnswer.DENY)
        other = OpencodeChannel(server).start()
        try:
            assert other.wait_connected(WAIT)
            with pytest.raises(ChannelRefused) as stale:
                other.answer(request.request_id, ChannelAnswer.DENY)
            assert stale.value.reason == "not-pending"
        finally:
            other.close()
        assert _post(server, f"/permission/{request.request_id}/reply", {"reply": "reject"}) == 404

        # A human answers at the pane: the channel sees it resolved and answers it no more.
        send_scenario(run, "shell")
        by_hand = _wait_request(channel, run)
        run.pane.wait_for(lambda s: DIALOG in s, WAIT, "the dialog on screen")
        run.pane.send_keys("Enter")  # the human's key, not paw's
        assert channel.wait_state(by_hand.request_id, ChannelState.RESOLVED, WAIT)
        assert channel.reply_of(by_hand.request_id) == "once"
        with pytest.raises(ChannelRefused) as answered:
            channel.answer(by_hand.request_id, ChannelAnswer.DENY)
        assert answered.value.reason == "not-pending"
        run.pane.wait_for(
            lambda _: (run.ws.repo / "paw-shell.txt").exists(), WAIT, "the command to run"
        )
        run.pane.wait_for(lambda s: "esc interrupt" not in s, WAIT, "the agent to be idle")

        # Deny: the agent takes the rejection and moves on; nothing ran.
        send_scenario(run, "shell_deny")
        denied = _wait_request(channel, run)
        assert denied.request_id != request.request_id
        assert denied.subject == "touch paw-shell-denied.txt"
        channel.answer(denied.request_id, ChannelAnswer.DENY)
        assert channel.wait_state(denied.request_id, ChannelState.RESOLVED, WAIT)
        assert channel.reply_of(denied.request_id) == "reject"
        _wait_dialog_gone(run)
        # The agent takes it: its turn ends (opencode stops the loop on a rejection; Kilo tells
        # the model and goes on), back at an idle input; nothing ran.
        run.pane.wait_for(lambda s: "esc interrupt" not in s, WAIT, "the agent to be idle")
        assert not (run.ws.repo / "paw-shell-denied.txt").exists()
        assert all("rejected" in text for text in run.stub.gated_results("shell_deny"))
    finally:
        channel.close()
        stop_run(run)
