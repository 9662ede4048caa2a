"""A Static that skips updates which would not change what it shows."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

# What can wait for the frame in progress (a toast, the first picture's mark) is done
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

    def show(self, text: Text) -> None:
        """Show ``text`` unless it is already shown."""
        key = text_key(text)
        if key == self._shown:
            return
        self._shown = key
        self.update(text, layout=not self.FIXED_SIZE)
