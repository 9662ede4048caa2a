"""Snapshots of the key screens (update with `make snapshots`; review every SVG diff).

The screens with no agent are drawn over the real supervisor, a real git repository and a real
tmux server; the rest over fixture data (see tests/tui/snapshot_app.py for why).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import pytest
from textual.pilot import Pilot

from tests.tui.conftest import settle
from tests.tui.snapshot_app import make_real_snapshot_app, make_snapshot_app

if TYPE_CHECKING:
    from libtmux.session import Session

SIZE = (120, 40)


class SnapshotCase(NamedTuple):
    test_id: str
    scenario: str
    keys: tuple[str, ...] = ()
    size: tuple[int, int] = SIZE
    real: bool = False  # over the real supervisor, git and tmux (the scenario: no agent)


CASES = [
    SnapshotCase("empty", "empty", real=True),
    SnapshotCase("agents_listed", "agents"),
    SnapshotCase("prompt_allow", "allow"),
    SnapshotCase("prompt_confirm", "confirm"),
    SnapshotCase("prompt_block", "block"),
    SnapshotCase("prompts_mixed", "mixed"),
    SnapshotCase("confirm_dialog", "confirm", ("a",)),
    SnapshotCase("block_dialog", "block", ("a",)),
    SnapshotCase("tmux_gone", "tmux_gone"),
    SnapshotCase("help", "empty", ("question_mark",), real=True),
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


REAL = (pytest.mark.tmux, pytest.mark.git)


@pytest.mark.parametrize(
    "case", [pytest.param(c, id=c.test_id, marks=REAL if c.real else ()) for c in CASES]
)
def test_snapshot_screen(
    case: SnapshotCase, snap_compare: Any, request: pytest.FixtureRequest
) -> None:
    if case.real:
        # a live tmux server (libtmux's session fixture: a private socket) with no pane of
        # paw's, and a real repository: the supervisor sweeps them for real
        repo: Path = request.getfixturevalue("git_repo")
        session: Session = request.getfixturevalue("session")
        app = make_real_snapshot_app(repo, session.server.socket_name or "")
    else:
        app, _ = make_snapshot_app(case.scenario)
    assert snap_compare(app, terminal_size=case.size, run_before=_before(case.keys))
