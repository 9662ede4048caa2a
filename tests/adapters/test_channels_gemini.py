"""Gemini CLI's notification hook over real processes and files: paw's hook program run as
Gemini runs a command hook (``sh -c <command>``, the notification on its stdin), its record
read back by the observe-only port. The real CLI: tests/e2e/test_channel_gemini_paw_live.py."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paw.adapters.channels.gemini import GeminiNotifyChannel, GeminiWiring, wire_gemini
from paw.adapters.channels.hub import FileChannelHub
from paw.core.channels import claude, gemini
from paw.core.channels.request import ChannelAnswer, ChannelState
from paw.core.models import PromptKind
from paw.errors import PawError
from tests.support.budget import budget

LONG = "touch paw-long.txt && echo " + "word " * 40


def _event(command: str = LONG, kind: str = "ToolPermission") -> dict[str, object]:
    return {
        "session_id": "s1", "transcript_path": "", "cwd": "/w", "hook_event_name": "Notification",
        "timestamp": "2026-12-05T00:00:00Z", "notification_type": kind, "message": "m",
        "details": {"type": "exec", "title": "Shell", "command": command, "rootCommand": "touch"},
    }  # fmt: skip


def _private(path: Path) -> None:
    """Nothing above it is checked: tmp_path sits below the machine's shared /tmp."""
    del path


@pytest.fixture
def wiring(tmp_path: Path) -> GeminiWiring:
    return wire_gemini(tmp_path / ".paw", "alice", "tok1", sys.executable, check=_private)


def _run_hook(
    wiring: GeminiWiring, event: object
) -> tuple[subprocess.CompletedProcess[bytes], float]:
    started = time.monotonic()
    done = subprocess.run(
        ["/bin/sh", "-c", wiring.command], input=json.dumps(event).encode(),
        capture_output=True, timeout=budget(60), check=False,
    )  # fmt: skip
    return done, time.monotonic() - started


def test_wired_by_the_environment_in_paws_state_dir(wiring: GeminiWiring, tmp_path: Path) -> None:
    assert wiring.env == {gemini.DEFAULTS_VAR: str(wiring.settings)}
    assert wiring.settings.is_relative_to(tmp_path / ".paw" / "channels" / "alice" / "tok1")
    settings = json.loads(wiring.settings.read_text(encoding="utf-8"))
    assert gemini.hook_command(settings) == wiring.command
    assert stat.S_IMODE(wiring.directory.stat().st_mode) == 0o700
    assert stat.S_IMODE(wiring.settings.stat().st_mode) == 0o600


def test_the_hook_records_the_exact_input_and_returns_at_once_saying_nothing(
    wiring: GeminiWiring,
) -> None:
    done, took = _run_hook(wiring, _event())
    assert (done.returncode, done.stdout) == (0, b"")  # no answer: Gemini draws its dialog
    assert took < budget(10.0)
    port = GeminiNotifyChannel(wiring, os.getpid())
    (request,) = port.pending()
    assert (request.kind, request.subject, request.source) == (
        PromptKind.SHELL, LONG, gemini.SOURCE,
    )  # fmt: skip
    assert (request.observe_only, request.can_answer) == (True, False)
    assert port.state(request.request_id) is ChannelState.PENDING
    with pytest.raises(PawError, match="only observes"):
        port.answer(request.request_id, ChannelAnswer.ALLOW)
    assert not (wiring.directory / "ans" / f"{request.request_id}.json").exists()


def test_only_the_latest_notification_is_kept(wiring: GeminiWiring) -> None:
    _run_hook(wiring, _event("ls -la"))
    first = GeminiNotifyChannel(wiring, os.getpid()).pending()[0].request_id
    _run_hook(wiring, _event("pwd"))
    port = GeminiNotifyChannel(wiring, os.getpid())
    (latest,) = port.pending()
    assert latest.subject == "pwd"
    assert [p.name for p in (wiring.directory / "req").iterdir()] == [f"{latest.request_id}.json"]
    assert port.state(first) is ChannelState.RESOLVED


def test_other_notifications_write_nothing(wiring: GeminiWiring) -> None:
    done, _ = _run_hook(wiring, _event(kind="ToolCallConfirmation"))
    assert (done.returncode, done.stdout) == (0, b"")
    assert list((wiring.directory / "req").iterdir()) == []


def test_a_record_signed_with_another_secret_or_for_another_spawn_is_refused(
    wiring: GeminiWiring,
) -> None:
    event = gemini.as_tool_event(_event("rm -rf ~"))
    for secret, spawn, rid in ((b"x" * 32, "tok1", "f1"), (wiring_secret(wiring), "tok2", "f2")):
        record = claude.make_record(
            secret=secret, source=gemini.SOURCE, agent="alice", spawn=spawn, request_id=rid,
            event=event, hook_pid=os.getpid(), written_at=time.time(),
        )  # fmt: skip
        (wiring.directory / "req" / f"{rid}.json").write_text(json.dumps(record), "utf-8")
    port = GeminiNotifyChannel(wiring, os.getpid())
    assert port.pending() == []
    assert set(port.refused) == {"f1", "f2"}


def wiring_secret(wiring: GeminiWiring) -> bytes:
    return (wiring.directory / "secret").read_bytes()


def test_below_a_directory_others_may_write_to_nothing_is_wired(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)  # (as /tmp is; Gemini would skip a settings file below it)
    root = shared / "repo" / ".paw"
    with pytest.raises(PawError, match="gemini-cli's channel is off") as caught:
        wire_gemini(root, "alice", "tok1", sys.executable)
    assert str(shared) in caught.value.message
    assert not (root / "channels").exists()
    hub = FileChannelHub(root, sys.executable)
    why = hub.unwired("gemini-cli")
    assert why is not None
    assert "screen path" in why
    assert hub.unwired("claude-code") is None
