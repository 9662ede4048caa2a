"""QuietStatic: a new text redraws the widget alone unless its size must change."""

from __future__ import annotations

import time

from rich.text import Text
from textual.app import App, ComposeResult

from paw.tui.widgets.static import QuietStatic
from tests.support.budget import budget


class Card(QuietStatic):
    FIXED_WIDTH = True


class CardApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Card("one line")


async def test_a_text_of_the_same_height_lays_nothing_out_a_taller_one_does_after_the_frame(
    layout_passes: list[float],
) -> None:
    passes = layout_passes
    app = CardApp()
    async with app.run_test(size=(40, 12)) as pilot:
        card = app.query_one(Card)
        await pilot.pause()
        assert card.size.height == 1
        before = len(passes)
        card.show(Text("another line"))
        await pilot.pause(0.2)
        assert len(passes) == before  # same height: the card is redrawn alone
        card.show(Text("three\nlines\nnow"))
        deadline = time.monotonic() + budget(10)
        while card.size.height != 3 and time.monotonic() < deadline:
            await pilot.pause(0.05)
        assert card.size.height == 3  # the layout pass came, after the frame
        assert len(passes) > before
