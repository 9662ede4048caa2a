"""Waiting on a condition with a budget measured on the wall clock (the Context's clock).

A budget counted in sleeps alone ends late on an idle machine and early nowhere, but it ignores
the time each look takes (a tmux capture under load can take longer than the sleep): paw
measures every wait on the clock instead. The number of looks is also capped at what the
budget allows at the given interval, so a wait ends even with a clock that does not move
(tests over fakes); with a real clock that cap never binds first, as each look sleeps
``interval_s``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable

    from paw.supervisor.context import Context

T = TypeVar("T")


def poll(
    ctx: Context, budget_s: float, interval_s: float, check: Callable[[], T | None]
) -> T | None:
    """Call ``check`` until it returns something other than None, or ``budget_s`` seconds
    have passed on ``ctx.clock`` (then None); ``ctx.sleep(interval_s)`` between calls."""
    start = ctx.clock()
    for _ in range(max(1, math.ceil(budget_s / interval_s) + 1)):
        found = check()
        if found is not None:
            return found
        if ctx.clock() - start >= budget_s:
            return None
        ctx.sleep(interval_s)
    return None
