"""Who may use the page: the access token, browser sessions, CSRF tokens, failed-try limits.

The token is made once (``paw serve`` at first start, or ``--rotate-token``) and only its
SHA-256 is kept under ``.paw/``: it is 256 random bits, so a plain hash cannot be reversed and a
slow one would buy nothing. A browser that shows it once gets a session cookie; each session has
its own CSRF token, sent back with every POST. The clock is a parameter (tests move it).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import deque
from dataclasses import dataclass, field

TOKEN_BYTES = 32
SESSION_TTL_S = 12 * 3600.0
FAILED_TRIES = 5  # wrong tokens per client address …
FAILED_WINDOW_S = 60.0  # … per this many seconds; then every try is refused until it passes
FAILED_TRIES_ALL = 30  # and from all addresses together (a botnet gets no more guesses)


def new_token() -> str:
    """A fresh access token (URL-safe text)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """The stored form of ``token``."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_id(token_hash: str) -> str:
    """A short public name of a token (for the audit): not enough to find the token."""
    return hashlib.sha256(("id:" + token_hash).encode("ascii")).hexdigest()[:10]


def token_matches(token: str, token_hash: str) -> bool:
    """True when ``token`` is the one whose hash is ``token_hash`` (constant time)."""
    return hmac.compare_digest(hash_token(token), token_hash)


@dataclass(frozen=True, slots=True)
class Session:
    """One signed-in browser."""

    key: str  # the cookie's value
    csrf: str  # the token every POST of this session carries
    token_id: str  # which access token opened it
    expires: float


@dataclass
class Sessions:
    """The live sessions of one server (in memory: a restart signs every browser out)."""

    ttl_s: float = SESSION_TTL_S
    _by_key: dict[str, Session] = field(default_factory=dict)

    def open(self, tid: str, now: float) -> Session:
        """A new session for a browser that showed the token ``tid``."""
        self._drop_expired(now)
        session = Session(secrets.token_urlsafe(32), secrets.token_urlsafe(32), tid,
                          now + self.ttl_s)  # fmt: skip
        self._by_key[session.key] = session
        return session

    def get(self, key: str | None, now: float) -> Session | None:
        """The live session of cookie value ``key`` (None: none, or expired)."""
        if not key:
            return None
        session = self._by_key.get(key)
        if session is None or session.expires <= now:
            self._by_key.pop(key, None)
            return None
        return session

    def close_all(self) -> None:
        """Sign every browser out (the token was rotated)."""
        self._by_key.clear()

    def _drop_expired(self, now: float) -> None:
        for key in [k for k, s in self._by_key.items() if s.expires <= now]:
            del self._by_key[key]


def csrf_matches(session: Session, sent: str | None) -> bool:
    """True when a POST carries its session's CSRF token."""
    return sent is not None and hmac.compare_digest(session.csrf, sent)


@dataclass
class FailedTries:
    """Wrong tokens per client address, in a sliding window."""

    limit: int = FAILED_TRIES
    limit_all: int = FAILED_TRIES_ALL
    window_s: float = FAILED_WINDOW_S
    _tries: dict[str, deque[float]] = field(default_factory=dict)
    _all: deque[float] = field(default_factory=deque)

    def blocked(self, client: str, now: float) -> bool:
        """True while ``client`` (or everyone together) spent its wrong tries."""
        self._expire(now)
        return len(self._tries.get(client, ())) >= self.limit or len(self._all) >= self.limit_all

    def failed(self, client: str, now: float) -> None:
        """Count one wrong token from ``client``."""
        self._tries.setdefault(client, deque()).append(now)
        self._all.append(now)

    def _expire(self, now: float) -> None:
        edge = now - self.window_s
        for client in list(self._tries):
            tries = self._tries[client]
            while tries and tries[0] <= edge:
                tries.popleft()
            if not tries:
                del self._tries[client]
        while self._all and self._all[0] <= edge:
            self._all.popleft()
