"""poll_once over fake ports: one terminal call and one process-table read per sweep, and a
lost tmux server reported as such."""

from __future__ import annotations

from dataclasses import replace

from paw.supervisor.model import AgentStatus
from tests.support.supervision import IDLE_SCREEN, demo_proc, demo_screen, make_rig, spawn_demo


def test_poll_once_is_one_terminal_call_and_one_table_read() -> None:
    rig = make_rig()
    for i in range(12):
        spawn_demo(rig, f"a{i}", demo_screen("shell", f"echo {i}") if i % 2 else IDLE_SCREEN)
    rig.terminal.sweeps = rig.procs.scans = 0
    snapshot = rig.sup.poll_once()
    assert (rig.terminal.sweeps, rig.procs.scans) == (1, 1)
    assert snapshot.tmux_ok
    assert sorted(p.prompt.subject or "" for p in snapshot.prompts) == [
        f"echo {i}" for i in (1, 11, 3, 5, 7, 9)
    ]
    assert {v.status for v in snapshot.agents} == {AgentStatus.PROMPT, AgentStatus.IDLE}


def test_poll_once_finds_an_agent_whose_pane_id_changed() -> None:
    rig = make_rig()
    old = spawn_demo(rig, "alice", IDLE_SCREEN)
    moved = rig.terminal.panes.pop(old)
    info = replace(moved.info, pane_id="%77", pane_pid=4242)
    rig.terminal.panes["%77"] = replace(moved, info=info, screen=demo_screen("shell", "ls"))
    rig.procs.trees_by_root[4242] = [demo_proc(4242)]
    rig.terminal.sweeps = 0
    [prompt] = rig.sup.poll_once().prompts
    assert (prompt.pane_id, prompt.prompt.subject) == ("%77", "ls")
    assert rig.terminal.sweeps == 2  # the recorded id missed: one more capture


def test_poll_once_server_gone_is_not_every_agent_exited() -> None:
    rig = make_rig()
    spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    assert len(rig.sup.poll_once().prompts) == 1
    rig.terminal.server_gone = True
    snapshot = rig.sup.poll_once()
    assert not snapshot.tmux_ok
    assert "server is gone" in (snapshot.error or "")
    assert snapshot.prompts == ()
    assert [v.name for v in snapshot.agents] == ["alice"]


def test_poll_once_without_agents_calls_no_tmux() -> None:
    rig = make_rig()
    rig.terminal.server_gone = True
    snapshot = rig.sup.poll_once()
    assert (snapshot.tmux_ok, snapshot.agents, rig.terminal.sweeps) == (True, (), 0)
