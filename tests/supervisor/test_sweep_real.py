"""poll_once over real tmux, git and psutil: one tmux process per sweep, whatever the number of
agents, and a killed tmux server reported as lost."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from paw.adapters import proc, procs
from paw.adapters.tmux import TmuxTerminal
from paw.adapters.tmux_control import ControlClient
from paw.cli.compose import build_supervisor
from paw.supervisor.model import AgentStatus, Outcome
from tests.tui.real_world import make_supervisor, wait_for, wait_for_prompts

if TYPE_CHECKING:
    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git]
AGENTS = 4


def test_poll_once_real_is_one_tmux_process_and_one_table_pass(
    git_repo: Path, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    supervisor = make_supervisor(git_repo, server.socket_name or "")
    for i in range(AGENTS):
        supervisor.spawn(f"a{i}", "demo-safe", None)
    wait_for_prompts(supervisor, AGENTS)
    supervisor.poll_once()  # worktree counts are cached from here on
    tmux: list[tuple[str, ...]] = []
    passes: list[object] = []
    real_run, real_map, real_walk = proc.run, procs._children_map, procs._walk_children

    def counting_run(argv: Any, **kwargs: Any) -> proc.Completed:
        if argv[0] == "tmux":
            tmux.append(tuple(argv))
        return real_run(argv, **kwargs)

    def counting_iter(*args: Any, **kwargs: Any) -> Any:
        passes.append(args)
        return real_map(*args, **kwargs)

    monkeypatch.setattr(proc, "run", counting_run)

    def counting_walk(*args: Any, **kwargs: Any) -> Any:
        passes.append(args)  # a few trees are walked down from their roots instead
        return real_walk(*args, **kwargs)

    monkeypatch.setattr(procs, "_children_map", counting_iter)
    monkeypatch.setattr(procs, "_walk_children", counting_walk)
    snapshot = supervisor.poll_once()
    assert (len(tmux), len(passes)) == (1, 1)
    assert len(snapshot.prompts) == AGENTS
    assert {v.status for v in snapshot.agents} == {AgentStatus.PROMPT}


def test_poll_once_real_server_killed_is_tmux_lost(git_repo: Path, server: Server) -> None:
    supervisor = make_supervisor(git_repo, server.socket_name or "")
    supervisor.spawn("a0", "demo-safe", None)
    wait_for_prompts(supervisor, 1)
    server.kill()
    snapshot = supervisor.poll_once()
    assert not snapshot.tmux_ok
    assert "server is gone" in (snapshot.error or "")
    assert snapshot.prompts == ()


def test_poll_once_real_control_steady_sees_prompt_answered_and_stays_quiet(
    git_repo: Path, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    socket = server.socket_name or ""
    make_supervisor(git_repo, socket)  # writes the demo paw.toml
    supervisor = build_supervisor(str(git_repo), socket_name=socket, control=True)
    supervisor.spawn("a0", "demo-safe", None)
    supervisor.spawn("a1", "demo-safe", None)
    prompts = wait_for_prompts(supervisor, 2)
    captures: list[int] = []
    tmux: list[tuple[str, ...]] = []
    real_run, real_exchange = proc.run, ControlClient._exchange  # control-mode seam

    def counting_run(argv: Any, **kwargs: Any) -> proc.Completed:
        if argv[0] == "tmux":
            tmux.append(tuple(argv))
        return real_run(argv, **kwargs)

    def counting_exchange(self: ControlClient, payload: bytes, last: str) -> list[str]:
        captures.append(payload.count(b"capture-pane"))
        return real_exchange(self, payload, last)

    monkeypatch.setattr(proc, "run", counting_run)
    monkeypatch.setattr(ControlClient, "_exchange", counting_exchange)

    def quiet_poll() -> bool:
        captures.clear()
        return len(supervisor.poll_once().prompts) == 2 and sum(captures) == 0

    assert wait_for(quiet_poll, 15, 0.2)  # both prompts shown from reused captures
    assert tmux == []  # every poll went through the control client
    answered = next(p for p in prompts if p.agent == "a0")
    decision = supervisor.approve(answered.id)
    assert decision.outcome is Outcome.SENT  # a fresh capture saw the prompt go
    [left] = supervisor.poll_once().prompts  # the first steady poll after the answer
    assert left.agent == "a1"


def test_build_supervisor_uses_the_control_client_only_when_asked(
    git_repo: Path, server: Server
) -> None:
    socket = server.socket_name or ""
    plain = make_supervisor(git_repo, socket)  # what one-shot commands build
    controlled = build_supervisor(str(git_repo), socket_name=socket, control=True)
    assert isinstance(plain.ctx.terminal, TmuxTerminal)
    assert isinstance(controlled.ctx.terminal, TmuxTerminal)
    assert (plain.ctx.terminal.control, controlled.ctx.terminal.control) == (False, True)
    controlled.spawn("a0", "demo-safe", None)
    wait_for_prompts(controlled, 1)
    clients = server.cmd("list-clients", "-F", "#{client_control_mode} #{session_name}").stdout
    assert clients == [f"1 {controlled.session}"]  # attached to paw's session, and only it
    controlled.ctx.terminal.close()
    assert wait_for(lambda: server.cmd("list-clients").stdout == [])


def test_unchanged_agents_are_not_resolved_again_within_the_observe_ttl(
    git_repo: Path, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_supervisor(git_repo, server.socket_name or "")  # writes the demo paw.toml
    supervisor = build_supervisor(str(git_repo), socket_name=server.socket_name, control=True)
    assert supervisor.ctx.observe_ttl > 0
    supervisor.spawn("a0", "demo-safe", None)
    supervisor.spawn("a1", "demo-safe", None)
    wait_for(lambda: len(supervisor.poll_once().prompts) == 2)
    supervisor.poll_once()
    roots: list[list[int]] = []
    real_trees = supervisor.ctx.procs.trees

    def trees(pids: Any) -> Any:
        roots.append(list(pids))
        return real_trees(pids)

    monkeypatch.setattr(supervisor.ctx.procs, "trees", trees)
    now = [supervisor.ctx.clock()]
    supervisor.ctx.clock = lambda: now[0]
    snapshot = supervisor.poll_once()
    assert len(snapshot.prompts) == 2
    assert roots == []  # both screens unchanged: nothing resolved, the prompts still shown
    now[0] += supervisor.ctx.observe_ttl
    assert len(supervisor.poll_once().prompts) == 2
    assert len(roots) == 1
    assert len(roots[0]) == 2  # the TTL is over: both resolved again
    supervisor.close()
