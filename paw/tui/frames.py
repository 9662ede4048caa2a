"""How often paw's screens may draw a frame.

Textual draws a screen's changes on a grid of ``TEXTUAL_FPS`` frames a second (60 unless the
user sets it): a change made just after a frame waits for the next grid point, up to 17 ms.
paw's frames follow its pictures and the human's keys, not animations: at 200 agents with 20
of them busy, the sweeper pushed 42 pictures a second and the TUI drew 12 frames a second
(most pictures change nothing on screen). There, a new prompt waited for that grid 4 ms at
the median and 18-27 ms at p95, of 63-72 ms from drawn to shown (docs/performance.md, tenth
pass). paw's screens use a finer grid: the frame follows the picture at once, and what the
grid is for (changes close together drawn as one frame) still holds within FRAME_S.
"""

from __future__ import annotations

import os

import textual.constants
import textual.screen

FRAME_S = 1 / 240


def frame_period() -> float:
    """The seconds between two frames: FRAME_S, or the user's own ``TEXTUAL_FPS``."""
    if "TEXTUAL_FPS" in os.environ:
        return 1 / textual.constants.MAX_FPS
    return FRAME_S


def use_frame_period() -> None:
    """Make the screens created from now on draw at most every :func:`frame_period` seconds
    (Textual reads its module-level period when a screen first draws)."""
    setattr(textual.screen, "UPDATE_PERIOD", frame_period())  # noqa: B010 - Textual's Final
