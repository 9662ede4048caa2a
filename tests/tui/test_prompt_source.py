"""The TUI says where a prompt came from (issue 32): the queue's kind cell and the card, over
the snapshots the feed carries; a disagreement shows both subjects."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from paw.core.models import PromptSource
from paw.tui.app import PawApp, make_app
from paw.tui.widgets.prompt_queue import PromptCard
from tests.support.budget import budget
from tests.support.scripted_channel import shell_request, use_scripted_channel
from tests.tui.conftest import screen_text, settle
from tests.tui.fake_supervisor import scenario
from tests.tui.real_world import KINDS, audit_records, capture, make_supervisor, wait_for_prompts
from tests.tui.snapshot_app import HOUR

if TYPE_CHECKING:
    from libtmux.server import Server

SIZE = (120, 40)
BLOCKED = "rm -rf ~/projects"
SHOWN = "ls -la"


def _app_with(source: PromptSource) -> PawApp:
    fake = scenario("allow")
    pid, live = next(iter(fake.prompts.items()))
    fake.prompts[pid] = replace(live, source=source)
    return make_app(fake, poll_interval=HOUR)


async def test_a_disagreeing_prompt_shows_both_subjects_in_the_card_and_queue() -> None:
    source = PromptSource(
        "disagree", "r1", BLOCKED, SHOWN,
        "the screen's subject is not a rendering of the channel's exact input",
    )  # fmt: skip
    app = _app_with(source)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        card = app.main.query_one(PromptCard)
        said = card._text.plain if card._text is not None else ""
        assert "channel and its screen disagree" in said
        assert f"channel: {BLOCKED}" in said
        assert f"screen: {SHOWN}" in said
        assert "shell·DISAGREE" in screen_text(app)


async def test_the_queue_and_card_say_channel_only_and_agree_and_nothing_for_the_screen() -> None:
    for source, cell, line in (
        (PromptSource("channel-only", "r2", "make test"), "shell·channel", "channel only"),
        (PromptSource("agree", "r3", "make test", "make test"), "shell·both", "screen agrees"),
        (PromptSource("screen-only", screen_subject="make"), "shell·screen-only", "said nothing"),
    ):
        app = _app_with(source)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            card = app.main.query_one(PromptCard)
            assert line in (card._text.plain if card._text is not None else ""), source
            assert cell in screen_text(app), source
    app = _app_with(PromptSource())  # an agent with no channel: as before channels
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        card = app.main.query_one(PromptCard)
        plain = card._text.plain if card._text is not None else ""
        assert "channel" not in plain
        assert "·" not in screen_text(app)


@pytest.mark.tmux
@pytest.mark.git
async def test_real_disagreement_shows_both_subjects_and_sends_nothing(
    git_repo: Path, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over the real supervisor, real tmux and the scripted demo agent, with a scripted channel
    that claims another command than the pane draws: the card names both, and `a` sends
    nothing to the pane (refused: answered neither by keys nor through the channel)."""
    port = use_scripted_channel(monkeypatch)
    supervisor = make_supervisor(git_repo, server.socket_name or "")
    supervisor.spawn("safe", KINDS["safe"], "a test task")
    (prompt,) = wait_for_prompts(supervisor, 1)
    assert prompt.source.name == "screen-only"  # the channel said nothing yet
    port.requests = [shell_request("safe", BLOCKED)]
    app = make_app(supervisor, poll_interval=1.0)
    socket = server.socket_name or ""
    async with app.run_test(size=SIZE) as pilot:

        def card_text() -> str:
            card = app.main.query_one(PromptCard)
            return card._text.plain if card._text is not None else ""

        for _ in range(int(budget(20.0) / 0.05)):
            if "disagree" in card_text():
                break
            await pilot.pause(0.05)
        said = card_text()
        assert f"channel: {BLOCKED}" in said, said
        assert f"screen: {prompt.prompt.subject}" in said, said
        assert "·DISAGREE" in screen_text(app)
        await pilot.press("a")
        await settle(pilot)
    assert "received key" not in capture(socket, prompt.pane_id)
    assert port.answers == []
    sends = [r for r in audit_records(git_repo) if r.get("decision") == "send"]
    assert sends == []
