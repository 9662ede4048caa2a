"""`paw serve` behind a tunnel or a reverse proxy (issue 35), end to end: a real `paw serve`
process on 127.0.0.1, over a real supervisor on a private tmux server with a scripted agent,
reached through a real HTTP reverse proxy on 127.0.0.1 that passes the browser's ``Host`` on and
appends the peer's address to ``X-Forwarded-For``, as ``tailscale serve`` does.

With ``[serve] public_url`` set, the tunnel's name is answered: the token signs in (the cookie
is ``Secure``: TLS ends at the tunnel), the board is read, a notification's one-occurrence link
opens and decides. A name nobody gave still gets 421 (DNS rebinding). The audit names the
client the proxy saw with ``--trusted-proxy``, and the proxy itself without it (a forwarded
header is believed only when told to).
"""

from __future__ import annotations

import http.client
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, ClassVar
from urllib.parse import urlencode, urlsplit

import pytest
from libtmux.test.retry import retry_until

from paw.cli import main
from paw.cli.compose import build_supervisor
from paw.supervisor.links import occurrence_link
from tests.support.budget import budget
from tests.web.test_serve import STEPS, UA, _audit, _live, _sends, _serve, _stop

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from libtmux.server import Server

    from paw.supervisor.model import LivePrompt

pytestmark = [pytest.mark.tmux, pytest.mark.git]

PUBLIC = "https://build-box.example.ts.net"  # the tunnel's name, as the phone's browser has it
TUNNEL_HOST = "build-box.example.ts.net"
PEER = "100.101.102.103"  # the phone's address as the tunnel sees it (its tailnet address)
SPOOFED = "198.51.100.66"  # what the phone's own request claims to be


