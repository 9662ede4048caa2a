"""KeyedTable redraws only the rows that changed; what it shows must equal a table built
afresh from the same rows, after any sequence of updates (a stale cached line would show an
agent's old state or a prompt's old verdict)."""

from __future__ import annotations

import random

import pytest
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey

import paw.tui.widgets.table as table_module
from paw.tui.widgets.table import Cell, KeyedTable, Row

STATES = ["busy", "idle", "prompt", "waiting", "exited"]
STYLES = ["", "bold", "red", "green reverse"]


class Table(KeyedTable):
    COLUMNS = (("name", "Agent"), ("state", "State"), ("note", "Note"))


class Fresh(Table):
    """Rendered by DataTable alone (no reuse of rows rendered elsewhere)."""

    _render_line_in_row = DataTable._render_line_in_row


class Pair(App[None]):
    def compose(self) -> ComposeResult:
        yield Table(id="kept")
        yield Fresh(id="fresh")


def rows_for(rng: random.Random, count: int) -> list[Row]:
    out: list[Row] = []
    for i in range(count):
        state: Cell = Text(f"{rng.choice(STATES)} {rng.randrange(60)}s", style=rng.choice(STYLES))
        out.append((f"a{i}", (f"agent-{i}", state, rng.choice(["", "note", "a longer note"]))))
    return out


def lines(table: KeyedTable) -> list[list[tuple[str, object]]]:
    """The rows as drawn (text and style of every segment), header aside."""
    top, height = table.header_height, table.size.height
    return [[(s.text, s.style) for s in table.render_line(y)] for y in range(top, height)]


@pytest.mark.parametrize("height", ["auto", "17"])
async def test_updated_rows_render_like_a_table_built_afresh(
    monkeypatch: pytest.MonkeyPatch, height: str
) -> None:
    """Auto height: a row added resizes the table (DataTable then drops every render); a
    fixed height (the prompt queue's) keeps the renders of the rows that did not change."""
    monkeypatch.setattr(table_module, "SHRINK_AFTER_S", 0.0)  # a fresh table is never wider
    rng = random.Random(7)  # noqa: S311 - test data
    app = Pair()
    async with app.run_test(size=(80, 40)) as pilot:
        kept = app.query_one("#kept", Table)
        fresh = app.query_one("#fresh", Table)
        for table in (kept, fresh):
            table.styles.height = height if height == "auto" else int(height)
        await pilot.pause()
        app.set_focus(None)  # focus colours the focused table: compare like with like
        rows = rows_for(rng, 8)
        for step in range(160):
            if step % 7 == 3:  # rows come and go
                rows = rows_for(rng, rng.randrange(3, 12))
            elif step % 3 == 1:  # rows added or removed at the end (a prompt comes or goes)
                if len(rows) > 1 and rng.random() < 0.5:
                    del rows[-rng.randrange(1, min(3, len(rows) - 1) + 1) :]
                else:
                    extra = rows_for(rng, len(rows) + rng.randrange(1, 3))[len(rows) :]
                    rows += [(f"n{step}-{i}", cells) for i, (_, cells) in enumerate(extra)]
                if rng.random() < 0.3:  # sometimes with a change above them too
                    i = rng.randrange(len(rows))
                    fresh_row = rows_for(rng, len(rows))[i]
                    rows[i] = (rows[i][0], (rows[i][1][0], fresh_row[1][1], fresh_row[1][2]))
            else:  # a few cells change; sometimes the order changes
                for _ in range(rng.randrange(1, 4)):
                    i = rng.randrange(len(rows))
                    fresh_row = rows_for(rng, len(rows))[i]
                    rows[i] = (rows[i][0], (rows[i][1][0], fresh_row[1][1], fresh_row[1][2]))
                if step % 5 == 0:
                    rng.shuffle(rows)
            kept.show_rows(rows)
            fresh.clear()
            fresh._rows = []  # rebuild from nothing
            fresh.show_rows(rows)
            if rng.random() < 0.2:  # the cursor moves too
                kept.move_cursor(row=rng.randrange(len(rows)), animate=False)
            if kept.cursor_row != fresh.cursor_row:
                fresh.move_cursor(row=kept.cursor_row, animate=False)
            await pilot.pause()
            assert lines(kept) == lines(fresh), f"step {step}: a row shows stale cells"


async def test_a_column_narrows_only_after_it_was_too_wide_for_a_while() -> None:
    """A width change redraws the whole table: "prompt 10s" -> "busy 1s" must not do it."""
    clock = [1000.0]
    app = Pair()
    async with app.run_test(size=(80, 20)) as pilot:
        table = app.query_one("#kept", Table)
        table.clock = lambda: clock[0]
        wide: list[Row] = [("a", ("agent", "prompt 10s", ""))]
        narrow: list[Row] = [("a", ("agent", "busy 1s", ""))]
        table.show_rows(wide)
        await pilot.pause()
        width = table.columns[ColumnKey("state")].content_width
        assert width == len("prompt 10s")
        table.show_rows(narrow)
        clock[0] += table_module.SHRINK_AFTER_S - 1
        table.show_rows(narrow)
        assert table.columns[ColumnKey("state")].content_width == width
        table.show_rows(wide)  # wide again: the wait starts over
        table.show_rows(narrow)
        clock[0] += table_module.SHRINK_AFTER_S - 1
        table.show_rows(narrow)
        assert table.columns[ColumnKey("state")].content_width == width
        clock[0] += 2
        table.show_rows(narrow)
        assert table.columns[ColumnKey("state")].content_width == len("busy 1s")


