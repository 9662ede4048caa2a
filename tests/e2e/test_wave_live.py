"""A small wave with a real agent CLI (Claude Code, then Codex, against the stub model): the
task's shell prompt is parked, a notification arrives at a local receiver, a human approves it
from another process with `paw approve`, the check passes and the wave is done; the report
counts the agent's usage from the agent's own files."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from paw.cli.demo import kill_tmux_server
from tests.e2e import agents, diagnose, paw_run
from tests.e2e.scenarios import SHELL_COMMAND, SHELL_FILE
from tests.e2e.stub_model import StubModel
from tests.support.budget import budget
from tests.support.receiver import Receiver

# The test's own waits (two of BUDGET_S, two paw commands of CLI_S, the "answered" message)
# add up to more than 300 s: the whole-test timeout is above their sum, so a slow machine
# meets the wait that names what it waited for, not pytest-timeout's kill.
pytestmark = [pytest.mark.e2e, pytest.mark.timeout(int(budget(900)))]

AGENTS = ("claude-code", "codex")  # the CLIs whose usage files paw reads
WAVE = "w"
TASK = "e2e"
BUDGET_S = budget(120.0)
CLI_S = budget(90.0)  # one `paw` command


def _wave_file(url: str, agent: str) -> str:
    return f"""name = "{WAVE}"
agent = "{agent}"
poll_s = 0.5
idle_poll_s = 1.0
stuck_after_s = 600

[notify]
urls = ["{url}"]
bell = false

[[tasks]]
name = "{TASK}"
task = "SCENARIO shell"
check = "test -f {SHELL_FILE}"
"""


SOURCES = {"claude-code": "Claude Code's session files", "codex": "Codex's session logs"}


@pytest.mark.parametrize("agent", AGENTS)
def test_wave_live_prompt_parked_notified_approved_elsewhere_done(
    installed_agents: Path, agent: str, request: pytest.FixtureRequest
) -> None:
    del installed_agents
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
        runner = paw_run.start_wave(ws, env, socket, _wave_file(receiver.url, agent))
        proc = runner

        def parked(ms: list[dict[str, object]]) -> bool:
            return proc.poll() is not None or any("needs a human" in str(m["title"]) for m in ms)

        receiver.wait(parked, BUDGET_S)
        if runner.poll() is not None:
            out, err = runner.communicate()
            state = (ws.repo / ".paw" / "waves" / f"{WAVE}.json").read_text(encoding="utf-8")
            outcome = json.loads(state)["tasks"][0]["outcome"]
            pytest.fail(f"the runner ended early ({runner.returncode}): {outcome}: {out}{err}")
        message = next(m for m in receiver.messages if "needs a human" in str(m["title"]))
        body = str(message["message"])
        assert f"subject: {SHELL_COMMAND}" in body or SHELL_COMMAND in body
        prompt_id = body.split("paw approve ", 1)[1].split()[0]
        approved = subprocess.run(
            [sys.executable, "-m", "paw", "approve", prompt_id, "--yes", "--json"],
            cwd=ws.repo, env=env, capture_output=True, text=True, timeout=CLI_S, check=False,
        )  # fmt: skip
        assert approved.returncode == 0, approved.stdout + approved.stderr
        out, err = runner.communicate(timeout=BUDGET_S)
        assert runner.returncode == 0, out + err
        assert json.loads(out)["status"] == "done"
        assert (worktree / SHELL_FILE).exists()
        report = subprocess.run(
            [sys.executable, "-m", "paw", "wave", "report", "--json"],
            cwd=ws.repo, env=env, capture_output=True, text=True, timeout=CLI_S, check=True,
        )  # fmt: skip
        row = json.loads(report.stdout)["tasks"][0]
        assert (row["status"], row["approved_by_human"], row["check"]["exit_code"]) == (
            "done",
            1,
            0,
        )
        # what the agent cost, read from the agent's own files: the stub reports 12 tokens in
        # and 8 out per response, like the real APIs' usage blocks
        cost = row["cost"]
        assert cost["source"] == SOURCES[agent], cost
        assert cost["tokens"]["requests"] >= 2, cost
        assert cost["tokens"]["input"] == 12 * cost["tokens"]["requests"], cost
        assert cost["tokens"]["output"] == 8 * cost["tokens"]["requests"], cost
        assert cost["usd"] is None  # neither CLI states a price
        assert cost["waiting_human_s"] > 0, cost
        # the same count where the user looks while agents run: `paw ls --json`
        listed = subprocess.run(
            [sys.executable, "-m", "paw", "ls", "--json"],
            cwd=ws.repo, env=env, capture_output=True, text=True, timeout=CLI_S, check=False,
        )  # fmt: skip
        by_name = {a["name"]: a for a in json.loads(listed.stdout)["agents"]}
        usage = by_name[row["agent"]]["usage"]
        assert usage is not None, by_name[row["agent"]]
        assert (usage["input"], usage["output"], usage["requests"]) == (
            cost["tokens"]["input"], cost["tokens"]["output"], cost["tokens"]["requests"],
        ), usage  # fmt: skip
        assert usage["source"] == SOURCES[agent]
        titles = receiver.titles()
        assert sum("needs a human" in t for t in titles) == 1
        assert receiver.wait(lambda ms: any("answered" in str(m["title"]) for m in ms), BUDGET_S)
    except BaseException:  # what paw saw goes into the report (a flake is a finding)
        if env:
            said = {"messages received": json.dumps(receiver.messages, indent=1)}
            if runner is not None and runner.poll() is not None and runner.stderr is not None:
                said["the runner's stderr"] = runner.stderr.read()[-4000:]
            diagnose.record(request.node.nodeid, diagnose.collect_wave(ws.repo, env, socket, said))
        raise
    finally:
        if runner is not None and runner.poll() is None:
            runner.kill()
            runner.wait(30)
        receiver.close()
        kill_tmux_server(socket)
        stub.stop()
        agents.remove_workspace(ws)
