"""Pictures pickled by their fields come back equal, every field carried."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from paw.core.models import Action, Finding, Prompt, PromptKind, Verdict
from paw.core.pickled import by_fields
from paw.supervisor.model import AgentStatus, AgentView, LivePrompt, Snapshot, WorktreeStat


def _picture() -> Snapshot:
    views = tuple(
        AgentView(
            f"a{i}", "claude-code", f"%{i}", i % 2 == 0, AgentStatus.PROMPT, 1.5 + i,
            f"paw/a{i}", f"/w/a{i}", WorktreeStat(1, 2, 3, 4, 5, 6, counted=i % 3 == 0),
            task=None if i else "fix it", note="n", operation="approving", host="build",
        )
        for i in range(3)
    )  # fmt: skip
    verdict = Verdict(Action.BLOCK, (Finding("git.push.force", Action.BLOCK, "force push"),))
    prompt = Prompt(
        PromptKind.SHELL, "git push -f", "Run this command?", ("Enter",), ("Escape",), "fp1",
        always_keys=("2",), options=("Yes", "No"), dialog=True,
    )  # fmt: skip
    live = LivePrompt("p1", "a0", "claude-code", "%0", prompt, verdict, 12.5)
    return Snapshot(3.5, views, (live,), tmux_ok=False, error="tmux went", cpu_s=0.25)


@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_picture_round_trip_keeps_every_field(protocol: int) -> None:
    picture = _picture()
    back = pickle.loads(pickle.dumps(picture, protocol=protocol))  # noqa: S301 - our own bytes
    assert back == picture
    assert back.cpu_s == picture.cpu_s  # (not compared by ==)
    assert type(back.agents[0].status) is AgentStatus
    for before, after in zip(picture.agents, back.agents, strict=True):
        assert dataclasses.asdict(before) == dataclasses.asdict(after)


def test_reduce_is_the_fields_in_order() -> None:
    stat = WorktreeStat(1, 2, 3, 4, 5, 6, counted=False)
    reduced = stat.__reduce__()
    assert isinstance(reduced, tuple)
    cls, args = reduced
    assert cls is WorktreeStat
    assert args == tuple(getattr(stat, f.name) for f in dataclasses.fields(WorktreeStat))


def test_one_field_and_a_subclass() -> None:
    @by_fields
    @dataclasses.dataclass(frozen=True)
    class One:
        x: int

    @dataclasses.dataclass(frozen=True)
    class More(One):
        y: int = 2

    globals().update(One=One, More=More)  # (pickle finds classes by their module's name)
    One.__qualname__, More.__qualname__ = "One", "More"
    try:
        assert pickle.loads(pickle.dumps(One(1))) == One(1)  # noqa: S301
        assert pickle.loads(pickle.dumps(More(1, 5))) == More(1, 5)  # noqa: S301
    finally:
        del globals()["One"], globals()["More"]


def test_a_field_outside_init_is_refused() -> None:
    @dataclasses.dataclass(frozen=True)
    class Hidden:
        x: int
        y: int = dataclasses.field(default=0, init=False)

    with pytest.raises(TypeError, match="__init__"):
        by_fields(Hidden)
