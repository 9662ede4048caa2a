"""A DataTable that is refreshed from keyed rows without losing the cursor."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.coordinate import Coordinate
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey

from paw.core.printable import printable_line
from paw.tui.widgets import table_caches as caches
from paw.tui.widgets.static import text_key

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Self

    from textual.geometry import Region, Size
    from textual.widgets.data_table import RowKey

    SegmentLines = list[list[Segment]]

Cell = str | Text
SHRINK_AFTER_S = 10.0  # a column narrows once it has been too wide this long
MOVED_RENDERS = 1024  # rendered rows kept by what they show (see KeyedTable._render_line_in_row)
Row = tuple[str, tuple[Cell, ...]]  # (row key, cells)


class KeyedTable(DataTable[Cell]):
    """Row-cursor table whose rows are replaced wholesale by :meth:`show_rows`.

    Unchanged rows are left alone, changed cells are updated in place, and the cursor stays on
    the same key when rows move (a sweep re-sorts agents every time).
    """

    COLUMNS: tuple[tuple[str, str], ...] = ()  # (key, label)
    # True where paw.tcss gives the table a height of its own (``1fr``, not ``auto``): a row
    # added or removed then changes only what the table scrolls over, and while no scrollbar
    # comes or goes the table redraws itself (and its scrollbar) alone instead of asking for a
    # layout pass of the whole screen (which arranges every widget again and redraws every
    # panel whose geometry moved: 15-60 ms of a new prompt's way to the screen at 200 agents).
    # Such a table's paw.tcss rule also says ``overflow-y: scroll``: a scrollbar that is always
    # there never comes or goes as prompts come and go around the table's height.
    FIXED_HEIGHT = False

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's own name
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self._rows: list[Row] = []
        # rendered rows by what decides their look, wherever they stand (a re-sort moves rows)
        self._moved: LRUCache[tuple[object, ...], tuple[int, tuple[SegmentLines, SegmentLines]]]
        self._moved = LRUCache(MOVED_RENDERS)
        self._metas: dict[tuple[int, int], Style] = {}
        self._too_wide: dict[str, float] = {}  # column -> since when it is wider than needed
        self.clock: Callable[[], float] = time.monotonic  # when columns narrow (tests set it)
        self._bars_laid_out: tuple[bool, bool] | None = None  # (horizontal, vertical)

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        """Textual's refresh, without the layout pass a fixed-height table does not need."""
        if layout and not recompose and self.FIXED_HEIGHT and self._scrollbars_stay():
            layout = False
            if self.show_vertical_scrollbar:  # what a layout pass would do for it: the thumb
                self._scroll_update(self.virtual_size)
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        """A layout pass placed the table: remember which scrollbars it placed."""
        resized = super()._size_updated(size, virtual_size, container_size, layout)
        self._bars_laid_out = (self.show_horizontal_scrollbar, self.show_vertical_scrollbar)
        return resized

    def _scrollbars_stay(self) -> bool:
        """The scrollbars the last layout pass placed are the ones shown, and the ones what the
        table holds now needs: its region and its scrollbars' places stay as they are."""
        size = self.scrollable_content_region.size
        if not size or self.show_horizontal_scrollbar or self._bars_laid_out is None:
            return False
        virtual = self.virtual_size
        vertical = self.styles.overflow_y == "scroll" or virtual.height > size.height
        shown = (False, bool(self.show_vertical_scrollbar))
        return virtual.width <= size.width and shown == (False, vertical) == self._bars_laid_out

    def on_mount(self) -> None:
        """Create the columns."""
        for key, label in self.COLUMNS:
            self.add_column(label, key=key)

    @property
    def selected_key(self) -> str | None:
        """The key of the row under the cursor, or None when the table is empty."""
        if not self._rows or not 0 <= self.cursor_row < len(self._rows):
            return None
        return self._rows[self.cursor_row][0]

    @property
    def visible_keys(self) -> list[str]:
        """The keys of the rows shown, in order."""
        return [k for k, _ in self._rows]

    def show_rows(self, rows: Sequence[Row]) -> None:
        """Make the table show ``rows`` (in this order).

        Rows are updated by position, cell by cell, and added or removed at the end: a sweep
        that only re-sorts rows (an agent going from busy to prompt moves up) changes a few
        cells instead of clearing and rebuilding the table, which costs a layout pass of the
        whole screen. The cursor follows its row's key."""
        new = list(rows)
        keep = self.selected_key
        old = self._rows
        changed = False
        count = caches.update_count(self)
        for index in range(len(new), len(old)):  # fewer rows: drop the last ones
            self.remove_row(str(index))
            changed = True
        updates: list[tuple[int, list[tuple[int, Cell]]]] = []
        for index, (_, cells) in enumerate(new):
            if index >= len(old):
                self.add_row(*(_literal(cell) for cell in cells), key=str(index))
                changed = True
                continue
            before_cells = old[index][1]
            if cells is before_cells:  # (a caller that keeps a row's cells: nothing to compare)
                continue
            changes = [
                (column, cell)
                for column, (cell, before) in enumerate(zip(cells, before_cells, strict=True))
                if cell is not before and _cell_key(cell) != _cell_key(before)
            ]
            if changes:
                updates.append((index, changes))
        if updates:
            self._update_rows(updates)
            changed = True
        self._rows = new
        added_or_removed = abs(len(new) - len(old))
        if added_or_removed and caches.update_count(self) == count + added_or_removed:
            self._keep_renders(count, range(min(len(old), len(new)), max(len(old), len(new))))
        if changed or self._too_wide:  # (a column waiting to narrow is looked at again)
            self._fit_columns(new)
        keys = [k for k, _ in new]
        if keep in keys and keys.index(keep) != self.cursor_row:
            self.move_cursor(row=keys.index(keep), animate=False)

    def _render_line_in_row(
        self,
        row_key: RowKey,
        line_no: int,
        base_style: Style,
        cursor_location: Coordinate,
        hover_location: Coordinate,
    ) -> tuple[SegmentLines, SegmentLines]:
        """DataTable's rendered row, reused when the same row was rendered at another index.

        DataTable caches a row's render by the row's key and the cursor's whole coordinate,
        and paw's keys are positions: a sweep that re-sorts the agents (one going from busy
        to waiting moves up) made every row below it render again, cell by cell through Rich
        (most of a frame at 200 agents), and so did every cursor move. A row looks the same
        wherever it stands except for its zebra stripe, its cursor and hover highlight, and
        the row index in its segments' meta (what a click reports): the render is kept by
        those and the cells' looks, and a row moved elsewhere gets its meta rewritten.
        Tests compare the result, meta included, with a table built afresh."""
        index = self._row_locations.get(row_key)
        if (
            index is None
            or not 0 <= index < len(self._rows)
            or self.fixed_columns
            or self.fixed_rows
            or self.cursor_type != "row"
            or (self._labelled_row_exists and self.show_row_labels)
        ):
            return super()._render_line_in_row(
                row_key, line_no, base_style, cursor_location, hover_location
            )
        key = (
            tuple(_cell_key(cell) for cell in self._rows[index][1]),
            line_no,
            base_style,
            index % 2,
            cursor_location.row == index,
            hover_location.row == index,
            self.show_cursor,
            self._show_hover_cursor,
            caches.update_count(self),
            self._pseudo_class_state,
            self.size.width,
            tuple(column.get_render_width(self) for column in self.ordered_columns),
        )
        found = self._moved.get(key)
        if found is not None:
            at, pair = found
            return pair if at == index else self._moved_to(pair, index)
        pair = super()._render_line_in_row(
            row_key, line_no, base_style, cursor_location, hover_location
        )
        self._moved[key] = (index, pair)
        return pair

    def _render_cell(
        self,
        row_index: int,
        column_index: int,
        base_style: Style,
        width: int,
        cursor: bool = False,
        hover: bool = False,
    ) -> SegmentLines:
        """DataTable's cell render, made here for the cells paw shows: one line of text that
        fits its column. DataTable renders every cell through Rich (``Padding`` in ``Styled``,
        rendered as lines: about 0.2 ms a cell, a row of a new prompt ~1-2 ms, most of the
        frame that shows a burst of prompts at 200 agents); that render is the text's own
        segments between the padding, every segment styled ``pre + own + post``, which is
        what this builds. Anything else (a header, a fixed column, a taller row, a tab, a
        wide or zero-width character, a text longer than its column) goes to DataTable.
        Tests compare the result with DataTable's own, cell by cell."""
        fast = self._plain_cell(row_index, column_index, base_style, width, cursor, hover)
        if fast is not None:
            return fast
        return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)

    def _plain_cell(
        self,
        row_index: int,
        column_index: int,
        base_style: Style,
        width: int,
        cursor: bool,
        hover: bool,
    ) -> SegmentLines | None:
        if row_index < self.fixed_rows or not 0 <= self.fixed_columns <= column_index:
            return None
        row_key = self._row_locations.get_key(row_index)
        row = self.rows.get(row_key) if row_key is not None else None
        if row is None or row.height != 1:
            return None
        cells = self._get_row_renderables(row_index).cells
        cell = cells[column_index] if column_index < len(cells) else None
        if not isinstance(cell, Text) or cell.justify not in (None, "default", "left"):
            return None
        plain, pad = cell.plain, self.cell_padding
        room = width - 2 * pad
        if not (plain.isprintable() and len(plain) <= room and cell_len(plain) == len(plain)):
            return None  # (isprintable: no tab, newline or other control character)
        component, post = self._get_styles_to_render_cell(  # (not a header, label or fixed)
            False,
            False,
            False,
            hover,
            cursor,
            self.show_cursor,
            self._show_hover_cursor,
            self.cursor_foreground_priority == "css",
            self.cursor_background_priority == "css",
        )
        pre = base_style + self._meta(row_index, column_index) + component
        blank = pre + post
        line = [Segment(" " * pad, blank)] if pad else []
        console = self.app.console
        if cell.spans:  # (Text.render: the text's own style first, then its spans')
            own = [(s.text, s.style) for s in cell.render(console, end="")]
        else:  # (Text.render leaves a text without spans unstyled: Rich styles it outside)
            own = [(plain, console.get_style(cell.style, default=Style.null()) or None)]
        for text, style in own:
            if text:
                line.append(Segment(text, (pre + style + post) if style else blank))
        if room - len(plain) + pad:
            line.append(Segment(" " * (room - len(plain) + pad), blank))
        return [line]

    def _moved_to(
        self, pair: tuple[SegmentLines, SegmentLines], index: int
    ) -> tuple[SegmentLines, SegmentLines]:
        """A row rendered at another index, with its segments' meta saying ``index``."""
        fixed, scrollable = pair
        moved: SegmentLines = []
        for column, line in enumerate(scrollable):
            meta = self._meta(index, column)
            moved.append(
                [
                    Segment(seg.text, (seg.style + meta) if seg.style else meta, seg.control)
                    for seg in line
                ]
            )
        return fixed, moved

    def _meta(self, index: int, column: int) -> Style:
        """The meta that places a segment at row ``index`` (the last "column" is the padding
        after the cells: its own meta keeps its column 0 and out-of-bounds flag)."""
        style = self._metas.get((index, column))
        if style is None:
            if column >= len(self.ordered_columns):
                style = Style.from_meta({"row": index})
            else:
                style = Style.from_meta({"row": index, "column": column})
            if len(self._metas) > 4096:
                self._metas.clear()
            self._metas[(index, column)] = style
        return style

    def _update_rows(self, updates: list[tuple[int, list[tuple[int, Cell]]]]) -> None:
        """Put new values in cells of the rows given (index, (column, cell)...) and redraw
        those rows alone.

        DataTable's own ``update_cell`` throws away every cached render of the table and
        redraws it whole: with fifty agents and a busy one changing state a few times a
        second, that render was most of the TUI's time (and of a new prompt's way to the
        screen). Here only the rows' cached renders are dropped (their cells, lines and
        renderables, in one pass over each cache for all the rows) and only their regions are
        refreshed; every cache a row could be in is keyed by the row's key, index or line, and
        the table's structure (rows, heights, columns) does not change. Tests compare the
        result with a table built afresh."""
        keys: dict[int, RowKey] = {}
        columns = [column.key for column in self.ordered_columns]
        for index, changes in updates:
            row_key, _ = self.coordinate_to_cell_key(Coordinate(index, 0))
            keys[index] = row_key
            for column, cell in changes:
                caches.set_cell(self, row_key, columns[column], _literal(cell))
        caches.forget_rows(self, keys)
        for index in keys:
            self.refresh_row(index)

    def _keep_renders(self, count: int, indices: range) -> None:
        """Rows were added or removed at the end (``indices``) and nothing else moved: keep
        the other rows' cached renders. DataTable's ``add_row``/``remove_row`` count an update
        each, which drops every cached render of the table (a prompt coming or going redrew
        the whole queue); the count goes back to ``count`` and only what can show the rows at
        ``indices`` is forgotten (the line offsets, kept per count, are computed again)."""
        caches.rows_added_or_removed_at_end(self, count)
        caches.forget_rows(self, {index: str(index) for index in indices})
        self.refresh()

    def _fit_columns(self, rows: list[Row]) -> None:
        """Make each column as wide as its widest cell (DataTable's own ``update_width``
        re-measures a whole column per shrinking cell: too slow per sweep).

        A column widens at once and narrows only once it has been too wide for
        :data:`SHRINK_AFTER_S`: a width change redraws the whole table, and a busy agent's
        "prompt 9s" / "prompt 10s" / "busy 1s" would otherwise change it every few sweeps."""
        resized = False
        now = self.clock()
        for index, (key, _) in enumerate(self.COLUMNS):
            column = self.columns.get(ColumnKey(key))
            if column is None:
                continue
            width = max([column.label.cell_len, *(_cell_len(cells[index]) for _, cells in rows)])
            if width >= column.content_width:
                self._too_wide.pop(key, None)
                if width == column.content_width:
                    continue
            elif now - self._too_wide.setdefault(key, now) < SHRINK_AFTER_S:
                continue
            else:
                self._too_wide.pop(key, None)
            column.content_width = width
            resized = True
        if resized:  # every row's cached render has the old widths: drop them all
            caches.resized(self)
            self.refresh()


def _literal(cell: Cell) -> Text:
    """The cell as the text it says. DataTable reads a ``str`` cell as Rich markup: a prompt's
    subject (pane text: a model chooses it) such as ``sed 's/[/]/x/'`` raised MarkupError in
    the middle of a frame, and ``rm -rf [bold]~[/bold]`` showed as ``rm -rf ~``; what is shown
    is what the agent asked, character for character. Its control, bidi and zero-width
    characters show as escapes (:func:`~paw.core.printable.printable_line`): they can neither
    reach the terminal nor shift the columns."""
    return cell if isinstance(cell, Text) else Text(printable_line(cell), no_wrap=True, end="")


def _cell_key(cell: Cell) -> object:
    """What decides how a cell looks (Rich's ``Text ==`` ignores the base style: a status
    that only changed colour would keep its old one)."""
    return text_key(cell) if isinstance(cell, Text) else cell


def _cell_len(cell: Cell) -> int:
    return cell.cell_len if isinstance(cell, Text) else cell_len(printable_line(cell))
