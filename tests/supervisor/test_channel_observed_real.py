"""An observe-only channel's claim (Gemini's notification hook) in the supervisor, on real tmux
with the scripted demo agent (issue 32). The claim is a scripted port's request marked
``observe_only`` (what Gemini's hook records is its adapter's contract, tested in
tests/adapters/test_channels_gemini.py and live in tests/e2e/test_channel_gemini_paw_live.py):
the prompt is listed ``observed``, its subject the claim's input; the approval goes by keys
with the screen's proof and its one-second settle, never through the channel; a claim that
disagrees leaves the screen's prompt standing, answered by keys only once confirmed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from libtmux.test.retry import retry_until

from paw.cli import main
from paw.cli.compose import build_supervisor
from paw.core.channels import gemini
from paw.core.channels.request import ChannelRequest
from paw.core.models import PromptKind
from paw.supervisor.channels import channel_pending
from paw.supervisor.records import load_agents
from tests.support.budget import budget
from tests.support.scripted_channel import ScriptedPort, shell_request, use_scripted_channel

if TYPE_CHECKING:
    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git]


@pytest.fixture
def port(
    git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> ScriptedPort:
    """The scripted agent asks ``touch one.txt``, then ``touch two.txt``, and waits."""
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.chdir(git_repo)
    script = tmp_path / "steps.txt"
    script.write_text("shell touch one.txt\nshell touch two.txt\n", encoding="utf-8")
    command = json.dumps(["{python}", "-m", "paw.demo.agent", "--script", str(script)])
    (git_repo / "paw.toml").write_text(f"[agents.scripted]\ncommand = {command}\n", "utf-8")
    return use_scripted_channel(monkeypatch)


def _claim(subject: str, request_id: str) -> ChannelRequest:
    return ChannelRequest(
        agent="alice", source=gemini.SOURCE, request_id=request_id, tool="exec",
        kind=PromptKind.SHELL, subject=subject, observe_only=True,
    )  # fmt: skip


def _paw(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    main(list(args))
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _listed_as(capsys: pytest.CaptureFixture[str], source: str, subject: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = []

    def shows() -> bool:
        found[:] = [
            p for p in _paw(capsys, "prompts", "--json")["prompts"]
            if p["source"] == source and subject in (p["screen_subject"] or "")
        ]  # fmt: skip
        return bool(found)

    assert retry_until(shows, budget(90), raises=False), f"nothing listed {source}"
    return found[0]


def _sends(repo: Path) -> list[tuple[object, ...]]:
    text = (repo / ".paw" / "audit.jsonl").read_text(encoding="utf-8")
    records = [json.loads(line) for line in text.splitlines()]
    return [
        (r["prompt_id"], r.get("path"), r.get("source"), r.get("channel_request"))
        for r in records
        if r.get("decision") == "send"
    ]


def test_an_observed_prompt_is_answered_by_keys_after_the_settle_never_through_the_channel(
    port: ScriptedPort, git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port.requests = [_claim("touch one.txt", "g1")]
    assert main(["spawn", "alice", "--agent", "scripted"]) == 0
    capsys.readouterr()
    one = _listed_as(capsys, "observed", "touch one.txt")
    assert (one["subject"], one["channel_request"], one["verdict"]) == (
        "touch one.txt",
        "g1",
        "allow",
    )  # fmt: skip  (the screen shows the claim whole: judged as today)
    # an observe-only claim is no request the channel holds open: keys wait for the settle
    ctx = build_supervisor(str(git_repo)).ctx
    agent = load_agents(ctx.state)["alice"]
    assert not channel_pending(ctx, agent)
    port.requests = [shell_request("alice", "touch one.txt", "r9")]
    assert channel_pending(ctx, agent)  # (a request the channel answers: no settle)
    # a claim replaced between listing and approval (another writer): the prompt changed
    port.requests = [_claim("touch one.txt", "g2")]
    refused = _paw(capsys, "approve", one["id"], "--json")
    assert (refused["outcome"], refused["keys"]) == ("refused", []), refused
    port.requests = [_claim("touch one.txt", "g1")]
    one = _listed_as(capsys, "observed", "touch one.txt")
    decided = _paw(capsys, "approve", one["id"], "--json")
    assert (decided["outcome"], bool(decided["keys"])) == ("sent", True), decided
    assert port.answers == []
    assert _sends(git_repo) == [(one["id"], "keys", "observed", "g1")]  # (the claim it named)
    # the next question, with a stale claim naming another command: the screen stands
    two = _listed_as(capsys, "disputed", "touch two.txt")
    assert (two["subject"], two["channel_subject"]) == ("touch two.txt", "touch one.txt")
    assert two["verdict"] == "confirm"
    held = _paw(capsys, "approve", two["id"], "--json")
    assert held["outcome"] == "needs-confirmation", held
    decided = _paw(capsys, "approve", two["id"], "--yes", "--json")
    assert (decided["outcome"], bool(decided["keys"])) == ("sent", True), decided
    assert port.answers == []
    assert _sends(git_repo)[-1] == (two["id"], "keys", "disputed", "g1")


def test_below_a_shared_directory_gemini_is_spawned_unwired_and_paw_says_why(
    git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """The repository (and so paw's state dir) sits below a directory others may write to
    (as a shared /tmp is): Gemini would skip a settings file there, so paw wires none, starts
    the agent as it is, and its spawn says so."""
    assert server.socket_name is not None
    tmp_path.chmod(0o777)  # (the repository's parent: group and others may write to it)
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.chdir(git_repo)
    program = tmp_path / "bin" / "gemini"  # a stand-in: the wiring is chosen by its name
    program.parent.mkdir()
    program.write_text(
        '#!/bin/sh\n[ "$1" = --version ] && { echo 0.61.0; exit 0; }\n'
        "echo 'gemini stand-in'\nexec sleep 600\n",
        encoding="utf-8",
    )
    program.chmod(0o755)
    (git_repo / "paw.toml").write_text(
        f'[agents.gemini-cli]\ncommand = ["{program}"]\nstartup_timeout_s = 2\n', "utf-8"
    )
    main(["spawn", "alice", "--agent", "gemini-cli", "--json"])
    notes = json.loads(capsys.readouterr().out)["startup"]["notes"]
    assert any("gemini-cli's channel is off" in n for n in notes), notes
    assert not (git_repo / ".paw" / "channels" / "alice").exists()
    off = [
        json.loads(line)
        for line in (git_repo / ".paw" / "audit.jsonl").read_text(encoding="utf-8").splitlines()
        if '"channel"' in line
    ]
    assert [(r["event"], r["state"]) for r in off] == [("channel", "off")], off
    main(["stop", "alice"])
    tmp_path.chmod(0o700)
