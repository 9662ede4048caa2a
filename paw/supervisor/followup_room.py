"""What a failed check's follow-up must fit in, and the file holding the check's whole output:
the :class:`~paw.core.output_tail.TailRoom` the pure follow-up text is sized by.

The room is the agent kind's measured input (its spec's :class:`~paw.core.typed_room.InputRoom`)
at its pane's size now; the output goes to paw's state directory (``.paw/checks/``), never into
the worktree the agent edits. Neither is essential: without a pane the caps alone size the tail
(the typing proof still refuses a text it cannot read back), and an output paw cannot save is
not named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.detect.registry import spec_for
from paw.core.output_tail import (
    CHECKS_FOLDER,
    SAVED_KEPT,
    SAVED_MAX_CHARS,
    TailRoom,
    saved_output_group,
    saved_output_name,
)
from paw.core.typed_room import DEFAULT_ROOM, Fit, InputRoom, fit_at
from paw.errors import PawError
from paw.supervisor.observe import pane_for
from paw.supervisor.records import load_agents

if TYPE_CHECKING:
    from paw.supervisor.context import Context


# The width and height of the tmux session paw starts an agent's pane in (the tmux terminal's
# default_size): the room a respawned agent's input will have.
SPAWN_SIZE = (120, 40)


def _room(ctx: Context, kind: str | None) -> InputRoom:
    if kind is None:
        return DEFAULT_ROOM
    try:
        spec = spec_for(ctx.profile(kind).detector_id)
    except PawError:
        return DEFAULT_ROOM
    return spec.input_room if spec is not None else DEFAULT_ROOM


def input_fit(ctx: Context, agent: str) -> Fit | None:
    """The room for typed text in agent ``agent``'s input at its pane's size now; None when
    its record or pane cannot be found."""
    try:
        record = load_agents(ctx.state).get(agent)
        if record is None:
            return None
        pane = pane_for(ctx, record, ctx.terminal.list_panes(None))
        if pane is None:
            return None
    except PawError:
        return None
    return fit_at(_room(ctx, record.kind), pane.width, pane.height)


def respawn_fit(ctx: Context, agent: str, kind: str | None) -> Fit:
    """:func:`input_fit`, or, ``agent``'s pane gone (a new agent takes over its branch), the
    room of its kind's input (its record's kind, else ``kind``; else paw's readers' limit) at
    the size a new pane starts at (:data:`SPAWN_SIZE`): a follow-up is always sized."""
    fit = input_fit(ctx, agent)
    if fit is not None:
        return fit
    try:
        record = load_agents(ctx.state).get(agent)
    except PawError:
        record = None
    return fit_at(_room(ctx, record.kind if record is not None else kind), *SPAWN_SIZE)


def tail_room(
    ctx: Context, agent: str, output: str, *name: str | int, respawn_kind: str | None = None
) -> TailRoom:
    """The follow-up's room in ``agent``'s input, and ``output`` saved in paw's state directory
    under a file ``name`` parts name (wave, task, run). ``respawn_kind``: a gone agent is
    replaced by a new one of that kind (the lander's): its room then is
    :func:`respawn_fit`'s."""
    try:
        group = saved_output_group(str(name[0]), str(name[1])) if len(name) >= 2 else ""
        saved: str | None = ctx.state.save_text(
            CHECKS_FOLDER, saved_output_name(*name), output[-SAVED_MAX_CHARS:],
            group=group, keep=SAVED_KEPT,
        )  # fmt: skip
    except PawError as err:
        ctx.record("check-output-unsaved", agent=agent, error=err.message)
        saved = None
    fit = input_fit(ctx, agent) if respawn_kind is None else respawn_fit(ctx, agent, respawn_kind)
    return TailRoom(fit=fit, saved=saved)
