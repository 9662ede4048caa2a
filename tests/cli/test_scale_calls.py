"""What `paw prompts` and `paw ls` cost in processes as agents are added: the same tmux
calls whatever the number of agents (one batched survey), no worktree counted by `paw prompts`,
and one git process per worktree at rest for `paw ls` (its status; no rev-list, no
diff-index). Counted, never timed: agents are idle panes in paw's session, tagged and recorded
the way a spawn leaves them, each with a real worktree."""

from __future__ import annotations

import json
import secrets
import subprocess
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from paw.adapters.git import GitCli
from paw.adapters.tmux import TmuxTerminal
from paw.cli import main
from paw.cli.compose import build_supervisor
from paw.supervisor.context import TAG_AGENT, TAG_KIND, TAG_REPO, TAG_TOKEN
from paw.supervisor.records import AGENTS_LOCK, AgentRecord, load_agents, save_agents
from tests.support.panes import open_panes, tag_panes
from tests.support.supervision import IDLE_SCREEN

if TYPE_CHECKING:
    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git]


@pytest.fixture
def repo(git_repo: Path, server: Server, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose paw uses the plugin's private tmux server; agents of kind ``cheap``
    (``cat``, read with the scripted detector)."""
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.chdir(git_repo)
    (git_repo / "paw.toml").write_text(
        '[agents.cheap]\ncommand = ["cat"]\ndetector = "scripted"\n', encoding="utf-8"
    )
    return git_repo


def add_agents(repo: Path, server: Server, tmp_path: Path, names: list[str]) -> None:
    """Idle ``cheap`` agents ``names``: a worktree on its own branch, a tagged pane, a record."""
    assert server.socket_name is not None
    ctx = build_supervisor(str(repo)).ctx
    TmuxTerminal(socket_name=server.socket_name).ensure_session(ctx.session, str(repo))
    screen = tmp_path / "idle.txt"
    screen.write_text(IDLE_SCREEN, encoding="utf-8")
    panes = open_panes(server.socket_name, ctx.session, [screen] * len(names), names)
    records: dict[str, AgentRecord] = {}
    for name, pane in zip(names, panes, strict=True):
        worktree = tmp_path / "wt" / name
        GitCli().add_worktree(str(repo), str(worktree), f"paw/{name}", "main")
        records[name] = AgentRecord(
            name=name, kind="cheap", branch=f"paw/{name}", worktree=str(worktree),
            base="main", pane_id=pane, token=secrets.token_hex(8), created_at=ctx.clock(),
        )  # fmt: skip
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


def run_counted(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[dict[str, Any], Counter[str]]:
    """``paw ARGS --json`` in-process: its JSON object and the processes it started, by
    program and git verb (``tmux``, ``git status``, …)."""
    started: Counter[str] = Counter()
    real = subprocess.Popen

    class Counting(real):  # type: ignore[misc, valid-type]
        def __init__(self, argv: Any, *a: Any, **kw: Any) -> None:
            words = [str(w) for w in argv]
            program = Path(words[0]).name
            if program == "git":  # git -C DIR VERB …, or git VERB …
                program = f"git {words[3] if words[1:2] == ['-C'] else words[1]}"
            started[program] += 1
            super().__init__(argv, *a, **kw)

    monkeypatch.setattr(subprocess, "Popen", Counting)
    try:
        code = main([*args, "--json"])
    finally:
        monkeypatch.setattr(subprocess, "Popen", real)
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert code == 0, data
    return data, started


def test_processes_of_prompts_and_ls_do_not_grow_but_by_one_status_per_worktree(
    repo: Path,
    server: Server,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    costs: dict[int, tuple[Counter[str], Counter[str]]] = {}
    names: list[str] = []
    for size in (3, 12):
        more = [f"a{i:02d}" for i in range(len(names), size)]
        add_agents(repo, server, tmp_path, more)
        names += more
        prompts, prompts_cost = run_counted(capsys, monkeypatch, "prompts")
        listed, ls_cost = run_counted(capsys, monkeypatch, "ls")
        assert prompts["prompts"] == []
        agents = {a["name"]: a for a in listed["agents"]}
        assert sorted(agents) == names
        assert {(a["alive"], a["status"]) for a in agents.values()} == {(True, "idle")}
        assert {a["stat"]["ahead"] + a["stat"]["uncommitted"] for a in agents.values()} == {0}
        costs[size] = (prompts_cost, ls_cost)
    (prompts_3, ls_3), (prompts_12, ls_12) = costs[3], costs[12]
    assert prompts_3 == prompts_12, costs  # the same calls (the repository's root, one survey)
    counting = ("git status", "git rev-list", "git diff-index")
    assert not [p for p in prompts_12 if p in counting], prompts_12  # no worktree counted
    assert ls_3["tmux"] == ls_12["tmux"] == prompts_12["tmux"], costs
    assert ls_12["git status"] == 12
    assert ls_3["git status"] == 3
    assert sum(ls_12.values()) - sum(ls_3.values()) == 9, costs  # nothing else per agent


def test_a_one_shot_context_reads_no_mark_and_recounts_on_its_next_sweep(
    repo: Path, server: Server, tmp_path: Path
) -> None:
    """A command's context skips the status marks (nobody compares them); a second sweep of
    it still counts an edit that moved no mark (no git command, no output)."""
    from paw.cli.compose import build_fleet
    from paw.supervisor.service import Supervisor

    add_agents(repo, server, tmp_path, ["a00", "a01"])
    sup = build_fleet(str(repo))
    assert isinstance(sup, Supervisor)
    assert sup.ctx.one_shot
    first = {v.name: v.stat.uncommitted for v in sup.poll_once().agents}
    assert first == {"a00": 0, "a01": 0}
    assert sup.ctx.mark_reads == {}
    (tmp_path / "wt" / "a01" / "README.md").write_text("edited by hand\n", encoding="utf-8")
    second = {v.name: v.stat.uncommitted for v in sup.poll_once().agents}
    assert second == {"a00": 0, "a01": 1}
