"""What `paw prompts` and `paw ls` cost in processes as agents are added: the same tmux
calls whatever the number of agents (one batched survey), no worktree counted by `paw prompts`,
and one git process per worktree at rest for `paw ls` (its status; no rev-list, no
diff-index). Counted, never timed: agents are idle panes in paw's session, tagged and recorded
the way a spawn leaves them, each with a real worktree."""

from __future__ import annotations

import json
import os
import secrets
import shlex
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from paw.adapters.git.runner import GitCli
from paw.adapters.git.statuses import STATUS_SHELLS
from paw.adapters.tmux.terminal import TmuxTerminal
from paw.cli import main
from paw.cli.compose import build_supervisor
from paw.supervisor.records import AgentRecord
from tests.cli.test_scale import record_agents
from tests.support.panes import open_panes
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
    record_agents(server, ctx, records)


@pytest.fixture
def git_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every git process from now on, whoever starts it (paw, or a shell paw starts), logs its
    arguments to the returned file: a ``git`` first on PATH that appends them, then runs git."""
    real = shutil.which("git")
    assert real is not None
    shim = tmp_path / "shim"
    shim.mkdir()
    log = tmp_path / "git.log"
    (shim / "git").write_text(
        f'#!/bin/sh\nprintf "%s\\n" "$*" >> {shlex.quote(str(log))}\n'
        f'exec {shlex.quote(real)} "$@"\n',
        encoding="utf-8",
    )
    (shim / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{shim}{os.pathsep}{os.environ['PATH']}")
    return log


def run_counted(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, log: Path, *args: str
) -> tuple[dict[str, Any], Counter[str], Counter[str]]:
    """``paw ARGS --json`` in-process: its JSON object, the processes paw itself started (by
    program name), and every git process (by verb: ``git status``, …)."""
    started: Counter[str] = Counter()
    real = subprocess.Popen

    class Counting(real):  # type: ignore[misc, valid-type]
        def __init__(self, argv: Any, *a: Any, **kw: Any) -> None:
            started[Path(str(argv[0])).name] += 1
            super().__init__(argv, *a, **kw)

    log.write_text("", encoding="utf-8")
    monkeypatch.setattr(subprocess, "Popen", Counting)
    try:
        code = main([*args, "--json"])
    finally:
        monkeypatch.setattr(subprocess, "Popen", real)
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert code == 0, data
    gits: Counter[str] = Counter()
    for line in log.read_text(encoding="utf-8").splitlines():
        words = line.split()
        gits[f"git {words[2] if words[:1] == ['-C'] else words[0]}"] += 1
    return data, started, gits


def test_processes_of_prompts_and_ls_do_not_grow_but_by_one_status_per_worktree(
    repo: Path,
    server: Server,
    tmp_path: Path,
    git_log: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    costs: dict[int, dict[str, Counter[str]]] = {}
    names: list[str] = []
    for size in (3, 12):
        more = [f"a{i:02d}" for i in range(len(names), size)]
        add_agents(repo, server, tmp_path, more)
        names += more
        prompts, prompts_paw, prompts_git = run_counted(capsys, monkeypatch, git_log, "prompts")
        listed, ls_paw, ls_git = run_counted(capsys, monkeypatch, git_log, "ls")
        assert prompts["prompts"] == []
        agents = {a["name"]: a for a in listed["agents"]}
        assert sorted(agents) == names
        assert {(a["alive"], a["status"]) for a in agents.values()} == {(True, "idle")}
        assert {a["stat"]["ahead"] + a["stat"]["uncommitted"] for a in agents.values()} == {0}
        costs[size] = {"prompts": prompts_paw, "prompts git": prompts_git, "ls": ls_paw}
        costs[size]["ls git"] = ls_git
    small, large = costs[3], costs[12]
    # `paw prompts`: the same processes at 3 and 12 agents (the repository's root, one tmux
    # survey), and no worktree counted
    assert small["prompts"] == large["prompts"], costs
    assert small["prompts git"] == large["prompts git"] == Counter({"git worktree": 1}), costs
    # `paw ls`: the same tmux calls; git status once per worktree and nothing else per
    # worktree, run by at most STATUS_SHELLS shells: paw's own processes barely grow
    assert small["ls"]["tmux"] == large["ls"]["tmux"] == large["prompts"]["tmux"], costs
    assert large["ls git"] == Counter({"git status": 12, "git worktree": 1}), costs
    assert small["ls git"] == Counter({"git status": 3, "git worktree": 1}), costs
    assert large["ls"]["sh"] <= STATUS_SHELLS
    assert "git" not in large["ls"] or large["ls"]["git"] == 1, costs  # the repository's root


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
    assert sup.ctx.settings.one_shot
    first = {v.name: v.stat.uncommitted for v in sup.poll_once().agents}
    assert first == {"a00": 0, "a01": 0}
    assert sup.ctx.memory.mark_reads == {}
    (tmp_path / "wt" / "a01" / "README.md").write_text("edited by hand\n", encoding="utf-8")
    second = {v.name: v.stat.uncommitted for v in sup.poll_once().agents}
    assert second == {"a00": 0, "a01": 1}


def test_ls_starts_the_statuses_of_its_agents_before_building_the_supervisor(
    repo: Path,
    server: Server,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`paw ls` starts its agents' `git status` first (EarlyStatuses, from agents.json read
    without the records' models), before paw.toml is read; its sweep takes them. An adopted
    agent and one being spawned are not counted, so not started either."""
    import paw.adapters.git.runner as git_module
    from paw.cli import compose
    from paw.cli.repo_supervisor import counted_worktrees
    from paw.supervisor.records import SPAWNING, load_agents, save_agents

    add_agents(repo, server, tmp_path, ["a00", "a01", "a02", "a03"])
    state = build_supervisor(str(repo)).ctx.state
    agents = load_agents(state)
    agents["a02"] = agents["a02"].model_copy(update={"adopted": True})
    agents["a03"] = agents["a03"].model_copy(update={"pending": SPAWNING})
    save_agents(state, agents)
    assert [Path(w).name for w in counted_worktrees(str(repo))] == ["a00", "a01"]
    events: list[str] = []

    class Recording(git_module.EarlyStatuses):
        def __init__(self, worktrees: Any, **kw: Any) -> None:
            events.append("start " + " ".join(Path(w).name for w in worktrees))
            super().__init__(worktrees, **kw)

        def take(self, worktrees: Any) -> dict[str, str | None]:
            found = super().take(worktrees)
            events.append("take " + " ".join(sorted(Path(w).name for w in found)))
            return found

    real_load = compose.load_config

    def load_config(*a: Any, **kw: Any) -> Any:
        events.append("paw.toml")
        return real_load(*a, **kw)

    monkeypatch.setattr(git_module, "EarlyStatuses", Recording)
    monkeypatch.setattr(compose, "load_config", load_config)
    assert main(["ls", "--json"]) == 0
    listed = {a["name"]: a["stat"] for a in json.loads(capsys.readouterr().out)["agents"]}
    assert events == ["start a00 a01", "paw.toml", "take a00 a01"]
    assert listed["a00"] == listed["a01"] == {
        "uncommitted": 0, "untracked": 0, "ahead": 0, "behind": 0, "insertions": 0,
        "deletions": 0, "counted": True,
    }  # fmt: skip
    (repo / ".paw" / "agents.json").write_text("{not json", encoding="utf-8")
    assert counted_worktrees(str(repo)) == []
