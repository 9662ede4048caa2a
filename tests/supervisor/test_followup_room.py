"""The room a failed check's follow-up is sized to when the agent's pane is gone: a new agent
takes over its branch (the lander's respawn), so the text is sized for that agent's input at
the size a new pane starts at, never left unsized."""

from __future__ import annotations

from paw.core.detect.registry import spec_for
from paw.core.output_tail import SAVED_KEPT
from paw.core.typed_room import DEFAULT_ROOM, fit_at
from paw.supervisor.followup_room import SPAWN_SIZE, input_fit, respawn_fit, tail_room
from tests.support.supervision import make_rig, spawn_demo


def test_a_gone_agents_follow_up_is_sized_for_the_kind_a_respawn_starts() -> None:
    rig = make_rig()
    ctx = rig.sup.ctx
    assert input_fit(ctx, "w-a") is None  # no record, no pane
    spec = spec_for(ctx.profile("opencode").detector_id)
    assert spec is not None
    room = tail_room(ctx, "w-a", "FAILED\n", "w", "a", "land", 1, respawn_kind="opencode")
    assert room.fit == fit_at(spec.input_room, *SPAWN_SIZE)
    assert room.saved == "/state/checks/w.a.land.1.log"
    assert respawn_fit(ctx, "w-a", None) == fit_at(DEFAULT_ROOM, *SPAWN_SIZE)


def test_a_live_agents_pane_sizes_it() -> None:
    rig = make_rig()
    pane = spawn_demo(rig, "w-a", "")
    info = rig.terminal.panes[pane].info
    fit = respawn_fit(rig.sup.ctx, "w-a", "opencode")  # its record's kind, not the fallback
    assert fit == input_fit(rig.sup.ctx, "w-a") == fit_at(DEFAULT_ROOM, info.width, info.height)


def test_only_the_newest_saved_outputs_of_a_task_are_kept() -> None:
    rig = make_rig()
    ctx = rig.sup.ctx
    names = []
    for run in range(1, 8):
        parts: tuple[str | int, ...] = ("w", "a", run) if run % 2 else ("w", "a", "land", run)
        names.append(tail_room(ctx, "w-a", f"run {run}", *parts).saved)
    other = tail_room(ctx, "w-b", "another task", "w", "b", 1).saved
    kept = [p for p in rig.state.files if p.startswith("/state/checks/w.a.")]
    assert kept == names[-SAVED_KEPT:]
    assert other in rig.state.files
