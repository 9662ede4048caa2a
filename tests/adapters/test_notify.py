"""Real apprise to a local HTTP receiver, the command hook, the tmux badge."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from paw.adapters.checks import run_check
from paw.adapters.notify import ChannelNotifier, url_problems
from paw.core.models import Action
from paw.core.wave import NotifySettings, SeenPrompt, TaskState, TaskView, WaveFile, step_task
from paw.core.wave_report import prompt_message
from paw.errors import ConfigError
from tests.support.receiver import Receiver

if TYPE_CHECKING:
    from collections.abc import Iterator

    from libtmux.server import Server


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A local notification receiver."""
    found = Receiver()
    yield found
    found.close()


def _parked(subject: str) -> tuple[TaskState, object]:
    wave = WaveFile.model_validate({"name": "night", "tasks": [{"name": "a", "task": "x"}]})
    seen = SeenPrompt(
        "abc123", "shell", subject, "Run?", Action.CONFIRM, ("remote write",), True, 10.0
    )
    task = TaskState(name="a", agent="night-a", phase="running", started_at=0.0)
    view = TaskView("prompt", "", 0, 0, 0, 0, (seen,), "/w")
    stepped = step_task(wave, wave.tasks[0], task, view, 10.0).task
    return stepped, stepped.prompts[0]


def test_apprise_delivers_one_redacted_message_with_the_exact_commands(
    receiver: Receiver, tmp_path: Path
) -> None:
    hook_out = tmp_path / "hook.json"
    hook = [
        sys.executable, "-c",
        (
            "import json, os, sys; json.dump({'env': {k: v for k, v in os.environ.items() "
            "if k.startswith('PAW_')}, 'body': sys.stdin.read()}, open(sys.argv[1], 'w'))"
        ),
        str(hook_out),
    ]  # fmt: skip
    settings = NotifySettings(urls=(receiver.url,), bell=False, command=tuple(hook))
    notifier = ChannelNotifier(settings)
    task, prompt = _parked("git push https://bob:hunter2@example.com/repo.git main")
    message = prompt_message("parked", "night", task, prompt, 70.0)  # type: ignore[arg-type]
    notifier.send(message)
    notifier.close()
    assert notifier.errors == []
    assert receiver.wait(lambda ms: len(ms) >= 1, 10)
    time.sleep(0.3)  # nothing else may arrive
    assert len(receiver.messages) == 1
    got = receiver.messages[0]
    subject = "git push https://bob:[REDACTED]@example.com/repo.git main"
    assert got["title"] == f"paw wave night: a needs a human: shell {subject}"
    body = str(got["message"])
    assert "hunter2" not in body
    assert "paw redacted what looked like secrets" in body
    for line in (
        "agent: night-a",
        "task: a",
        "prompt: shell",
        "guard: confirm (remote write)",
        "waiting for: 60s",
        "approve: paw approve abc123",
        "deny:    paw deny abc123",
    ):
        assert line in body
    hooked = json.loads(hook_out.read_text(encoding="utf-8"))
    assert hooked["env"]["PAW_EVENT"] == "parked"
    assert hooked["env"]["PAW_PROMPT_ID"] == "abc123"
    assert hooked["body"] == message.outgoing_body


# The forms a hook received verbatim before (issue 29, item 9): (subject, the secret).
LEAKED = [
    ("curl -u deploy:Hunter2x https://api.example.com/v1/release", "Hunter2x"),
    ("mysql -uroot -pS3cretPw shop < migrate.sql", "S3cretPw"),
    ("docker login -p dckr_pat_T0kenZ registry.example.com", "dckr_pat_T0kenZ"),
    ("redis-cli -h cache -a R3disPw flushall", "R3disPw"),
    ("aws configure set aws_secret_access_key wJalrXUtnFEMIK7MDENG", "wJalrXUtnFEMIK7MDENG"),
    ("git push https://" + "ghp_" + "x1Y2z3" * 6 + "@github.com/o/r.git main", "ghp_x1Y2z3"),
    ("export DB_PASS=Pgs3cret && ./migrate", "Pgs3cret"),
    ("curl 'https://api.example.com/v2/items?api_key=K3yK3yK3y&page=2'", "K3yK3yK3y"),
    ("sshpass -p SshPw9 ssh deploy@web1 uptime", "SshPw9"),
    ("openssl enc -aes-256-cbc -k 0pensslPw -in backup.tar", "0pensslPw"),
    ("""curl -d '{"user":"bob","password":"J50nPw"}' https://api.example.com/login""", "J50nPw"),
    (
        "curl -X POST https://hooks.slack.com/services/T0AAAAAA1/B0BBBBBB2/cCdDeEfFgGhHiIjJkKlL",
        "cCdDeEfFgGhHiIjJkKlL",
    ),
]


