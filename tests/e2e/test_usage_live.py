"""What an agent used, read from its own records, with real agent CLIs against the stub model
(which reports 12 tokens in and 8 out per response, like the real APIs' usage blocks):

- Gemini CLI, Qwen Code, Cline, Continue and Mistral Vibe started by ``paw spawn``: ``paw ls
  --json`` shows the tokens they wrote in their session files (and the $0 Cline states for a
  model it has no price for);
- aider, started by ``paw spawn`` with the analytics log paw names (``--analytics-log``, in
  paw's state directory) and a price for the stub's model in its model list: ``paw ls --json``
  shows the tokens and dollars of its ``message_send`` events. Without streaming
  (``--no-stream``) they are the API's usage; streaming (aider's default) they are aider's own
  count, the one it prints (``Tokens: 2.5k sent, 82 received. Cost: $2.60 message``);
- opencode, given a price for the stub's model (its config's ``cost``, dollars per million
  tokens), states a cost per response in its database: a wave task over its ``budget_usd`` is
  parked (its agent left running), and a task at 80 % of it gets one warning and is not
  parked.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from paw.cli.demo import kill_tmux_server
from tests.e2e import agents, diagnose, paw_run
from tests.e2e.stub_model import StubModel
from tests.support.budget import budget
from tests.support.receiver import Receiver

# The whole-test timeout is above the sum of a test's waits (BUDGET_S and paw commands of CLI_S).
pytestmark = [pytest.mark.e2e, pytest.mark.timeout(int(budget(1500)))]

SOURCES = {
    "gemini-cli": "Gemini CLI's chat files",
    "qwen-code": "Qwen Code's chat records",
    "cline": "Cline's session files",
    "continue-cli": "Continue's session files",
    "mistral-vibe": "Mistral Vibe's session snapshots",
}
# the dollars each states: Cline $0 for a model it has no price for; the others none (Continue
# writes only estimates, see paw.core.usage.parse_continue_session)
STATED_USD = {"cline": 0.0}
USAGE_S = budget(300.0)  # the agent starts, answers once, and paw reads its files
CLI_S = budget(90.0)


def _listed_usage(run: paw_run.PawRun) -> dict[str, Any] | None:
    done = paw_run.paw(run, "ls", "--json", timeout=CLI_S)
    agent = json.loads(done.stdout)["agents"][0]
    usage: dict[str, Any] | None = agent["usage"]
    return usage


@pytest.mark.parametrize("agent", sorted(SOURCES))
def test_paw_ls_shows_the_tokens_the_agent_recorded(
    installed_agents: Path, agent: str, request: pytest.FixtureRequest
) -> None:
    del installed_agents
    run = paw_run.start(agent, 120, 40)
    try:
        paw_run.spawn(run, "SCENARIO quote")  # one response, no tool call
        deadline = time.monotonic() + USAGE_S
        usage = _listed_usage(run)
        while usage is None and time.monotonic() < deadline:
            time.sleep(1.0)
            usage = _listed_usage(run)
        assert usage is not None, f"paw ls --json showed no usage within {USAGE_S:.0f}s"
        assert usage["source"] == SOURCES[agent]
        assert usage["requests"] >= 1, usage
        assert (usage["input"], usage["output"]) == (
            12 * usage["requests"], 8 * usage["requests"],
        ), usage  # fmt: skip
        assert usage["total"] == 20 * usage["requests"]
        assert usage["usd"] == STATED_USD.get(agent), usage
        turns = sum(1 for path, _ in run.stub.requests if "stream" in path or "chat" in path)
        assert usage["requests"] <= turns  # only responses the stub gave
    except BaseException:
        diagnose.record(request.node.nodeid, diagnose.collect(run, paw_run.AGENT_NAME))
        raise
    finally:
        paw_run.stop(run)


AIDER_PRICE = 0.001  # dollars a token, in and out, in aider's model list
AIDER_REPORT = re.compile(r"Tokens: (\S+) sent, (\S+) received\. Cost: \$(\S+) message")


def _aider_tokens(count: int) -> str:
    """A token count as aider 0.86.2 prints it (``format_tokens``)."""
    if count < 1000:
        return str(count)
    if count < 10000:
        return f"{count / 1000:.1f}k"
    return f"{round(count / 1000)}k"


def _priced_aider(run: paw_run.PawRun, stream: bool) -> None:
    """The stub's model priced in aider's model list; ``--no-stream`` added unless ``stream``."""
    prices = run.ws.home / ".aider" / "caches" / "model_prices_and_context_window.json"
    data = json.loads(prices.read_text(encoding="utf-8"))
    model = data[f"openai/{agents.MODEL}"]
    model["input_cost_per_token"] = model["output_cost_per_token"] = AIDER_PRICE
    prices.write_text(json.dumps(data, indent=2), encoding="utf-8")
    if not stream:
        config = run.ws.repo / "paw.toml"
        text = config.read_text(encoding="utf-8")
        flags = '"--no-auto-commits"]'
        config.write_text(text.replace(flags, flags[:-1] + ', "--no-stream"]'), encoding="utf-8")
        assert "--no-stream" in config.read_text(encoding="utf-8")


@pytest.mark.parametrize("stream", [False, True], ids=["no-stream", "streamed"])
def test_paw_ls_shows_what_aider_logged_in_the_analytics_log_paw_named(
    installed_agents: Path, stream: bool, request: pytest.FixtureRequest
) -> None:
    del installed_agents
    run = paw_run.start("aider", 120, 40)
    try:
        _priced_aider(run, stream)
        paw_run.spawn(run, "SCENARIO quote")  # one response, no tool call
        deadline = time.monotonic() + USAGE_S
        usage = _listed_usage(run)
        while usage is None and time.monotonic() < deadline:
            time.sleep(1.0)
            usage = _listed_usage(run)
        assert usage is not None, f"paw ls --json showed no usage within {USAGE_S:.0f}s"
        assert usage["source"] == "aider's analytics log"
        log = run.ws.repo / ".paw" / "usage" / paw_run.AGENT_NAME / "aider-analytics.jsonl"
        assert log.is_file()  # in paw's state directory ...
        assert not (run.worktree / ".paw").exists()  # ... never the worktree
        assert usage["requests"] == 1, usage
        assert usage["usd"] == pytest.approx(usage["total"] * AIDER_PRICE), usage
        if not stream:  # the API's usage, as the stub reported it
            assert (usage["input"], usage["output"], usage["total"]) == (12, 8, 20), usage
            return
        # streaming, aider counts the tokens itself: paw shows the count aider printed
        screen = run.pane.wait_for(lambda s: AIDER_REPORT.search(s) is not None, USAGE_S,
                                     "aider's usage report")  # fmt: skip
        found = AIDER_REPORT.search(screen)
        assert found is not None
        assert found.group(1, 2) == (_aider_tokens(usage["input"]), _aider_tokens(usage["output"]))
        assert float(found.group(3)) == pytest.approx(usage["usd"], abs=0.005)
        assert usage["input"] != 12  # not the API's count
    except BaseException:
        diagnose.record(request.node.nodeid, diagnose.collect(run, paw_run.AGENT_NAME))
        raise
    finally:
        paw_run.stop(run)


WAVE = "w"
TASK = "spend"
BUDGET_S = budget(600.0)  # opencode took 220 s to its first prompt on a loaded machine
PRICE = 25000.0  # dollars per million tokens, in and out: $0.50 a response (12 in, 8 out)


def _priced_opencode(ws: agents.Workspace, worktree: Path, stub_url: str) -> dict[str, str]:
    """opencode set up for the wave, with a price for the stub's model."""
    env = paw_run.set_up_wave(ws, "opencode", worktree, stub_url)
    config_file = ws.home / ".config" / "opencode" / "opencode.json"
    config = json.loads(config_file.read_text(encoding="utf-8"))
    model = config["provider"]["paw"]["models"][agents.MODEL]
    model["cost"] = {"input": PRICE, "output": PRICE}
    config_file.write_text(json.dumps(config, indent=2), encoding="utf-8")
    return env


