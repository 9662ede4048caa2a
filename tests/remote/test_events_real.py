"""Pane events from a host over a real sshd: a tmux control-mode client over the host's ssh
connection drives the TUI's sweeps, as this machine's event client does.

The TUI runs with its poll cycle and its safety sweep an hour apart, so after its first sweep
only events can make it sweep: a prompt that reaches its picture came by event."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from paw.adapters.remote.terminal import RemoteTerminal
from paw.cli.compose import build_fleet
from paw.cli.tui import connection_for
from paw.supervisor.fleet import Fleet
from paw.supervisor.model import AgentStatus, Outcome
from paw.tui.app import PawApp, make_app
from tests.remote.conftest import Site
from tests.support.budget import budget
from tests.tui.real_world import audit_records, wait_for
from tests.tui.test_flows_real import until

pytestmark = [pytest.mark.tmux, pytest.mark.git]

NEVER_S = 3600.0  # the TUI's poll cycle and safety sweep: never within a test


def _fleet(site: Site) -> Fleet:
    fleet = build_fleet(str(site.repo), control=True)  # as `paw tui` builds it
    assert isinstance(fleet, Fleet)
    return fleet


def _app(fleet: Fleet) -> PawApp:
    return make_app(
        connect=lambda: connection_for(fleet), poll_interval=NEVER_S, safety_interval=NEVER_S
    )


def _host_terminal(fleet: Fleet) -> RemoteTerminal:
    terminal = fleet.remotes["box"].supervisor.ctx.terminal
    assert isinstance(terminal, RemoteTerminal)
    return terminal


def _swept_and_live(app: PawApp, terminal: RemoteTerminal) -> bool:
    """The host's events arrive and the TUI's first sweep (its only timer sweep) is done."""
    return terminal.events_live() and app.feed.sweeps >= 1 and not app.feed.in_flight


def _prompting_kind(site: Site, drawn: Path, prompts: int) -> str:
    """Add a scripted kind to paw.toml that draws ``prompts`` prompts, each giving up after
    three seconds, and writes when it drew each to ``drawn``."""
    steps = ["busy 1", *(f"shell@3 echo ev-{i}" for i in range(prompts))]
    command = json.dumps(["{python}", "-m", "paw.demo.agent", *steps])
    kind = (
        f"\n[agents.prompting]\ncommand = {command}\n"
        'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }\n'
        f'detector = "scripted"\nenv = {{ PAW_DEMO_DRAWN = "{drawn}" }}\n'
    )
    with (site.repo / "paw.toml").open("a", encoding="utf-8") as config:
        config.write(kind)
    return "prompting"


def _drawn(path: Path) -> dict[str, float]:
    """subject -> when the agent drew that prompt (wall clock)."""
    if not path.exists():
        return {}
    lines = path.read_text(encoding="utf-8").splitlines()
    return {d["subject"]: d["time"] for d in map(json.loads, lines)}


async def test_a_prompt_on_a_host_reaches_the_tui_by_event_also_after_a_reconnect(
    site: Site, tmp_path: Path
) -> None:
    drawn = tmp_path / "drawn.jsonl"
    kind = _prompting_kind(site, drawn, prompts=40)  # far more than the test waits for
    fleet = _fleet(site)
    fleet.spawn_agent("r1", kind, None, host="box")
    terminal = _host_terminal(fleet)
    app = _app(fleet)
    seen: dict[str, float] = {}

    def shown_after(moment: float) -> bool:
        snap = app.main.snapshot
        now = time.time()
        for p in snap.prompts if snap is not None else ():
            seen.setdefault(p.prompt.subject or p.id, now)
        times = _drawn(drawn)
        return any(times.get(s, 0.0) > moment for s in seen)

    try:
        async with app.run_test(size=(120, 40)) as pilot:
            assert await until(pilot, lambda: _swept_and_live(app, terminal), budget(30.0))
            first = terminal.events_pid
            assert first is not None
            live_at = time.time()
            # drawn after the TUI's only timer sweep: reached it by event, or not at all
            assert await until(pilot, lambda: shown_after(live_at), budget(30.0)), seen
            # the event client's ssh dies: it is started again, and events flow again
            os.kill(first, signal.SIGKILL)
            assert await until(
                pilot, lambda: terminal.events_live() and terminal.events_pid not in (None, first),
                budget(30.0),
            )  # fmt: skip
            back_at = time.time()
            assert await until(pilot, lambda: shown_after(back_at), budget(30.0)), seen
    finally:
        app.disconnect()  # as `paw tui` does after the app

    def no_clients() -> bool:
        listed = site.sshd.ssh("tmux", "-L", site.remote_socket, "list-clients", "-F", "x")
        return listed.returncode == 0 and listed.stdout.strip() == ""

    # nothing of paw's stays on the host: its tmux clients ended with their ssh sessions
    assert wait_for(no_clients, budget(30.0))


async def test_connection_lost_mid_run_host_unknown_nothing_sent_recovered_by_event(
    site: Site,
) -> None:
    fleet = _fleet(site)
    fleet.spawn_agent("r1", "demo-safe", None, host="box")
    terminal = _host_terminal(fleet)
    transport = fleet.remotes["box"].link.transport  # type: ignore[attr-defined]
    app = _app(fleet)

    def prompt_shown() -> str | None:
        snap = app.main.snapshot
        prompts = snap.prompts if snap is not None else ()
        return prompts[0].id if prompts else None

    def unreachable() -> bool:
        snap = app.main.snapshot
        if snap is None or snap.prompts:
            return False
        (view,) = snap.agents
        return view.status is AgentStatus.UNKNOWN and "unreachable" in (view.note or "")

    try:
        async with app.run_test(size=(120, 40)) as pilot:
            assert await until(pilot, terminal.events_live, budget(30.0))
            assert await until(pilot, lambda: prompt_shown() is not None, budget(60.0))
            prompt = prompt_shown()
            assert prompt is not None
            master = transport.master_pid()
            assert master is not None
            site.sshd.stop_listener()
            os.kill(master, signal.SIGKILL)  # the ssh connection paw started dies mid-run
            # no poll runs: the event client's drop is what makes the TUI sweep and see it
            assert await until(pilot, unreachable, budget(30.0))
            assert not terminal.events_live()
            (view,) = app.main.snapshot.agents  # type: ignore[union-attr]
            assert not view.alive
            assert view.status is not AgentStatus.EXITED
            refused = fleet.approve(prompt)
            assert refused.outcome is Outcome.REFUSED
            assert "unreachable" in refused.reason
            last = audit_records(site.repo)[-1]
            assert (last["event"], last["decision"], last["prompt_id"]) == (
                "approve",
                "refuse",
                prompt,
            )
            # the host is back: the event client reconnects on its own (after its back-off: a
            # sweep the host's recovery starts may show the prompt first) and the prompt is back
            site.sshd.start()
            assert await until(pilot, lambda: prompt_shown() == prompt, budget(60.0))
            assert await until(pilot, terminal.events_live, budget(60.0))
            assert fleet.unreachable() == {}
    finally:
        app.disconnect()  # as `paw tui` does after the app
    # nothing reached the agent while the host was away: the same prompt is still live
    assert fleet.approve(prompt).outcome in (Outcome.SENT, Outcome.SENT_UNCONFIRMED)
