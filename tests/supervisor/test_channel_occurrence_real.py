"""The channel's events in the occurrence machine, and where a prompt came from, on real tmux
with the scripted demo agent and the real CLI (issue 32). The agent's channel is a scripted
port (what a channel reports is the port's contract, tested per channel elsewhere): the sweep
binds the occurrence to the request, ``paw prompts`` says the source with both subjects, an
answer goes through the channel, and a paw stopped right after handing the answer over is
reconciled from the channel as sent, never as "not sent" or open again."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from libtmux.test.retry import retry_until

from paw.cli import main
from paw.cli.compose import build_supervisor
from paw.core.channels.request import ChannelAnswer, ChannelRequest
from paw.supervisor import sweep
from paw.supervisor.model import LivePrompt
from paw.supervisor.records import load_agents
from paw.supervisor.service import Supervisor
from tests.support.budget import budget
from tests.support.scripted_channel import (
    ScriptedHub,
    ScriptedPort,
    shell_request,
    use_scripted_channel,
)

if TYPE_CHECKING:
    from libtmux.server import Server


pytestmark = [pytest.mark.tmux, pytest.mark.git]

SUBJECT = "touch one.txt"


@pytest.fixture
def port(
    git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> ScriptedPort:
    """A repository whose paw uses the plugin's private tmux server and the scripted channel;
    the scripted agent asks ``touch one.txt`` and waits."""
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.chdir(git_repo)
    script = tmp_path / "steps.txt"
    script.write_text(f"shell {SUBJECT}\n", encoding="utf-8")
    command = json.dumps(["{python}", "-m", "paw.demo.agent", "--script", str(script)])
    (git_repo / "paw.toml").write_text(f"[agents.scripted]\ncommand = {command}\n", "utf-8")
    return use_scripted_channel(monkeypatch)


def _request(request_id: str = "r1", subject: str = SUBJECT) -> ChannelRequest:
    return shell_request("alice", subject, request_id)


def _paw(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


def _listed(capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    code, out = _paw(capsys, "prompts", "--json")
    assert code == 0, out
    listed: list[dict[str, Any]] = json.loads(out)["prompts"]
    return listed


def _wait_prompt(sup: Supervisor) -> LivePrompt:
    found: list[LivePrompt] = []

    def shows() -> bool:
        found[:] = [p for p in sup.poll_once().prompts if p.prompt.subject == SUBJECT]
        return bool(found)

    assert retry_until(shows, budget(90), raises=False), f"no prompt about {SUBJECT!r}"
    return found[0]


def _occurrence(repo: Path, prompt_id: str) -> dict[str, Any]:
    stored = json.loads((repo / ".paw" / "prompts.json").read_text(encoding="utf-8"))
    found: dict[str, Any] = next(r for r in stored["prompts"] if r["id"] == prompt_id)
    return found


def _audit(repo: Path) -> list[dict[str, Any]]:
    text = (repo / ".paw" / "audit.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def test_the_source_is_listed_and_the_occurrence_bound_to_its_request(
    port: ScriptedPort, git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _paw(capsys, "spawn", "alice", "--agent", "scripted")[0] == 0
    first = _wait_prompt(build_supervisor(str(git_repo)))
    [screen] = _listed(capsys)  # the channel said nothing yet: screen-only, marked
    assert (screen["id"], screen["source"], screen["screen_subject"]) == (
        first.id, "screen-only", SUBJECT,
    )  # fmt: skip
    port.requests = [_request()]
    [agree] = _listed(capsys)
    assert (agree["id"], agree["source"], agree["channel_request"]) == (first.id, "agree", "r1")
    assert agree["channel_subject"] == SUBJECT
    stored = _occurrence(git_repo, first.id)
    assert (stored["channel_request"], stored["source"]) == ("r1", "agree")
    code, table = _paw(capsys, "prompts")
    assert code == 0, table
    assert table.splitlines()[1].split()[4] == "both", table
    # the channel withdraws its request: the same occurrence, its dialog the screen's alone
    port.requests = []
    [silent] = _listed(capsys)
    assert (silent["id"], silent["source"]) == (first.id, "screen-only")
    stored = _occurrence(git_repo, first.id)
    assert (stored["state"], stored["channel_request"], stored["source"]) == (
        "open", None, "screen",
    )  # fmt: skip
    # the channel now claims another input than the screen draws
    port.requests = [_request("r2", "rm -rf ~/projects")]
    [disagree] = _listed(capsys)
    assert (disagree["source"], disagree["channel_subject"], disagree["screen_subject"]) == (
        "disagree", "rm -rf ~/projects", SUBJECT,
    )  # fmt: skip
    assert disagree["subject"] is None
    code, table = _paw(capsys, "prompts")
    assert code == 0, table
    assert table.splitlines()[1].split()[4] == "DISAGREE", table
    both = next(line for line in table.splitlines() if "disagree" in line)
    assert "rm -rf ~/projects" in both
    assert SUBJECT in both
    assert _occurrence(git_repo, disagree["id"])["channel_request"] == "r2"


def test_an_answer_through_the_channel_closes_the_occurrence_by_the_channel(
    port: ScriptedPort, git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _paw(capsys, "spawn", "alice", "--agent", "scripted")[0] == 0
    first = _wait_prompt(build_supervisor(str(git_repo)))
    port.requests = [_request()]
    code, out = _paw(capsys, "approve", first.id, "--json")
    decided = json.loads(out)
    assert (code, decided["outcome"], decided["keys"]) == (0, "sent", []), decided
    assert port.answers == [("r1", ChannelAnswer.ALLOW)]
    stored = _occurrence(git_repo, first.id)
    assert (stored["state"], stored["channel_request"], stored["action"]) == (
        "answered", "r1", "approve",
    )  # fmt: skip
    # the dialog still drawn (no key went) reads as the agent taking the answer: nothing listed
    assert _listed(capsys) == []


class StoppedError(Exception):
    """paw stopped at a crash point (the test's stand-in for kill -9 in-process)."""


def _stop_at(sup: Supervisor, step: str, prompt_id: str, repo: Path) -> None:
    """Approve ``prompt_id`` and stop at ``step``; the sending process is then gone, as after
    kill -9 (its recorded identity is one of a process that has exited)."""

    def stop(at: str) -> None:
        if at == step:
            raise StoppedError

    sup.ctx = dataclasses.replace(sup.ctx, fault=stop)
    with pytest.raises(StoppedError):
        sup.approve(prompt_id, confirmed=True)
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    doc = json.loads((repo / ".paw" / "prompts.json").read_text(encoding="utf-8"))
    for record in doc["prompts"]:
        if record["id"] == prompt_id:
            assert (record["state"], record["channel_request"]) == ("sending", "r1")
            record["sender"] = {"pid": int(done.stdout), "create_time": 1.0, "exe": ""}
    (repo / ".paw" / "prompts.json").write_text(json.dumps(doc), encoding="utf-8")


def test_paw_stopped_after_answering_through_the_channel_is_reconciled_as_sent(
    port: ScriptedPort, git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """paw stops at ``approve:channel-sent`` (the answer handed to the channel, no outcome):
    the next sweep reads the request resolved and records the outcome once, sent, confirmed by
    the channel; never "not sent" with the prompt open again (the scripted agent's dialog stays
    drawn: no key went to it)."""
    assert _paw(capsys, "spawn", "alice", "--agent", "scripted")[0] == 0
    sup = build_supervisor(str(git_repo))
    first = _wait_prompt(sup)
    port.requests = [_request()]
    _stop_at(sup, "approve:channel-sent", first.id, git_repo)
    assert port.answers == [("r1", ChannelAnswer.ALLOW)]
    assert _listed(capsys) == []
    assert _listed(capsys) == []  # a second sweep records nothing more
    outcomes = [r for r in _audit(git_repo) if r.get("event") == "outcome"]
    assert [(r["outcome"], r.get("confirmed")) for r in outcomes] == [("sent", "channel")]
    assert _occurrence(git_repo, first.id)["state"] == "answered"
    assert [r.get("path") for r in _audit(git_repo) if r.get("decision") == "send"] == ["channel"]


def test_paw_stopped_after_recording_the_channel_decision_reopens_it_and_answers_once(
    port: ScriptedPort, git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """paw stops at ``approve:channel-recorded`` (decided and bound in one durable write, no
    answer handed over): the next sweep finds the request still pending and the prompt shown,
    records "not sent" and offers the same occurrence again; a second approval answers the
    request once, through the channel."""
    assert _paw(capsys, "spawn", "alice", "--agent", "scripted")[0] == 0
    sup = build_supervisor(str(git_repo))
    first = _wait_prompt(sup)
    port.requests = [_request()]
    _stop_at(sup, "approve:channel-recorded", first.id, git_repo)
    assert port.answers == []
    [again] = _listed(capsys)
    assert (again["id"], again["source"]) == (first.id, "agree")
    outcomes = [r["outcome"] for r in _audit(git_repo) if r.get("event") == "outcome"]
    assert outcomes == ["not-sent"]
    code, out = _paw(capsys, "approve", first.id, "--json")
    assert (code, json.loads(out)["outcome"], json.loads(out)["keys"]) == (0, "sent", []), out
    assert port.answers == [("r1", ChannelAnswer.ALLOW)]
    assert _occurrence(git_repo, first.id)["state"] == "answered"


def _decisions(capsys: pytest.CaptureFixture[str], prompt_id: str) -> list[dict[str, Any]]:
    """The decision records ``paw log --json`` shows for ``prompt_id``, oldest first."""
    code, out = _paw(capsys, "log", "--json", "-n", "200")
    assert code == 0, out
    records: list[dict[str, Any]] = json.loads(out)["records"]
    return [
        r for r in records
        if r.get("prompt_id") == prompt_id and r.get("event") in ("approve", "deny")
    ]  # fmt: skip


def _said(record: dict[str, Any]) -> tuple[object, ...]:
    keys = ("decision", "path", "source", "channel_request", "channel_subject")
    return tuple(record.get(k, "(absent)") for k in keys)


def _listed_as(capsys: pytest.CaptureFixture[str], source: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = []

    def shows() -> bool:
        found[:] = [p for p in _listed(capsys) if p["source"] == source]
        return bool(found)

    assert retry_until(shows, budget(90), raises=False), f"nothing listed {source}"
    return found[0]


def test_every_decision_record_says_its_path_the_fusion_and_the_request(
    port: ScriptedPort, git_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each decision's audit record, as ``paw log --json`` shows it, names the path that
    decided (``keys``, ``channel``, or None where neither may answer), the fusion of the
    proof capture (``source``) and the channel's request id and exact input: screen-only by
    keys, a disagreement refused by both, agree denied through the channel, channel-only held
    for confirmation and then approved through the channel."""
    (tmp_path / "steps.txt").write_text(
        "shell touch one.txt\nshell touch two.txt\ndialog touch three.txt\n", "utf-8"
    )
    assert _paw(capsys, "spawn", "alice", "--agent", "scripted")[0] == 0
    first = _wait_prompt(build_supervisor(str(git_repo)))
    # 1. the channel says nothing: the key path answers, screen-only
    code, out = _paw(capsys, "approve", first.id, "--json")
    assert (code, json.loads(out)["outcome"]) == (0, "sent"), out
    assert json.loads(out)["keys"] != []
    assert [_said(r) for r in _decisions(capsys, first.id)] == [
        ("send", "keys", "screen-only", None, None),
    ]  # fmt: skip
    # 2. the channel claims another input than the screen draws: neither path answers
    _listed_as(capsys, "screen-only")  # the agent asks its second question
    port.requests = [_request("r2", "rm -rf ~/projects")]
    two = _listed_as(capsys, "disagree")
    code, out = _paw(capsys, "approve", two["id"], "--json")
    assert json.loads(out)["outcome"] == "refused", out
    assert [_said(r) for r in _decisions(capsys, two["id"])] == [
        ("refuse", None, "disagree", "r2", "rm -rf ~/projects"),
    ]  # fmt: skip
    # 3. the channel agrees: the denial goes through it, bound to its request
    port.requests = [_request("r3", "touch two.txt")]
    agree = _listed_as(capsys, "agree")
    code, out = _paw(capsys, "deny", agree["id"], "--json")
    assert (code, json.loads(out)["outcome"], json.loads(out)["keys"]) == (0, "sent", []), out
    assert [_said(r) for r in _decisions(capsys, agree["id"])] == [
        ("send", "channel", "agree", "r3", "touch two.txt"),
    ]  # fmt: skip
    assert port.answers == [("r3", ChannelAnswer.DENY)]
    # (the scripted agent got no key: its dialog stays; without the request it is asked again)
    port.requests = []
    again = _listed_as(capsys, "screen-only")
    code, out = _paw(capsys, "deny", again["id"], "--json")
    assert json.loads(out)["keys"] != [], out
    assert [_said(r) for r in _decisions(capsys, again["id"])] == [
        ("send", "keys", "screen-only", None, None),
    ]  # fmt: skip
    # 4. a dialog the screen cannot read, with the channel's request: channel-only
    port.requests = [_request("r4", "git commit -m three")]
    only = _listed_as(capsys, "channel-only")
    code, out = _paw(capsys, "approve", only["id"], "--json")
    assert json.loads(out)["outcome"] == "needs-confirmation", out
    code, out = _paw(capsys, "approve", only["id"], "--yes", "--json")
    assert (json.loads(out)["outcome"], json.loads(out)["keys"]) == ("sent", []), out
    assert [_said(r) for r in _decisions(capsys, only["id"])] == [
        ("needs-confirmation", "channel", "channel-only", "r4", "git commit -m three"),
        ("send", "channel", "channel-only", "r4", "git commit -m three"),
    ]  # fmt: skip
    # every outcome of a decision says its path too
    code, out = _paw(capsys, "log", "--json", "-n", "200")
    outcomes = [r for r in json.loads(out)["records"] if r.get("event") == "outcome"]
    assert [(r["prompt_id"], r["path"]) for r in outcomes] == [
        (first.id, "keys"), (agree["id"], "channel"), (again["id"], "keys"),
        (only["id"], "channel"),
    ]  # fmt: skip


def test_a_request_listed_from_its_channel_then_drawn_is_the_same_occurrence(
    port: ScriptedPort, git_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hook's record can land before any sweep sees its dialog (the poke's early look lists
    it from the channel alone). When the dialog is drawn for that very request, the occurrence
    a human or a wave was told about goes on, with the screen's fingerprint: a new id would end
    it, and `paw approve` of the id in a wave's message was refused as "no longer shown"."""
    go = tmp_path / "go"
    (tmp_path / "steps.txt").write_text(f"wait {go}\nshell {SUBJECT}\n", encoding="utf-8")
    assert _paw(capsys, "spawn", "alice", "--agent", "scripted")[0] == 0
    port.requests = [_request()]
    listed: list[dict[str, Any]] = []

    def shows(source: str) -> bool:
        listed[:] = [p for p in _listed(capsys) if p["subject"] == SUBJECT]
        return bool(listed) and listed[0]["source"] == source

    assert retry_until(lambda: shows("channel-only"), budget(90), raises=False), listed
    first = listed[0]["id"]
    assert _occurrence(git_repo, first)["fingerprint"].startswith("channel:")
    go.write_text("", encoding="utf-8")  # the agent draws its dialog for the same request
    assert retry_until(lambda: shows("agree"), budget(90), raises=False), listed
    assert listed[0]["id"] == first
    stored = _occurrence(git_repo, first)
    assert stored["state"] == "open"
    assert not stored["fingerprint"].startswith("channel:")  # the screen's, for the proof
    code, out = _paw(capsys, "approve", first, "--json")
    assert code == 0, out
    assert port.answers == [("r1", ChannelAnswer.ALLOW)], port.answers


def test_a_request_the_early_look_listed_is_the_same_occurrence_once_drawn(
    port: ScriptedPort,
    git_repo: Path,
    server: Server,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The poke's early look (a channel-only look between screen sweeps, as a wave's runner,
    `paw serve` and the TUI make it) lists a request whose dialog is already drawn; the screen
    sweep that follows reads the dialog agreeing with that request: the occurrence a wave
    announced goes on. (The early look opened it unbound to its request, so the sweep opened a
    second one and `paw approve` of the announced id was refused as "no longer shown".)"""
    monkeypatch.setattr(ScriptedHub, "listen", lambda self, on_change: False, raising=False)

    def mark(self: ScriptedHub, agent: str, kind: str, spawn: str) -> tuple[str, ...]:
        del agent, kind, spawn  # (a mark as a hook channel's: its open requests)
        return tuple(r.request_id for r in self.the_port.requests)

    monkeypatch.setattr(ScriptedHub, "mark", mark, raising=False)
    go = tmp_path / "go"
    (tmp_path / "steps.txt").write_text(f"wait {go}\nshell {SUBJECT}\n", encoding="utf-8")
    assert _paw(capsys, "spawn", "alice", "--agent", "scripted")[0] == 0
    sup = build_supervisor(str(git_repo), socket_name=server.socket_name, control=True)
    assert isinstance(sup, Supervisor)  # long-running, as a wave's runner or `paw serve`
    try:

        def settled() -> bool:  # seen, proven, asking nothing (the agent waits for ``go``)
            snapshot = sup.poll_once()
            seen = sup.ctx.memory.observed.get("alice")
            return not snapshot.prompts and seen is not None and seen[1].proc is not None

        assert retry_until(settled, budget(90), raises=False)
        port.requests = [_request()]
        go.write_text("", encoding="utf-8")  # the agent draws its dialog for that request
        pane_id = load_agents(sup.ctx.state)["alice"].pane_id
        pane = next(p for p in server.panes if p.pane_id == pane_id)

        def drawn() -> bool:
            return any("Run this command?" in line for line in pane.capture_pane())

        assert retry_until(drawn, budget(90), raises=False), pane.capture_pane()
        early = sweep.channel_sweep(sup.ctx)  # the poke's look: the channel only, no screen read
        assert early is not None
        (listed,) = early.prompts
        assert listed.prompt.subject == SUBJECT
        found: list[LivePrompt] = []

        def agrees() -> bool:
            found[:] = [p for p in sup.poll_once().prompts if p.prompt.subject == SUBJECT]
            return bool(found) and found[0].source.name == "agree"

        assert retry_until(agrees, budget(90), raises=False), found
        assert found[0].id == listed.id
        code, out = _paw(capsys, "approve", listed.id, "--json")
        assert code == 0, out
        assert port.answers == [("r1", ChannelAnswer.ALLOW)], port.answers
    finally:
        sup.close()
