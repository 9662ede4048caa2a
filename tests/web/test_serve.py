"""`paw serve` end to end: real HTTP against the real server (a `paw serve` process on
127.0.0.1), over a real supervisor on a private tmux server with a scripted agent.

The agent asks, one after the other: an ``allow`` (touch), a ``confirm`` (git push), a ``block``
(rm -rf /), a subject carrying markup and bidi characters, and a folder-trust dialog. The page
lists each; allow goes in one press, confirm only after its second step, block and the dialog
offer no approve, and every decision is audited with who asked from where.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import select
import signal
import ssl
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlencode, urlsplit

import pytest
from libtmux.test.retry import retry_until

from paw.cli import main
from paw.cli.common import find_repo_root
from paw.cli.compose import build_supervisor
from paw.core.links import make_link
from tests.support.budget import budget

if TYPE_CHECKING:
    from collections.abc import Iterator

    from libtmux.server import Server

    from paw.supervisor.model import LivePrompt

pytestmark = [pytest.mark.tmux, pytest.mark.git]

HOSTILE = "echo <script>alert(1)</script><b>bold</b> \u202eexe.txt\u2066z\u2069\u00ad"
STEPS = (
    "shell touch one.txt",
    "shell git push origin main",
    "shell rm -rf /",
    f"shell {HOSTILE}",
    "trust .",
)
UA = "paw-test-browser/1.0"
ANY = "0.0.0.0"  # noqa: S104 - the address paw must refuse to bind without TLS


@dataclass
class Web:
    """A running `paw serve` and a browser's cookie jar (one session)."""

    proc: subprocess.Popen[str]
    host: str
    port: int
    token: str
    repo: Path
    cookie: str | None = None
    headers: dict[str, str] = field(default_factory=dict)

    def request(
        self, method: str, path: str, body: str | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], str]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=budget(60))
        sent = {"User-Agent": UA, "Host": f"{self.host}:{self.port}"}
        if self.cookie:
            sent["Cookie"] = self.cookie
        if body is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        sent.update(headers or {})
        try:
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            got = {k.lower(): v for k, v in response.getheaders()}
            return response.status, got, response.read().decode("utf-8")
        except TimeoutError:
            pytest.fail(f"{method} {path}: no answer in {budget(60):.0f}s\n{diagnose(self.proc)}")
        finally:
            conn.close()

    def login(self) -> None:
        status, headers, _ = self.request("GET", f"/login?token={self.token}")
        assert status == 303, status
        self.cookie = headers["set-cookie"].split(";", 1)[0]

    def page(self) -> str:
        status, _, text = self.request("GET", "/")
        assert status == 200, text
        return text

    def decide(self, prompt: str, action: str, *, confirmed: bool = False,
               headers: dict[str, str] | None = None) -> tuple[int, str]:  # fmt: skip
        form = {"csrf": self.csrf(), "prompt": prompt, "action": action}
        if confirmed:
            form["confirmed"] = "1"
        status, _, text = self.request("POST", "/decide", urlencode(form), headers)
        return status, text

    def csrf(self) -> str:
        """This session's CSRF token, read from a form of the page (the last one seen when
        the page offers no form now)."""
        found = re.search(r"name=csrf value='([^']+)'", self.page())
        if found:
            self.headers["csrf"] = found.group(1)
        assert "csrf" in self.headers, "no CSRF token on the page"
        return self.headers["csrf"]


