"""docs/tui.md stays true: every key is listed and the screenshots are the current snapshots."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest
from textual.binding import Binding

from paw.tui.screens.keys import MAIN_BINDINGS

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "tui.md"
SNAPSHOTS = Path(__file__).parent / "__snapshots__" / "test_snapshots"


class ScreenshotCase(NamedTuple):
    test_id: str
    doc_image: str
    snapshot: str


SCREENSHOTS = [
    ScreenshotCase("prompts", "tui-prompts.svg", "test_snapshot_screen[prompts_mixed].svg"),
    ScreenshotCase("block", "tui-block-dialog.svg", "test_snapshot_screen[block_dialog].svg"),
]


def test_docs_tui_lists_every_key() -> None:
    text = DOC.read_text(encoding="utf-8")
    keys = [b.key_display or b.key for b in MAIN_BINDINGS if isinstance(b, Binding)]
    missing = [k for k in keys if f"| `{k}` |" not in text]
    assert missing == []


@pytest.mark.parametrize("case", SCREENSHOTS, ids=[c.test_id for c in SCREENSHOTS])
def test_docs_tui_screenshot_is_current_snapshot(case: ScreenshotCase) -> None:
    image = (ROOT / "docs" / "img" / case.doc_image).read_text(encoding="utf-8")
    assert image == (SNAPSHOTS / case.snapshot).read_text(encoding="utf-8"), (
        f"copy tests/tui/__snapshots__/test_snapshots/{case.snapshot} to docs/img/{case.doc_image}"
    )
