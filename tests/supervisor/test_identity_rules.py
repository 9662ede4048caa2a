"""Identity and occurrence rules over fakes: pane proof by token and server, one decision per
occurrence, stats from outcomes only (the real-tmux proofs are in tests/adversarial)."""

from __future__ import annotations

from dataclasses import replace

from paw.supervisor.model import AgentStatus, Outcome
from paw.supervisor.records import PROMPTS_DOC, ProcIdentity, load_agents, load_prompts
from paw.supervisor.stats import compute_stats
from tests.support.supervision import IDLE_SCREEN, demo_proc, demo_screen, make_rig, spawn_demo


def test_a_pane_with_the_agents_name_but_another_token_is_not_the_agent() -> None:
    rig = make_rig()
    pane = spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    assert rig.sup.poll_once().agents[0].status is AgentStatus.PROMPT
    fake = rig.terminal.panes[pane]
    rig.terminal.panes[pane] = replace(
        fake, info=replace(fake.info, tags={**fake.info.tags, "paw_id": "forged"})
    )
    snapshot = rig.sup.poll_once()
    assert snapshot.prompts == ()
    assert snapshot.agents[0].status is AgentStatus.EXITED
    rig.sup.stop("alice")
    assert pane in rig.terminal.panes  # not killed


def test_a_restarted_server_is_another_server_even_with_the_same_tags() -> None:
    rig = make_rig()
    pane = spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    rig.sup.poll_once()
    record = load_agents(rig.state)["alice"]
    rig.state.write(
        "agents", {"agents": [record.model_copy(update={"server": "1.100"}).model_dump()]}
    )
    for pid, fake in list(rig.terminal.panes.items()):
        rig.terminal.panes[pid] = replace(fake, info=replace(fake.info, server="2.200"))
    [view] = rig.sup.poll_once().agents
    assert view.status is AgentStatus.SERVER_RESTARTED
    assert view.note == "tmux server restarted: the agent's pane is gone"
    rig.sup.stop("alice")
    assert pane in rig.terminal.panes


def test_a_new_process_at_the_launched_pid_slot_is_replaced() -> None:
    rig = make_rig()
    pane = spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    rig.sup.poll_once()  # binds the launched process's start time
    info = rig.terminal.panes[pane].info
    rig.procs.trees_by_root[info.pane_pid] = [demo_proc(info.pane_pid, create_time=555.0)]
    [view] = rig.sup.poll_once().agents
    assert view.status is AgentStatus.REPLACED
    assert view.note == "agent replaced — run `paw adopt`"


def test_an_answered_occurrence_is_never_sent_again_and_a_new_ask_is_a_new_id() -> None:
    rig = make_rig()
    spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    [first] = rig.sup.poll_once().prompts
    assert rig.sup.approve(first.id).outcome is Outcome.SENT_UNCONFIRMED  # screen unchanged
    again = rig.sup.approve(first.id)
    assert again.outcome is Outcome.REFUSED
    assert "already answered" in again.reason
    assert len(rig.terminal.sent) == 1
    [second] = rig.sup.poll_once().prompts  # still shown: the same question, asked again
    assert second.id != first.id


def test_a_prompt_gone_without_paw_is_ended_outside_and_a_dead_sender_is_reconciled() -> None:
    rig = make_rig()
    pane = spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    [prompt] = rig.sup.poll_once().prompts
    rig.terminal.set_screen(pane, IDLE_SCREEN)
    rig.sup.poll_once()
    ended = [r for r in rig.audit.records if r["event"] == "prompt-ended"]
    assert [(r["prompt_id"], r["outside"]) for r in ended] == [(prompt.id, True)]
    # a decision recorded by a paw process that died (no sender running): not sent
    rig.terminal.set_screen(pane, demo_screen("shell", "pwd"))
    [live] = rig.sup.poll_once().prompts
    prompts = load_prompts(rig.state)
    dead = ProcIdentity(pid=999_999, create_time=1.0)
    prompts[live.id] = prompts[live.id].model_copy(
        update={"state": "sending", "action": "approve", "sender": dead}
    )
    rig.state.write(PROMPTS_DOC, {"prompts": [p.model_dump() for p in prompts.values()]})
    assert [p.id for p in rig.sup.poll_once().prompts] == [live.id]  # reconciled, open again
    outcomes = [r for r in rig.audit.records if r["event"] == "outcome"]
    assert [(r["prompt_id"], r["outcome"]) for r in outcomes] == [(live.id, "not-sent")]
    assert rig.terminal.sent == []


def test_stats_count_an_approval_only_once_its_keys_went_out() -> None:
    send: dict[str, object] = {
        "event": "approve",
        "decision": "send",
        "agent": "a",
        "prompt_id": "p1",
    }
    records: list[dict[str, object]] = [
        {"event": "prompt-seen", "agent": "a", "prompt_id": "p1"},
        send,
        {"event": "outcome", "agent": "a", "prompt_id": "p1", "outcome": "not-sent"},
        {"event": "prompt-ended", "agent": "a", "prompt_id": "p0", "outside": True},
    ]
    assert compute_stats(records)["all"]["approved"] == 0
    assert compute_stats(records)["all"]["ended_outside"] == 1
    sent: dict[str, object] = {
        "event": "outcome",
        "agent": "a",
        "prompt_id": "p1",
        "outcome": "sent",
    }
    assert compute_stats([*records, send, sent])["a"]["approved"] == 1
