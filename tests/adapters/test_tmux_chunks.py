"""Chunks of chained tmux commands: each within the byte budget, in order, none wasted."""

from __future__ import annotations

import itertools

import pytest

from paw.adapters.tmux.format import COMMAND_BUDGET, argv_bytes, split_by_budget, sweep_argv
from paw.adapters.tmux.sweep import listing_format, separator

TOKEN = "f" * 32


@pytest.mark.parametrize("ansi", [False, True])
@pytest.mark.parametrize(
    "listing", [None, listing_format(separator(), states=True)], ids=["no-listing", "listing"]
)
@pytest.mark.parametrize("count", [0, 1, 50, 300, 1000])
def test_sweep_chunks_fit_the_budget_in_order(ansi: bool, listing: str | None, count: int) -> None:
    panes = [f"%{i * 37}" for i in range(count)]

    def build(group: list[str]) -> list[str]:
        return sweep_argv(group, TOKEN, ansi=ansi, listing=listing)

    groups = split_by_budget(panes, build)
    assert [pane for group in groups for pane in group] == panes
    assert all(argv_bytes(build(group)) <= COMMAND_BUDGET for group in groups)
    for group, after in itertools.pairwise(groups):
        assert argv_bytes(build([*group, after[0]])) > COMMAND_BUDGET  # no chunk left short


def test_budget_counts_bytes_not_characters() -> None:
    wide = ["é" * 10] * 4  # 20 bytes each, plus the NUL
    groups = split_by_budget(wide, lambda group: list(group), budget=42)
    assert groups == [wide[:2], wide[2:]]


def test_budget_is_well_under_tmux_limit() -> None:
    assert COMMAND_BUDGET <= 0.8 * 16_364  # what tmux 3.3a accepts, measured
