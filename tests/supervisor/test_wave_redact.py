"""A real wave parks a prompt whose command holds secrets: real apprise to a local receiver and
the real command hook get the redacted text and say so; the local audit keeps the full text."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.support.budget import budget
from tests.support.receiver import Receiver

if TYPE_CHECKING:
    from collections.abc import Iterator

    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git, pytest.mark.timeout(300)]

PAW = [sys.executable, "-m", "paw"]
SUBJECT = "mysql -uroot -pS3cretPw shop && curl -u deploy:Hunter2x https://api.example.com/r"
SECRETS = ("S3cretPw", "Hunter2x")
HOOK = (
    "import json, os, sys; json.dump({'env': {k: v for k, v in os.environ.items() "
    "if k.startswith('PAW_')}, 'body': sys.stdin.read()}, open(sys.argv[1], 'w'))"
)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A local notification receiver."""
    found = Receiver()
    yield found
    found.close()


def test_a_parked_prompt_leaves_redacted_on_every_channel_and_stays_whole_in_the_audit(
    git_repo: Path, server: Server, receiver: Receiver, tmp_path: Path
) -> None:
    socket = server.socket_name or ""
    command = json.dumps(["{python}", "-m", "paw.demo.agent", "busy 0.3", f"shell {SUBJECT}"])
    (git_repo / "paw.toml").write_text(
        f'[agents.leaky]\ncommand = {command}\ndetector = "scripted"\ntask_flag = "--task"\n'
        'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }\n',
        encoding="utf-8",
    )
    hook_out = tmp_path / "hook.json"
    hook = json.dumps([sys.executable, "-c", HOOK, str(hook_out)])
    wave_file = tmp_path / "night.toml"
    wave_file.write_text(
        f'name = "night"\nagent = "leaky"\npoll_s = 0.5\nsettle_s = 1\n\n[notify]\n'
        f'urls = ["{receiver.url}"]\nbell = false\ntmux_badge = false\ncommand = {hook}\n\n'
        '[[tasks]]\nname = "db"\ntask = "migrate the database"\n',
        encoding="utf-8",
    )
    env = {**os.environ, "PAW_TMUX_SOCKET": socket}
    runner = subprocess.Popen(
        [*PAW, "wave", "run", str(wave_file), "--quiet"], cwd=git_repo, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert receiver.wait(lambda ms: len(ms) >= 1, budget(90)), "no message arrived"
        end = time.monotonic() + budget(30)
        while not hook_out.exists() and time.monotonic() < end:
            time.sleep(0.1)
    finally:
        runner.send_signal(signal.SIGKILL)
        runner.wait(30)
    got = receiver.messages[0]
    hooked: dict[str, Any] = json.loads(hook_out.read_text(encoding="utf-8"))
    outgoing = {
        "apprise title": str(got["title"]),
        "apprise body": str(got["message"]),
        "hook stdin": hooked["body"],
        **{f"hook ${k}": v for k, v in hooked["env"].items()},
    }
    for channel, text in outgoing.items():
        for secret in SECRETS:
            assert secret not in text, (channel, text)
    assert "mysql -uroot -p[REDACTED] shop && curl -u [REDACTED] https" in outgoing["apprise body"]
    for channel in ("apprise body", "hook stdin"):
        assert "paw redacted what looked like secrets" in outgoing[channel], channel
    assert hooked["env"]["PAW_REDACTED"] == "1"
    lines = (git_repo / ".paw" / "audit.jsonl").read_text(encoding="utf-8").splitlines()
    notes = [r for r in map(json.loads, lines) if r.get("event") == "wave-notify"]
    assert notes
    assert f"subject: {SUBJECT}" in notes[0]["body"]  # the full text stays local
    assert notes[0]["redacted"] is True
