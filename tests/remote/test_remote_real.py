"""Agents on another machine over a real sshd on 127.0.0.1: spawn there and here, one picture,
approval with the full proof over ssh, and a host that drops shown as unreachable."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest
from textual.pilot import Pilot

from paw.cli import main
from paw.cli.compose import build_fleet
from paw.supervisor.fleet import Fleet
from paw.supervisor.model import AgentStatus, LivePrompt, Outcome
from paw.tui.app import PawApp, make_app
from paw.tui.widgets.agent_list import AgentList
from tests.remote.conftest import Site
from tests.support.budget import budget
from tests.tui.conftest import settle
from tests.tui.real_world import audit_records, capture, wait_for
from tests.tui.test_flows_real import until

pytestmark = [pytest.mark.tmux, pytest.mark.git]


def _fleet(site: Site, *, control: bool = False) -> Fleet:
    fleet = build_fleet(str(site.repo), control=control)
    assert isinstance(fleet, Fleet)
    return fleet


def _prompts(fleet: Fleet, count: int) -> dict[str, str]:
    """agent -> live prompt id, once ``count`` prompts show."""
    found: dict[str, str] = {}

    def enough() -> bool:
        found.clear()
        found.update({p.agent: p.id for p in fleet.poll_once().prompts})
        return len(found) >= count

    assert wait_for(enough), f"expected {count} prompts, saw {found}"
    return found


def test_spawn_here_and_there_one_picture_approve_over_ssh(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = str(site.repo)
    for name, host in (("r1", ["--host", "box"]), ("r2", ["--host", "box"]), ("l1", [])):
        assert main(["spawn", name, "--agent", "demo-safe", "-C", repo, *host]) == 0
    capsys.readouterr()
    fleet = _fleet(site)
    prompts = _prompts(fleet, 3)
    views = {v.name: v for v in fleet.poll_once().agents}
    assert {n: v.host for n, v in views.items()} == {"r1": "box", "r2": "box", "l1": "local"}
    assert str(site.clone) in views["r1"].worktree
    assert main(["ls", "-C", repo]) == 0
    table = capsys.readouterr().out
    assert "HOST" in table
    assert "box" in table
    # the CLI approves a prompt on the host: proved there (pane, process tree via ps, screen)
    assert main(["approve", prompts["r1"], "-C", repo, "--json"]) == 0
    decision = json.loads(capsys.readouterr().out)
    assert decision["outcome"] in (Outcome.SENT.value, Outcome.SENT_UNCONFIRMED.value)
    assert main(["approve", prompts["l1"], "-C", repo, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["outcome"] == Outcome.SENT.value
    sent = [r for r in audit_records(site.repo) if r.get("decision") == "send"]
    assert {(r["agent"], r.get("host")) for r in sent} == {("r1", "box"), ("l1", None)}
    assert not (site.repo / ".paw" / "hosts" / "box" / "audit.jsonl").exists()
    capsys.readouterr()
    assert main(["attach", "r2", "--print", "-C", repo]) == 0
    attach = capsys.readouterr().out
    assert attach.startswith("ssh -t ")
    assert f"tmux -u -L {site.remote_socket} attach-session -t {views['r2'].pane_id}" in attach


def test_host_drops_agents_unknown_nothing_sent_then_recovered(site: Site) -> None:
    repo = str(site.repo)
    assert main(["spawn", "r1", "--agent", "demo-safe", "-C", repo, "--host", "box"]) == 0
    fleet = _fleet(site, control=True)  # as `paw tui`: a tmux control client over ssh
    prompt = _prompts(fleet, 1)["r1"]
    terminal = fleet.remotes["box"].supervisor.ctx.terminal
    assert terminal._link.current is not None  # type: ignore[attr-defined]
    assert terminal._link.current.alive()  # type: ignore[attr-defined]
    transport = fleet.remotes["box"].link.transport  # type: ignore[attr-defined]
    master = transport.master_pid()
    assert master is not None
    site.sshd.stop_listener()
    os.kill(master, signal.SIGKILL)  # the ssh connection dies mid-run
    snap = fleet.poll_once()
    (view,) = snap.agents
    assert view.status is AgentStatus.UNKNOWN
    assert view.alive is None  # unknown, not "no"
    assert "unreachable" in (view.note or "")
    assert snap.prompts == ()
    assert "box" in fleet.unreachable()
    refused = fleet.approve(prompt)
    assert refused.outcome is Outcome.REFUSED
    assert "unreachable" in refused.reason
    last = audit_records(site.repo)[-1]
    assert (last["event"], last["decision"], last["prompt_id"]) == ("approve", "refuse", prompt)
    assert main(["ls", "-C", repo]) == 1
    assert main(["prompts", "-C", repo]) == 1
    # back: the same prompt is still live (nothing reached the agent) and can be approved
    site.sshd.start()
    assert _prompts(fleet, 1)["r1"] == prompt
    assert fleet.unreachable() == {}
    assert transport.master_pid() not in (None, master)  # a new master, multiplexing again
    assert fleet.approve(prompt).outcome in (Outcome.SENT, Outcome.SENT_UNCONFIRMED)


def _screen(site: Site, pane: str, *, remote: bool) -> str:
    """A pane's text straight from tmux (over plain ssh for the host), not through paw."""
    if remote:
        return site.sshd.ssh("tmux", "-u", "-L", site.remote_socket, "capture-pane", "-p",
                             "-t", pane).stdout  # fmt: skip
    return capture(site.local_socket, pane)


