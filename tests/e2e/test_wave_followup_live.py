"""A wave task whose check fails the first time, run by a real opencode-style agent CLI
(opencode, and Kilo Code, its fork with the same input box) against the stub model: the runner
proves the agent idle at an EMPTY input line, types the check's follow-up once, the agent takes
the turn (the stub answers a message without a scenario with "OK."), the check passes the second
time and the wave is done. No "paw did not type it" message may arrive.

A check whose output is long (200 lines of 100 characters: a follow-up carrying its usual
tail spans more rows than opencode's input shows, and more than paw reads back) is sent back
the same way: the follow-up keeps the output's last lines that fit the input at the pane's
size, says "(trimmed)", and names the file in paw's state directory holding the whole
output."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from paw.cli.demo import kill_tmux_server
from tests.e2e import agents, diagnose, paw_run
from tests.e2e.stub_model import StubModel
from tests.support.budget import budget
from tests.support.receiver import Receiver

# The whole-test timeout is above the sum of the test's waits (BUDGET_S and paw commands of
# CLI_S): a slow machine meets the wait that names what it waited for.
pytestmark = [pytest.mark.e2e, pytest.mark.timeout(int(budget(1200)))]

AGENTS = ("opencode", "kilocode")
WAVE = "w"
TASK = "fix"
BUDGET_S = budget(600.0)  # opencode took 220 s to its first prompt on a loaded machine
CLI_S = budget(90.0)
# Fails once (leaving a mark beside the worktree), then passes.
CHECK = (
    "test -f ../followup-check || { touch ../followup-check; "
    "echo 'FAILED test_add: expected 2, got 1'; exit 1; }"
)
# The same, its failure under 200 lines of 100 characters each, after a first line of its own.
FIRST = "FIRST-LINE-OF-THE-OUTPUT"
LONG_CHECK = (
    "test -f ../followup-check || { touch ../followup-check; "
    f"echo {FIRST}; seq -f 'output line %03g {'x' * 84}' 1 200; "
    "echo 'FAILED test_add: expected 2, got 1'; exit 1; }"
)


def _wave_file(url: str, agent: str, check: str = CHECK) -> str:
    return f"""name = "{WAVE}"
agent = "{agent}"
poll_s = 0.5
idle_poll_s = 1.0
stuck_after_s = 900

[notify]
urls = ["{url}"]
bell = false

