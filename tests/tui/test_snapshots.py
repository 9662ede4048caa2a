"""Snapshots of the key screens (update with `make snapshots`; review every SVG diff)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import pytest
from textual.pilot import Pilot

from tests.tui.conftest import settle
from tests.tui.snapshot_app import make_snapshot_app

SIZE = (120, 40)


class SnapshotCase(NamedTuple):
    test_id: str
    scenario: str
    keys: tuple[str, ...] = ()
    size: tuple[int, int] = SIZE


CASES = [
    SnapshotCase("empty", "empty"),
    SnapshotCase("agents_listed", "agents"),
    SnapshotCase("prompt_allow", "allow"),
    SnapshotCase("prompt_confirm", "confirm"),
    SnapshotCase("prompt_block", "block"),
    SnapshotCase("prompts_mixed", "mixed"),
    SnapshotCase("confirm_dialog", "confirm", ("a",)),
    SnapshotCase("block_dialog", "block", ("a",)),
    SnapshotCase("tmux_gone", "tmux_gone"),
    SnapshotCase("help", "empty", ("question_mark",)),
    SnapshotCase("small_terminal", "mixed", size=(80, 24)),
    SnapshotCase("small_terminal_pane", "mixed", ("v",), size=(80, 24)),
    SnapshotCase("small_terminal_confirm", "confirm", ("a",), size=(80, 24)),
    SnapshotCase("agent_without_prompt", "mixed", ("down", "down", "down", "down")),
    SnapshotCase("wave_view", "wave", ("w",)),
    SnapshotCase("small_terminal_wave", "wave", ("w",), size=(80, 24)),
]


def _before(keys: tuple[str, ...]) -> Callable[[Pilot[Any]], Any]:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        if keys:
            await pilot.press(*keys)
            await settle(pilot)

    return run_before


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_snapshot_screen(case: SnapshotCase, snap_compare: Any) -> None:
    app, _ = make_snapshot_app(case.scenario)
    assert snap_compare(app, terminal_size=case.size, run_before=_before(case.keys))
