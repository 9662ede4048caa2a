"""The web application of `paw serve` (Starlette): sign-in, the page, decisions.

Nothing here acts on GET. A decision is a POST from a signed-in browser (the session cookie is
HttpOnly and SameSite=Strict) that carries its session's CSRF token and, when the browser says
where it comes from (``Origin``, ``Sec-Fetch-Site``), comes from this very page. The verdict
applies as in the terminal: ``allow`` is one press, ``confirm`` needs a second explicit step
showing the warning, ``block`` is never approved from here (no override is ever sent), and a
dialog only a human can answer is offered nothing.
"""

from __future__ import annotations

import hmac
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

import anyio
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from paw.core.links import LinkClaim, link_csrf, link_id, read_link
from paw.core.models import Action
from paw.supervisor.model import Outcome
from paw.web import assets, render
from paw.web import parts as page_parts
from paw.web.auth import FailedTries, Session, Sessions, csrf_matches, token_id, token_matches
from paw.web.source import Asker

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable

    from starlette.requests import Request
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    from paw.supervisor.model import LivePrompt
    from paw.web.source import Board, Source

COOKIE = "paw_session"
USER_AGENT_MAX = 300
FORM_MAX = 4096
NAME_MAX = 200  # a selected agent's name, as asked
SSE_TICK_S = 0.25  # without a feed, an open page's stream looks for a change this often
SSE_FED_TICK_S = 1.0  # with one, new pictures wake it; this only for the audit tail and the pane
SSE_KEEPALIVE_S = 15.0  # a comment line this often keeps proxies from closing a quiet stream
SSE_RETRY_MS = 3000  # the browser reconnects after this long when the stream drops
KNOWN_MAX = 64  # parts kept for the short poll (at 200 agents the table is about 30 KiB)
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",  # never sent to another site; Origin stays real
    "Cache-Control": "no-store",
}


@dataclass
class WebSettings:
    """How one server runs."""

    repo: str  # the repository's root (links are signed over it; never shown: see ``name``)
    token_hash: str
    tls: bool = False  # the cookie is Secure (TLS here, or at the tunnel of an https public_url)
    allowed_hosts: frozenset[str] | None = None  # Host headers accepted (None: any)
    clock: Callable[[], float] = time.time
    link_key: str | None = None  # signs one-occurrence links (None: links are refused)
    home: str | None = None  # the user's home: paw's own words show it as ``~``
    sessions: Sessions = field(default_factory=Sessions)
    failed: FailedTries = field(default_factory=FailedTries)

    @property
    def name(self) -> str:
        """The repository as the page names it: its directory's name, never the full path
        (a page on a phone, a screenshot, a shared screen need not show the machine's
        directories)."""
        return repo_name(self.repo)


def repo_name(repo: str) -> str:
    """The last part of the path ``repo`` (the whole of it when it has none, e.g. ``/``)."""
    return PurePath(repo).name or repo


def create_app(source: Source, settings: WebSettings) -> ASGIApp:
    """The ASGI application over ``source``."""
    web = _Web(source, settings)
    routes = [
        Route("/", web.home),
        Route("/login", web.login),
        Route("/board", web.board),
        Route("/events", web.events),
        Route("/decide", web.decide, methods=["POST"]),
        Route("/link/{token}", web.link, methods=["GET", "POST"]),
        Route("/static/app.css", lambda _r: Response(assets.CSS, media_type="text/css")),
        Route("/static/app.js", lambda _r: Response(assets.JS, media_type="text/javascript")),
    ]
    return _Guarded(Starlette(routes=routes), settings.allowed_hosts)


