"""A scripted structured prompt channel for tests over real tmux: the requests an agent's
channel reports, set by the test, and the answers paw gave through it. What a real channel
reports is each channel's contract, tested per channel (tests/adapters/channels, tests/e2e)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from paw.cli import compose
from paw.core.channels.request import ChannelAnswer, ChannelRequest, ChannelState
from paw.core.models import PromptKind
from paw.core.ports import ChannelPort, Wired

if TYPE_CHECKING:
    import pytest

    from paw.core.config import PawConfig


class ScriptedPort:
    """One agent's channel as the test scripts it: the requests it reports, the answers."""

    def __init__(self) -> None:
        self.requests: list[ChannelRequest] = []
        self.answers: list[tuple[str, ChannelAnswer]] = []

    def pending(self) -> list[ChannelRequest]:
        return list(self.requests)

    def answer(self, request_id: str, answer: ChannelAnswer) -> None:
        self.answers.append((request_id, answer))
        self.requests = [
            dataclasses.replace(r, state=ChannelState.RESOLVED) if r.request_id == request_id
            else r
            for r in self.requests
        ]  # fmt: skip

    def state(self, request_id: str) -> ChannelState:
        found = [r.state for r in self.requests if r.request_id == request_id]
        return found[0] if found else ChannelState.RESOLVED


class ScriptedHub:
    """Wires nothing into the launch; every spawned agent's channel is ``port``."""

    def __init__(self, port: ScriptedPort) -> None:
        self.the_port = port

    def wire(self, agent: str, kind: str, spawn: str, argv: Sequence[str]) -> Wired:
        del agent, kind, spawn
        return Wired(tuple(argv))

    def port(self, agent: str, kind: str, spawn: str, agent_pid: int | None) -> ChannelPort:
        del agent, kind, spawn, agent_pid
        return self.the_port

    def release(self, agent: str) -> None:
        del agent


def use_scripted_channel(monkeypatch: pytest.MonkeyPatch) -> ScriptedPort:
    """Every supervisor built in this test (the CLI's too) reads ``port`` as each spawned
    agent's channel."""
    scripted = ScriptedPort()

    def channels(config: PawConfig, state_dir: Path, *, streams: bool = False) -> ScriptedHub:
        del config, state_dir, streams
        return ScriptedHub(scripted)

    monkeypatch.setattr(compose, "_channels", channels)
    return scripted


def shell_request(agent: str, subject: str, request_id: str = "r1") -> ChannelRequest:
    """A pending shell request the channel can answer."""
    return ChannelRequest(
        agent=agent, source="scripted", request_id=request_id, tool="Bash",
        kind=PromptKind.SHELL, subject=subject, can_answer=True,
    )  # fmt: skip