class _Proxy(BaseHTTPRequestHandler):
    """Forwards each request to ``upstream`` unchanged (the browser's Host included) and adds
    the peer to ``X-Forwarded-For``, as ``tailscale serve`` (Go's reverse proxy) does."""

    upstream: ClassVar[list[int]] = [0]  # the port of `paw serve` (set once it runs)
    protocol_version = "HTTP/1.1"

    def _forward(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        sent = {k: v for k, v in self.headers.items() if k.lower() != "connection"}
        seen = self.headers.get("X-Forwarded-For")
        sent["X-Forwarded-For"] = f"{seen}, {PEER}" if seen else PEER
        conn = http.client.HTTPConnection("127.0.0.1", self.upstream[0], timeout=budget(60))
        try:
            conn.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
            for key, value in sent.items():
                conn.putheader(key, value)
            conn.endheaders(body)
            response = conn.getresponse()
            data = response.read()
            self.send_response(response.status)
            for key, value in response.getheaders():
                if key.lower() not in ("connection", "transfer-encoding", "content-length"):
                    self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        finally:
            conn.close()

    do_GET = do_POST = _forward  # noqa: N815 - the names http.server calls

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base's name
        pass


@pytest.fixture
def proxy() -> Iterator[ThreadingHTTPServer]:
    """The reverse proxy on 127.0.0.1 (a free port)."""
    found = ThreadingHTTPServer(("127.0.0.1", 0), _Proxy)
    thread = threading.Thread(target=found.serve_forever, daemon=True)
    thread.start()
    yield found
    found.shutdown()
    found.server_close()
    thread.join()


@pytest.fixture
def repo(git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose paw uses the plugin's private tmux server and names the tunnel as
    its public URL; its scripted agent spawned and asking."""
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.chdir(git_repo)
    script = tmp_path / "steps.txt"
    script.write_text("\n".join(STEPS) + "\n", encoding="utf-8")
    command = json.dumps(["{python}", "-m", "paw.demo.agent", "--script", str(script)])
    (git_repo / "paw.toml").write_text(
        f'[agents.scripted]\ncommand = {command}\n\n[serve]\npublic_url = "{PUBLIC}"\n', "utf-8"
    )
    assert main(["spawn", "a1", "--agent", "scripted"]) == 0
    return git_repo


class Phone:
    """A browser that reaches the proxy under ``host`` (its Host header), with its cookie."""

    def __init__(self, proxy: ThreadingHTTPServer, host: str) -> None:
        self.port, self.host = proxy.server_address[1], host
        self.cookie: str | None = None

    def request(
        self, method: str, path: str, body: str | None = None
    ) -> tuple[int, dict[str, str], str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=budget(60))
        sent = {"User-Agent": UA, "Host": self.host, "X-Forwarded-For": SPOOFED}
        if self.cookie:
            sent["Cookie"] = self.cookie
        if body is not None:  # the browser's own form: its Origin is the tunnel's
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["Origin"] = f"https://{self.host}"
        try:
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            got = {k.lower(): v for k, v in response.getheaders()}
            return response.status, got, response.read().decode("utf-8")
        finally:
            conn.close()

    def decide_by_link(self, link: str, p: LivePrompt) -> None:
        """Open ``link`` (the full URL a notification carries) and approve its prompt."""
        assert link.startswith(f"{PUBLIC}/link/"), link
        path = urlsplit(link).path
        status, headers, page = self.request("GET", path)
        assert status == 200, page
        assert "set-cookie" not in headers
        csrf = re.search(r"name=csrf value='([^']+)'", page)
        assert csrf
        form = {"csrf": csrf.group(1), "prompt": p.id, "action": "approve"}
        if p.verdict.action.value == "confirm":
            status, _, page = self.request("POST", path, urlencode(form))
            assert status == 200, page
            assert "Yes, approve it" in page
            form["confirmed"] = "1"
        status, _, page = self.request("POST", path, urlencode(form))
        assert status == 200, page
        assert "Sent" in page


def _link(repo: Path, p: LivePrompt) -> str:
    """The link a wave's escalation of ``p`` carries (built as the wave builds it)."""
    ctx = build_supervisor(str(repo)).ctx
    link = occurrence_link(
        ctx, agent=p.agent, prompt_id=p.id, fingerprint=p.prompt.fingerprint,
        verdict=p.verdict.action.value, now=time.time(),
    )  # fmt: skip
    assert link is not None
    return link


def _client_of(repo: Path, prompt: str) -> object:
    """The client address the audit's last web request about ``prompt`` names."""
    asked = [r for r in _audit(repo) if r.get("event") == "web-request"]
    found = [r for r in asked if r.get("prompt_id") == prompt]
    assert found, "no web-request record"
    return found[-1]["client"]


def test_paw_serve_works_through_a_tunnel_that_keeps_the_browsers_host(
    repo: Path, proxy: ThreadingHTTPServer
) -> None:
    proxy_port = proxy.server_address[1]
    proc, url = _serve(repo, "--trusted-proxy", "--allow-host", f"localhost:{proxy_port}")
    try:
        parts = urlsplit(url)
        assert parts.port is not None
        _Proxy.upstream[0] = parts.port
        token = parts.query.removeprefix("token=")
        phone = Phone(proxy, TUNNEL_HOST)

        # sign in under the tunnel's name: the cookie is Secure (TLS ended at the tunnel)
        status, headers, text = phone.request("GET", f"/login?token={token}")
        assert status == 303, (status, text)
        cookie = headers["set-cookie"]
        assert {"secure", "httponly", "samesite=strict"} <= {
            part.strip().lower() for part in cookie.split(";")
        }, cookie
        phone.cookie = cookie.split(";", 1)[0]

        # the board, and the page listing the agent's prompt
        def lists_it() -> bool:
            status, _, text = phone.request("GET", "/")
            assert status == 200, text
            return "touch one.txt" in text

        assert retry_until(lists_it, budget(90), raises=False), "the page never listed the prompt"
        status, _, text = phone.request("GET", "/board")
        assert status == 200, text
        assert "touch one.txt" in text

        # a notification's link, built with public_url, opens and decides through the tunnel
        allow = _live(repo, "touch one.txt")
        phone.decide_by_link(_link(repo, allow), allow)
        assert len(_sends(repo, allow.id)) == 1
        # --trusted-proxy: the audit names the peer the proxy saw, not what the phone claimed
        assert _client_of(repo, allow.id) == PEER

        # a name given with --allow-host (`ssh -L` to another port) is answered
        assert Phone(proxy, f"localhost:{proxy_port}").request("GET", "/login?token=x")[0] == 401
        # names nobody gave: 421, before anything is read or decided
        for host in ("evil.example", f"127.0.0.1:{proxy_port}", f"{TUNNEL_HOST}:8443",
                     f"x.{TUNNEL_HOST}", ""):  # fmt: skip
            stranger = Phone(proxy, host)
            stranger.cookie = phone.cookie
            for path in ("/", "/board", f"/login?token={token}"):
                assert stranger.request("GET", path)[0] == 421, (host, path)
    finally:
        _stop(proc)


def test_without_trusted_proxy_a_forwarded_address_is_not_believed(
    repo: Path, proxy: ThreadingHTTPServer
) -> None:
    proc, url = _serve(repo)
    try:
        parts = urlsplit(url)
        assert parts.port is not None
        _Proxy.upstream[0] = parts.port
        allow = _live(repo, "touch one.txt")
        Phone(proxy, TUNNEL_HOST).decide_by_link(_link(repo, allow), allow)
        assert len(_sends(repo, allow.id)) == 1
        assert _client_of(repo, allow.id) == "127.0.0.1"  # the proxy: all the server knows
    finally:
        _stop(proc)


def test_the_names_a_loopback_server_answers_and_nothing_broader() -> None:
    from paw.cli import UsageError
    from paw.cli.serve import allowed_hosts
    from paw.core.config import PawConfig

    own = frozenset({"127.0.0.1:8765", "localhost:8765", "[::1]:8765"})
    assert allowed_hosts("127.0.0.1", 8765) == own
    assert allowed_hosts("127.0.0.1", 8765, public_url=PUBLIC, named=["LocalHost:9000"]) == own | {
        TUNNEL_HOST,
        "localhost:9000",
    }
    assert allowed_hosts("127.0.0.1", 8765, public_url="http://127.0.0.1:9000") == own | {
        "127.0.0.1:9000"
    }
    assert allowed_hosts("192.168.1.10", 8765, named=["box"]) is None  # TLS or a proxy guards it
    for bad in ("https://box", "box/x", "user@box", "box:x", "box:", "*", "*.box", ""):
        with pytest.raises(UsageError, match="--allow-host"):
            allowed_hosts("127.0.0.1", 8765, named=[bad])
    serve = PawConfig.model_validate({"serve": {"allow_hosts": ["Box.Example:9000"]}}).serve
    assert serve.allow_hosts == ("box.example:9000",)
    with pytest.raises(ValueError, match="NAME or NAME:PORT"):
        PawConfig.model_validate({"serve": {"allow_hosts": ["*.example"]}})
