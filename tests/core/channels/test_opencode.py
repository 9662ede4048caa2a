"""opencode's permission events as paw's ChannelRequest: payloads captured live from the pinned
opencode and Kilo Code (tests/fixtures/channels/opencode/README.md says how)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from paw.core.channels.fuse import Fusion, fuse
from paw.core.channels.opencode import (
    MAX_PENDING,
    Book,
    Replied,
    parse_event,
    parse_pending,
)
from paw.core.channels.request import ChannelRequest, ChannelState
from paw.core.detect import detect
from paw.core.models import PromptKind

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "channels" / "opencode"


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def asked(name: str) -> dict[str, Any]:
    events = load(name)
    return next(e for e in events if e["type"] == "permission.asked")


def replied(name: str) -> dict[str, Any]:
    events = load(name)
    return next(e for e in events if e["type"] == "permission.replied")


def request_of(name: str, agent: str = "a1") -> ChannelRequest:
    parsed = parse_event(asked(name), agent=agent, now=5.0)
    assert isinstance(parsed, ChannelRequest)
    return parsed


@pytest.mark.parametrize(
    ("fixture", "kind", "subject", "tool"),
    [
        ("opencode-shell-events.json", PromptKind.SHELL, "touch paw-shell.txt", "bash"),
        ("opencode-edit-deny-events.json", PromptKind.EDIT, "/home/user/project/README.md", "edit"),
        ("kilocode-edit-events.json", PromptKind.EDIT, "/home/user/project/README.md", "edit"),
        ("opencode-write-events.json", PromptKind.WRITE, "/home/user/project/paw-new.txt", "edit"),
        ("opencode-long-events.json", PromptKind.SHELL, None, "bash"),
    ],
)
def test_a_captured_request_carries_the_exact_input(
    fixture: str, kind: PromptKind, subject: str | None, tool: str
) -> None:
    event = asked(fixture)
    request = request_of(fixture)
    assert request.kind is kind
    assert request.tool == tool
    exact = event["properties"]["metadata"]["command" if tool == "bash" else "filepath"]
    assert request.subject == exact  # the whole input, as the agent holds it
    if subject is not None:
        assert request.subject == subject
    assert request.request_id == event["properties"]["id"]
    assert request.can_answer
    assert request.state is ChannelState.PENDING
    assert request.agent == "a1"
    assert request.source == "opencode-server"
    assert request.seen_at == 5.0


def test_the_long_command_is_whole_not_its_rule_patterns() -> None:
    request = request_of("opencode-long-events.json")
    assert request.subject is not None
    assert len(request.subject) > 120  # wraps in an 80-column pane
    assert "\n" not in request.subject
    patterns = request.raw["patterns"]
    assert isinstance(patterns, tuple)


def test_the_pending_list_parses_like_the_event() -> None:
    listed = parse_pending(load("opencode-shell-pending.json"), agent="a1", now=5.0)
    assert listed is not None
    assert len(listed) == 1
    assert listed[0] == request_of("opencode-shell-events.json")


def test_a_reply_event_names_the_request() -> None:
    parsed = parse_event(replied("opencode-shell-events.json"), agent="a1", now=1.0)
    assert isinstance(parsed, Replied)
    assert parsed.request_id == asked("opencode-shell-events.json")["properties"]["id"]
    assert parsed.reply == "once"
    deny = parse_event(replied("opencode-edit-deny-events.json"), agent="a1", now=1.0)
    assert isinstance(deny, Replied)
    assert deny.reply == "reject"
    kilo = parse_event(replied("kilocode-edit-events.json"), agent="a1", now=1.0)
    assert isinstance(kilo, Replied)
    assert kilo.reply == "once"


@pytest.mark.parametrize(
    "mutate",
    [
        lambda p: p.pop("id"),
        lambda p: p.__setitem__("id", "per_../../session"),
        lambda p: p.__setitem__("id", 12),
        lambda p: p.__setitem__("sessionID", None),
        lambda p: p.__setitem__("permission", ""),
        lambda p: p.__setitem__("metadata", "touch x"),
    ],
)
def test_a_malformed_request_lists_nothing(mutate: Any) -> None:
    event = asked("opencode-shell-events.json")
    mutate(event["properties"])
    assert parse_event(event, agent="a1", now=1.0) is None


def test_a_missing_command_is_no_subject_never_the_patterns() -> None:
    event = asked("opencode-shell-events.json")
    del event["properties"]["metadata"]["command"]
    request = parse_event(event, agent="a1", now=1.0)
    assert isinstance(request, ChannelRequest)
    assert request.subject is None


def test_an_unknown_permission_is_other_without_subject() -> None:
    event = asked("opencode-shell-events.json")
    event["properties"]["permission"] = "external_directory"
    request = parse_event(event, agent="a1", now=1.0)
    assert isinstance(request, ChannelRequest)
    assert request.kind is PromptKind.OTHER
    assert request.subject is None


def test_other_events_and_garbage_are_ignored() -> None:
    assert parse_event({"type": "server.heartbeat", "properties": {}}, agent="a", now=0) is None
    assert parse_event({"type": "permission.updated", "properties": {}}, agent="a", now=0) is None
    assert parse_event([1, 2], agent="a", now=0) is None
    assert parse_pending({"data": []}, agent="a", now=0) is None


# --- the book: what one server has said, folded --------------------------------------------


def synced_book(*requests: ChannelRequest) -> Book:
    book = Book()
    book.sync(list(requests))
    return book


def test_nothing_is_listed_before_the_first_sync() -> None:
    book = Book()
    book.ask(request_of("opencode-shell-events.json"))
    assert book.pending() == []
    assert book.refusal(request_of("opencode-shell-events.json").request_id) == "channel-down"


def test_a_request_is_pending_until_its_reply() -> None:
    request = request_of("opencode-shell-events.json")
    book = synced_book()
    book.ask(request)
    assert book.pending() == [request]
    assert book.state(request.request_id) is ChannelState.PENDING
    assert book.refusal(request.request_id) is None
    reply = parse_event(replied("opencode-shell-events.json"), agent="a1", now=1.0)
    assert isinstance(reply, Replied)
    book.reply(reply)
    assert book.pending() == []
    assert book.state(request.request_id) is ChannelState.RESOLVED
    assert book.refusal(request.request_id) == "not-pending"
    assert book.replies[request.request_id] == "once"


def test_a_replayed_request_is_never_reopened() -> None:
    request = request_of("opencode-shell-events.json")
    book = synced_book(request)
    book.close(request.request_id, ChannelState.RESOLVED)
    book.ask(request)
    book.sync([request])  # even a list that still names it cannot reopen a closed id
    assert book.pending() == []


def test_two_different_claims_for_one_id_answer_nothing() -> None:
    request = request_of("opencode-shell-events.json")
    book = synced_book(request)
    book.ask(replace(request, subject="rm -rf ~", raw={**request.raw, "x": 1}))
    (listed,) = book.pending()
    assert listed.subject is None
    assert not listed.can_answer
    assert book.refusal(request.request_id) == "conflicting-claims"


def test_the_same_claim_twice_is_one_request() -> None:
    request = request_of("opencode-shell-events.json")
    book = synced_book(request)
    book.ask(replace(request, seen_at=99.0))
    assert book.pending() == [request]


def test_a_request_the_list_no_longer_names_is_resolved() -> None:
    request = request_of("opencode-shell-events.json")
    book = synced_book(request)
    book.sync([])
    assert book.state(request.request_id) is ChannelState.RESOLVED


def test_a_lost_stream_vouches_for_nothing() -> None:
    request = request_of("opencode-shell-events.json")
    book = synced_book(request)
    book.lose()
    assert book.pending() == []
    assert book.state(request.request_id) is ChannelState.TIMED_OUT
    assert book.refusal(request.request_id) == "channel-down"
    book.sync([request])
    assert book.pending() == [request]


def test_an_answered_request_is_not_answered_twice() -> None:
    request = request_of("opencode-shell-events.json")
    book = synced_book(request)
    book.answered.add(request.request_id)
    assert book.pending() == []
    assert book.refusal(request.request_id) == "already-answered"


def test_an_unknown_id_is_not_pending() -> None:
    book = synced_book(request_of("opencode-shell-events.json"))
    assert book.state("per_forged") is ChannelState.RESOLVED
    assert book.refusal("per_forged") == "not-pending"


def test_a_flood_of_requests_is_bounded() -> None:
    request = request_of("opencode-shell-events.json")
    book = synced_book()
    for n in range(MAX_PENDING + 50):
        book.ask(replace(request, request_id=f"per_{n}"))
    assert len(book.pending()) == MAX_PENDING


SCREENS = Path(__file__).resolve().parents[2] / "fixtures" / "screens-live"


@pytest.mark.parametrize(
    ("agent", "fixture"),
    [
        ("opencode", "opencode-edit-deny-events.json"),
        ("kilocode", "kilocode-edit-events.json"),
    ],
)
def test_an_edit_shown_relative_to_the_worktree_agrees_with_the_absolute_filepath(
    agent: str, fixture: str
) -> None:
    """opencode's edit subject is the absolute ``metadata.filepath``; its dialog shows the path
    relative to the worktree (``→ Edit README.md``): the same file, so the two agree and the
    guard judges the absolute path."""
    screen = (SCREENS / agent / "edit_80x24" / "screen.txt").read_text(encoding="utf-8")
    detection = detect(screen, agent)
    assert detection.prompt is not None
    assert detection.prompt.subject == "README.md"
    request = request_of(fixture)
    fused = fuse(detection, [request])
    assert fused.fusion is Fusion.AGREE, fused.reason
    assert fused.judged is not None
    assert fused.judged.subject == "/home/user/project/README.md"
    # another file of that name elsewhere, or another name: not a rendering of it
    for other in ("/home/user/project/docs/READMEXmd", "/home/user/project/OTHER.md"):
        moved = fuse(detection, [replace(request, subject=other)])
        assert moved.fusion is Fusion.DISAGREE
