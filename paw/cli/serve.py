"""`paw serve`: the web page over this repository's supervisor (docs/web.md)."""

from __future__ import annotations

import argparse
import ipaddress
import socket
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, cast

from paw.cli import UsageError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from paw.supervisor.feed import Feed
    from paw.supervisor.fleet import Fleet
    from paw.supervisor.records import StateStore
    from paw.supervisor.service import Supervisor

TOKEN_DOC = "web-token"  # noqa: S105 - a file name: .paw/web-token.json holds the SHA-256 only
DEFAULT_PORT = 8765
FALLBACK_POLL_S = 0.5  # without pane events (no control mode yet), the feed sweeps this often
GRACE_S = 3  # on SIGTERM/Ctrl-C: open connections (a page's keep-alive) get this long


def is_loopback(host: str) -> bool:
    """True for an address only this machine reaches (``localhost`` counts)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name: it may resolve anywhere


def check_bind(host: str, *, cert: str | None, key: str | None, trusted_proxy: bool) -> None:
    """Refuse (UsageError, exit 2) a bind others can reach without TLS or a proxy that has it."""
    if (cert is None) != (key is None):
        raise UsageError("--cert and --key go together", hint="give both, or neither")
    if is_loopback(host) or cert is not None or trusted_proxy:
        return
    raise UsageError(
        f"refusing to serve on {host} without TLS: others could read the token and the page",
        hint="give --cert FILE --key FILE, or --trusted-proxy when a proxy or tunnel in front "
        "terminates TLS; or keep 127.0.0.1 and use `ssh -L` (docs/web.md)",
    )


def allowed_hosts(
    bind: str, port: int, *, public_url: str | None = None, named: Sequence[str] = ()
) -> frozenset[str] | None:
    """The ``Host`` headers a server bound to ``bind``:``port`` answers (others get 421: a page
    of another site whose name points here, DNS rebinding, reads nothing). On a loopback
    address: its own names on that port, ``public_url``'s host (a tunnel or proxy in front,
    such as ``tailscale serve``, passes the browser's Host on) and the ``named`` ones
    (``--allow-host``, ``[serve] allow_hosts``), nothing broader. None (any) for another
    address: TLS or the trusted proxy guards it. UsageError for a name that is not
    ``NAME[:PORT]``."""
    from paw.core.config import host_header, public_host

    try:
        extra = {host_header(name) for name in named}
    except ValueError as err:
        raise UsageError(f"--allow-host {err}", hint="e.g. --allow-host box.example.ts.net "
                         "or --allow-host localhost:9000") from err  # fmt: skip
    if not is_loopback(bind):
        return None
    own = ("127.0.0.1", "localhost", "[::1]") if bind != "::1" else ("[::1]", "localhost")
    hosts = {f"{n}:{port}" for n in own} | extra
    if public_url is not None:
        hosts.add(public_host(public_url))
    return frozenset(hosts)


def load_token(state: StateStore, *, rotate: bool) -> tuple[str, str | None]:
    """The stored token hash, and the token itself when it was just made (first start or
    ``rotate``); otherwise None (only its hash is kept)."""
    from paw.web.auth import hash_token, new_token

    doc = state.read(TOKEN_DOC)
    stored = doc.get("sha256") if doc else None
    if isinstance(stored, str) and not rotate:
        return stored, None
    token = new_token()
    digest = hash_token(token)
    state.write(TOKEN_DOC, {"sha256": digest, "created": time.time()})
    return digest, token


def announce(base: str, token: str | None, *, qr: bool) -> str:
    """What `paw serve` prints before serving: the sign-in URL when the token was just made
    (with ``qr``, also as a QR code a phone's camera opens), else where it serves."""
    if token is None:
        return (
            f"paw serve: {base} (sign in with the URL printed when the token was made; "
            "`paw serve --rotate-token` makes a new one)\n"
        )
    url = f"{base}login?token={token}"
    lines = f"paw serve: {url}\n"
    lines += "  (the token is shown once: only its hash is kept; --rotate-token makes a new one)\n"
    if qr:
        lines += qr_code(url) + "  (the same URL for a phone's camera; --no-qr leaves it out)\n"
    return lines


def qr_code(text: str) -> str:
    """``text`` as a QR code in half-block characters (two module rows a line, the quiet zone
    included), drawn here: nothing is fetched. segno (pure Python, no dependency) encodes."""
    import io

    import segno

    out = io.StringIO()
    segno.make(text, error="l", micro=False).terminal(out=out, compact=True)
    return out.getvalue()


def _socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {err.strerror}",
                         hint="pick another --port (0: any free one)") from err  # fmt: skip
    sock.listen(64)
    return sock


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the page of agents and prompts (and decisions) over HTTP(S)."""
    check_bind(args.host, cert=args.cert, key=args.key, trusted_proxy=args.trusted_proxy)
    allowed_hosts(args.host, 0, named=args.allow_host)  # a wrong name: exit 2 before anything
    from paw.cli.compose import build_fleet
    from paw.supervisor.links import load_link_key

    _stacks_on_request()
    sup = build_fleet(args.repo, control=True)  # a long-running process, like the TUI
    digest, token = load_token(sup.ctx.state, rotate=args.rotate_token)
    link_key = load_link_key(sup.ctx.state, rotate=args.rotate_token)
    sock = _socket(args.host, args.port)
    port = sock.getsockname()[1]
    scheme = "https" if args.cert else "http"
    shown = f"[{args.host}]" if ":" in args.host else args.host
    base = f"{scheme}://{shown}:{port}/"
    qr = not args.no_qr and sys.stdout.isatty()  # (a log or a pipe gets the lines only)
    print(announce(base, token, qr=qr), end="")
    sys.stdout.flush()
    _run(sup, sock, args, digest, link_key)
    return 0


def _stacks_on_request() -> None:
    """``kill -USR1`` of a running `paw serve` writes every thread's stack to its stderr (a
    page that stops answering is then a finding, not a shrug); elsewhere than POSIX, nothing."""
    import faulthandler
    import signal

    usr1 = getattr(signal, "SIGUSR1", None)
    if usr1 is not None and sys.__stderr__ is not None:
        faulthandler.register(usr1, file=sys.__stderr__, all_threads=True)


def _run(sup: Supervisor | Fleet, sock: socket.socket, args: argparse.Namespace,
         digest: str, link_key: str) -> None:  # fmt: skip
    import uvicorn

    from paw.adapters.paths import home_directory
    from paw.adapters.wave_watch import WaveWatcher
    from paw.cli.compose import STATE_DIR
    from paw.web.app import WebSettings, create_app
    from paw.web.source import Source

    port = sock.getsockname()[1]
    serve = sup.ctx.config.serve
    hosts = allowed_hosts(args.host, port, public_url=serve.public_url,
                          named=[*serve.allow_hosts, *args.allow_host])  # fmt: skip
    # an https public URL: TLS ends at the tunnel or proxy in front, so the cookie is Secure
    tls = bool(args.cert) or (serve.public_url or "").startswith("https://")
    settings = WebSettings(repo=sup.ctx.repo_root, token_hash=digest, tls=tls,
                           allowed_hosts=hosts, link_key=link_key,
                           home=home_directory())  # fmt: skip
    feed = start_feed(sup)
    waves = WaveWatcher(Path(sup.ctx.repo_root) / STATE_DIR / "waves")  # (the TUI's reader)
    source = Source(sup, time.time, feed, waves.read)
    source.start()
    app = create_app(source, settings)
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, ssl_certfile=args.cert,
        ssl_keyfile=args.key, proxy_headers=args.trusted_proxy, server_header=False,
        timeout_graceful_shutdown=GRACE_S,
    )  # fmt: skip
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        feed.stop()
        sup.close()


def start_feed(sup: Supervisor | Fleet) -> Feed:
    """The feed the page reads, as the TUI's (:mod:`paw.supervisor.feed`): sweeps follow the
    pane events of tmux control mode (every host's too, for a Fleet) and a worktree count that
    ends; without events, every :data:`FALLBACK_POLL_S`. Sweeps run in this process (no
    sweeper process: the page has no frame of its own to keep smooth). A hook channel's poke
    also counts here: its sweep's channel-only look is posted first, an early picture that
    wakes the open pages before the screen sweep's (see :meth:`Feed.use`; with hosts, this
    machine's look beside the hosts' last picture)."""
    from paw.adapters.tmux.terminal import TmuxTerminal
    from paw.supervisor.feed import Feed

    feed = Feed(sup, poll_interval=FALLBACK_POLL_S)
    terminal = sup.ctx.terminal
    watch: Callable[[Callable[[str | None], None]], bool] | None = None
    live: Callable[[], bool] | None = None
    fleet = bool(getattr(sup, "remotes", None))  # a Fleet watches every host, counts too
    if isinstance(terminal, TmuxTerminal) and terminal.control:
        source = cast("Fleet", sup) if fleet else terminal
        watch, live = source.watch, source.events_live

    def watched(listener: Callable[[str | None], None]) -> bool:
        if not fleet:
            sup.listen_counts(lambda: listener(None))
        return watch(listener) if watch is not None else False

    feed.use(sup, watch=watched if watch is not None else None, live=live)
    feed.start_ticker()
    return feed


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `paw serve`."""
    p = sub.add_parser(
        "serve",
        help="serve a web page of agents and prompts (decide from a phone)",
        description=(
            "Serve a page of this repository's agents and live prompts, with the guard's\n"
            "verdict, where a signed-in browser approves or denies through paw's one\n"
            "approval path (allow: one press; confirm: a second step; block and dialogs:\n"
            "the terminal). Binds 127.0.0.1 unless told otherwise; another address needs\n"
            "TLS (--cert/--key) or --trusted-proxy. The access token is made at first\n"
            "start and printed once in the URL; only its hash is kept in .paw/."
        ),
        epilog=(
            "examples:\n  paw serve\n  paw serve --port 9000 --rotate-token\n"
            "  paw serve --host 0.0.0.0 --cert cert.pem --key key.pem\n"
            "  paw serve --trusted-proxy   # behind `tailscale serve` ([serve] public_url)\n"
            "  ssh -L 8765:127.0.0.1:8765 HOST   # then open the printed URL here (docs/web.md)"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "-C", dest="repo", metavar="DIR", help="run as if in DIR (any directory of the repository)"
    )
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"port (default: {DEFAULT_PORT}; 0: any free one)")  # fmt: skip
    p.add_argument("--cert", metavar="FILE", help="TLS certificate (PEM)")
    p.add_argument("--key", metavar="FILE", help="TLS private key (PEM)")
    p.add_argument(
        "--trusted-proxy",
        action="store_true",
        help="a proxy or tunnel in front terminates TLS (and sets X-Forwarded-For)",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME[:PORT]",
        help="also answer requests for this Host (a tunnel's name, or localhost:9000 for "
        "`ssh -L 9000:...`); repeatable; [serve] public_url's host counts already. Other "
        "names get 421",
    )
    p.add_argument(
        "--no-qr",
        action="store_true",
        help="print no QR code of the sign-in URL (it is printed only to a terminal anyway)",
    )
    p.add_argument(
        "--rotate-token",
        action="store_true",
        help="make a new access token and link key (the old token, its sessions and every "
        "link made before stop working)",
    )
    p.set_defaults(func=cmd_serve)
