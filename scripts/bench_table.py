"""Table cell renders: paw's KeyedTable against Textual's DataTable, in the same process.

Each round renders every cell of a prompt queue's rows (agent, kind, subject, verdict, age, as
paw shows them) both ways, with the caches dropped first: ``KeyedTable._render_cell`` (one line
of text drawn directly) and ``DataTable._render_cell`` (Rich's Padding in Styled, rendered as
lines), and checks that both give the same segments. Prints the time per row and the ratio.

    .venv/bin/python scripts/bench_table.py --rows 200 --rounds 20
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import DataTable

from paw.tui.widgets.prompt_queue import PromptQueue as Queue
from paw.tui.widgets.table import Row


class Bench(App[None]):
    def compose(self) -> ComposeResult:
        yield Queue()


def rows(count: int) -> list[Row]:
    out: list[Row] = []
    for i in range(count):
        verdict = Text("confirm", style="yellow")
        verdict.append(" git push needs a human: it publishes to the rem…")
        verdict.append(" +2", style="dim")
        subject = f"git push origin feature-{i} && rm -rf build/cache-{i} …"
        cells = (f"agent-{i:03d}", "claude-code", subject, verdict, f"{i % 60}s")
        out.append((f"p{i}", cells))
    return out


def render_all(table: Queue, *, theirs: bool) -> tuple[float, list[list[list[Segment]]]]:
    """Every cell of every row rendered once (caches dropped first): seconds, and the lines."""
    table._cell_render_cache.clear()
    table._row_renderable_cache.clear()
    widths = [column.get_render_width(table) for column in table.ordered_columns]
    base = Style()
    out: list[list[list[Segment]]] = []
    started = time.perf_counter()
    for row in range(table.row_count):
        for column, width in enumerate(widths):
            if theirs:
                table._cell_render_cache.clear()
                out.append(DataTable._render_cell(table, row, column, base, width))
            else:
                out.append(table._render_cell(row, column, base, width))
    return time.perf_counter() - started, out


async def run(count: int, rounds: int) -> None:
    app = Bench()
    async with app.run_test(size=(200, 60)) as pilot:
        table = app.query_one(Queue)
        table.show_rows(rows(count))
        await pilot.pause()
        ours: list[float] = []
        theirs: list[float] = []
        for _ in range(rounds):
            seconds, mine = render_all(table, theirs=False)
            ours.append(seconds)
            seconds, rich = render_all(table, theirs=True)
            theirs.append(seconds)
            simplified = [[list(Segment.simplify(line)) for line in cell] for cell in mine]
            expected = [[list(Segment.simplify(line)) for line in cell] for cell in rich]
            if simplified != expected:
                raise SystemExit("the two renders differ: KeyedTable is wrong")
    a, b = statistics.median(ours), statistics.median(theirs)
    per_row = 1000 / count
    print(
        f"{count} rows x 5 cells, median of {rounds}: KeyedTable {a * per_row:.3f} ms/row, "
        f"DataTable {b * per_row:.3f} ms/row: {b / a:.1f}x"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args(argv)
    asyncio.run(run(args.rows, args.rounds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
