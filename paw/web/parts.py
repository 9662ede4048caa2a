"""The board's parts as an open page holds them, and what changes when one does.

The board is five parts (:data:`PARTS`), each its own ``<div id=pt-NAME>``; a stream sends a
part again only when it changed by more than its prompts' ages (:func:`steady`), and one
agent's new status as its table row alone (:func:`updates`); a polling page names the parts it
holds (:func:`versions`) and is answered the same events for what changed since
(:func:`poll_updates`). Pure: strings in, strings out.
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

PARTS = ("notes", "prompts", "agents", "details", "audit")
"""The board's parts, in order: each its own ``<div id=pt-NAME>``, replaced on its own."""
# (escaped text has no ``<``: only paw's own tags match)
_AGES = re.compile(r"<span class=age data-seen=\d+>[^<]*</span>|(?<=<h2) data-now=\d+")


def wrap(name: str, html: str) -> str:
    """One part as the page holds it."""
    return f"<div id=pt-{name}>{html}</div>"


def steady(html: str) -> str:
    """``html`` without what changes by the clock alone (the prompts' ages, the server's
    time): an open page's script ages the prompts itself, so a stream sends a part again only
    when this changed."""
    if "<span class=age " not in html and "<h2 data-now=" not in html:
        return html  # (the agents' table, the audit: at 200 agents most of the bytes)
    return _AGES.sub("", html)


_ROW = re.compile(r"<tr id=(ag-\d+)>.*?</tr>", re.DOTALL)  # (escaped text has no ``<``)


def updates(name: str, before: str | None, html: str) -> tuple[list[tuple[str, str]], str]:
    """What a stream sends for part ``name`` now ``html`` (as :func:`steady` left ``before``
    when last sent): the part (``part``: its name, a newline, its HTML), or, when only some
    agents' rows changed (the same agents, in the same order), those rows alone (``row``: the
    row's id, a newline, the row). At 200 agents one agent's new status is one row, not the
    table. Nothing when only the ages changed. Also ``steady(html)``, to compare with next."""
    now = steady(html)
    if before == now:
        return [], now
    rows_before, rows_now = _ROW.findall(before or ""), _ROW.findall(now)
    if (
        before is None
        or not rows_now
        or _ROW.sub("", before) != _ROW.sub("", now)
        or len(rows_before) != len(rows_now)
    ):
        return [("part", f"{name}\n{html}")], now
    old = [m.group(0) for m in _ROW.finditer(before)]
    rows = [
        ("row", f"{m.group(1)}\n{m.group(0)}")
        for m, was in zip(_ROW.finditer(now), old, strict=True)
        if m.group(0) != was
    ]
    return rows, now


HAVE_MAX = 400  # a page's ``have`` (five parts' names and digests) is far shorter


def digest(steady_html: str) -> str:
    """A part's version as a page holds it (of its :func:`steady` HTML)."""
    return hashlib.sha256(steady_html.encode()).hexdigest()[:32]


def versions(held: Mapping[str, str]) -> str:
    """``NAME:DIGEST,…`` of each part's :func:`steady` HTML: what a polling page holds."""
    return ",".join(f"{name}:{digest(text)}" for name, text in held.items())


def _held(have: str) -> dict[str, str]:
    """A page's ``have`` read back (anything not well formed: the page holds nothing known)."""
    held: dict[str, str] = {}
    for item in have[:HAVE_MAX].split(","):
        name, _, version = item.partition(":")
        if name in PARTS and re.fullmatch(r"[0-9a-f]{32}", version):
            held[name] = version
    return held


def poll_updates(
    parts: tuple[tuple[str, str], ...], have: str, known: Mapping[str, str]
) -> tuple[list[tuple[str, str]], str, dict[str, str]]:
    """What a short poll answers a page that holds ``have`` (:func:`versions`): the same
    events a stream sends (:func:`updates`), only for the parts whose version changed: a part
    whole, or an agent's row alone when ``known`` (digest -> steady HTML, what the server
    kept) has the part the page holds. Nothing when only ages changed. Also the page's new
    ``have``, and the steady HTML of each part sent (for ``known``)."""
    held = _held(have)
    events: list[tuple[str, str]] = []
    now: dict[str, str] = {}
    sent: dict[str, str] = {}
    for name, text in parts:
        now[name] = steady(text)
        version = digest(now[name])
        if held.get(name) == version:
            continue
        before = known.get(held.get(name, ""))
        changed, _ = updates(name, before, text)
        events += changed
        sent[version] = now[name]
    return events, versions(now), sent
