"""The one place paw reaches into DataTable's private render caches (Textual has no public way).

DataTable drops every cached render whenever one cell changes (``update_cell``,
``add_row`` and ``remove_row`` count an update; ``_clear_caches`` empties them all), and a busy
agent changes a cell a few times a second: :class:`~paw.tui.widgets.table.KeyedTable` drops
only the renders of the rows that changed, through these functions. They name every private
attribute of DataTable they touch in :data:`PRIVATE` and the shape of each cache's keys they
rely on is written down here; ``tests/tui/test_table_caches.py`` checks both against the
Textual installed, so an upgrade that renames or reshapes one fails that test instead of
showing a stale row.

Cache keys relied on (Textual 8): ``_row_renderable_cache`` ``(update_count, row_index)``;
``_cell_render_cache`` and ``_row_render_cache`` ``(row_key, ...)``; ``_line_cache``
``(y, ...)``; ``_offset_cache`` and ``_ordered_row_cache`` derived from the update count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping

    from textual.widgets import DataTable
    from textual.widgets.data_table import ColumnKey, RowKey

# DataTable's private attributes used here (the test checks each exists on a live table)
PRIVATE = (
    "_update_count",
    "_require_update_dimensions",
    "_data",
    "_row_renderable_cache",
    "_cell_render_cache",
    "_row_render_cache",
    "_line_cache",
    "_offset_cache",
    "_ordered_row_cache",
    "_get_offsets",
)


def update_count(table: DataTable[Any]) -> int:
    """DataTable's count of updates (every cached render is kept per count)."""
    count: int = table._update_count
    return count


def set_cell(table: DataTable[Any], row: RowKey, column: ColumnKey, value: object) -> None:
    """Put ``value`` in a cell without dropping any cached render (the caller drops the row's
    with :func:`forget_rows`)."""
    table._data[row][column] = value


def resized(table: DataTable[Any]) -> None:
    """Every row's width changed: drop every render and measure the table again."""
    table._update_count += 1
    table._require_update_dimensions = True


def rows_added_or_removed_at_end(table: DataTable[Any], count: int) -> None:
    """Rows were added or removed at the end only: go back to update count ``count`` (the
    other rows' renders stay) and drop what is kept per count (the line offsets)."""
    table._update_count = count
    table._offset_cache.clear()
    table._ordered_row_cache.clear()


def forget_rows(table: DataTable[Any], rows: Mapping[int, object]) -> None:
    """Drop every cached render the rows (index -> row key) can be in: their cells, lines
    and renderables, and the lines of no row (past the end)."""
    if not rows:
        return
    row_keys = set(rows.values())
    # (LRUCache has keys() but no __iter__)
    renderables = table._row_renderable_cache
    for r_key in [k for k in renderables.keys() if k[1] in rows]:  # noqa: SIM118
        renderables.discard(r_key)
    cells = table._cell_render_cache
    for c_key in [k for k in cells.keys() if k[0] in row_keys]:  # noqa: SIM118
        cells.discard(c_key)
    rendered = table._row_render_cache
    for w_key in [k for k in rendered.keys() if k[0] in row_keys]:  # noqa: SIM118
        rendered.discard(w_key)
    lines = table._line_cache
    row_keys.add(None)
    for l_key in [k for k in lines.keys() if _line_row(table, k[0]) in row_keys]:  # noqa: SIM118
        lines.discard(l_key)


def _line_row(table: DataTable[Any], y: int) -> object:
    try:
        return table._get_offsets(y)[0]
    except LookupError:
        return None