class _Guarded:
    """Refuses a Host header the server does not answer to (DNS rebinding) and adds the
    security headers to every response."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str] | None) -> None:
        self.app, self.hosts = app, hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.hosts is not None:
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1").lower()
            if host not in self.hosts:
                await PlainTextResponse("unknown host", 421)(scope, receive, send)
                return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.setdefault("headers", [])
                headers += [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
            await send(message)

        await self.app(scope, receive, with_headers)


class _Web:
    def __init__(self, source: Source, settings: WebSettings) -> None:
        self.source, self.s = source, settings
        self.known: OrderedDict[str, str] = OrderedDict()  # the poll's parts pages hold

    # -- sign-in -------------------------------------------------------------------------------

    def _session(self, request: Request) -> Session | None:
        return self.s.sessions.get(request.cookies.get(COOKIE), self.s.clock())

    @staticmethod
    def _client(request: Request) -> str:
        return request.client.host if request.client else "unknown"

    async def login(self, request: Request) -> Response:
        now, client = self.s.clock(), self._client(request)
        if self.s.failed.blocked(client, now):
            return _page("Too many tries", "too many wrong tokens: wait a minute", 429)
        token = request.query_params.get("token", "")
        if not token or not token_matches(token, self.s.token_hash):
            self.s.failed.failed(client, now)
            return _page("Not signed in", "wrong or old token: open the URL `paw serve` "
                         "printed (`paw serve --rotate-token` makes a new one)", 401)  # fmt: skip
        session = self.s.sessions.open(token_id(self.s.token_hash), now)
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(
            COOKIE, session.key, max_age=int(self.s.sessions.ttl_s), httponly=True,
            samesite="strict", secure=self.s.tls, path="/",
        )  # fmt: skip
        return response

    # -- reading -------------------------------------------------------------------------------

    async def home(self, request: Request) -> Response:
        session = self._session(request)
        if session is None:
            return _signed_out()
        board, extra = await run_in_threadpool(self._read, _selected(request))
        parts = render.board_parts(board, session.csrf, extra)
        self._keep({page_parts.digest(s): s for s in (page_parts.steady(h) for _, h in parts)})
        return HTMLResponse(render.home_page(parts, self.s.name))

    async def board(self, request: Request) -> Response:
        """The board, whole (HTML); or, with ``parts=1`` (the page's short poll, when the
        events cannot be had), only what changed since the parts the page holds (``have``):
        JSON ``{"events": [[KIND, DATA], …], "have": …}``, the events as the stream sends
        them (``part``, ``row``; :func:`page_parts.poll_updates`), applied by the same code."""
        session = self._session(request)
        if session is None:
            return _signed_out()
        board, extra = await run_in_threadpool(self._read, _selected(request))
        if request.query_params.get("parts") != "1":
            return HTMLResponse(render.render_board(board, session.csrf, extra))
        parts = render.board_parts(board, session.csrf, extra)
        have = request.query_params.get("have", "")
        events, now, sent = page_parts.poll_updates(parts, have, self.known)
        self._keep(sent)
        return JSONResponse({"events": events, "have": now})

    def _keep(self, parts: dict[str, str]) -> None:
        """Keep the last parts pages were given (digest -> steady HTML, at most KNOWN_MAX):
        a poll then sends an agent's changed row, not the table."""
        for version, html in parts.items():
            self.known[version] = html
            self.known.move_to_end(version)
        while len(self.known) > KNOWN_MAX:
            self.known.popitem(last=False)

    async def events(self, request: Request) -> Response:
        """The list as server-sent events: first the whole board (``board``), then each part
        of it again (``part``) only when more than its prompts' ages changed (the page ages
        them itself), or only the agents' rows that changed (``row``; see
        :func:`page_parts.updates`). At 200 agents one new prompt sends the prompts and one row,
        not the agents' table. The page falls back to the short poll of ``/board`` when this
        stream cannot be had."""
        session = self._session(request)
        if session is None:
            return _signed_out()
        selected = _selected(request)

        async def stream() -> AsyncIterator[str]:
            yield f"retry: {SSE_RETRY_MS}\n\n"
            last: dict[str, str] | None = None  # each part as last sent, ages left out
            quiet = 0.0
            # With the feed a new picture wakes the stream at once; the tick still brings the
            # audit tail and the selected agent's pane, and sees a session end.
            fed = self.source.feed is not None
            tick = SSE_FED_TICK_S if fed else SSE_TICK_S
            changed = self.source.changes() if fed else None
            try:
                while True:
                    if self.s.sessions.get(session.key, self.s.clock()) is None:
                        yield "event: signed-out\ndata: \n\n"
                        return
                    board, extra = await run_in_threadpool(self._read, selected)
                    parts = render.board_parts(board, session.csrf, extra)
                    sent = False
                    if last is None:
                        yield _event("board", "".join(page_parts.wrap(n, h) for n, h in parts))
                        last, sent = {n: page_parts.steady(h) for n, h in parts}, True
                    else:
                        for name, html in parts:
                            events, last[name] = page_parts.updates(name, last.get(name), html)
                            for kind, data in events:
                                yield _event(kind, data)
                                sent = True
                    if sent:
                        quiet = 0.0
                    elif quiet >= SSE_KEEPALIVE_S:
                        yield ": keep-alive\n\n"
                        quiet = 0.0
                    started = time.monotonic()
                    if changed is None:
                        await anyio.sleep(tick)
                    else:
                        with anyio.move_on_after(tick):
                            await changed.wait()
                        changed.clear()
                    quiet += time.monotonic() - started
            finally:
                if changed is not None:
                    self.source.forget(changed)

        return StreamingResponse(stream(), media_type="text/event-stream")

    def _read(self, selected: str | None) -> tuple[Board, render.Extra]:
        board = self.source.read_board()
        details = self.source.read_details(selected) if selected is not None else None
        audit = self.source.read_audit()
        return board, render.Extra(selected, details, audit, now=self.s.clock(), home=self.s.home)

    # -- deciding ------------------------------------------------------------------------------

    async def decide(self, request: Request) -> Response:
        session = self._session(request)
        if session is None:
            return _signed_out()
        if _cross_site(request):
            return _page("Refused", "a request from another site: nothing done", 403)
        body = await request.body()
        form = {k: v[0] for k, v in parse_qs(body[:FORM_MAX].decode("utf-8", "replace")).items()}
        if not csrf_matches(session, form.get("csrf")):
            return _page("Refused", "the form is stale or not this page's: reload it", 403)
        action, prompt_id = form.get("action", ""), form.get("prompt", "")
        if action not in ("approve", "deny") or not prompt_id:
            return _page("Refused", "not a decision", 400)
        live = await run_in_threadpool(self._live, prompt_id)
        if live is not None and live.only_in_the_pane:
            return _page("Needs the terminal", "a dialog only a human can answer: answer it "
                         f"in the pane (paw attach {live.agent})", 409)  # fmt: skip
        if action == "approve" and live is not None and live.verdict.action is Action.BLOCK:
            return _page("Needs the terminal", "blocked by the guard: not approvable from the "
                         f"web (paw approve {prompt_id} --override REASON)", 409)  # fmt: skip
        asker = Asker(
            self._client(request), session.token_id,
            request.headers.get("user-agent", "")[:USER_AGENT_MAX],
        )  # fmt: skip
        confirmed = form.get("confirmed") == "1"
        decision = await run_in_threadpool(
            self.source.decide, action, prompt_id, asker, confirmed=confirmed
        )
        if decision.outcome is Outcome.NEEDS_CONFIRMATION:
            subject = live.prompt.subject or live.prompt.question if live else ""
            return HTMLResponse(
                render.render_confirm(decision, session.csrf, subject, home=self.s.home)
            )
        said = render.tilde(decision.reason, self.s.home)  # (paw's words: the home as ~)
        if decision.outcome is Outcome.NEEDS_OVERRIDE:
            return _page("Needs the terminal", said, 409)
        if decision.outcome in (Outcome.SENT, Outcome.SENT_UNCONFIRMED):
            return _page("Sent", said, 200, status=decision.outcome.value)
        return _page("Not sent", said, 409, status=decision.outcome.value)

    # -- one-occurrence links --------------------------------------------------------------------

    async def link(self, request: Request) -> Response:
        now, client = self.s.clock(), self._client(request)
        if self.s.failed.blocked(client, now):
            return _page("Too many tries", "too many wrong links: wait a minute", 429, home=False)
        key = self.s.link_key or ""
        claim = read_link(key, request.path_params["token"], now) if key else "links are off"
        if not isinstance(claim, str) and claim.repo != self.s.repo:
            claim = "a link of another repository"
        if isinstance(claim, str):
            self.s.failed.failed(client, now)
            return _page("Not a valid link", claim, 404, home=False)
        if request.method == "POST" and _cross_site(request):
            return _page("Refused", "a request from another site: nothing done", 403, home=False)
        if await run_in_threadpool(self.source.link_used, claim.nonce):
            return _page("Link used", "this link was used already: nothing offered", 410,
                         home=False)  # fmt: skip
        live = await run_in_threadpool(self._live, claim.prompt_id)
        if live is None or not _same(live, claim):
            return _page("Nothing to decide", "the prompt of this link changed, ended or was "
                         "answered: nothing offered", 410, home=False)  # fmt: skip
        target, csrf = request.url.path, link_csrf(key, claim)
        if request.method == "GET":  # a link never acts on GET
            wave = self.source.wave_tasks().get(live.agent)
            return HTMLResponse(
                render.render_link(live, now, csrf, target, self.s.name, self.s.home, wave)
            )
        return await self._decide_by_link(request, claim, live, csrf, target)

    async def _decide_by_link(
        self, request: Request, claim: LinkClaim, live: LivePrompt, csrf: str, target: str
    ) -> Response:
        body = await request.body()
        form = {k: v[0] for k, v in parse_qs(body[:FORM_MAX].decode("utf-8", "replace")).items()}
        if not hmac.compare_digest(form.get("csrf", ""), csrf):
            return _page("Refused", "the form is not this link's: open the link again", 403,
                         home=False)  # fmt: skip
        action, confirmed = form.get("action", ""), form.get("confirmed") == "1"
        if action not in ("approve", "deny") or form.get("prompt") != claim.prompt_id:
            return _page("Refused", "not a decision on this link's prompt", 400, home=False)
        if live.only_in_the_pane:
            return _page("Needs the terminal", "a dialog only a human can answer: answer it "
                         f"in the pane (paw attach {live.agent})", 409, home=False)  # fmt: skip
        if action == "approve" and live.verdict.action is Action.BLOCK:
            return _page("Needs the terminal", "blocked by the guard: not approvable from the "
                         "web", 409, home=False)  # fmt: skip
        asker = Asker(self._client(request), link_id(claim),
                      request.headers.get("user-agent", "")[:USER_AGENT_MAX])  # fmt: skip
        first_step = action == "approve" and live.verdict.action is not Action.ALLOW
        if not (first_step and not confirmed) and not await run_in_threadpool(
            self.source.use_link, claim.nonce, claim.expires
        ):
            return _page("Link used", "this link was used already: nothing done", 410,
                         home=False)  # fmt: skip
        decision = await run_in_threadpool(
            self.source.decide, action, claim.prompt_id, asker, confirmed=confirmed
        )
        if decision.outcome is Outcome.NEEDS_CONFIRMATION:
            subject = live.prompt.subject or live.prompt.question
            return HTMLResponse(render.render_confirm(decision, csrf, subject, target, self.s.home))
        said = render.tilde(decision.reason, self.s.home)
        if decision.outcome in (Outcome.SENT, Outcome.SENT_UNCONFIRMED):
            return _page("Sent", said, 200, status=decision.outcome.value, home=False)
        return _page("Not sent", said, 409, status=decision.outcome.value, home=False)

    def _live(self, prompt_id: str) -> LivePrompt | None:
        """The prompt as it is now (a sweep now: the page's last picture may be older)."""
        board = self.source.read_board(fresh=True)
        return next((p for p in board.snapshot.prompts if p.id == prompt_id), None)


