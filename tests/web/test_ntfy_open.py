"""ntfy's "Open" button on escalations that carry a one-occurrence link: real apprise to a local
receiver (ntfy's private mode, plain HTTP on 127.0.0.1) beside a json:// one. The button is a
``view`` action: it opens the link's page (which shows the prompt as it is now); nothing in a
notification ever decides."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from paw.adapters.notify import ChannelNotifier, open_actions, with_actions
from paw.core.notify_settings import NotifySettings
from paw.core.wave.state import PromptState, TaskState
from paw.core.wave_report import digest_message, prompt_message
from tests.support.receiver import Receiver

if TYPE_CHECKING:
    from collections.abc import Iterator

LINK = "https://box.example.ts.net/link/eyJhIjoxfQ.c2ln"
LINK2 = "https://box.example.ts.net/link/eyJiIjoyfQ.c2lo"


@pytest.fixture
def receivers() -> Iterator[tuple[Receiver, Receiver]]:
    ntfy, plain = Receiver(), Receiver()
    yield ntfy, plain
    ntfy.close()
    plain.close()


def _task(name: str) -> TaskState:
    return TaskState(name=name, agent=f"a-{name}")


def _prompt(pid: str) -> PromptState:
    return PromptState(
        id=pid, kind="shell", subject="git push origin main", question="Run?",
        verdict="confirm", reasons=["a push"], why="confirm", first_seen=0.0, route="human",
    )  # fmt: skip


def _send(ntfy: Receiver, plain: Receiver, *messages: object) -> None:
    urls = (f"ntfy://127.0.0.1:{ntfy.port}/paw-topic", plain.url)
    notifier = ChannelNotifier(NotifySettings(urls=urls, bell=False, tmux_badge=False))
    for message in messages:
        notifier.send(message)  # type: ignore[arg-type]
    notifier.close(timeout=60)
    assert notifier.errors == []


def test_an_escalation_with_a_link_offers_open_on_ntfy_and_the_link_in_every_text(
    receivers: tuple[Receiver, Receiver],
) -> None:
    ntfy, plain = receivers
    parked = prompt_message("parked", "w1", _task("t1"), _prompt("p1"), 60.0, link=LINK)
    answered = prompt_message("answered", "w1", _task("t1"), _prompt("p1"), 60.0, link=LINK)
    unlinked = prompt_message("parked", "w1", _task("t2"), _prompt("p2"), 60.0)
    items = [(_task("t1"), _prompt("p1")), (_task("t2"), _prompt("p2"))]
    digest = digest_message("w1", items, 60.0, links={"p1": LINK, "p2": LINK2})
    _send(ntfy, plain, parked, answered, unlinked, digest)
    assert len(ntfy.messages) == len(plain.messages) == 4  # every service got every message
    actions = [h.get("x-actions") for h in ntfy.headers]
    assert actions == [
        f"view, Open, {LINK}",
        None,  # "answered": nothing to open
        None,  # no public_url: no link
        f"view, Open t1, {LINK}; view, Open t2, {LINK2}",
    ]
    assert f"open: {LINK}" in ntfy.messages[0]["message"]  # the link stays in the text too
    assert f"open: {LINK}" in plain.messages[0]["message"]
    assert all("x-actions" not in h for h in plain.headers)  # only ntfy has buttons


def test_no_button_that_decides_or_breaks_the_list() -> None:
    assert open_actions([("Open", LINK)]).startswith("view, ")  # never http (a one-tap POST)
    assert open_actions([("Open", "https://x/link/a,http, POST")]) == ""
    assert open_actions([("Open; x", LINK)]) == ""
    assert open_actions([("Open", "javascript:alert(1)")]) == ""
    many = open_actions([(f"Open {i}", LINK) for i in range(5)])
    assert many.count("view, ") == 3  # ntfy shows at most three
    url = with_actions("ntfys://ntfy.sh/topic?priority=high&actions=x", "view, Open, " + LINK)
    assert url.startswith("ntfys://ntfy.sh/topic?priority=high&actions=view%2C%20Open%2C%20")
    assert url.count("actions=") == 1