def _wave_file(url: str, task: str, check: str, budget_usd: float) -> str:
    return f"""name = "{WAVE}"
agent = "opencode"
poll_s = 0.5
idle_poll_s = 1.0
stuck_after_s = 600

[notify]
urls = ["{url}"]
bell = false

[[tasks]]
name = "{TASK}"
task = "{task}"
{check}budget_usd = {budget_usd}
"""


def _report(ws: agents.Workspace, env: dict[str, str]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "paw", "wave", "report", "--json"],
        cwd=ws.repo, env=env, capture_output=True, text=True, timeout=CLI_S, check=True,
    )  # fmt: skip
    row: dict[str, Any] = json.loads(done.stdout)["tasks"][0]
    return row


def test_wave_task_over_its_dollar_budget_is_parked_and_announced(installed_agents: Path) -> None:
    del installed_agents
    ws = agents.make_workspace("opencode")
    worktree = ws.root / "wt" / f"{WAVE}-{TASK}"
    stub = StubModel(str(worktree)).start()
    socket = f"pawe2e-{uuid.uuid4().hex[:8]}"
    receiver = Receiver()
    runner: subprocess.Popen[str] | None = None
    try:
        _priced_opencode(ws, worktree, stub.url)
        env = paw_run.base_env(ws, socket)
        # one response ($0.50) and no check: idle with no commit, the task can only be parked
        wave = _wave_file(receiver.url, "SCENARIO quote", "", 0.4)
        runner = paw_run.start_wave(ws, env, socket, wave)
        proc = runner

        def parked(ms: list[dict[str, object]]) -> bool:
            return proc.poll() is not None or any("is parked" in str(m["title"]) for m in ms)

        receiver.wait(parked, BUDGET_S)
        if runner.poll() is not None:
            out, err = runner.communicate()
            pytest.fail(f"the runner ended early ({runner.returncode}): {out}{err}")
        found = [m for m in receiver.messages if "is parked" in str(m["title"])]
        assert found, f"no parked message: {receiver.titles()}"
        assert "over its budget: $0.50 of $0.40" in str(found[0]["title"]), found[0]
        row = _report(ws, env)
        assert row["status"] == "parked", row
        assert row["budget_parked"] == "over its budget: $0.50 of $0.40", row
        assert row["cost"]["usd"] == 0.5, row["cost"]  # what opencode stated
        assert row["cost"]["source"] == "opencode's database", row["cost"]
        listed = subprocess.run(
            [sys.executable, "-m", "paw", "ls", "--json"],
            cwd=ws.repo, env=env, capture_output=True, text=True, timeout=CLI_S, check=False,
        )  # fmt: skip
        by_name = {a["name"]: a for a in json.loads(listed.stdout)["agents"]}
        assert by_name[f"{WAVE}-{TASK}"]["alive"] is True  # parked, never killed
        assert by_name[f"{WAVE}-{TASK}"]["usage"]["usd"] == 0.5
        assert runner.poll() is None  # the wave waits for a human
        assert not any("80 %" in t for t in receiver.titles())  # past 80 % at once: parked
    finally:
        if runner is not None and runner.poll() is None:
            runner.kill()
            runner.wait(30)
        receiver.close()
        kill_tmux_server(socket)
        stub.stop()
        agents.remove_workspace(ws)
