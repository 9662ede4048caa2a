"""Pure formatting of the TUI: durations, diff stats, ordering, counts, filters."""

from __future__ import annotations

import doctest
from typing import NamedTuple

import pytest

import paw.tui.format
from paw.supervisor.model import AgentStatus, AgentView, WorktreeStat
from paw.tui.format import (
    count_statuses,
    format_duration,
    format_stat,
    format_status,
    matches_filter,
    shorten,
    sort_agents,
)


class DurationCase(NamedTuple):
    test_id: str
    seconds: float
    expected: str


DURATIONS = [
    DurationCase("negative_clock_skew", -3, "0s"),
    DurationCase("seconds", 59.9, "59s"),
    DurationCase("minute", 60, "1m"),
    DurationCase("hours_minutes", 3600 + 5 * 60, "1h05m"),
    DurationCase("days", 3 * 86400 + 7, "3d"),
]


@pytest.mark.parametrize("case", DURATIONS, ids=[c.test_id for c in DURATIONS])
def test_format_duration_is_short(case: DurationCase) -> None:
    assert format_duration(case.seconds) == case.expected


def test_format_stat_lists_only_nonzero_parts() -> None:
    stat = WorktreeStat(untracked=1, behind=2)
    assert format_stat(stat) == "?1 ↓2"


def _agent(name: str, status: AgentStatus, since: float = 0.0, branch: str = "") -> AgentView:
    return AgentView(
        name=name, kind="codex", pane_id="%1", alive=status is not AgentStatus.EXITED,
        status=status, status_since=since, branch=branch or f"paw/{name}", worktree="w",
        stat=WorktreeStat(),
    )  # fmt: skip


def test_format_status_gives_one_text_per_label() -> None:
    """Two agents (or two sweeps) showing "idle 10m" share one Text: a table compares the cell
    by identity. Another label, or the same time in another status, is another Text."""
    idle = format_status(_agent("a", AgentStatus.IDLE, since=0.0), now=600.0)
    assert idle.plain == "idle 10m"
    assert format_status(_agent("b", AgentStatus.IDLE, since=5.0), now=605.0) is idle
    busy = format_status(_agent("a", AgentStatus.BUSY, since=0.0), now=600.0)
    assert busy.plain == "busy 10m"
    assert busy.style != idle.style
    assert format_status(_agent("a", AgentStatus.IDLE, since=0.0), now=660.0).plain == "idle 11m"


def test_sort_agents_puts_longest_waiting_first_then_busy_idle_exited() -> None:
    agents = [
        _agent("z-exit", AgentStatus.EXITED),
        _agent("b-idle", AgentStatus.IDLE),
        _agent("new-wait", AgentStatus.PROMPT, since=200.0),
        _agent("a-busy", AgentStatus.BUSY),
        _agent("old-wait", AgentStatus.PROMPT, since=100.0),
    ]
    assert [a.name for a in sort_agents(agents)] == [
        "old-wait", "new-wait", "a-busy", "b-idle", "z-exit",
    ]  # fmt: skip


def test_count_statuses_counts_unknown_as_running() -> None:
    agents = [_agent("a", AgentStatus.UNKNOWN), _agent("b", AgentStatus.BUSY)]
    assert count_statuses(agents) == {"running": 2, "waiting": 0, "idle": 0, "exited": 0}


def test_matches_filter_is_case_insensitive_over_name_kind_branch_state() -> None:
    agent = _agent("api", AgentStatus.IDLE, branch="feature/Login")
    assert [matches_filter(agent, n) for n in ("", "API", "codex", "login", "idle", "zzz")] == [
        True, True, True, True, True, False,
    ]  # fmt: skip


def test_shorten_never_exceeds_width() -> None:
    assert all(len(shorten("x" * 100, w)) <= max(w, 1) for w in range(20))


def test_format_doctests_pass() -> None:
    result = doctest.testmod(paw.tui.format)
    assert result.attempted > 0
    assert result.failed == 0


def test_unproven_agents_are_counted_lost_never_exited_and_styled() -> None:
    from paw.tui.format import STATUS_STYLE

    statuses = (AgentStatus.LOST, AgentStatus.SERVER_RESTARTED, AgentStatus.REPLACED)
    agents = [_agent(s.value, s) for s in statuses] + [_agent("z", AgentStatus.EXITED)]
    assert count_statuses(agents) == {"running": 0, "waiting": 0, "idle": 0, "exited": 1, "lost": 3}
    assert all(status in STATUS_STYLE for status in AgentStatus)
    assert [a.name for a in sort_agents(agents)][-1] == "z"


def test_an_agent_on_a_host_shows_and_filters_by_its_host() -> None:
    from dataclasses import replace

    from paw.tui.format import format_name

    here = _agent("api", AgentStatus.IDLE)
    assert format_name(here) == "api"
    assert format_name(replace(here, host="local")) == "api"  # this machine, when hosts exist
    there = replace(here, name="web", host="gpu1")
    shown = format_name(there)
    assert not isinstance(shown, str)
    assert shown.plain == "web @gpu1"
    assert matches_filter(there, "GPU1")
    assert not matches_filter(here, "gpu1")
