"""opencode's and Kilo Code's server as paw's channel, wired by paw itself at spawn: the real
pinned CLI, spawned by ``paw spawn``, against the stub model, in real tmux at 80x24 (issue 32).

A long command that wraps on the screen is listed by ``paw prompts --json`` with the channel's
exact input (judged ``allow`` on it), ``paw approve`` answers it through the agent's server bound
to the request id (the audit says ``path: "channel"``; no key is sent), and the agent runs it.
The lower-level live test of the server itself: tests/e2e/test_channel_opencode_live.py.

A process that writes to the agent's terminal repaints the pending dialog of a blocked command
(``rm -rf .git``: it would wreck the worktree) as ``ls -la``: the server still carries the exact
input, so ``paw prompts`` shows the prompt as disagreeing, with both subjects, and ``paw approve``
refuses it: no key, no reply to the server (the request stays pending there), the worktree's
``.git`` stays, and the audit records the refusal.

Many one-shot paw commands at once (``paw prompts``) leave the agent's screen alone: none holds
an event stream, so the server never passes Node's ten-listener warning, which it printed over
its TUI when each held one (paw then rightly refused to type into it). Checked live on opencode
only, while its request waits (no agent of its own: starting one costs minutes on a loaded
machine); Kilo Code's server takes the same path in paw (tests/adapters/channels/test_hub.py
holds a one-shot process to the list, without a stream).

Needs the CLIs from ``scripts/install-agents``; fails (never skips) without them.
"""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from paw.adapters.channels.opencode import OpencodeChannel
from paw.adapters.channels.opencode_wiring import load_opencode_server
from paw.core.channels.request import ChannelState
from tests.e2e import channel_case, channel_figure, paw_run, scenarios
from tests.e2e.channel_case import LONG_COMMAND, LONG_FILE
from tests.e2e.pane import POLL, wait_until
from tests.e2e.scenarios import Action
from tests.support.budget import budget

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(int(budget(900)))]

PROMPT_TIMEOUT = budget(300.0)
EFFECT_TIMEOUT = budget(90.0)
# One-shot `paw prompts` at once: Node warns at the eleventh listener of one event, and each
# event stream a one-shot command held was one (twelve: one more than needed, as they overlap).
STORM = 12
STORM_AGENT = "opencode"  # Kilo Code's server takes the same path in paw (see the docstring)
# Node's warning as it lands on an 80x24 TUI: its first line scrolls off, its stack stays
# (seen live with eleven streams: "type: "event", count: 11, at overflowWarning (node:events…").
WARNING_MARKS = ("MaxListeners", "overflowWarning", "EventEmitter memory leak")


