"""The tripwire under KeyedTable: DataTable's private caches and methods paw relies on
(paw/tui/widgets/table_caches.py, and the two renders KeyedTable overrides) are still there, in
the shape paw reads them. A Textual upgrade that renames or reshapes one fails here, not as a
stale row on screen."""

from __future__ import annotations

import inspect

from textual.app import App, ComposeResult
from textual.cache import LRUCache
from textual.coordinate import Coordinate
from textual.widgets import DataTable
from textual.widgets.data_table import RowKey

from paw.tui.widgets import table_caches
from paw.tui.widgets.table import KeyedTable
from tests.tui.conftest import settle

RENDERS_READ = (
    "_row_locations",
    "_labelled_row_exists",
    "_show_hover_cursor",
    "_pseudo_class_state",
)


class Table(KeyedTable):
    COLUMNS = (("name", "Agent"), ("state", "State"))


class One(App[None]):
    def compose(self) -> ComposeResult:
        yield Table()


async def test_the_private_caches_paw_clears_are_there_in_the_shape_it_reads() -> None:
    app = One()
    async with app.run_test(size=(60, 12)) as pilot:
        table = app.query_one(Table)
        table.show_rows([(f"a{i}", (f"agent-{i}", "busy")) for i in range(4)])
        await settle(pilot)
        for name in table_caches.PRIVATE:
            assert hasattr(table, name), f"DataTable has no {name} any more"
        # what KeyedTable's own renders read (paw/tui/widgets/table.py)
        for name in RENDERS_READ:
            assert hasattr(table, name), f"DataTable has no {name} any more"
        assert table._row_locations.get_key(0) is not None
        assert isinstance(table_caches.update_count(table), int)
        for name in ("_row_renderable_cache", "_cell_render_cache", "_row_render_cache"):
            cache = getattr(table, name)
            assert isinstance(cache, LRUCache), name
            assert list(cache.keys()), f"{name} holds nothing after a render"
        renderables = list(table._row_renderable_cache.keys())
        assert all(isinstance(k[1], int) for k in renderables)
        assert {k[1] for k in renderables} <= set(range(-1, 4))  # (-1: the header)
        for name in ("_cell_render_cache", "_row_render_cache"):
            keys = list(getattr(table, name).keys())
            assert all(isinstance(k[0], RowKey) for k in keys), name
        lines = list(table._line_cache.keys())
        assert lines
        assert all(isinstance(k[0], int) for k in lines)
        assert any(isinstance(table._get_offsets(k[0])[0], RowKey) for k in lines)

        # forgetting a row drops its renders and keeps the others'
        row_key = table.coordinate_to_cell_key(Coordinate(1, 0))[0]
        other = table.coordinate_to_cell_key(Coordinate(0, 0))[0]
        table_caches.forget_rows(table, {1: row_key})
        rendered = [k[0] for k in table._row_render_cache.keys()]  # noqa: SIM118
        assert row_key not in rendered
        assert other in rendered
        assert all(k[1] != 1 for k in table._row_renderable_cache.keys())  # noqa: SIM118


def test_the_renders_keyed_table_overrides_keep_their_signature() -> None:
    """An override of a renamed or re-shaped private method is silently never called."""
    for name in ("_render_line_in_row", "_render_cell", "_size_updated"):
        ours = inspect.signature(getattr(KeyedTable, name))
        theirs = inspect.signature(getattr(DataTable, name))
        assert list(ours.parameters) == list(theirs.parameters), name
    for name in ("_get_row_renderables", "_get_styles_to_render_cell", "_scroll_update"):
        assert callable(getattr(DataTable, name, None)), name
