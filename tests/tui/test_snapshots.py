"""Snapshots of the key screens (update with `make snapshots`; review every SVG diff).

Every screen is drawn over the real supervisor, a real git repository and a real tmux server on
a private socket, with scripted agents (tests/tui/snapshot_world.py): the picture is the feed's
picture of a real sweep, with only what varies from run to run (the clock, paths, the socket's
name, the audit records' order) pinned where the feed reads the supervisor. Before the snapshot
is taken the app is run until what it must show is on screen (a wait on a condition, with a
generous budget: the first sweep, the selected agent's pane, the dialog a key opens).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

import pytest
from textual.pilot import Pilot

from paw.tui.app import PawApp
from paw.tui.screens.block import BlockDialog
from paw.tui.screens.confirm import ConfirmDialog
from paw.tui.screens.help import HelpScreen
from paw.tui.screens.notice import TmuxLostDialog
from paw.tui.widgets.pane_preview import PanePreview
from tests.support.budget import budget
from tests.tui.conftest import settle
from tests.tui.snapshot_app import make_real_snapshot_app

if TYPE_CHECKING:
    from pathlib import Path

    from libtmux.session import Session

SIZE = (120, 40)
SMALL = (80, 24)
SHOWN_BUDGET_S = budget(60.0)  # until the app shows what the snapshot is of

Shown = Callable[[PawApp], bool]


def _details_shown(app: PawApp) -> bool:
    """The first picture is on screen and so is the selected agent's pane (or there is none)."""
    main = app.main
    if main.snapshot is None:
        return False
    agent = main.shown_agent
    return agent is None or main.query_one(PanePreview)._agent == agent


def _right_shown(app: PawApp) -> bool:
    """Narrow: the selected agent's pane in place of the lists (``v``)."""
    return _details_shown(app) and app.main.has_class("-show-right")


def _first_shown(app: PawApp) -> bool:
    """The first picture is on screen with what goes with it: the selected agent's pane, the
    wave view's widgets once there is a wave, the dialog of a lost tmux server."""
    if isinstance(app.screen, TmuxLostDialog):
        return True
    wave = app.main.wave is None or app.main._wave_widgets() is not None
    return _details_shown(app) and wave


def _on(screen: type[Any]) -> Shown:
    return lambda app: isinstance(app.screen, screen)


def _agent_shown(name: str) -> Shown:
    return lambda app: app.main.shown_agent == name and _details_shown(app)


def _wave_shown(app: PawApp) -> bool:
    return _details_shown(app) and app.main.wave is not None and app.main.wave_shown


class SnapshotCase(NamedTuple):
    test_id: str
    scenario: str
    keys: tuple[str, ...] = ()
    shown: Shown = _details_shown  # what is on screen once the keys took effect
    size: tuple[int, int] = SIZE


CASES = [
    SnapshotCase("empty", "empty"),
    SnapshotCase("agents_listed", "agents"),
    SnapshotCase("prompt_allow", "allow"),
    SnapshotCase("prompt_confirm", "confirm"),
    SnapshotCase("prompt_block", "block"),
    SnapshotCase("prompts_mixed", "mixed"),
    SnapshotCase("confirm_dialog", "confirm", ("a",), _on(ConfirmDialog)),
    SnapshotCase("block_dialog", "block", ("a",), _on(BlockDialog)),
    SnapshotCase("tmux_gone", "tmux_gone", shown=_on(TmuxLostDialog)),
    SnapshotCase("help", "empty", ("question_mark",), _on(HelpScreen)),
    SnapshotCase("small_terminal", "mixed", size=SMALL),
    SnapshotCase("small_terminal_pane", "mixed", ("v",), _right_shown, SMALL),
    SnapshotCase("small_terminal_confirm", "confirm", ("a",), _on(ConfirmDialog), SMALL),
    SnapshotCase("agent_without_prompt", "mixed", ("down",) * 4, _agent_shown("docs")),
    SnapshotCase("waiting_dialog", "waiting"),
    SnapshotCase("wave_view", "wave", ("w",), _wave_shown),
    SnapshotCase("small_terminal_wave", "wave", ("w",), _wave_shown, SMALL),
]


async def _until(pilot: Pilot[Any], shown: Callable[[], bool]) -> None:
    """Run the app until ``shown()`` holds (a generous budget; then the snapshot shows why)."""
    end = time.monotonic() + SHOWN_BUDGET_S
    while not shown() and time.monotonic() < end:
        await pilot.pause(0.05)
    await settle(pilot)


def _before(case: SnapshotCase) -> Callable[[Pilot[Any]], Any]:
    async def run_before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, PawApp)
        await _until(pilot, lambda: _first_shown(app))
        if case.keys:
            await pilot.press(*case.keys)
        await _until(pilot, lambda: case.shown(app))
        assert case.shown(app), f"{case.test_id}: not on screen after {SHOWN_BUDGET_S:.0f}s"

    return run_before


@pytest.mark.tmux
@pytest.mark.git
@pytest.mark.parametrize("case", [pytest.param(c, id=c.test_id) for c in CASES])
def test_snapshot_screen(
    case: SnapshotCase, snap_compare: Any, git_repo: Path, session: Session
) -> None:
    # a live tmux server (libtmux's session fixture: a private socket) and a real repository:
    # the scenario's scripted agents are spawned and settled before the app starts
    app = make_real_snapshot_app(git_repo, session.server, case.scenario)
    assert snap_compare(app, terminal_size=case.size, run_before=_before(case))
