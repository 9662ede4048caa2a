"""``[serve]`` settings and where a link goes in an escalation message (pure)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from paw.core.config import PawConfig, ServeConfig
from paw.core.wave import PromptState, TaskState
from paw.core.wave_report import digest_message, prompt_message

LINK = "https://box.example.ts.net/link/eyJhIjoxfQ.c2ln"


def test_the_public_url_is_https_or_loopback_http() -> None:
    assert ServeConfig().public_url is None
    assert ServeConfig(public_url="https://box.example.ts.net/").public_url == (
        "https://box.example.ts.net"
    )
    assert ServeConfig(public_url="http://127.0.0.1:8765").public_url == "http://127.0.0.1:8765"
    assert ServeConfig(public_url="http://localhost:8765").public_url == "http://localhost:8765"
    for bad in ("http://box.lan:8765", "http://0.0.0.0:8765", "ftp://box", "box.example",
                "https://box/?token=x", "https://box/#x"):  # fmt: skip
        with pytest.raises(ValidationError):
            ServeConfig(public_url=bad)
    with pytest.raises(ValidationError):
        ServeConfig(link_ttl_s=0)
    assert PawConfig.model_validate({"serve": {"link_ttl_s": 60}}).serve.link_ttl_s == 60


def _prompt(pid: str = "0123456789") -> tuple[TaskState, PromptState]:
    task = TaskState(name="push", agent="night-push")
    prompt = PromptState(
        id=pid, kind="shell", subject="git push --token ghp_" + "a" * 36, question="Run?",
        verdict="confirm", first_seen=0.0, route="human", why="no rule",
    )  # fmt: skip
    return task, prompt


def test_a_message_carries_its_link_after_the_redaction_and_never_when_answered() -> None:
    task, prompt = _prompt()
    message = prompt_message("parked", "night", task, prompt, 10.0, repo="/r", link=LINK)
    assert message.redacted  # the subject's token was redacted; the link was not touched
    assert message.outgoing_body.endswith(f"\nopen: {LINK}")
    assert message.body.endswith(f"\nopen: {LINK}")
    assert "ghp_" not in message.outgoing_body
    answered = prompt_message("answered", "night", task, prompt, 10.0, link=LINK)
    assert "open:" not in answered.outgoing_body
    plain = prompt_message("parked", "night", task, prompt, 10.0)
    assert "open:" not in plain.outgoing_body


def test_a_digest_carries_each_prompts_link() -> None:
    one, two = _prompt("0123456789"), _prompt("abcdef0123")
    links = {"0123456789": LINK + "1", "abcdef0123": LINK + "2"}
    message = digest_message("night", [one, two], 10.0, links=links)
    assert message.outgoing_body.count(f"open push: {LINK}") == 2
    assert message.outgoing_body.endswith(LINK + "2")
