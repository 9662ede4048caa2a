"""The page's sign-in bookkeeping (pure): session expiry, the wrong-token window, links."""

from __future__ import annotations

from paw.core.links import LinkClaim, make_link, new_key, read_link
from paw.web.auth import FailedTries, Sessions, csrf_matches, hash_token, token_matches


def test_a_session_ends_at_its_expiry() -> None:
    sessions = Sessions(ttl_s=100.0)
    session = sessions.open("tid", now=1000.0)
    assert sessions.get(session.key, 1099.0) == session
    assert sessions.get(session.key, 1100.0) is None
    assert sessions.get(session.key, 1050.0) is None  # gone for good, not revived
    assert sessions.get(None, 1000.0) is None
    assert sessions.get("made-up", 1000.0) is None


def test_csrf_and_token_compare_exactly() -> None:
    session = Sessions().open("tid", now=0.0)
    assert csrf_matches(session, session.csrf)
    assert not csrf_matches(session, None)
    assert not csrf_matches(session, session.csrf[:-1])
    assert token_matches("abc", hash_token("abc"))
    assert not token_matches("abd", hash_token("abc"))


def test_wrong_tries_are_limited_per_address_and_in_all_then_forgotten() -> None:
    tries = FailedTries(limit=2, limit_all=3, window_s=60.0)
    tries.failed("a", 0.0)
    assert not tries.blocked("a", 1.0)
    tries.failed("a", 1.0)
    assert tries.blocked("a", 2.0)
    assert not tries.blocked("b", 2.0)
    tries.failed("b", 2.0)
    assert tries.blocked("c", 3.0)  # three from all addresses: everyone waits
    assert not tries.blocked("a", 62.5)  # the window passed
    assert not tries.blocked("c", 62.5)


def test_a_link_is_read_back_only_with_its_key_and_before_its_expiry() -> None:
    key = new_key()
    token = make_link(key, repo="/r", agent="a1", prompt_id="p1", fingerprint="f",
                      verdict="allow", now=1000.0, ttl_s=60.0)  # fmt: skip
    claim = read_link(key, token, 1059.0)
    assert isinstance(claim, LinkClaim)
    assert (claim.repo, claim.agent, claim.prompt_id, claim.fingerprint, claim.verdict) == (
        "/r", "a1", "p1", "f", "allow",
    )  # fmt: skip
    assert "expired" in str(read_link(key, token, 1060.0))
    assert "not a link" in str(read_link(new_key(), token, 1000.0))
    payload, _, sig = token.partition(".")
    other = make_link(key, repo="/r", agent="a1", prompt_id="p2", fingerprint="f",
                      verdict="allow", now=1000.0).partition(".")[0]  # fmt: skip
    assert "not a link" in str(read_link(key, f"{other}.{sig}", 1000.0))  # a swapped claim
    assert "not a link" in str(read_link(key, payload, 1000.0))