def _selected(request: Request) -> str | None:
    """The agent the page asked to see (``?agent=NAME``), or None."""
    name = request.query_params.get("agent", "")[:NAME_MAX]
    return name or None


def _event(name: str, text: str) -> str:
    """One server-sent event (each line of ``text`` a ``data:`` line)."""
    data = "".join(f"data: {line}\n" for line in text.split("\n"))
    return f"event: {name}\n{data}\n"


def _cross_site(request: Request) -> bool:
    """True when the browser says the POST comes from another site than this page.

    ``Sec-Fetch-Site`` decides when the browser sends it (every current one does): the page's
    own forms are ``same-origin``. Without it, ``Origin`` must name this very host. The page's
    referrer policy is ``same-origin``: under ``no-referrer`` a browser sends ``Origin: null``
    for its own form posts (as Chromium does), indistinguishable from a sandboxed stranger."""
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return site not in ("same-origin", "none")
    origin = request.headers.get("origin")
    if origin is None:
        return False  # no browser sends a cross-site POST without Origin; CSRF still applies
    return (
        origin == "null"
        or urlsplit(origin).netloc.lower() != request.headers.get("host", "").lower()
    )


def _same(live: LivePrompt, claim: LinkClaim) -> bool:
    """True while the prompt is the very occurrence the link was signed for."""
    return (
        live.agent == claim.agent
        and live.prompt.fingerprint == claim.fingerprint
        and live.verdict.action.value == claim.verdict
    )


def _page(title: str, text: str, code: int, *, status: str = "", home: bool = True) -> Response:
    page = render.render_result(title, text, status=status, home=home)
    return HTMLResponse(page, status_code=code)


def _signed_out() -> Response:
    return _page("Not signed in", "open the URL `paw serve` printed (it carries the token)", 401)
