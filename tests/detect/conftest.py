"""Known gaps of the newest detectors, kept visible: each listed case (a node id; ``*``
matches any text) is expected to fail.

They are strict xfails: a listed case that starts passing fails the run, so the list shrinks as
the detectors learn. Every gap reads unknown where the case wants the prompt: none reads a
dialog as idle or busy (a framed block where the agent's input is not readable is unknown, see
paw.core.detect.live_dialog.framed_bottom).
"""

from __future__ import annotations

from fnmatch import fnmatchcase

import pytest

_WIDTHS = "tests/detect/test_widths.py::"
KNOWN_GAPS: dict[str, str] = {
    **{
        f"{_WIDTHS}test_detect_scrollbar_column_is_chrome"
        f"[kilocode/reject_feedback_120x40-{rail}]": "unknown: Kilo's reject feedback box with a "
        "scrollbar rail: the redraw keeps the box's right-aligned key hints at their 120-column "
        "offset, so the rail's 80 columns cut them off and the box shows no hint"
        for rail in ("thumb", "thumb-and-track", "shaded")
    },
    f"{_WIDTHS}test_detect_long_home_paths_wrap_onto_the_next_line"
    "[continue-cli/question_120x40-80x24]": "unknown: Continue's status line wraps onto three "
    "rows under a long HOME; with the blank row above it that is more rows under the question "
    "box than the bottom box may have (boxes.box_above_status), so it is not proven the bottom "
    "one",
    **{
        f"{_WIDTHS}test_detect_long_home_paths_wrap_onto_the_next_line"
        f"[mistral-vibe/trust_dialog_120x40-{size}]": "unknown: vibe's centred trust dialog "
        "redrawn by cutting rows, which the app never draws (a framed block where the input "
        "should be)"
        for size in ("80x24",)
    },
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the known gaps as strict expected failures."""
    for item in items:
        reason = KNOWN_GAPS.get(item.nodeid) or next(
            (
                why
                for key, why in KNOWN_GAPS.items()
                if "*" in key and fnmatchcase(item.nodeid, key.replace("[", "[[]"))
            ),
            None,
        )
        if reason is not None:
            item.add_marker(pytest.mark.xfail(reason=f"known gap: {reason}", strict=True))
