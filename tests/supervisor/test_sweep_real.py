"""poll_once over real tmux, git and psutil: one tmux process per sweep, whatever the number of
agents, and a killed tmux server reported as lost."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from paw.adapters import proc, pstree
from paw.adapters.tmux.control import ControlClient
from paw.adapters.tmux.terminal import TmuxTerminal
from paw.cli.compose import build_supervisor
from paw.supervisor.model import AgentStatus, Outcome
from tests.support.supervision import with_ports
from tests.tui.real_world import make_supervisor, wait_for, wait_for_prompts

if TYPE_CHECKING:
    from libtmux.server import Server

    from paw.supervisor.service import Supervisor

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
    real_run, real_map, real_walk = proc.run, pstree._children_map, pstree._walk_children

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

    monkeypatch.setattr(pstree, "_children_map", counting_iter)
    monkeypatch.setattr(pstree, "_walk_children", counting_walk)
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


def tree_reads(supervisor: Supervisor, monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """From now on, the roots of every process-tree read of ``supervisor``'s sweeps."""
    roots: list[list[int]] = []
    real_trees = supervisor.ctx.procs.trees

    def trees(pids: Any) -> Any:
        roots.append(list(pids))
        return real_trees(pids)

    monkeypatch.setattr(supervisor.ctx.procs, "trees", trees)
    return roots


