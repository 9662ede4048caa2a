"""The TUI's card says, once, that the agent under the cursor runs another version than the
verified one (issue 33): with a prompt and without one, where a missed prompt would go unsaid."""

from __future__ import annotations

import dataclasses

from paw.core.verified import version_drift
from paw.supervisor.model import AgentStatus, AgentView, WorktreeStat
from paw.tui.widgets.prompt_queue import render_prompt_card


def _agent(status: AgentStatus, note: str | None) -> AgentView:
    return AgentView(
        name="a", kind="codex", pane_id="%1", alive=True, status=status, status_since=0.0,
        branch="paw/a", worktree="w", stat=WorktreeStat(), version_note=note,
    )  # fmt: skip


def test_card_without_a_prompt_says_the_version_differs() -> None:
    note = version_drift("codex", "0.170.9", "0.171.0")
    assert note is not None
    shown = render_prompt_card(None, agent=_agent(AgentStatus.IDLE, note)).plain
    assert shown.count("a runs codex 0.170.9, not the verified 0.171.0") == 1
    same = render_prompt_card(None, agent=_agent(AgentStatus.IDLE, None)).plain
    assert "verified" not in same


def test_version_drift_says_nothing_when_versions_agree_or_are_unknown() -> None:
    assert version_drift("codex", "0.171.0", "0.171.0") is None
    assert version_drift("codex", None, "0.171.0") is None
    assert version_drift("my-agent", "1.0.0", None) is None
    view = _agent(AgentStatus.BUSY, None)
    assert dataclasses.replace(view, version_note="x").version_note == "x"