class FixedTable(KeyedTable):
    COLUMNS = (("name", "Agent"), ("state", "State"))
    FIXED_HEIGHT = True
    DEFAULT_CSS = "FixedTable { height: 8; }"


def scrollbar(table: KeyedTable) -> bool:
    return bool(table.show_vertical_scrollbar)


class FixedApp(App[None]):
    def compose(self) -> ComposeResult:
        yield FixedTable()


async def test_a_fixed_height_table_lays_out_only_when_a_scrollbar_comes_or_goes(
    layout_passes: list[float],
) -> None:
    """Rows that fit redraw the table alone; the row that needs a scrollbar, and the removal
    that makes it go, ask for the layout pass that shows or hides it."""
    passes = layout_passes
    app = FixedApp()
    async with app.run_test(size=(60, 20)) as pilot:
        table = app.query_one(FixedTable)
        await pilot.pause()

        async def show(count: int) -> int:
            before = len(passes)
            table.show_rows([(f"a{i}", (f"agent-{i}", "busy")) for i in range(count)])
            await pilot.pause()
            await pilot.pause()
            return len(passes) - before

        assert await show(3) == 0  # 1 header + 3 rows in 8 lines: no layout
        assert await show(5) == 0
        assert "agent-4" in "".join(s.text for s in table.render_line(5))  # drawn
        assert await show(12) >= 1  # 13 lines in 8: the scrollbar comes with a layout pass
        assert scrollbar(table)
        assert await show(4) >= 1  # and goes with one
        assert not scrollbar(table)
        assert await show(2) == 0
        assert "agent-2" not in "".join(s.text for s in table.render_line(3))


class ScrollingTable(FixedTable):
    DEFAULT_CSS = "ScrollingTable { height: 8; overflow-y: scroll; }"


class ScrollingApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ScrollingTable()


async def test_a_fixed_height_table_whose_scrollbar_stays_never_lays_out(
    layout_passes: list[float],
) -> None:
    """With its scrollbar always there (the prompt queue's), rows that overflow the table and
    rows that fit again redraw the table and its scrollbar alone, and the thumb is the one a
    layout pass would have set: it spans what the table holds now."""
    passes = layout_passes
    app = ScrollingApp()
    async with app.run_test(size=(60, 20)) as pilot:
        table = app.query_one(ScrollingTable)
        await pilot.pause()
        assert scrollbar(table)
        before = len(passes)

        async def show(count: int) -> None:
            table.show_rows([(f"a{i}", (f"agent-{i}", "busy")) for i in range(count)])
            await pilot.pause()
            await pilot.pause()

        for count in (3, 12, 4, 30, 2, 9):
            await show(count)
            assert len(passes) == before, count
            bar = table.vertical_scrollbar
            assert bar.window_virtual_size == count + 1  # the header and the rows
            assert bar.window_size == table.scrollable_content_region.height
        table.scroll_end(animate=False)
        await pilot.pause()
        assert table.scroll_y == table.max_scroll_y == 9 + 1 - 8
        assert "agent-8" in "".join(s.text for s in table.render_line(7))  # the last row shown
        await show(3)  # fewer rows than the table's height: scrolled back to the top
        assert table.scroll_y == 0
        assert "agent-2" in "".join(s.text for s in table.render_line(3))


async def test_a_row_added_or_removed_at_the_end_keeps_the_other_rows_renders() -> None:
    """A prompt coming or going adds or removes the queue's last row: the rows above are not
    rendered again (DataTable's add_row/remove_row dropped every cached render)."""
    app = FixedApp()
    async with app.run_test(size=(60, 20)) as pilot:
        kept = app.query_one(FixedTable)
        rows: list[Row] = [(f"a{i}", (f"agent-{i}", "busy")) for i in range(5)]
        kept.show_rows(rows)
        await pilot.pause()
        rendered: list[object] = []
        real = kept._render_line_in_row

        def counted(row_key: object, *args: object, **kwargs: object) -> object:
            rendered.append(getattr(row_key, "value", row_key))
            return real(row_key, *args, **kwargs)  # type: ignore[arg-type]

        kept._render_line_in_row = counted  # type: ignore[method-assign,assignment]
        kept.show_rows([*rows, ("a5", ("agent-5", "idle"))])  # no column widens
        await pilot.pause()
        assert rendered == ["5"]  # the new row alone
        assert "agent-5" in "".join(s.text for s in kept.render_line(6))
        rendered.clear()
        kept.show_rows(rows)
        await pilot.pause()
        assert rendered == []  # nothing left to draw but a blank line
        assert "agent-5" not in "".join(s.text for s in kept.render_line(6))


