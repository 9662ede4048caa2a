"""QuietStatic: the same text again costs nothing; a new one redraws a fixed-size widget alone."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from paw.tui.widgets.static import QuietStatic


class Fixed(QuietStatic):
    FIXED_SIZE = True
    DEFAULT_CSS = "Fixed { height: 3; }"


class Grows(QuietStatic):
    pass


class CardApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Fixed("one line")
        yield Grows("one line")


async def test_a_fixed_size_text_lays_nothing_out_a_growing_one_does(
    layout_passes: list[float],
) -> None:
    passes = layout_passes
    app = CardApp()
    async with app.run_test(size=(40, 12)) as pilot:
        fixed, grows = app.query_one(Fixed), app.query_one(Grows)
        await pilot.pause()
        before = len(passes)
        fixed.show(Text("three\nlines\nnow"))
        await pilot.pause(0.2)
        assert len(passes) == before  # the fixed widget is redrawn alone
        assert "lines" in "".join(s.text for s in fixed.render_line(1))
        grows.show(Text("three\nlines\nnow"))
        await pilot.pause(0.2)
        assert len(passes) > before
        assert grows.size.height == 3
        before = len(passes)
        grows.show(Text("three\nlines\nnow"))  # the same text: nothing at all
        await pilot.pause(0.2)
        assert len(passes) == before
