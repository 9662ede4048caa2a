"""Wall-clock budgets of the suite's waits, generous and scaled for slow machines.

Every wait in the suite polls a condition and gives up after a budget; a budget only costs time
when the condition never holds. The defaults are sized for a fresh, loaded two-core machine with
a long HOME path. ``PAW_TEST_SLOW`` (a factor, default 1) stretches all of them at once, e.g.
``PAW_TEST_SLOW=3`` on a machine that is busier still.
"""

from __future__ import annotations

import os


def _factor() -> float:
    try:
        value = float(os.environ.get("PAW_TEST_SLOW", "1"))
    except ValueError:
        return 1.0
    return value if value > 0 else 1.0


SLOW = _factor()


def budget(seconds: float) -> float:
    """``seconds`` scaled by ``PAW_TEST_SLOW``."""
    return seconds * SLOW