@pytest.fixture(params=["opencode", "kilocode"])
def run(
    request: pytest.FixtureRequest, installed_agents: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[paw_run.PawRun]:
    del installed_agents
    yield from channel_case.started(str(request.param), monkeypatch)


def test_paw_wires_the_server_lists_the_exact_input_and_approves_through_it(
    run: paw_run.PawRun,
) -> None:
    paw_run.spawn(run, "SCENARIO shell_long")
    # paw wired the spawn's server: a record in its state dir, none in the worktree
    records = list((run.ws.repo / ".paw" / "channels").glob("*.opencode.json"))
    assert [r.name for r in records] == [f"{paw_run.AGENT_NAME}.opencode.json"]
    assert not list(run.worktree.rglob("*.opencode.json"))
    _server_has_its_password(run)

    prompt = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    screen = run.pane.capture()
    assert LONG_COMMAND not in screen.replace("\n", "")  # it wraps (or is cut) on screen
    assert prompt["prompt_kind"] == "shell", prompt
    assert prompt["subject"] == LONG_COMMAND, prompt  # the channel's exact input
    assert prompt["verdict"] == "allow", prompt  # a wrapped field no longer forces confirm
    # listed from the server before or after the TUI drew its dialog, never from the screen alone
    assert prompt["source"] in ("agree", "channel-only"), prompt
    assert prompt["channel_subject"] == LONG_COMMAND, prompt
    assert not (run.worktree / LONG_FILE).exists()
    if run.agent == STORM_AGENT:
        _many_one_shot_commands_at_once_leave_the_agents_screen_alone(run)
        prompt = paw_run.wait_prompt(run, PROMPT_TIMEOUT)  # still listed (its id may change)
        assert prompt["subject"] == LONG_COMMAND, prompt

    decision = paw_run.decide(run, "approve", prompt["id"])
    assert decision["outcome"] == "sent", decision
    assert decision["keys"] == []
    assert wait_until(lambda: (run.worktree / LONG_FILE).exists(), EFFECT_TIMEOUT)
    assert wait_until(lambda: run.stub.gated_results("shell_long"), EFFECT_TIMEOUT)

    audit = channel_figure.audit(run)
    sends = [r for r in audit if r.get("decision") == "send"]
    assert [(s.get("path"), s.get("keys")) for s in sends] == [("channel", None)]
    assert sends[0]["subject"] == LONG_COMMAND
    assert str(sends[0]["channel_request"]).startswith("per_")
    assert sends[0]["channel_request"] == prompt["channel_request"]
    outcomes = [r for r in audit if r.get("event") == "outcome"]
    assert [(o.get("path"), o.get("outcome")) for o in outcomes] == [("channel", "sent")]
    channel_figure.assert_answered_by_the_channel_alone(run, LONG_COMMAND)
    # answered once: nothing more is listed
    paw_run.wait_no_prompt(run, EFFECT_TIMEOUT)
    assert not [m for m in WARNING_MARKS if m in _history(run)]


def test_a_denial_goes_through_the_server_bound_to_the_request(run: paw_run.PawRun) -> None:
    """``paw deny`` answers the request through the agent's server (``reject``), no key: the
    command never runs and nothing is listed after. (opencode ends the turn on a rejection,
    seen live: the model is not called again within 90 s, so no tool result is awaited.)"""
    paw_run.spawn(run, "SCENARIO shell_deny")
    prompt = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    assert prompt["subject"] == "touch paw-shell-denied.txt", prompt
    assert prompt["source"] in ("agree", "channel-only"), prompt
    decision = paw_run.decide(run, "deny", prompt["id"])
    assert decision["outcome"] == "sent", decision
    assert decision["keys"] == []
    paw_run.wait_no_prompt(run, EFFECT_TIMEOUT)
    assert not (run.worktree / "paw-shell-denied.txt").exists()
    assert [(s.get("path"), s.get("keys")) for s in channel_case.sends(run)] == [("channel", None)]
    outcomes = [r for r in channel_figure.audit(run) if r.get("event") == "outcome"]
    assert [(o.get("path"), o.get("outcome")) for o in outcomes] == [("channel", "sent")]
    channel_figure.assert_answered_by_the_channel_alone(run, "touch paw-shell-denied.txt")


def test_with_the_channel_off_nothing_is_wired_and_the_screen_path_answers_with_keys(
    run: paw_run.PawRun,
) -> None:
    """``[channels] enabled = false``: paw starts no server for the agent (no record, no
    password) and the agent works exactly as before: its dialog is read off the screen and
    approved by keys."""
    channel_case.turn_channels_off(run)
    paw_run.spawn(run, "SCENARIO shell")
    prompt = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    assert prompt["subject"] == scenarios.SHELL_COMMAND, prompt
    assert prompt["source"] == "screen", prompt
    assert not list((run.ws.repo / ".paw" / "channels").glob("*.opencode.*"))
    channel_case.assert_approved_by_keys(run, prompt, EFFECT_TIMEOUT)


BLOCKED = "rm -rf .git"  # inside the worktree: its link to the repository (shell.rm-git-dir)
SHOWN = "ls -la"
DIALOG = "Permission required"


def test_a_repainted_blocked_prompt_is_refused_because_the_channel_disagrees(
    run: paw_run.PawRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the server holds the request open and the TUI draws its dialog, another process
    writes to the pane's terminal and repaints the dialog's command as ``ls -la``
    (tests/adversarial/test_terminal_repaint.py: the screen alone is fooled). The server
    carries the exact input: ``paw prompts`` lists both claims, judges nothing ``allow``, and
    ``paw approve`` answers it neither by keys nor through the server."""
    monkeypatch.setitem(scenarios.SCENARIOS, "blocked", Action("shell", command=BLOCKED))
    paw_run.spawn(run, "SCENARIO blocked")
    target = run.worktree / ".git"
    assert target.exists()

    def from_the_server() -> dict[str, Any] | None:
        listed = paw_run.prompts(run)
        return listed[0] if listed and listed[0]["source"] == "agree" else None

    # pending on the server and drawn on the screen, both naming the blocked command
    assert wait_until(from_the_server, PROMPT_TIMEOUT), run.pane.capture()
    prompt = from_the_server()
    assert prompt is not None
    assert (prompt["subject"], prompt["verdict"]) == (BLOCKED, "block"), prompt
    assert prompt["channel_subject"] == BLOCKED, prompt
    request_id = prompt["channel_request"]
    server = load_opencode_server(paw_run.AGENT_NAME, run.ws.repo / ".paw")
    assert server is not None
    channel = OpencodeChannel(server, stream=False)
    assert channel.state(request_id) is ChannelState.PENDING
    assert DIALOG in run.pane.capture()

    row = channel_case.repaint(run, BLOCKED, SHOWN)
    assert wait_until(lambda: SHOWN in run.pane.capture().splitlines()[row], EFFECT_TIMEOUT)

    def disagreeing() -> dict[str, Any] | None:
        listed = paw_run.prompts(run)
        return listed[0] if listed and listed[0]["source"] == "disagree" else None

    assert wait_until(disagreeing, EFFECT_TIMEOUT), (paw_run.prompts(run), run.pane.capture())
    shown = disagreeing()
    assert shown is not None
    assert "channel disagrees" in shown["question"], shown
    assert shown["subject"] is None, shown
    assert shown["verdict"] != "allow", shown
    assert BLOCKED in shown["question"], shown
    # both subjects: what the server asks and what the screen draws
    assert (shown["channel_subject"], shown["channel_request"]) == (BLOCKED, request_id), shown
    assert shown["screen_subject"] is not None, shown
    assert SHOWN in shown["screen_subject"], shown
    assert BLOCKED not in shown["screen_subject"], shown
    table = paw_run.paw(run, "prompts").stdout
    assert table.splitlines()[1].split()[4] == "DISAGREE", table
    said = next(line for line in table.splitlines() if "disagree" in line)
    assert BLOCKED in said, table
    assert SHOWN in said, table

    refused = paw_run.decide(run, "approve", shown["id"])
    assert refused["outcome"] == "refused", refused
    assert "disagree" in refused["reason"], refused
    assert refused["exit"] != 0, refused
    # nothing sent: no key, no reply to the server (it still holds the request open)
    audit = channel_figure.audit(run)
    assert [r for r in audit if r.get("decision") == "send"] == [], audit
    assert [r for r in audit if r.get("keys") or r.get("path") == "keys"] == [], audit
    assert channel.state(request_id) is ChannelState.PENDING
    assert channel.reply_of(request_id) is None
    assert DIALOG in run.pane.capture()
    assert target.exists()
    # the audit records the refusal, with both claims' source
    refusals = [r for r in audit if r.get("decision") == "refuse"]
    assert len(refusals) == 1, audit
    assert refusals[0]["event"] == "approve", refusals
    assert refusals[0]["prompt_id"] == shown["id"], refusals
    assert "disagree" in refusals[0]["reason"], refusals
    assert (refusals[0]["source"], refusals[0]["channel_request"]) == ("disagree", request_id)
    assert refusals[0]["channel_subject"] == BLOCKED, refusals
    assert refusals[0]["path"] is None, refusals  # neither keys nor the channel may answer it
    assert not run.stub.gated_results("blocked")


def _server_has_its_password(run: paw_run.PawRun) -> None:
    """The agent got the password through paw's launcher (no argv carries it): its server
    refuses a request without it and answers one with it."""
    server = load_opencode_server(paw_run.AGENT_NAME, run.ws.repo / ".paw")
    assert server is not None

    def status(headers: dict[str, str]) -> int:
        deadline = time.monotonic() + PROMPT_TIMEOUT
        while True:
            conn = http.client.HTTPConnection(server.host, server.port, timeout=budget(10.0))
            try:
                conn.request("GET", "/permission", headers=headers)
                return conn.getresponse().status
            except OSError:
                if time.monotonic() > deadline:  # (the server may not be up yet)
                    raise
                time.sleep(POLL)
            finally:
                conn.close()

    assert status({}) == 401
    assert status({"Authorization": server.authorization()}) == 200
    pid = subprocess.run(
        ["tmux", "-L", run.socket, "display-message", "-p", "-t", run.pane.target, "#{pane_pid}"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    root = psutil.Process(int(pid))
    assert not [a for a in _argvs([root, *root.children(True)]) if server.password in a]


def _argvs(procs: list[psutil.Process]) -> list[str]:
    """Each process's argv, joined (a process gone or a zombie meanwhile has none)."""
    out = []
    for proc in procs:
        try:
            out.append(" ".join(proc.cmdline()))
        except psutil.Error:
            continue
    return out


def _history(run: paw_run.PawRun) -> str:
    """The pane's whole history and screen (a warning scrolled away or drawn over stays)."""
    return subprocess.run(
        ["tmux", "-L", run.socket, "capture-pane", "-p", "-S", "-", "-t", run.pane.target],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip


def _many_one_shot_commands_at_once_leave_the_agents_screen_alone(run: paw_run.PawRun) -> None:
    """``STORM`` one-shot ``paw prompts --json`` at once, while the agent holds its request
    open: each lists it, and no screen shows Node's warning meanwhile."""
    started = [
        subprocess.Popen(
            [sys.executable, "-m", "paw", "prompts", "--json"],
            cwd=run.ws.repo,
            env=run.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(STORM)
    ]
    screens = []
    deadline = time.monotonic() + paw_run.PAW_TIMEOUT
    while any(p.poll() is None for p in started) and time.monotonic() < deadline:
        screens.append(run.pane.capture())  # the TUI may draw over a warning: look often
        time.sleep(POLL)
    outputs = [p.communicate(timeout=paw_run.PAW_TIMEOUT) for p in started]
    assert [p.returncode for p in started] == [0] * STORM, [err for _, err in outputs]
    screens.append(_history(run))
    warned = [s for s in screens if any(mark in s for mark in WARNING_MARKS)]
    assert not warned, warned[0]
    # each listed the pending request with its channel's input (its id may change once:
    # listed from the channel before the TUI drew it, then with the screen)
    for out, _ in outputs:
        listed = json.loads(out)["prompts"]
        assert [p["subject"] for p in listed] == [LONG_COMMAND], listed