[[tasks]]
name = "{TASK}"
task = "SCENARIO quote"
check = "{check}"
retries = 1
"""


def _audit(ws: agents.Workspace) -> list[dict[str, object]]:
    lines = (ws.repo / ".paw" / "audit.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


REFUSED = ("did not type it", "its follow-up waits")  # not typed, or typed and never seen


def _refused(messages: list[dict[str, object]]) -> list[dict[str, object]]:
    """The messages saying the follow-up was not typed, or typed and never seen arrive (the
    task then waits for a human)."""
    said = [f"{m.get('title')} {m.get('message')}" for m in messages]
    return [m for m, text in zip(messages, said, strict=True) if any(r in text for r in REFUSED)]


@pytest.mark.parametrize("agent", AGENTS)
def test_wave_followup_after_a_failed_check_is_typed_once_and_the_task_finishes(
    installed_agents: Path, agent: str, request: pytest.FixtureRequest
) -> None:
    del installed_agents
    _run_wave(agent, CHECK, request, _short_output_sent)


def _short_output_sent(ws: agents.Workspace, worktree: Path, text: str) -> None:
    del ws, worktree
    assert "expected 2, got 1" in text
    assert "(trimmed)" not in text


@pytest.mark.parametrize("agent", AGENTS)
def test_wave_followup_of_a_long_check_output_fits_the_input_and_the_task_finishes(
    installed_agents: Path, agent: str, request: pytest.FixtureRequest
) -> None:
    del installed_agents
    _run_wave(agent, LONG_CHECK, request, _long_output_sent)


def _long_output_sent(ws: agents.Workspace, worktree: Path, text: str) -> None:
    """The follow-up carried the output's end, said it was trimmed, and named the whole
    output's file: in paw's state directory, not in the worktree the agent edits."""
    shown = text.partition(" Output tail: ")[2]  # (the check's command names FIRST too)
    for part in ("(trimmed)", "output line 200", "expected 2, got 1"):
        assert part in shown, text
    assert FIRST not in shown, text
    named = re.search(r"the whole output is in (\S+\.log) ", text)
    assert named is not None, text
    saved = Path(named[1])
    assert saved.resolve().is_relative_to((ws.repo / ".paw").resolve()), saved
    assert not saved.resolve().is_relative_to(worktree.resolve()), saved
    output = saved.read_text(encoding="utf-8").splitlines()
    assert (output[0], output[-1]) == (FIRST, "FAILED test_add: expected 2, got 1"), output[:2]
    assert len(output) == 202, len(output)


def _run_wave(
    agent: str,
    check: str,
    request: pytest.FixtureRequest,
    sent: Callable[[agents.Workspace, Path, str], None],
) -> None:
    """Run the one-task wave whose ``check`` fails once under ``agent``: the follow-up is
    typed once (``sent`` judges its text), the agent takes it, the check passes, done."""
    ws = agents.make_workspace(agent)
    worktree = ws.root / "wt" / f"{WAVE}-{TASK}"
    stub = StubModel(str(worktree)).start()
    socket = f"pawe2e-{uuid.uuid4().hex[:8]}"
    receiver = Receiver()
    runner: subprocess.Popen[str] | None = None
    env: dict[str, str] = {}
    try:
        paw_run.set_up_wave(ws, agent, worktree, stub.url)
        env = paw_run.base_env(ws, socket)
        runner = paw_run.start_wave(ws, env, socket, _wave_file(receiver.url, agent, check))
        proc = runner

        def settled(ms: list[dict[str, object]]) -> bool:
            return proc.poll() is not None or bool(_refused(ms))

        receiver.wait(settled, BUDGET_S)  # a refused follow-up waits for a human: stop there
        assert not _refused(receiver.messages), _refused(receiver.messages)
        assert runner.poll() is not None, (
            f"the wave did not finish within {BUDGET_S:.0f}s; messages: {receiver.titles()}"
        )
        out, err = runner.communicate(timeout=CLI_S)
        assert runner.returncode == 0, out + err
        assert json.loads(out)["status"] == "done", out
        report = subprocess.run(
            [sys.executable, "-m", "paw", "wave", "report", "--json"],
            cwd=ws.repo, env=env, capture_output=True, text=True, timeout=CLI_S, check=True,
        )  # fmt: skip
        row = json.loads(report.stdout)["tasks"][0]
        assert row["status"] == "done", row
        assert (row["check"]["runs"], row["check"]["exit_code"]) == (2, 0), row["check"]
        audit = _audit(ws)
        typed = [r for r in audit if r.get("event") == "wave-followup"]
        assert len(typed) == 1, typed
        sent(ws, worktree, str(typed[0]["text"]))
        assert not [r for r in audit if r.get("event") == "wave-followup-refused"]
        sends = [
            r
            for r in audit
            if r.get("event") == "outcome" and r.get("action") == "send"
        ]  # fmt: skip
        assert [r.get("outcome") for r in sends] == ["sent"], sends
        # the agent took the follow-up as a turn of its own: the model received it
        assert any("expected 2, got 1" in json.dumps(body) for _, body in stub.requests)
    except BaseException:  # what paw saw goes into the report (a flake is a finding)
        if env:
            said = {"messages received": json.dumps(receiver.messages, indent=1)}
            stderr = runner.stderr if runner is not None else None
            if runner is not None and runner.poll() is not None and stderr and not stderr.closed:
                said["the runner's stderr"] = stderr.read()[-4000:]
            diagnose.record(request.node.nodeid, diagnose.collect_wave(ws.repo, env, socket, said))
        raise
    finally:
        if runner is not None and runner.poll() is None:
            runner.kill()
            runner.wait(30)
        receiver.close()
        kill_tmux_server(socket)
        stub.stop()
        agents.cleanup(agent, ws)
        agents.remove_workspace(ws)
