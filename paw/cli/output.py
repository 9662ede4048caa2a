"""What the command line prints reaches the user's terminal with foreign control text escaped.

Subjects, questions, argv, paths, pane text and a host's output are text paw did not write. The
commands print them in tables and lines; every byte they write to stdout and stderr passes
through :class:`EscapingWriter`, which shows control, bidi and zero-width characters as escapes
(:func:`paw.core.printable.printable`). ``--json`` output stays valid JSON with the same data
(the escapes are JSON's own). Tables escape their cells first (:func:`cell`) so that columns
line up on what is shown. The TUI (``paw``, ``paw tui``, ``paw demo``) draws through Textual
and escapes in its widgets instead.
"""

from __future__ import annotations

import contextlib
import io
import sys
from typing import TYPE_CHECKING, TextIO, cast

from paw.core.printable import printable, printable_line

if TYPE_CHECKING:
    from collections.abc import Iterator

BELL = "\a"  # paw's own bell (a wave's escalation): the one control paw writes on purpose


class EscapingWriter(io.TextIOBase):
    """A text stream over ``stream`` that escapes what :func:`printable` would."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self.stream = stream

    def write(self, text: str) -> int:
        """Write ``text`` escaped; returns ``len(text)`` as a text stream does."""
        self.stream.write(text if text == BELL else printable(text))
        return len(text)

    def flush(self) -> None:
        """Flush the underlying stream."""
        self.stream.flush()

    def isatty(self) -> bool:
        """Whether the underlying stream is a terminal."""
        return self.stream.isatty()

    def fileno(self) -> int:
        """The underlying stream's descriptor."""
        return self.stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        """The underlying stream's encoding."""
        return self.stream.encoding


@contextlib.contextmanager
def escaped_output() -> Iterator[None]:
    """Route ``sys.stdout`` and ``sys.stderr`` through :class:`EscapingWriter` while inside."""
    saved = sys.stdout, sys.stderr
    sys.stdout = cast("TextIO", EscapingWriter(saved[0]))
    sys.stderr = cast("TextIO", EscapingWriter(saved[1]))
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def cell(text: str) -> str:
    """One field of one line (a table cell, a subject, argv) with every control escaped."""
    return printable_line(text)
