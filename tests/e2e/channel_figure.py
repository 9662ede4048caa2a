"""Issue 32's e2e figure, asserted per case by the channel live tests (Claude; Qwen, opencode and
Kilo Code spawned by paw): for agents with a channel, 100 % of the permission prompts paw
answered carry the channel's exact input, and 0 keys are sent where the channel answered.

Read from the case's audit log (``.paw/audit.jsonl``, what ``paw log --json`` shows): every
decision paw sent is a channel decision (``path: "channel"``, no ``keys``), bound to a request
(``channel_request``), made on a fusion that carried the channel's input (``source``: ``agree``
or ``channel-only``) and judged on that exact input (``channel_subject`` is the input the test
gave the model); and no record of the case names keys at all (no key decision, no key outcome).
Text a test types into the agent's idle input with ``paw send`` (its next instruction) answers
no prompt and is not counted. docs/e2e.md says where the figure is measured."""

from __future__ import annotations

import json
from typing import Any

from tests.e2e import paw_run

CARRIED = ("agree", "channel-only")


def audit(run: paw_run.PawRun) -> list[dict[str, Any]]:
    """The case's audit records, oldest first."""
    path = run.ws.repo / ".paw" / "audit.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def assert_answered_by_the_channel_alone(run: paw_run.PawRun, *exact: str) -> None:
    """Every decision sent in this case went through the channel with one of ``exact`` (the
    inputs the test gave the model) as its input, and nothing in the case sent a key."""
    records = audit(run)
    sends = [
        r for r in records if r.get("event") in ("approve", "deny") and r.get("decision") == "send"
    ]
    assert sends, "no decision was sent in this case"
    for send in sends:
        said = {k: send.get(k) for k in ("path", "source", "channel_request", "channel_subject")}
        assert said["path"] == "channel", said
        assert "keys" not in send, send
        assert said["source"] in CARRIED, said
        assert said["channel_request"], said
        assert said["channel_subject"] in exact, said
        assert send["subject"] == said["channel_subject"], send
    keyed = [r for r in records if r.get("keys") or r.get("path") == "keys"]
    assert keyed == [], keyed