def test_unchanged_agents_are_not_resolved_again_within_the_observe_ttl(
    git_repo: Path, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_supervisor(git_repo, server.socket_name or "")  # writes the demo paw.toml
    supervisor = build_supervisor(str(git_repo), socket_name=server.socket_name, control=True)
    assert supervisor.ctx.settings.observe_ttl > 0
    supervisor.spawn("a0", "demo-safe", None)
    supervisor.spawn("a1", "demo-safe", None)
    wait_for(lambda: len(supervisor.poll_once().prompts) == 2)
    supervisor.poll_once()
    roots = tree_reads(supervisor, monkeypatch)
    now = [supervisor.ctx.clock()]
    with_ports(supervisor, clock=lambda: now[0])
    snapshot = supervisor.poll_once()
    assert len(snapshot.prompts) == 2
    assert roots == []  # both screens unchanged: nothing resolved, the prompts still shown
    now[0] += supervisor.ctx.settings.observe_ttl
    assert len(supervisor.poll_once().prompts) == 2
    assert len(roots) == 1
    assert len(roots[0]) == 2  # the TTL is over: both resolved again
    supervisor.close()


def test_agents_due_again_together_are_resolved_a_few_a_sweep_oldest_first(
    git_repo: Path, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Agents observed in one sweep come due in one sweep: a sweep resolves at most
    TTL_REFRESH_PER_SWEEP of them (here 1), the oldest first, and the rest in later sweeps."""
    from paw.supervisor.sweep import survey

    make_supervisor(git_repo, server.socket_name or "")  # writes the demo paw.toml
    supervisor = build_supervisor(str(git_repo), socket_name=server.socket_name, control=True)
    supervisor.spawn("a0", "demo-safe", None)
    supervisor.spawn("a1", "demo-safe", None)
    wait_for(lambda: len(supervisor.poll_once().prompts) == 2)
    now = [supervisor.ctx.clock()]
    with_ports(supervisor, clock=lambda: now[0])
    snapshot = supervisor.poll_once()  # both observed at the same time
    panes = {p.pane_id: p.pane_pid for p in supervisor.ctx.terminal.list_panes(None)}
    pid = {v.name: panes[v.pane_id or ""] for v in snapshot.agents}
    monkeypatch.setattr(survey, "TTL_REFRESH_PER_SWEEP", 1)
    roots = tree_reads(supervisor, monkeypatch)
    ttl = supervisor.ctx.settings.observe_ttl
    for advance, resolved in ((ttl, "a0"), (0.1, "a1"), (ttl - 0.1, "a0"), (0.1, "a1")):
        now[0] += advance
        roots.clear()
        assert len(supervisor.poll_once().prompts) == 2  # the other agent's prompt still shown
        assert roots == [[pid[resolved]]], (advance, resolved)
    supervisor.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread's own nice is Linux's")
def test_a_long_running_sweeper_counts_worktrees_at_a_lower_priority(
    git_repo: Path, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counts beside the sweeps run on a few workers that lowered their priority (their git
    processes inherit it); the sweeps themselves keep theirs."""
    import os
    import threading

    from paw.adapters.pstree import lower_thread_priority
    from paw.supervisor.sweep import counts

    make_supervisor(git_repo, server.socket_name or "")  # writes the demo paw.toml
    supervisor = build_supervisor(str(git_repo), socket_name=server.socket_name, control=True)
    assert supervisor.ctx.settings.count_setup is lower_thread_priority
    supervisor.spawn("a0", "demo-safe", None)
    counted: list[tuple[str, int]] = []
    real_counts = supervisor.ctx.vcs.status_counts

    def status_counts(*args: Any) -> Any:
        tid = threading.get_native_id()
        counted.append((threading.current_thread().name, os.getpriority(os.PRIO_PROCESS, tid)))
        return real_counts(*args)

    monkeypatch.setattr(supervisor.ctx.vcs, "status_counts", status_counts)
    supervisor.ctx.memory.stat_marks.clear()
    supervisor.ctx.memory.stat_cache.clear()
    own = os.getpriority(os.PRIO_PROCESS, 0)
    try:
        assert wait_for(lambda: (supervisor.poll_once(), counted)[1] != [], 30, 0.1)
        [(name, nice)] = counted[:1]
        assert name.startswith("paw-count")
        assert nice == min(19, own + 10)
        assert supervisor.ctx.memory.counter is not None
        assert supervisor.ctx.memory.counter._max_workers == counts.BESIDE_WORKERS
        assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == own
    finally:
        supervisor.close()


def test_a_changed_screen_is_detected_again_on_a_process_proven_less_than_a_second_ago(
    git_repo: Path, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent that keeps printing (a spinner) is detected on every new screen, but its
    pane's tree is read again only once its proof is PROOF_REUSE_S old; a pane whose program
    ended is resolved at once (never shown on an old proof)."""
    import json

    from paw.supervisor.sweep import survey

    steps = ("{python}", "-m", "paw.demo.agent", "busy 120")
    (git_repo / "paw.toml").write_text(
        "\n".join(
            [
                "[tmux]",
                f'socket_name = "{server.socket_name}"',
                "[agents.spins]",
                f"command = [{', '.join(json.dumps(p) for p in steps)}]",
                'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }',
                'detector = "scripted"',
                "",
            ]
        ),
        encoding="utf-8",
    )
    supervisor = build_supervisor(str(git_repo), socket_name=server.socket_name, control=True)
    view = supervisor.spawn("s0", "spins", None)

    def status() -> AgentStatus:
        return next(v.status for v in supervisor.poll_once().agents if v.name == "s0")

    assert wait_for(lambda: status() is AgentStatus.BUSY)
    now = [supervisor.ctx.clock()]
    with_ports(supervisor, clock=lambda: now[0])
    roots = tree_reads(supervisor, monkeypatch)
    screens: list[str | None] = []

    def new_screen() -> bool:  # the spinner drew since the last sweep
        supervisor.poll_once()
        text = supervisor.ctx.memory.observed["s0"][2]
        assert text is None or isinstance(text, str)
        changed = bool(screens) and text != screens[-1]
        screens.append(text)
        return changed

    supervisor.poll_once()  # proven now (the clock stands still)
    roots.clear()
    assert wait_for(new_screen, 30, 0.15)
    assert roots == []  # a new screen, detected on the process proven before
    assert status() is AgentStatus.BUSY
    now[0] += survey.PROOF_REUSE_S
    screens.clear()
    assert wait_for(new_screen, 30, 0.15)
    assert roots != []  # the proof is a second old: the tree is read again
    roots.clear()
    import os
    import signal

    from paw.supervisor.observation import Observation

    obs = supervisor.ctx.memory.observed["s0"][1]
    assert isinstance(obs, Observation)
    assert obs.proc is not None
    proc_pid = obs.proc.pid

    os.kill(proc_pid, signal.SIGKILL)  # the agent ends (within its proof's second)
    assert wait_for(lambda: status() is not AgentStatus.BUSY, 30, 0.1)
    assert view.pane_id is not None
    supervisor.close()
