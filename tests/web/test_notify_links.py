"""Notification links bound to one prompt occurrence, end to end: a real wave runner on a private
tmux server with a scripted agent, real apprise posting to a local HTTP receiver, and a real
`paw serve` the links point at (``[serve] public_url``).

The agent asks twice (two git pushes: ``confirm``). The first escalation carries a link: opened,
it shows that prompt; its second step sends and the agent takes it; the link is then used up.
The second prompt is denied at the terminal: its link, opened afterwards, says it ended and
offers nothing.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode, urlsplit

import pytest

from paw.core.links import read_link
from tests.support.budget import budget
from tests.support.receiver import Receiver
from tests.web.test_serve import UA, Web, _serve, _stop

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git]

PAW = [sys.executable, "-m", "paw"]
TTL_S = 600
STEPS = ("busy 0.3", "shell git push origin first", "shell git push origin second")


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A local notification receiver (apprise's json://)."""
    found = Receiver()
    yield found
    found.close()


def _agent_toml(record: Path) -> str:
    command = json.dumps(["{python}", "-m", "paw.demo.agent", *STEPS])
    return (
        f'[agents.demo]\ncommand = {command}\ndetector = "scripted"\ntask_flag = "--task"\n'
        f'match = {{ interpreters = ["python"], scripts = ["paw.demo.agent"] }}\n'
        f"env = {{ PAW_DEMO_RECORD = {json.dumps(str(record))} }}\n"
    )


def _wave_toml(url: str) -> str:
    return f"""
name = "night"
agent = "demo"
poll_s = 0.3
settle_s = 1
stuck_after_s = 600

[notify]
urls = ["{url}"]
bell = false
tmux_badge = false
remind_every_s = 3600

[[tasks]]
name = "push"
task = "push the branch"
"""


def _links(receiver: Receiver) -> list[tuple[str, str]]:
    """(title, link) of every message that carried a one-occurrence link."""
    with receiver.lock:
        messages = list(receiver.messages)
    found = []
    for m in messages:
        hit = re.search(r"^open: (\S+)$", str(m.get("message", "")), re.MULTILINE)
        if hit:
            found.append((str(m.get("title", "")), hit.group(1)))
    return found


def _wait_link(receiver: Receiver, needle: str) -> str:
    def has(_messages: list[dict[str, Any]]) -> bool:
        return any(needle in title for title, _ in _links(receiver))

    assert receiver.wait(has, budget(90)), f"no message with a link about {needle!r}: " + str(
        receiver.titles()
    )
    return next(link for title, link in _links(receiver) if needle in title)


def _answers(record: Path) -> list[str]:
    if not record.exists():
        return []
    return [json.loads(line)["decision"] for line in record.read_text("utf-8").splitlines()]


def _wait(what: str, check: Any) -> None:
    end = time.monotonic() + budget(90)
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for: {what}")


def test_an_escalation_carries_a_link_to_its_one_occurrence(
    git_repo: Path, server: Server, receiver: Receiver, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    env = dict(os.environ)
    repo, record = git_repo, tmp_path / "answers.jsonl"
    (repo / "paw.toml").write_text(_agent_toml(record), "utf-8")
    proc, url = _serve(repo)
    parts = urlsplit(url)
    assert parts.port is not None
    web = Web(proc, "127.0.0.1", parts.port, "", repo)
    public = f"http://127.0.0.1:{parts.port}"
    with (repo / "paw.toml").open("a", encoding="utf-8") as fh:
        fh.write(f'\n[serve]\npublic_url = "{public}/"\nlink_ttl_s = {TTL_S}\n')
    wave = tmp_path / "night.toml"
    wave.write_text(_wave_toml(receiver.url), "utf-8")
    runner = subprocess.Popen(
        [*PAW, "wave", "run", str(wave), "--quiet"], cwd=repo, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        # the escalation names the prompt and carries its link (the server's address)
        link = _wait_link(receiver, "git push origin first")
        assert link.startswith(f"{public}/link/")
        path = urlsplit(link).path
        key = json.loads((repo / ".paw" / "web-link-key.json").read_text("utf-8"))["key"]
        claim = read_link(key, path.removeprefix("/link/"), time.time())
        assert not isinstance(claim, str), claim
        assert claim.agent == "night-push"
        assert claim.verdict == "confirm"
        assert TTL_S - 120 < claim.expires - time.time() <= TTL_S  # [serve] link_ttl_s

        # opened: that prompt, as it is now; nothing acts on GET
        status, headers, page = web.request("GET", path)
        assert status == 200, page
        assert "git push origin first" in page
        assert "set-cookie" not in headers
        csrf = re.search(r"name=csrf value='([^']+)'", page)
        assert csrf
        form = {"csrf": csrf.group(1), "prompt": claim.prompt_id, "action": "approve"}
        status, _, page = web.request("POST", path, urlencode(form))
        assert status == 200
        assert "Yes, approve it" in page  # confirm: its second step, with the warning
        assert _answers(record) == []
        status, _, page = web.request("POST", path, urlencode({**form, "confirmed": "1"}))
        assert status == 200, page
        assert "Sent" in page
        _wait("the agent taking it", lambda: _answers(record) == ["approve"])
        asked = [
            json.loads(line)
            for line in (repo / ".paw" / "audit.jsonl").read_text("utf-8").splitlines()
            if '"web-request"' in line
        ]
        assert asked[-1]["token_id"] == f"link:{claim.nonce}"
        assert asked[-1]["user_agent"] == UA
        status, _, page = web.request("POST", path, urlencode({**form, "confirmed": "1"}))
        assert status == 410  # used up
        assert "used already" in page

        # the next occurrence gets its own link; answered at the terminal, the link offers nothing
        second = _wait_link(receiver, "git push origin second")
        assert second != link
        claim2 = read_link(key, urlsplit(second).path.removeprefix("/link/"), time.time())
        assert not isinstance(claim2, str)
        assert claim2.prompt_id != claim.prompt_id
        denied = subprocess.run(
            [*PAW, "deny", claim2.prompt_id], cwd=repo, env=env, capture_output=True,
            text=True, timeout=budget(120), check=False,
        )  # fmt: skip
        assert denied.returncode == 0, denied.stdout + denied.stderr
        _wait("the agent taking the deny", lambda: _answers(record) == ["approve", "deny"])
        status, _, page = web.request("GET", urlsplit(second).path)
        assert status == 410
        assert "changed, ended or was answered" in page
        assert "<form" not in page
    finally:
        runner.send_signal(signal.SIGTERM)
        try:
            runner.wait(budget(30))
        except subprocess.TimeoutExpired:
            runner.kill()
            runner.wait()
        _stop(proc)
