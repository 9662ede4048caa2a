"""One-occurrence links for the people a wave notifies (docs/web.md).

With ``[serve] public_url`` set, each escalation of a prompt carries a link to ``paw serve``'s
page of that one occurrence: signed (HMAC-SHA256, the key in ``.paw/web-link-key.json``, shared
with ``paw serve``) over the repository, the agent, the occurrence id, the prompt's fingerprint
and the guard's verdict, expiring after ``[serve] link_ttl_s``, used once. The server shows the
prompt as it is then, and offers nothing when the occurrence changed, ended or was answered.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from paw.core.links import make_link, new_key

if TYPE_CHECKING:
    from paw.supervisor.context import Context
    from paw.supervisor.records import StateStore

LINK_KEY_DOC = "web-link-key"


def load_link_key(state: StateStore, *, rotate: bool) -> str:
    """The key that signs one-occurrence links, made on first use (and on ``rotate``: every
    link made before stops working). Kept in ``.paw/web-link-key.json``, never printed; made
    under a lock, so a wave and a server starting together agree on one key."""
    with state.lock(LINK_KEY_DOC):
        doc = state.read(LINK_KEY_DOC)
        key = doc.get("key") if doc else None
        if isinstance(key, str) and not rotate:
            return key
        key = new_key()
        state.write(LINK_KEY_DOC, {"key": key, "created": time.time()})
        return key


def occurrence_link(
    ctx: Context, *, agent: str, prompt_id: str, fingerprint: str, verdict: str, now: float
) -> str | None:
    """The URL of the page of this one prompt occurrence, or None without a public URL."""
    serve = ctx.config.serve
    if serve.public_url is None:
        return None
    key = load_link_key(ctx.state, rotate=False)
    token = make_link(
        key, repo=ctx.repo_root, agent=agent, prompt_id=prompt_id, fingerprint=fingerprint,
        verdict=verdict, now=now, ttl_s=serve.link_ttl_s,
    )  # fmt: skip
    return f"{serve.public_url}/link/{token}"
