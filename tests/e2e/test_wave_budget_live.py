"""A wave task over its token budget with a real agent CLI (Claude Code and Codex against the
stub model, which reports 12 tokens in and 8 out per response like the real APIs): the runner
reads the agent's own files, parks the task (its agent is left running) and a message arrives
at a local receiver; the report says parked. Claude Code records each response as it comes, so
its task stops at a permission prompt (``SCENARIO shell``); Codex writes its running total
(a ``token_count`` event in its session log) only when its turn ends, so its task is a turn
without a tool call (``SCENARIO quote``) and has no check: idle with no commit, it can only be
parked."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from paw.cli.demo import kill_tmux_server
from tests.e2e import agents, paw_run
from tests.e2e.stub_model import StubModel
from tests.support.budget import budget
from tests.support.receiver import Receiver

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(int(budget(600)))]

WAVE = "w"
TASK = "spend"
BUDGET_S = budget(240.0)  # the agent starts, answers once, and paw reads its files
CLI_S = budget(90.0)


# agent -> (its task, the task's check line): see the module's docstring
CASES = {
    "claude-code": ("SCENARIO shell", 'check = "true"\n'),
    "codex": ("SCENARIO quote", ""),
}


def _wave_file(url: str, agent: str) -> str:
    task, check = CASES[agent]
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
task = "{task}"
{check}budget_tokens = 15
"""


def _codex_totals(codex_home: Path) -> set[int]:
    """The running totals in Codex's own session logs (its ``token_count`` events: input and
    output tokens), read here without paw's parser."""
    totals: set[int] = set()
    for log in sorted((codex_home / "sessions").rglob("rollout-*.jsonl")):
        for line in log.read_text(encoding="utf-8").splitlines():
            record = json.loads(line) if line.strip() else {}
            payload = record.get("payload") or {}
            info = payload.get("info") if isinstance(payload, dict) else None
            if payload.get("type") == "token_count" and isinstance(info, dict):
                usage = info.get("total_token_usage") or {}
                totals.add(int(usage.get("input_tokens", 0)) + int(usage.get("output_tokens", 0)))
    return totals


@pytest.mark.parametrize("agent", sorted(CASES))
def test_wave_task_over_its_token_budget_is_parked_and_announced(
    installed_agents: Path, agent: str
) -> None:
    del installed_agents
    ws = agents.make_workspace(agent)
    worktree = ws.root / "wt" / f"{WAVE}-{TASK}"
    stub = StubModel(str(worktree)).start()
    socket = f"pawe2e-{uuid.uuid4().hex[:8]}"
    receiver = Receiver()
    runner: subprocess.Popen[str] | None = None
    try:
        agent_env = paw_run.set_up_wave(ws, agent, worktree, stub.url)
        env = paw_run.base_env(ws, socket)
        runner = paw_run.start_wave(ws, env, socket, _wave_file(receiver.url, agent))
        proc = runner

        def parked(ms: list[dict[str, object]]) -> bool:
            return proc.poll() is not None or any("is parked" in str(m["title"]) for m in ms)

        receiver.wait(parked, BUDGET_S)
        if runner.poll() is not None:
            out, err = runner.communicate()
            pytest.fail(f"the runner ended early ({runner.returncode}): {out}{err}")
        found = [m for m in receiver.messages if "is parked" in str(m["title"])]
        if not found:
            state = (ws.repo / ".paw" / "waves" / f"{WAVE}.json").read_text(encoding="utf-8")
            task = json.loads(state)["tasks"][0]
            pytest.fail(f"no parked message: {receiver.titles()}; task: {task}")
        message = found[0]
        assert "over its budget: " in str(message["title"])
        assert "of 15 tokens" in str(message["title"])
        report = subprocess.run(
            [sys.executable, "-m", "paw", "wave", "report", "--json"],
            cwd=ws.repo, env=env, capture_output=True, text=True, timeout=CLI_S, check=True,
        )  # fmt: skip
        row = json.loads(report.stdout)["tasks"][0]
        assert row["status"] == "parked", row
        assert row["budget_parked"].startswith("over its budget: "), row
        listed = subprocess.run(
            [sys.executable, "-m", "paw", "ls", "--json"],
            cwd=ws.repo, env=env, capture_output=True, text=True, timeout=CLI_S, check=False,
        )  # fmt: skip
        by_name = {a["name"]: a for a in json.loads(listed.stdout)["agents"]}
        assert by_name[f"{WAVE}-{TASK}"]["alive"] is True  # parked, never killed
        assert runner.poll() is None  # the wave waits for a human
        spent = re.fullmatch(r"over its budget: ([\d,]+) of 15 tokens", row["budget_parked"])
        assert spent is not None, row
        tokens = int(spent[1].replace(",", ""))
        assert tokens >= 20, row  # one response at least (12 in, 8 out)
        if agent == "codex":  # the count paw parked on is one Codex recorded itself
            totals = _codex_totals(Path(agent_env["CODEX_HOME"]))
            assert tokens in totals, (tokens, totals)
    finally:
        if runner is not None and runner.poll() is None:
            runner.kill()
            runner.wait(30)
        receiver.close()
        kill_tmux_server(socket)
        stub.stop()
        agents.remove_workspace(ws)