async def test_cells_show_their_text_not_rich_markup() -> None:
    """A prompt's subject is pane text a model chose: DataTable read a ``str`` cell as Rich
    markup, so ``[/]`` raised MarkupError in the frame and ``[bold]~[/bold]`` hid its tags."""
    app = Pair()
    said = ["sed 's/[/]/x/' f", "rm -rf [bold]~[/bold]", "[[ -n $x ]] && [red]y"]
    async with app.run_test(size=(80, 20)) as pilot:
        table = app.query_one("#kept", Table)
        table.show_rows([(f"r{i}", (text, "busy", "")) for i, text in enumerate(said)])
        await pilot.pause()
        shown = ["".join(text for text, _ in line) for line in lines(table)]
        for text in said:
            assert any(text in row for row in shown), (text, shown)
        table.show_rows([("r0", ("[/]", "[bold]busy[/bold]", "[link=x]y"))])
        await pilot.pause()
        shown = ["".join(text for text, _ in line) for line in lines(table)]
        assert "[/]" in shown[0]
        assert "[bold]busy[/bold]" in shown[0]
        assert "[link=x]y" in shown[0]


CELLS: list[Cell] = [
    "agent-7",
    "",
    "busy 12s",
    "shorten me…",
    "[/] [bold]x[/bold]",
    Text("prompt 3s", style="bold yellow"),
    Text.assemble("api", (" @gpu1", "dim")),
    Text.assemble(("allow", "green"), " rule ", ("+2", "dim reverse")),
    Text("  spaced  out  "),
    Text("wide 漢字"),  # two cells a character: DataTable renders it
    "tab\there",  # a control character: DataTable renders it
    Text("centred", justify="center"),  # not left-aligned: DataTable renders it
    "a cell longer than its column is cut by DataTable",
]


async def test_cells_render_like_datatables_own_render(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """KeyedTable renders its one-line cells itself (Rich's render was most of a frame); each
    cell, with and without cursor and hover, zebra stripe or not, must come out as DataTable
    renders it, segment styles and meta included."""
    monkeypatch.setattr(table_module, "SHRINK_AFTER_S", 0.0)
    app = Pair()
    async with app.run_test(size=(120, 30)) as pilot:
        table = app.query_one("#kept", Table)
        rows: list[Row] = [
            (f"r{i}", (CELLS[i], CELLS[(i + 5) % len(CELLS)], CELLS[(i + 9) % len(CELLS)]))
            for i in range(len(CELLS))
        ]
        table.show_rows(rows)
        await pilot.pause()
        fast = 0
        for row in range(len(rows)):
            for column in range(3):
                for cursor, hover in ((False, False), (True, False), (False, True), (True, True)):
                    for base in (Style(), Style(bgcolor="grey11"), Style(color="red", bold=True)):
                        for width in (
                            table.ordered_columns[column].get_render_width(table),
                            30,
                        ):
                            mine = table._plain_cell(row, column, base, width, cursor, hover)
                            table._cell_render_cache.clear()  # (its key has no width)
                            theirs = DataTable._render_cell(
                                table, row, column, base, width, cursor, hover
                            )
                            if mine is None:
                                continue
                            fast += 1
                            assert [list(Segment.simplify(line)) for line in mine] == [
                                list(Segment.simplify(line)) for line in theirs
                            ], (rows[row][1][column], cursor, hover, base, width)
        assert fast > len(rows) * 3 * 4  # most cells take the direct way
        # a str cell's tab is shown as an escape (paw.core.printable): plain text, fast way
        row = next(i for i, (_, cells) in enumerate(rows) if str(cells[0]).startswith("tab"))
        (line,) = table._plain_cell(row, 0, Style(), 60, False, False) or [[]]
        assert "tab\\there" in "".join(segment.text for segment in line)
        for odd in ("wide 漢字", "centred", "a cell longer than its column"):
            row = next(i for i, (_, cells) in enumerate(rows) if str(cells[0]).startswith(odd))
            if odd.startswith("a cell"):  # (a column as wide as its widest cell: made narrow)
                assert table._plain_cell(row, 0, Style(), 10, False, False) is None
            else:
                assert table._plain_cell(row, 0, Style(), 60, False, False) is None


def test_the_table_benchmark_runs_and_checks_both_renders_agree() -> None:
    """scripts/bench_table.py (its figures are in docs/performance.md) exits non-zero when the
    two renders differ; a small run must pass and print the ratio."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).parents[2] / "scripts" / "bench_table.py"
    done = subprocess.run(
        [sys.executable, str(script), "--rows", "12", "--rounds", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "KeyedTable" in done.stdout
    assert done.stdout.rstrip().endswith("x")
