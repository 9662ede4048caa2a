"""A Static that skips updates which would not change what it shows."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

# What can wait for the frame in progress (a layout pass a new text asks for, a toast) is done
# this long after it: Textual's call_after_refresh can run before the frame when it is asked
# for while the widgets' own updates are still queued; the screen draws every 1/60 s.
AFTER_FRAME_S = 0.05


def text_key(text: Text) -> tuple[object, ...]:
    """Everything that decides how ``text`` looks (Rich's ``==`` ignores the base style)."""
    return (
        text.plain,
        tuple(text.spans),
        str(text.style),
        text.justify,
        text.overflow,
        text.no_wrap,
        text.end,
    )


class QuietStatic(Static):
    """A Static whose :meth:`show` is free when the text is the one already shown.

    Every ``Static.update`` costs a layout pass of the whole screen; sweeps redraw each panel
    twice a second, mostly with the same text.
    """

    _shown: tuple[object, ...] | None = None
    # True for a widget whose size paw.tcss fixes (a height in lines, the width of its
    # column): a new text then redraws the widget alone, without a layout pass of the screen.
    FIXED_SIZE = False
    # True for a widget whose width paw.tcss fixes (its column's) and whose height follows its
    # text: a new text of the same height redraws the widget alone; a change of height asks
    # for the layout pass after the frame in progress (AFTER_FRAME_S), so that frame (a new
    # prompt in the queue) is not held back by it; until then the new text has the old height.
    FIXED_WIDTH = False

    def show(self, text: Text) -> None:
        """Show ``text`` unless it is already shown."""
        key = text_key(text)
        if key == self._shown:
            return
        self._shown = key
        size = self.size
        if self.FIXED_SIZE or not (self.FIXED_WIDTH and size):
            self.update(text, layout=not self.FIXED_SIZE)
            return
        self.update(text, layout=False)
        if self.get_content_height(size, self.app.size, size.width) != size.height:
            self.set_timer(AFTER_FRAME_S, lambda: self.refresh(layout=True), name="relayout")