async def test_one_tui_approves_here_and_there(site: Site) -> None:
    fleet = _fleet(site)
    fleet.spawn_agent("r1", "demo-safe", None, host="box")
    fleet.spawn_agent("l1", "demo-safe", None)
    prompts = {p.agent: p for p in _live(fleet, 2)}
    app = make_app(fleet, poll_interval=0.5)
    reached: dict[str, bool] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.main.query_one(AgentList)

        def names() -> set[str]:
            return {str(table.get_row_at(i)[0]) for i in range(table.row_count)}

        # which machine an agent runs on is on its row (this machine's agents: the bare name)
        assert await until(pilot, lambda: names() == {"r1 @box", "l1"}, budget(30.0)), names()
        for _ in prompts:
            assert await _select_a_prompt(pilot, app), reached
            chosen = app.main.selected_prompt
            assert chosen is not None
            await pilot.press("a")
            remote = chosen.agent == "r1"

            def got(p: LivePrompt = chosen, r: bool = remote) -> bool:
                return "received key 'y'" in _screen(site, p.pane_id, remote=r)

            def moved(c: LivePrompt = chosen) -> bool:
                return app.main.selected_prompt != c

            reached[chosen.agent] = await until(pilot, got, budget(30.0))
            await until(pilot, moved, budget(30.0))
        await settle(pilot)
    assert reached == {"r1": True, "l1": True}
    hosts = {
        r["agent"]: r.get("host") for r in audit_records(site.repo) if r.get("decision") == "send"
    }
    assert hosts == {"r1": "box", "l1": None}


async def _select_a_prompt(pilot: Pilot[None], app: PawApp) -> bool:
    """Move the agents table's cursor until it is on an agent with a live prompt."""
    for key in ("down", "up") * int(budget(30.0)):
        if await until(pilot, lambda: app.main.selected_prompt is not None, 1.0):
            return True
        await pilot.press(key)
    return False


def _live(fleet: Fleet, count: int) -> list[LivePrompt]:
    found: list[LivePrompt] = []

    def enough() -> bool:
        found[:] = fleet.poll_once().prompts
        return len(found) >= count

    assert wait_for(enough), f"expected {count} prompts, saw {len(found)}"
    return found


def test_stop_and_rm_on_the_host_keep_work_like_here(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = str(site.repo)
    assert main(["spawn", "r1", "--agent", "demo-safe", "-C", repo, "--host", "box"]) == 0
    fleet = _fleet(site)
    (view,) = fleet.poll_once().agents
    assert view.worktree.startswith(str(site.clone.parent))
    (Path(view.worktree) / "notes.txt").write_text("unsaved\n", encoding="utf-8")
    assert main(["stop", "r1", "-C", repo]) == 0
    (view,) = fleet.poll_once().agents
    assert view.status is AgentStatus.EXITED
    capsys.readouterr()
    assert main(["rm", "r1", "-C", repo]) == 1  # untracked work on the host: refused
    assert "untracked" in capsys.readouterr().err
    assert Path(view.worktree, "notes.txt").exists()
    assert main(["rm", "--force", "r1", "-C", repo]) == 0
    assert not Path(view.worktree).exists()
    refs = subprocess.run(
        ["git", "-C", str(site.clone), "for-each-ref", "--format=%(refname)", "refs/paw/archive/"],
        capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    (ref,) = refs
    shown = subprocess.run(
        ["git", "-C", str(site.clone), "show", f"{ref}:notes.txt"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert shown == "unsaved\n"
    assert fleet.host_of("r1") is None
    assert main(["host", "rm", "box", "-C", repo]) == 0
