"""A host's link that drops while a decision's keys are on their way, over a real sshd on
127.0.0.1 behind a relay the test controls (:mod:`tests.support.relay`), and agents whose
liveness paw cannot see (an unreachable host, a dead local tmux server).

The keys handed to ssh and the link gone before the host answered is ``delivery-unknown``: not
"refused", not "nothing sent", counted as nothing, no second decision on that prompt until a
sweep of the host reads its screen again, and then ``sent`` (the prompt is gone) or
``not-delivered`` (it is still shown, open for a human again)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from paw.cli import main
from paw.cli.compose import build_fleet
from paw.supervisor.fleet import Fleet
from paw.supervisor.records import load_prompts
from tests.remote.conftest import Site
from tests.support.budget import budget
from tests.support.relay import Relay
from tests.tui.real_world import audit_records, wait_for

pytestmark = [pytest.mark.tmux, pytest.mark.git]

HOST = "via"
EXIT_DELIVERY_UNKNOWN = 6
DELIVERY_UNKNOWN = "delivery-unknown"  # the occurrence state (paw.core.occurrence.DELIVERY_UNKNOWN)


class Via:
    """Host ``via``: the test sshd reached through a relay, its own tmux server there."""

    def __init__(self, site: Site, relay: Relay, socket: str) -> None:
        self.site, self.relay, self.socket = site, relay, socket
        self.repo = str(site.repo)

    def screen(self, pane: str) -> str:
        """The host pane's text straight from its tmux server (the host is this machine)."""
        done = subprocess.run(
            ["tmux", "-S", self.host_socket(), "capture-pane", "-p", "-t", pane],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        return done.stdout

    def host_socket(self) -> str:
        return str(Path(f"/tmp/tmux-{os.getuid()}") / self.socket)

    def fleet(self) -> Fleet:
        fleet = build_fleet(self.repo)
        assert isinstance(fleet, Fleet)
        return fleet

    def records(self, prompt: str) -> list[dict[str, object]]:
        return [r for r in audit_records(self.site.repo) if r.get("prompt_id") == prompt]

    def state(self, prompt: str) -> str:
        return load_prompts(self.fleet().remotes[HOST].supervisor.ctx.state)[prompt].state

    def stats(self, capsys: pytest.CaptureFixture[str]) -> dict[str, int]:
        capsys.readouterr()
        assert main(["stats", "-C", self.repo, "--json"]) == 0
        row: dict[str, int] = json.loads(capsys.readouterr().out)["stats"]["all"]
        return row


@pytest.fixture
def via(site: Site) -> Iterator[Via]:
    """``site`` plus host ``via``: the same sshd through a relay (its port pinned to the
    sshd's host key)."""
    relay = Relay(site.sshd.port)
    known = site.sshd.root / "known_hosts"
    key = known.read_text(encoding="utf-8").split(maxsplit=1)[1]
    with known.open("a", encoding="utf-8") as out:
        out.write(f"[127.0.0.1]:{relay.port} {key}")
    socket = f"{site.remote_socket}v"
    url = f"ssh://{site.sshd.user}@127.0.0.1:{relay.port}"
    code = main([
        "host", "add", HOST, url, "-C", str(site.repo), "--repo", str(site.clone),
        "--socket", socket, "--python", sys.executable,
        "--ssh-config", str(site.sshd.client_config),
    ])  # fmt: skip
    assert code == 0
    found = Via(site, relay, socket)
    yield found
    relay.refusing = False
    subprocess.run(["tmux", "-S", found.host_socket(), "kill-server"], capture_output=True,
                   check=False)  # fmt: skip
    relay.close()


def _spawn_prompt(via: Via, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """An agent on ``via`` showing a prompt: (prompt id, pane id)."""
    assert main(["spawn", "v1", "--agent", "demo-safe", "-C", via.repo, "--host", HOST]) == 0
    fleet = via.fleet()
    found: dict[str, tuple[str, str]] = {}

    def shown() -> bool:
        found.update({p.agent: (p.id, p.pane_id) for p in fleet.poll_once().prompts})
        return "v1" in found

    assert wait_for(shown), "no prompt on the host"
    fleet.close()
    capsys.readouterr()
    return found["v1"]


def _at_send(monkeypatch: pytest.MonkeyPatch, then: Callable[[], None]) -> None:
    """Run ``then`` when `paw approve` (in this process) has recorded its decision, right
    before it hands the keys to ssh."""

    def fault(step: str) -> None:
        if step == "approve:recorded":
            then()

    monkeypatch.setattr("paw.cli.compose.crash_points", lambda _environ: fault)


def _in_background(check: Callable[[], bool], then: Callable[[], None]) -> threading.Thread:
    def run() -> None:
        wait_for(check, budget(30.0))
        then()  # (even when the check never held: the approve must not hang)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_link_drops_after_the_keys_reached_the_host_delivery_unknown_then_confirmed_sent(
    via: Via, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    prompt, pane = _spawn_prompt(via, capsys)
    received = "received key 'y'"
    cutter: list[threading.Thread] = []

    def drop_after_delivery() -> None:
        # the host gets the keys and runs them; its answer never comes back, and once the
        # agent took the key the connection dies
        via.relay.hold(requests=False)
        cutter.append(_in_background(lambda: received in via.screen(pane), via.relay.cut))

    _at_send(monkeypatch, drop_after_delivery)
    code = main(["approve", prompt, "-C", via.repo])
    said = capsys.readouterr().err
    cutter[0].join(budget(60.0))
    assert received in via.screen(pane)  # the agent had approved
    assert code == EXIT_DELIVERY_UNKNOWN, said
    assert said.startswith("paw: delivery unknown: ")
    assert "may have reached" in said
    assert "nothing sent" not in said
    assert "refused" not in said
    events = [(r["event"], r.get("decision"), r.get("outcome")) for r in via.records(prompt)]
    assert events[-2:] == [("approve", "send", None), ("outcome", None, "delivery-unknown")]
    assert via.state(prompt) == DELIVERY_UNKNOWN
    row = via.stats(capsys)
    assert (row["approved"], row["refused"], row["delivery_unknown"]) == (0, 0, 1)

    # the host out of reach: a repeat approve is refused as "reconciling", nothing sent
    _at_send(monkeypatch, lambda: None)
    via.relay.refusing = True
    assert main(["approve", prompt, "-C", via.repo]) == 1
    said = capsys.readouterr().err
    assert "outcome unknown, reconciling" in said
    assert via.state(prompt) == DELIVERY_UNKNOWN

    # back: the host's screen no longer shows the prompt: sent, confirmed on reconnect
    via.relay.refusing = False
    assert main(["prompts", "-C", via.repo]) == 0
    last = via.records(prompt)[-1]
    assert (last["event"], last["outcome"], last.get("confirmed")) == (
        "outcome", "sent", "reconnect",
    )  # fmt: skip
    row = via.stats(capsys)
    assert (row["approved"], row["delivery_unknown"]) == (1, 0)
    assert row["refused"] == 1  # the repeat approve's, not the decision whose link dropped
    assert main(["approve", prompt, "-C", via.repo]) == 1
    assert "already answered" in capsys.readouterr().err
    assert via.screen(pane).count(received) == 1  # the key went once


def test_link_drops_before_the_keys_reached_the_host_not_delivered_then_approved_again(
    via: Via, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    prompt, pane = _spawn_prompt(via, capsys)
    received = "received key 'y'"
    cutter: list[threading.Thread] = []

    def drop_in_flight() -> None:
        # the keys leave ssh and are lost on the way; then the connection dies
        via.relay.hold(requests=True)
        cutter.append(_in_background(lambda: via.relay.swallowed_requests() > 0, via.relay.cut))

    _at_send(monkeypatch, drop_in_flight)
    code = main(["approve", prompt, "-C", via.repo, "--json"])
    decision = json.loads(capsys.readouterr().out)
    cutter[0].join(budget(60.0))
    assert code == EXIT_DELIVERY_UNKNOWN, decision
    assert decision["outcome"] == "delivery-unknown"
    assert decision["error"]["exit_code"] == EXIT_DELIVERY_UNKNOWN
    assert received not in via.screen(pane)
    _at_send(monkeypatch, lambda: None)

    # back: while the outcome is unknown the prompt is not offered; once the host's screen
    # has shown it long enough after the drop, it is "not delivered" and offered again
    fleet = via.fleet()
    offered: list[str] = []

    def reconciled() -> bool:
        snap = fleet.poll_once()
        offered[:] = [p.id for p in snap.prompts]
        (view,) = [v for v in snap.agents if v.name == "v1"]
        done = any(r.get("outcome") == "not-delivered" for r in via.records(prompt))
        if not done:
            assert prompt not in offered, "offered while its delivery is unknown"
            assert view.operation == "reconciling", view
        return done and prompt in offered

    assert wait_for(reconciled), offered
    fleet.close()
    assert via.stats(capsys)["delivery_unknown"] == 0
    assert main(["approve", prompt, "-C", via.repo]) == 0
    assert wait_for(lambda: received in via.screen(pane))
    row = via.stats(capsys)
    assert (row["approved"], row["refused"], row["delivery_unknown"]) == (1, 0, 0)
    outcomes = [r.get("outcome") for r in via.records(prompt) if r["event"] == "outcome"]
    assert outcomes[:2] == ["delivery-unknown", "not-delivered"]
    assert outcomes[2] in ("sent", "sent-unconfirmed")
    assert via.screen(pane).count(received) == 1


def test_alive_is_unknown_for_an_unreachable_host_and_a_dead_local_server(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = str(site.repo)
    assert main(["spawn", "r1", "--agent", "demo-safe", "-C", repo, "--host", "box"]) == 0
    assert main(["spawn", "l1", "--agent", "demo-safe", "-C", repo]) == 0
    fleet = build_fleet(repo)
    assert isinstance(fleet, Fleet)
    assert wait_for(lambda: len(fleet.poll_once().prompts) == 2)
    transport = fleet.remotes["box"].link.transport  # type: ignore[attr-defined]
    master = transport.master_pid()
    assert master is not None
    site.sshd.stop_listener()
    os.kill(master, signal.SIGKILL)
    views = {v.name: v for v in fleet.poll_once().agents}
    assert (views["r1"].alive, views["l1"].alive) == (None, True)
    capsys.readouterr()
    assert main(["ls", "-C", repo]) == 1
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()}
    header = rows["NAME"]
    alive = header.index("ALIVE")
    assert (rows["r1"][alive], rows["l1"][alive]) == ("?", "yes")
    assert main(["ls", "-C", repo, "--json"]) == 1
    listed = {a["name"]: a for a in json.loads(capsys.readouterr().out)["agents"]}
    assert (listed["r1"]["alive"], listed["l1"]["alive"]) == (None, True)
    assert listed["r1"]["status"] == "unknown"

    # the local tmux server dies too: unknown as well, never "no"
    subprocess.run(["tmux", "-L", site.local_socket, "kill-server"], check=True)
    views = {v.name: v for v in fleet.poll_once().agents}
    assert (views["r1"].alive, views["l1"].alive) == (None, None)
    assert main(["ls", "-C", repo, "--json"]) == 1
    listed = {a["name"]: a for a in json.loads(capsys.readouterr().out)["agents"]}
    assert (listed["r1"]["alive"], listed["l1"]["alive"]) == (None, None)
    fleet.close()
