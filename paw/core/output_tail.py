"""The tail of a command's output (a wave task's check, a landing's check), pure.

Two shapes: :func:`tail`, the last lines as they are (kept in a wave's state and report), and
:func:`one_line_tail`, the last non-blank lines on ONE line without colours or control
characters, for a follow-up typed into an agent (a newline would submit early, and a control
character is a key of its own: paw refuses to type it).
"""

from __future__ import annotations

from paw.core.detect.screen import strip_ansi
from paw.core.printable import printable_line


def tail(text: str, lines: int = 30, chars: int = 4000) -> str:
    """The last ``lines`` lines (at most ``chars`` characters) of ``text``."""
    return "\n".join(text.rstrip().splitlines()[-lines:])[-chars:]


def one_line_tail(output: str, lines: int, chars: int) -> str:
    """The last ``lines`` non-blank lines of ``output``, stripped, colours dropped, any other
    control character shown as an escape, joined by `` | `` and cut to the last ``chars``."""
    clean = strip_ansi(output)
    kept = [printable_line(ln.strip()) for ln in clean.splitlines() if ln.strip()][-lines:]
    return " | ".join(kept)[-chars:]
