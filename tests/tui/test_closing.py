"""The TUI closing: its timer may tick once more after the main screen's tables are gone."""

from __future__ import annotations

from paw.tui.widgets.agent_list import AgentList
from tests.tui.conftest import settle
from tests.tui.snapshot_app import make_snapshot_app

SIZE = (120, 40)


async def test_a_tick_after_the_tables_are_gone_moves_no_age_and_raises_nothing() -> None:
    """Seen on a loaded machine: the app's timer ticked while the app closed, the ages were
    due, and ``refresh_ages`` looked up a table already removed (``NoMatches`` ended the run
    with an error although every step had passed)."""
    app, _fake = make_snapshot_app("agents")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main
        assert main.snapshot is not None
        assert main.query(AgentList)
    # The app is closed: its screens' widgets are gone, as when its timer ticks late.
    assert not main.query(AgentList)
    main._ages_at = -1  # the ages are due (a whole second passed since the picture)
    main.refresh_ages()  # what the app's timer calls: nothing to show, nothing raised
    assert main._ages_at == -1
