"""`paw prompts` and `paw ls` with 300 agents: tmux refuses a command longer than 16 KiB
(about 146 chained captures), and a sweep that lost its captures must never report live
agents as exited. One agent is paw's scripted agent (spawned by `paw spawn`, it asks a
permission prompt); the other 299 are cheap panes (``cat`` showing an idle scripted-agent
screen) tagged and recorded the way a spawn leaves them."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from libtmux.test.retry import retry_until

from paw.adapters.tmux import format as tmux_format
from paw.cli import main
from paw.cli.compose import build_supervisor
from paw.supervisor.context import TAG_AGENT, TAG_KIND, TAG_REPO, TAG_TOKEN
from paw.supervisor.records import AGENTS_LOCK, AgentRecord, load_agents, save_agents
from tests.support.budget import budget
from tests.support.panes import open_panes, tag_panes
from tests.support.supervision import IDLE_SCREEN

if TYPE_CHECKING:
    from libtmux.server import Server

    from paw.supervisor.context import Context

pytestmark = [pytest.mark.tmux, pytest.mark.git]

AGENTS = 300


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    """``paw ARGS --json`` in-process: (exit code, the one JSON object it printed)."""
    code = main([*args, "--json"])
    out = capsys.readouterr()
    assert out.err == "", out.err
    data = json.loads(out.out)
    assert isinstance(data, dict)
    return code, data


@pytest.fixture
def repo(git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose paw uses the plugin's private tmux server, with the scripted agent
    (asks `touch one.txt`) and a ``cheap`` kind: ``cat``, read with the scripted detector."""
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.chdir(git_repo)
    script = tmp_path / "steps.txt"
    script.write_text("shell touch one.txt\n", encoding="utf-8")
    command = json.dumps(["{python}", "-m", "paw.demo.agent", "--script", str(script)])
    (git_repo / "paw.toml").write_text(
        f"[agents.scripted]\ncommand = {command}\n"
        '[agents.cheap]\ncommand = ["cat"]\ndetector = "scripted"\n',
        encoding="utf-8",
    )
    return git_repo


def add_cheap_agents(repo: Path, server: Server, tmp_path: Path, count: int) -> list[str]:
    """``count`` idle agents of kind ``cheap``: tagged panes in paw's session and their
    records (as `paw spawn` leaves them; their worktrees do not exist, so no git work)."""
    assert server.socket_name is not None
    ctx = build_supervisor(str(repo)).ctx
    screen = tmp_path / "idle.txt"
    screen.write_text(IDLE_SCREEN, encoding="utf-8")
    names = [f"c{i:03d}" for i in range(count)]
    panes = open_panes(server.socket_name, ctx.session, [screen] * count, names)
    records = {
        name: AgentRecord(
            name=name, kind="cheap", branch=f"paw/{name}", worktree=str(tmp_path / "wt" / name),
            base="main", pane_id=pane, token=secrets.token_hex(8), created_at=ctx.clock(),
        )
        for name, pane in zip(names, panes, strict=True)
    }  # fmt: skip
    record_agents(server, ctx, records)
    return names


def test_prompts_and_ls_are_right_with_300_agents(
    repo: Path,
    server: Server,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, spawned = run_json(capsys, "spawn", "one", "--agent", "scripted", "--task", "t")
    assert code == 0, spawned
    cheap = add_cheap_agents(repo, server, tmp_path, AGENTS - 1)
    found: list[dict[str, Any]] = []

    def prompt_shown() -> bool:
        code, data = run_json(capsys, "prompts")
        assert code == 0, data  # never "tmux failed" because of the number of panes
        found[:] = data["prompts"]
        return bool(found)

    assert retry_until(prompt_shown, budget(60), raises=False), "the prompt was never listed"
    assert [(p["agent"], p["subject"]) for p in found] == [("one", "touch one.txt")]

    code, listed = run_json(capsys, "ls")
    assert code == 0, listed.get("error")
    agents = {a["name"]: a for a in listed["agents"]}
    assert sorted(agents) == sorted(["one", *cheap])
    assert [n for n, a in agents.items() if a["alive"] is not True] == []
    assert agents["one"]["status"] == "prompt"
    assert {agents[n]["status"] for n in cheap} == {"idle"}

    # A sweep tmux refuses (here: chunks sized past its limit) leaves every agent unknown,
    # with an error and exit 1: never "exited", never "no prompts".
    budget_bytes = tmux_format.COMMAND_BUDGET
    monkeypatch.setattr(tmux_format, "COMMAND_BUDGET", 64 * 1024)
    code, listed = run_json(capsys, "ls")
    assert code == 1
    assert "command too long" in listed["error"]["message"]
    assert {(a["status"], a["alive"]) for a in listed["agents"]} == {("unknown", None)}
    assert len(listed["agents"]) == AGENTS
    code, prompted = run_json(capsys, "prompts")
    assert (code, prompted["prompts"]) == (1, [])
    assert "unknown" in prompted["error"]["message"]
    monkeypatch.setattr(tmux_format, "COMMAND_BUDGET", budget_bytes)
    code, again = run_json(capsys, "prompts")  # the blind sweeps ended nothing
    assert (code, [p["id"] for p in again["prompts"]]) == (0, [found[0]["id"]])


def record_agents(server: Server, ctx: Context, records: dict[str, AgentRecord]) -> None:
    """Tag each record's pane as paw's spawn does and add the records to ``.paw/``."""
    assert server.socket_name is not None
    tag_panes(
        server.socket_name,
        {
            r.pane_id or "": {TAG_AGENT: r.name, TAG_KIND: r.kind, TAG_REPO: ctx.repo_id,
                              TAG_TOKEN: r.token or ""}
            for r in records.values()
        },
    )  # fmt: skip
    with ctx.state.lock(AGENTS_LOCK):
        save_agents(ctx.state, {**load_agents(ctx.state), **records})