@pytest.fixture
def repo(git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose paw uses the plugin's private tmux server."""
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.chdir(git_repo)
    script = tmp_path / "steps.txt"
    script.write_text("\n".join(STEPS) + "\n", encoding="utf-8")
    command = json.dumps(["{python}", "-m", "paw.demo.agent", "--script", str(script)])
    (git_repo / "paw.toml").write_text(f"[agents.scripted]\ncommand = {command}\n", "utf-8")
    return git_repo


def _serve(repo: Path, *extra: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "paw", "serve", "--port", "0", *extra],
        cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()  # the server prints its URL before it serves
    assert line.startswith("paw serve: "), line + (proc.stderr.read() if proc.stderr else "")
    return proc, line.split(" ", 2)[2].split()[0]


@pytest.fixture
def web(repo: Path) -> Iterator[Web]:
    """`paw serve` on 127.0.0.1 (a free port), with the agent spawned and asking."""
    assert main(["spawn", "a1", "--agent", "scripted"]) == 0
    proc, url = _serve(repo)
    parts = urlsplit(url)
    assert parts.hostname == "127.0.0.1"
    assert parts.port is not None
    try:
        yield Web(proc, "127.0.0.1", parts.port, parts.query.removeprefix("token="), repo)
    finally:
        _stop(proc)


def diagnose(proc: subprocess.Popen[str]) -> str:
    """What a `paw serve` that stopped answering was doing: every thread's stack (it writes
    them to its stderr on SIGUSR1) and whatever else it wrote there."""
    if proc.poll() is not None:
        rest = proc.stderr.read() if proc.stderr else ""
        return f"paw serve exited ({proc.returncode}); its stderr:\n{rest}"
    os.kill(proc.pid, signal.SIGUSR1)
    assert proc.stderr is not None
    fd, chunks = proc.stderr.fileno(), list[bytes]()
    deadline = time.monotonic() + budget(10)
    while time.monotonic() < deadline:  # until the dump has come and the pipe goes quiet
        ready, _, _ = select.select([fd], [], [], 1.0)
        if not ready:
            if chunks:
                break
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    return "paw serve's stderr (stacks on SIGUSR1):\n" + b"".join(chunks).decode("utf-8", "replace")


def _stop(proc: subprocess.Popen[str]) -> None:
    """End the `paw serve` a test started (by its handle): SIGTERM, then SIGKILL."""
    proc.terminate()
    try:
        proc.wait(timeout=budget(30))
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _wait_prompt(web: Web, needle: str) -> str:
    """The id of the prompt whose card shows ``needle`` (waits until the page lists it)."""
    found: list[str] = []

    def shows() -> bool:
        for card in web.page().split("<div class=card id='p-")[1:]:
            if needle in card:
                found[:] = [card.split("'", 1)[0]]
                return True
        return False

    assert retry_until(shows, budget(90), raises=False), f"the page never listed {needle!r}"
    return found[0]


def _card(web: Web, prompt: str) -> str:
    page = web.page()
    start = page.index(f"<div class=card id='p-{prompt}'")
    return (
        page[start : page.index("<div class=card", start + 1)]
        if page.count("<div class=card", start + 1)
        else page[start:]
    )


def _audit(repo: Path) -> list[dict[str, object]]:
    lines = (repo / ".paw" / "audit.jsonl").read_text("utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _sends(repo: Path, prompt: str) -> list[dict[str, object]]:
    return [r for r in _audit(repo) if r.get("prompt_id") == prompt and r.get("decision") == "send"]


def test_the_page_lists_and_decides_through_the_one_approval_path(web: Web) -> None:
    web.login()
    # allow: listed with its verdict, kind, agent and subject; one press sends it
    allow = _wait_prompt(web, "touch one.txt")
    card = _card(web, allow)
    assert "v-allow" in card
    assert "a1" in card
    assert ">shell<" in card
    assert "value=approve>Approve</button>" in card
    status, text = web.decide(allow, "approve")
    assert status == 200, text
    assert "Sent" in text
    (sent,) = _sends(web.repo, allow)
    assert sent["event"] == "approve"
    asked = [r for r in _audit(web.repo) if r.get("event") == "web-request"]
    assert asked[-1]["prompt_id"] == allow
    assert asked[-1]["client"] == "127.0.0.1"
    assert asked[-1]["user_agent"] == UA
    assert asked[-1]["token_id"]
    # the request record is on disk before the decision's own records
    records = _audit(web.repo)
    assert records.index(asked[-1]) < records.index(sent)

    # confirm: the first press shows the warning and sends nothing; the second step sends
    push = _wait_prompt(web, "git push origin main")
    assert "v-confirm" in _card(web, push)
    status, text = web.decide(push, "approve")
    assert status == 200
    assert "Yes, approve it" in text
    assert "name=confirmed value=1" in text
    assert _sends(web.repo, push) == []
    status, text = web.decide(push, "approve", confirmed=True)
    assert status == 200, text
    assert "Sent" in text
    assert len(_sends(web.repo, push)) == 1

    # block: no approve offered; an approve POSTed anyway sends nothing; deny works
    block = _wait_prompt(web, "rm -rf /")
    card = _card(web, block)
    assert "v-block" in card
    assert "value=approve" not in card
    assert "Needs the terminal" in card
    status, text = web.decide(block, "approve")
    assert status == 409
    assert "not approvable from the web" in text
    status, text = web.decide(block, "approve", confirmed=True)
    assert status == 409
    assert _sends(web.repo, block) == []
    status, text = web.decide(block, "deny")
    assert status == 200, text
    assert "Sent" in text
    (denied,) = _sends(web.repo, block)
    assert denied["event"] == "deny"

    # a subject with markup and bidi characters is shown inert
    hostile = _wait_prompt(web, "exe.txt")
    card = _card(web, hostile)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt;" in card
    assert "\\u202eexe.txt\\u2066z\\u2069" in card
    page = web.page()
    assert "<script>alert" not in page
    assert "<b>bold" not in page
    for char in ("\u202e", "\u2066", "\u2069", "\u00ad", "\x1b"):
        assert char not in page
    # the agent's pane, selected: its text (untrusted) shown inert, its diff stat, the audit
    status, _, page = web.request("GET", "/?agent=a1")
    assert status == 200
    pane = page.split("<pre class=pane>", 1)[1].split("</pre>", 1)[0]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pane
    assert "\\u202eexe.txt" in pane
    assert "\x1b" not in page
    assert "\u202e" not in page
    assert "<td>one.txt</td><td>+0 -0</td>" in page  # the allow's touch, untracked
    audit = page.split("<table class=audit>", 1)[1]
    assert ">web-request<" in audit
    assert f"prompt_id={block}" in audit
    assert web.decide(hostile, "deny")[0] == 200

    # a dialog only a human can answer: said so, nothing offered, a POST refused
    trust = _wait_prompt(web, "only a human")
    card = _card(web, trust)
    assert "<form" not in card
    for action in ("approve", "deny"):
        status, text = web.decide(trust, action)
        assert status == 409
        assert "only a human" in text
    assert _sends(web.repo, trust) == []


def test_the_page_names_the_repository_never_its_path(web: Web) -> None:
    """The title and heading name the repository by its directory; no page (the list, its
    refresh, an agent's details) shows the machine's path to it or to the agents' worktrees."""
    web.login()
    _wait_prompt(web, "touch one.txt")
    name = web.repo.name
    page = web.page()
    assert f"<title>paw · {name}</title>" in page
    assert f"<h1>paw · {name}</h1>" in page
    status, _, details = web.request("GET", "/?agent=a1")
    assert status == 200
    assert "its pane now" in details  # the agent's details are there
    status, _, board = web.request("GET", "/board?agent=a1")
    assert status == 200
    for text in (page, details, board):
        assert str(web.repo) not in text
        assert str(web.repo.parent) not in text  # nor the agents' worktrees beside it


def test_paws_own_words_show_the_home_as_a_tilde(
    git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The repository under the user's home: the guard's reason names the agent's worktree
    as ``~/…`` on the page; the subject (what the agent asks) is shown exactly as drawn."""
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.setenv("HOME", str(tmp_path))  # the repository and its worktrees under it
    monkeypatch.chdir(git_repo)
    outside = str(tmp_path / "notes.txt")
    command = json.dumps(["{python}", "-m", "paw.demo.agent", f"edit {outside}"])
    (git_repo / "paw.toml").write_text(f"[agents.scripted]\ncommand = {command}\n", "utf-8")
    assert main(["spawn", "a1", "--agent", "scripted"]) == 0
    proc, url = _serve(git_repo)
    try:
        parts = urlsplit(url)
        assert parts.port is not None
        web = Web(proc, "127.0.0.1", parts.port, parts.query.removeprefix("token="), git_repo)
        web.login()
        card = _card(web, _wait_prompt(web, "notes.txt"))
        assert f"<pre class=subject>{outside}</pre>" in card  # as drawn
        assert f"<li>~/notes.txt is outside ~/{git_repo.name}-paw/a1</li>" in card, card
        assert card.count(str(tmp_path)) == 1  # the subject's alone
    finally:
        _stop(proc)


def test_strangers_get_nothing(web: Web) -> None:
    # no cookie: the page and the decision are refused
    assert web.request("GET", "/")[0] == 401
    assert web.request("GET", "/board")[0] == 401
    # the right token: a session cookie, HttpOnly and SameSite=Strict (not Secure over http)
    status, headers, _ = web.request("GET", f"/login?token={web.token}")
    assert status == 303
    cookie = headers["set-cookie"].lower()
    assert "httponly" in cookie
    assert "samesite=strict" in cookie
    assert "max-age=" in cookie
    assert "secure" not in cookie
    assert "content-security-policy" in headers
    web.cookie = headers["set-cookie"].split(";", 1)[0]
    prompt = _wait_prompt(web, "touch one.txt")
    # the part of the page its script refreshes: the same listing, without the document
    status, _, board = web.request("GET", "/board")
    assert status == 200
    assert "touch one.txt" in board
    assert "<html" not in board
    # a cross-site POST (the browser names the other origin) is refused with a valid CSRF token
    status, _ = web.decide(prompt, "approve", headers={"Origin": "http://evil.example"})
    assert status == 403
    status, _ = web.decide(prompt, "approve", headers={"Sec-Fetch-Site": "cross-site"})
    assert status == 403
    # a POST without this session's CSRF token is refused
    form = urlencode({"csrf": "guess", "prompt": prompt, "action": "approve"})
    assert web.request("POST", "/decide", form)[0] == 403
    # GET never acts
    assert web.request("GET", f"/decide?prompt={prompt}&action=approve")[0] == 405
    # another Host (DNS rebinding) is refused
    assert web.request("GET", "/", headers={"Host": "evil.example"})[0] == 421
    assert _sends(web.repo, prompt) == []
    # wrong tokens: refused, then rate limited, even the right token for a while
    jar, web.cookie = web.cookie, None
    codes = [web.request("GET", f"/login?token=wrong{i}")[0] for i in range(6)]
    assert codes == [401] * 5 + [429], codes
    assert web.request("GET", f"/login?token={web.token}")[0] == 429
    web.cookie = jar  # a signed-in browser keeps working
    assert web.decide(prompt, "approve")[0] == 200
    assert len(_sends(web.repo, prompt)) == 1


class Stream:
    """A browser's ``EventSource``: one open connection to a server-sent event stream."""

    def __init__(self, web: Web, path: str) -> None:
        self.conn = http.client.HTTPConnection(web.host, web.port, timeout=budget(60))
        sent = {"User-Agent": UA, "Host": f"{web.host}:{web.port}", "Accept": "text/event-stream"}
        if web.cookie:
            sent["Cookie"] = web.cookie
        self.conn.request("GET", path, headers=sent)
        try:
            self.response = self.conn.getresponse()
        except TimeoutError:
            pytest.fail(f"GET {path}: no answer in {budget(60):.0f}s\n{diagnose(web.proc)}")
        self.status = self.response.status
        self.headers = {k.lower(): v for k, v in self.response.getheaders()}

    def until(self, needle: str) -> str:
        """The next event (``name:data``) that carries ``needle``; fails when the stream ends
        or stays without one for the budget."""
        name, data = "", []
        deadline = time.monotonic() + budget(90)
        while time.monotonic() < deadline:
            line = self.response.readline().decode("utf-8")
            assert line, f"the stream ended before an event with {needle!r}"
            line = line.rstrip("\n")
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data.append(line[6:])
            elif not line and name:
                event = f"{name}:" + "\n".join(data)
                if needle in event:
                    return event
                name, data = "", []
        pytest.fail(f"no event with {needle!r} within {budget(90):.0f}s")

    def close(self) -> None:
        self.conn.close()


def test_the_list_is_streamed_as_server_sent_events(web: Web) -> None:
    stranger = Stream(web, "/events")
    assert stranger.status == 401  # signed out: no stream
    stranger.close()
    web.login()
    allow = _wait_prompt(web, "touch one.txt")
    stream = Stream(web, "/events?agent=a1")
    try:
        assert stream.status == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        first = stream.until("touch one.txt")
        assert first.startswith("board:")
        assert "<h2 id=details>a1</h2>" in first
        assert "<html" not in first
        # a change is pushed on the open stream: the next prompt after the decision
        assert web.decide(allow, "approve")[0] == 200
        # (the selected agent's pane, its own part, may show the new box drawn before the
        # sweep lists it: a loaded run saw that event first)
        pushed = stream.until("git push origin main")
        while pushed.startswith("part:details\n"):
            pushed = stream.until("git push origin main")
        # only the part that changed: the prompts, not the agents' table nor the rest
        assert pushed.startswith("part:prompts\n"), pushed[:40]
        assert "touch one.txt" not in pushed
        assert "<h2>Agents" not in pushed
        assert "<h2 id=details>" not in pushed
    finally:
        stream.close()


def test_a_bind_others_can_reach_needs_tls_or_a_trusted_proxy(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--host", ANY, "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert [line for line in err.splitlines() if line.startswith("paw: ")] == [
        "paw: refusing to serve on 0.0.0.0 without TLS: others could read the token and the page"
    ]
    assert "Traceback" not in err
    assert main(["serve", "--host", ANY, "--cert", "c.pem"]) == 2
    assert "--cert and --key go together" in capsys.readouterr().err
    assert not (repo / ".paw" / "web-token.json").exists()  # refused before anything was made


def test_the_tls_refusal_is_one_line_and_its_hint(repo: Path) -> None:
    """The refusal as the user sees it (a real `paw serve` process): exit 2, one ``paw:`` line
    saying why and one ``hint:`` line with the ways out (docs/cli.md: every error is one
    ``paw:`` line and at most a hint), nothing else; nothing made, nothing served."""
    done = subprocess.run(
        [sys.executable, "-m", "paw", "serve", "--host", ANY, "--port", "0"],
        cwd=repo, capture_output=True, text=True, timeout=budget(60), check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 2, done.stderr
    assert lines[0] == (
        "paw: refusing to serve on 0.0.0.0 without TLS: others could read the token and the page"
    )
    assert lines[1].startswith("hint: give --cert FILE --key FILE, or --trusted-proxy "), lines
    assert "ssh -L" in lines[1]
    assert not (repo / ".paw" / "web-token.json").exists()


def test_the_token_is_kept_hashed_and_rotates(repo: Path) -> None:
    from paw.adapters.state import StateStore
    from paw.cli.serve import load_token
    from paw.web.auth import hash_token

    state = StateStore(repo / ".paw")
    digest, token = load_token(state, rotate=False)
    assert token is not None
    assert digest == hash_token(token)
    stored = (repo / ".paw" / "web-token.json").read_text("utf-8")
    assert token not in stored
    assert digest in stored
    assert load_token(state, rotate=False) == (digest, None)  # not shown again
    new_digest, new_token = load_token(state, rotate=True)
    assert new_token is not None
    assert new_token != token
    assert new_digest != digest


# -- one-occurrence links ---------------------------------------------------------------------


def _live(repo: Path, needle: str) -> LivePrompt:
    sup = build_supervisor(str(repo))
    found: list[LivePrompt] = []

    def shows() -> bool:
        found[:] = [p for p in sup.poll_once().prompts if needle in (p.prompt.subject or "")]
        return bool(found)

    assert retry_until(shows, budget(90), raises=False), f"no prompt about {needle!r}"
    return found[0]


def _link(repo: Path, p: LivePrompt, *, now: float | None = None, **changes: str) -> str:
    from paw.adapters.state import StateStore
    from paw.supervisor.links import load_link_key

    key = load_link_key(StateStore(repo / ".paw"), rotate=False)  # the server made it
    token = make_link(
        key, repo=find_repo_root(str(repo)), agent=p.agent, prompt_id=p.id,
        fingerprint=changes.get("fingerprint", p.prompt.fingerprint),
        verdict=p.verdict.action.value, now=now or time.time(),
    )  # fmt: skip
    return f"/link/{token}"


def _link_form(web: Web, link: str) -> dict[str, str]:
    status, headers, text = web.request("GET", link)
    assert status == 200, text
    assert "set-cookie" not in headers  # a link signs nobody in
    found = re.search(r"name=csrf value='([^']+)'", text)
    assert found
    return {"csrf": found.group(1)}


def test_a_link_shows_its_one_prompt_and_decides_it_once(web: Web) -> None:
    allow = _live(web.repo, "touch one.txt")
    link = _link(web.repo, allow)
    status, _, text = web.request("GET", link)  # opening it shows the prompt, acts on nothing
    assert status == 200
    assert "touch one.txt" in text
    assert f"<h1>paw · {web.repo.name} · one prompt</h1>" in text  # which repository, no path
    assert str(web.repo) not in text
    assert "value=approve>Approve</button>" in text
    assert _sends(web.repo, allow.id) == []
    assert web.request("GET", "/")[0] == 401  # the link grants nothing else
    assert web.request("GET", "/board")[0] == 401
    # a link signed for another occurrence (fingerprint), an expired one, a forged one
    status, _, text = web.request("GET", _link(web.repo, allow, fingerprint="0" * 16))
    assert status == 410
    assert "changed, ended or was answered" in text
    assert "<form" not in text
    status, _, text = web.request("GET", _link(web.repo, allow, now=time.time() - 3600))
    assert status == 404
    assert "expired" in text
    forged = link[:-3] + ("AAA" if not link.endswith("AAA") else "BBB")
    assert web.request("GET", forged)[0] == 404
    # a cross-site POST, a POST without the link's CSRF token, a POST about another prompt
    form = _link_form(web, link)
    approve = {**form, "prompt": allow.id, "action": "approve"}
    evil = {"Origin": "http://evil.example"}
    assert web.request("POST", link, urlencode(approve), evil)[0] == 403
    assert web.request("POST", link, urlencode({**approve, "csrf": "x"}))[0] == 403
    assert web.request("POST", link, urlencode({**approve, "prompt": "0000000000"}))[0] == 400
    assert _sends(web.repo, allow.id) == []
    # the decision: once
    status, _, text = web.request("POST", link, urlencode(approve))
    assert status == 200, text
    assert "Sent" in text
    assert len(_sends(web.repo, allow.id)) == 1
    asked = [r for r in _audit(web.repo) if r.get("event") == "web-request"]
    assert str(asked[-1]["token_id"]).startswith("link:")
    assert asked[-1]["client"] == "127.0.0.1"
    status, _, text = web.request("POST", link, urlencode(approve))
    assert status == 410
    assert "used already" in text
    assert web.request("GET", link)[0] == 410
    assert len(_sends(web.repo, allow.id)) == 1

    # confirm by link: the first press only shows the warning (the link stays usable)
    push = _live(web.repo, "git push")
    link = _link(web.repo, push)
    approve = {**_link_form(web, link), "prompt": push.id, "action": "approve"}
    status, _, text = web.request("POST", link, urlencode(approve))
    assert status == 200
    assert "Yes, approve it" in text
    assert _sends(web.repo, push.id) == []
    status, _, text = web.request("POST", link, urlencode({**approve, "confirmed": "1"}))
    assert status == 200, text
    assert len(_sends(web.repo, push.id)) == 1


def test_wrong_links_are_rate_limited(repo: Path) -> None:
    """A real `paw serve`: five wrong links from one address are refused (404), the sixth and
    everything after it for a while gets 429, a correctly signed link and the access token
    included (one count of wrong tries for tokens and links: docs/web.md)."""
    proc, url = _serve(repo, "--no-qr")
    try:
        parts = urlsplit(url)
        assert parts.port is not None
        web = Web(proc, "127.0.0.1", parts.port, parts.query.removeprefix("token="), repo)
        codes = [web.request("GET", f"/link/wrong{i}")[0] for i in range(6)]
        assert codes == [404] * 5 + [429], codes
        status, _, text = web.request("GET", "/link/wrong6")
        assert status == 429
        assert "too many wrong links" in text
        from paw.adapters.state import StateStore
        from paw.supervisor.links import load_link_key

        key = load_link_key(StateStore(repo / ".paw"), rotate=False)
        signed = make_link(key, repo=find_repo_root(str(repo)), agent="a1",
                           prompt_id="0123456789", fingerprint="0" * 16, verdict="allow",
                           now=time.time())  # fmt: skip
        assert web.request("GET", f"/link/{signed}")[0] == 429  # not even looked up
        form = urlencode({"csrf": "x", "prompt": "0123456789", "action": "approve"})
        assert web.request("POST", f"/link/{signed}", form)[0] == 429
        assert web.request("GET", f"/login?token={web.token}")[0] == 429
    finally:
        _stop(proc)


def test_a_rotated_token_refuses_the_old_token_its_sessions_and_every_old_link(
    repo: Path,
) -> None:
    """Real `paw serve` processes, one after the other on the same repository: a restart
    alone keeps the token and the links (sessions end with the process: they live in its
    memory); a restart with ``--rotate-token`` makes a new token and a new link key, so the old
    token, a session opened since the restart and a link made before are refused, and only the
    new token and new links work."""
    assert main(["spawn", "a1", "--agent", "scripted"]) == 0
    proc, url = _serve(repo, "--no-qr")
    token = urlsplit(url).query.removeprefix("token=")
    try:
        first = _web(proc, url, repo, token)
        first.login()
        allow = _live(repo, "touch one.txt")
        link = _link(repo, allow)
        assert first.request("GET", link)[0] == 200
        jar = first.cookie
    finally:
        _stop(proc)

    # restarted as it was: the old session is gone; the token and the link still work
    proc, url = _serve(repo, "--no-qr")
    assert "token=" not in url  # (not shown again: only its hash is kept)
    try:
        again = _web(proc, url, repo, token)
        again.cookie = jar
        assert again.request("GET", "/")[0] == 401
        again.login()
        assert again.request("GET", "/")[0] == 200
        jar = again.cookie
        assert again.request("GET", link)[0] == 200
    finally:
        _stop(proc)

    # restarted with --rotate-token: a new token; the old one, its session, the link refused
    proc, url = _serve(repo, "--no-qr", "--rotate-token")
    new = urlsplit(url).query.removeprefix("token=")
    assert new
    assert new != token
    try:
        rotated = _web(proc, url, repo, token)
        rotated.cookie = jar
        assert rotated.request("GET", "/")[0] == 401
        assert rotated.request("GET", f"/login?token={token}")[0] == 401
        status, _, text = rotated.request("GET", link)
        assert status == 404
        assert "Not a valid link" in text
        rotated.token, rotated.cookie = new, None
        rotated.login()
        assert rotated.request("GET", "/")[0] == 200
        assert rotated.request("GET", _link(repo, allow))[0] == 200  # a link made now works
    finally:
        _stop(proc)


def _web(proc: subprocess.Popen[str], url: str, repo: Path, token: str) -> Web:
    port = urlsplit(url).port
    assert port is not None
    return Web(proc, "127.0.0.1", port, token, repo)


def test_a_web_approval_goes_through_the_agents_channel_with_no_key(
    git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real `paw serve` over an agent whose prompt channel is a hook: the stand-in of
    :mod:`tests.support.hook_stand_in` runs paw's real hook program as Qwen Code runs it and
    draws no dialog. The request is listed from the channel; approved from the web, the answer
    goes through the channel (the hook hands the agent ``allow``) and no key is sent: the
    audit's send names the channel and carries no keys, after the web request's record."""
    from tests.support.hook_stand_in import (
        COMMAND,
        EVENT,
        channel_files,
        configure_stand_in,
        launched_pid,
        stop_hooks,
    )

    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.chdir(git_repo)
    go = configure_stand_in(git_repo, server.socket_name, tmp_path)
    pid = None
    proc, url = _serve(git_repo, "--no-qr")
    try:
        parts = urlsplit(url)
        assert parts.port is not None
        web = Web(proc, "127.0.0.1", parts.port, parts.query.removeprefix("token="), git_repo)
        assert main(["spawn", "alice", "--agent", "qwen-code"]) == 0
        pid = launched_pid(build_supervisor(str(git_repo)).ctx.state)
        go.write_text(json.dumps(EVENT), encoding="utf-8")  # the hook lands the request
        web.login()
        prompt = _wait_prompt(web, "touch waked.txt")
        card = _card(web, prompt)
        assert "title='source'>channel</span>" in card, card
        assert "value=approve>Approve</button>" in card
        status, text = web.decide(prompt, "approve")
        assert status == 200, text
        assert "Sent" in text
        (sent,) = _sends(git_repo, prompt)
        assert sent["path"] == "channel", sent
        assert sent.get("keys") is None, sent
        assert sent["subject"] == COMMAND
        asked = [r for r in _audit(git_repo) if r.get("event") == "web-request"]
        assert asked[-1]["prompt_id"] == prompt
        records = _audit(git_repo)
        assert records.index(asked[-1]) < records.index(sent)
        keys = [r for r in records if r.get("path") == "keys" or r.get("keys")]
        assert keys == [], keys  # not one key went to the agent's pane
        done = git_repo / ".paw" / "channels" / "alice"

        def answered() -> list[str]:
            return [json.loads(p.read_text("utf-8"))["outcome"] for p in done.rglob("done/*.json")]

        assert retry_until(lambda: answered() == ["answered:allow"], budget(60),
                           raises=False), (answered(), channel_files(git_repo))  # fmt: skip
    finally:
        if pid is not None:
            stop_hooks(pid)
        _stop(proc)


def test_over_tls_the_cookie_is_secure(repo: Path, tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    proc, url = _serve(repo, "--cert", str(cert), "--key", str(key))
    parts = urlsplit(url)
    assert parts.scheme == "https"
    assert parts.port is not None
    context = ssl.create_default_context(cafile=str(cert))
    conn = http.client.HTTPSConnection("127.0.0.1", parts.port, context=context,
                                       timeout=budget(60))  # fmt: skip
    try:
        conn.request("GET", f"/login?{parts.query}")
        response = conn.getresponse()
        assert response.status == 303
        cookie = (response.getheader("set-cookie") or "").lower()
        assert "secure" in cookie
        assert "httponly" in cookie
        assert "samesite=strict" in cookie
    finally:
        conn.close()
        _stop(proc)


def test_which_binds_need_tls() -> None:
    from paw.cli import UsageError
    from paw.cli.serve import check_bind

    for host in ("127.0.0.1", "127.0.0.2", "::1", "localhost"):
        check_bind(host, cert=None, key=None, trusted_proxy=False)
    for host in (ANY, "::", "192.168.1.10", "box.example"):  # a name may resolve anywhere
        with pytest.raises(UsageError, match="without TLS"):
            check_bind(host, cert=None, key=None, trusted_proxy=False)
        check_bind(host, cert="c.pem", key="k.pem", trusted_proxy=False)
        check_bind(host, cert=None, key=None, trusted_proxy=True)
