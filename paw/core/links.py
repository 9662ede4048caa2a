"""One-occurrence links: a URL signed for one prompt occurrence, short-lived, used once.

A link carries its claim in the clear (repository, agent, occurrence id, the prompt's
fingerprint, the guard's verdict, expiry, a random id) and an HMAC-SHA256 over it with a key
kept under ``.paw/``. It proves who may look at and decide that one occurrence, nothing else:
no list, no other prompt. Opening it (GET) only shows the prompt as it is now; a decision is a
POST carrying a CSRF token derived from the link. Pure: the key and the time are parameters.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import asdict, dataclass

DEFAULT_TTL_S = 30 * 60.0
KEY_BYTES = 32


def new_key() -> str:
    """A fresh signing key (hex)."""
    return secrets.token_hex(KEY_BYTES)


@dataclass(frozen=True, slots=True)
class LinkClaim:
    """What a link was signed for."""

    repo: str
    agent: str
    prompt_id: str
    fingerprint: str
    verdict: str
    expires: float
    nonce: str  # the link's id (audit, single use)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _sign(key: str, payload: str) -> str:
    return _b64(hmac.new(bytes.fromhex(key), payload.encode("ascii"), hashlib.sha256).digest())


def make_link(
    key: str, *, repo: str, agent: str, prompt_id: str, fingerprint: str, verdict: str,
    now: float, ttl_s: float = DEFAULT_TTL_S,
) -> str:  # fmt: skip
    """The link's token (the last part of its URL: ``/link/TOKEN``)."""
    claim = LinkClaim(repo, agent, prompt_id, fingerprint, verdict, now + ttl_s,
                      secrets.token_urlsafe(12))  # fmt: skip
    payload = _b64(json.dumps(asdict(claim), separators=(",", ":")).encode("utf-8"))
    return f"{payload}.{_sign(key, payload)}"


def read_link(key: str, token: str, now: float) -> LinkClaim | str:
    """The claim of a genuine, unexpired link, or why it is refused (one sentence)."""
    payload, _, sig = token.partition(".")
    if not payload or not sig or not hmac.compare_digest(_sign(key, payload), sig):
        return "not a link paw made (or made with a key since replaced)"
    try:
        claim = LinkClaim(**json.loads(_unb64(payload)))
    except (ValueError, TypeError):
        return "not a link paw made"
    if claim.expires <= now:
        return "this link has expired: open the page, or run `paw prompts` in a terminal"
    return claim


def link_id(claim: LinkClaim) -> str:
    """The link's public name in the audit."""
    return "link:" + claim.nonce


def link_csrf(key: str, claim: LinkClaim) -> str:
    """The CSRF token of the link's form (only the page the link opened knows it)."""
    return _sign(key, "csrf:" + claim.nonce)
