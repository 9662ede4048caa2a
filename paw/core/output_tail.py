"""The tail of a command's output (a wave task's check, a landing's check), pure.

Two shapes: :func:`tail`, the last lines as they are (kept in a wave's state and report), and
:func:`one_line_tail`, the last non-blank lines on ONE line without colours or control
characters, for a follow-up typed into an agent (a newline would submit early, and a control
character is a key of its own: paw refuses to type it); :func:`fitted_tail`, the same sized so
the whole message shows in the agent's input (:mod:`paw.core.typed_room`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from paw.core.detect.screen import strip_ansi
from paw.core.printable import printable_line
from paw.core.typed_room import fits

if TYPE_CHECKING:
    from collections.abc import Callable

    from paw.core.typed_room import Fit


def tail(text: str, lines: int = 30, chars: int = 4000) -> str:
    """The last ``lines`` lines (at most ``chars`` characters) of ``text``."""
    return "\n".join(text.rstrip().splitlines()[-lines:])[-chars:]


def one_line_tail(output: str, lines: int, chars: int) -> str:
    """The last ``lines`` non-blank lines of ``output``, stripped, colours dropped, any other
    control character shown as an escape, joined by `` | `` and cut to the last ``chars``."""
    clean = strip_ansi(output)
    kept = [printable_line(ln.strip()) for ln in clean.splitlines() if ln.strip()][-lines:]
    return " | ".join(kept)[-chars:]


LAND_FOLLOWUP_TAIL_LINES = 15  # the lander's follow-ups (its first, and a respawned agent's)
LAND_FOLLOWUP_MAX_CHARS = 1200

TRIMMED = "(trimmed)"  # before a tail that is not the whole output


def fitted_tail(
    output: str, lines: int, chars: int, compose: Callable[[str], str], fit: Fit | None
) -> str:
    """``compose(tail)``: the message around the longest tail of ``output`` (its last lines,
    the most useful, on one line as :func:`one_line_tail` writes them; at most ``lines`` lines
    and ``chars`` characters) that shows whole in the room ``fit`` (None: no room stated, the
    caps only). A tail that is not the whole output starts with :data:`TRIMMED`; when not even
    one line fits, the last line's end does; when not even that, the tail is the mark alone."""
    clean = strip_ansi(output)
    every = [printable_line(ln.strip()) for ln in clean.splitlines() if ln.strip()]
    kept = every[-lines:]
    joined = " | ".join(kept)

    def message(tail: str, whole: bool) -> str:
        return compose(tail if whole else f"{TRIMMED} {tail}".rstrip())

    if fit is None:
        return message(joined[-chars:], len(kept) == len(every) and len(joined) <= chars)
    for count in range(len(kept), 0, -1):
        tail = " | ".join(kept[-count:])
        if len(tail) > chars:
            continue
        text = message(tail, count == len(every))
        if fits(text, fit):
            return text
    last = kept[-1][-chars:] if kept else ""
    low, high = 0, len(last)  # the most of the last line's end that fits: low fits
    while low < high:
        mid = (low + high + 1) // 2
        if fits(message(last[-mid:], False), fit):
            low = mid
        else:
            high = mid - 1
    return message(last[-low:] if low else "", not every)


@dataclass(frozen=True, slots=True)
class TailRoom:
    """Where a failed check's follow-up goes: the room in its agent's input at its pane's size
    (None: unknown, the caps only) and the file paw saved the whole output to (None: none)."""

    fit: Fit | None = None
    saved: str | None = None

    def saved_words(self) -> str:
        """The words naming the saved output, to go before the request ("" when none was
        saved)."""
        if self.saved is None:
            return ""
        return f"the whole output is in {printable_line(self.saved)} -- "


CHECKS_FOLDER = "checks"  # in paw's state directory: the whole output of every failed check
SAVED_MAX_CHARS = 1_000_000  # of a saved output: its end
SAVED_KEPT = 5  # saved outputs kept per wave and task (the newest; older ones are deleted)


def saved_output_name(*parts: str | int) -> str:
    """The file name a failed check's whole output is saved under, from what names the run
    (the wave, the task, the run's number), only letters, digits, ``.``, ``_`` and ``-``. The
    parts are separated by ``.``, which wave and task names never hold (:mod:`paw.core.names`),
    so two runs' parts never give one name (``w`` + ``a-b`` and ``w-a`` + ``b`` differ); the
    state store adds a counter when the name is taken (a wave re-run starts at run 1 again)."""
    safe = ".".join(re.sub(r"[^A-Za-z0-9_-]", "_", str(p)) for p in parts)
    return f"{safe.lstrip('._-')[:100] or 'check'}.log"


def saved_output_group(wave: str, task: str) -> str:
    """How every saved output of ``task`` in ``wave`` starts (its checks' and the lander's):
    the files :data:`SAVED_KEPT` counts."""
    return saved_output_name(wave, task).removesuffix(".log") + "."
