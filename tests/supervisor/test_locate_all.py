"""``locate_all`` (one indexed pass) gives what ``locate`` gives agent by agent."""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

from hypothesis import given, settings
from hypothesis import strategies as st

from paw.core.ports import PaneInfo
from paw.supervisor.context import TAG_AGENT, TAG_REPO, TAG_TOKEN
from paw.supervisor.observe import locate, locate_all
from paw.supervisor.records import AgentRecord

if TYPE_CHECKING:
    from paw.supervisor.context import Context

CTX = cast("Context", SimpleNamespace(repo_id="r1"))
NAMES = st.sampled_from(["a", "b", "c"])
IDS = st.sampled_from(["%1", "%2", "%3", "%4"])
SERVERS = st.sampled_from(["", "s1", "s2"])
TOKENS = st.sampled_from([None, "t1", "t2"])


@st.composite
def panes(draw: st.DrawFn) -> PaneInfo:
    tags: dict[str, str] = {}
    if draw(st.booleans()):
        tags[TAG_AGENT] = draw(NAMES)
        tags[TAG_REPO] = draw(st.sampled_from(["r1", "r2"]))
        token = draw(TOKENS)
        if token is not None:
            tags[TAG_TOKEN] = token
    return PaneInfo(draw(IDS), 100, "s", 80, 24, tags=tags, server=draw(SERVERS))


@st.composite
def agents(draw: st.DrawFn) -> AgentRecord:
    return AgentRecord(
        name=draw(NAMES), kind="k", branch="b", worktree="w", base="main",
        pane_id=draw(st.one_of(st.none(), IDS)), adopted=draw(st.booleans()),
        token=draw(TOKENS), server=draw(st.one_of(st.none(), SERVERS)),
    )  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(agents(), max_size=4, unique_by=lambda a: a.name), st.lists(panes(), max_size=6))
def test_locate_all_agrees_with_locate(records: list[AgentRecord], listing: list[PaneInfo]) -> None:
    expected = {a.name: locate(CTX, a, listing) for a in records}
    assert locate_all(CTX, records, listing) == expected
