"""The TUI says where a prompt came from (issue 32): the queue's kind cell and the card, over
the snapshots the feed carries; a disagreement shows both subjects."""

from __future__ import annotations

from dataclasses import replace

from paw.core.models import PromptSource
from paw.tui.app import PawApp, make_app
from paw.tui.widgets.prompt_queue import PromptCard
from tests.tui.conftest import screen_text, settle
from tests.tui.fake_supervisor import scenario
from tests.tui.snapshot_app import HOUR

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