@pytest.mark.parametrize(
    ("subject", "secret"), LEAKED, ids=[s.split()[0] + " " + s.split()[1] for s, _ in LEAKED]
)
def test_every_channel_gets_the_redacted_text_and_says_so_the_audit_text_is_whole(
    receiver: Receiver, tmp_path: Path, subject: str, secret: str
) -> None:
    hook_out = tmp_path / "hook.json"
    hook = [
        sys.executable, "-c",
        (
            "import json, os, sys; json.dump({'env': {k: v for k, v in os.environ.items() "
            "if k.startswith('PAW_')}, 'body': sys.stdin.read()}, open(sys.argv[1], 'w'))"
        ),
        str(hook_out),
    ]  # fmt: skip
    notifier = ChannelNotifier(
        NotifySettings(urls=(receiver.url,), bell=False, command=tuple(hook))
    )
    task, prompt = _parked(subject)
    message = prompt_message("parked", "night", task, prompt, 70.0)  # type: ignore[arg-type]
    notifier.send(message)
    notifier.close()
    assert notifier.errors == []
    assert receiver.wait(lambda ms: len(ms) >= 1, 10)
    got = receiver.messages[0]
    hooked = json.loads(hook_out.read_text(encoding="utf-8"))
    outgoing = {
        "apprise title": str(got["title"]),
        "apprise body": str(got["message"]),
        "hook stdin": hooked["body"],
        **{f"hook ${k}": v for k, v in hooked["env"].items()},
    }
    for channel, text in outgoing.items():
        assert secret not in text, channel
    for channel in ("apprise body", "hook stdin"):
        assert "paw redacted what looked like secrets" in outgoing[channel], channel
        assert "[REDACTED]" in outgoing[channel], channel
    assert hooked["env"]["PAW_REDACTED"] == "1"
    assert "[REDACTED]" in hooked["env"]["PAW_TITLE"]
    # The full text stays local: it is what the wave runner writes to the audit.
    assert f"subject: {subject}" in message.body
    assert subject in message.title


def test_an_unreachable_service_is_reported_not_raised() -> None:
    notifier = ChannelNotifier(NotifySettings(urls=("json://127.0.0.1:9",), bell=False))
    task, prompt = _parked("ls")
    notifier.send(prompt_message("parked", "night", task, prompt, 11.0))  # type: ignore[arg-type]
    notifier.close()
    assert notifier.errors


def test_url_problems_name_what_apprise_cannot_parse() -> None:
    assert url_problems(["json://127.0.0.1:1", "nonsense"]) == [
        (1, "apprise does not understand the URL nonsense://…")
    ]


def test_a_url_apprise_cannot_parse_is_a_one_line_error_not_a_traceback() -> None:
    with pytest.raises(ConfigError, match=r"^notify.urls\[2\]: apprise does not understand"):
        ChannelNotifier(NotifySettings(urls=("json://127.0.0.1:1", "nonsense"), bell=False))


@pytest.mark.tmux
def test_tmux_badge_shows_and_clears(server: Server) -> None:
    server.new_session("paw-wave-badge")
    assert server.socket_name is not None
    notifier = ChannelNotifier(
        NotifySettings(bell=False), tmux_socket=server.socket_name, tmux_session="paw-wave-badge"
    )
    notifier.badge(2)
    notifier.close()
    shown = "".join(server.cmd("show-options", "-t", "paw-wave-badge", "status-right").stdout)
    assert "paw: 2 waiting" in shown
    notifier = ChannelNotifier(
        NotifySettings(bell=False), tmux_socket=server.socket_name, tmux_session="paw-wave-badge"
    )
    notifier.badge(0)
    notifier.close()
    shown = "".join(server.cmd("show-options", "-t", "paw-wave-badge", "status-right").stdout)
    assert "waiting" not in shown


def test_run_check_merges_output_and_times_out(tmp_path: Path) -> None:
    ok = run_check("echo out; echo err >&2; exit 3", str(tmp_path), 10)
    assert ok.exit_code == 3
    assert "out" in ok.output
    assert "err" in ok.output
    slow = run_check("sleep 30", str(tmp_path), 0.5)
    assert slow.exit_code == 124
    assert "ran over" in slow.output
