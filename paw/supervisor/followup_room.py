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
from paw.core.output_tail import CHECKS_FOLDER, SAVED_MAX_CHARS, TailRoom, saved_output_name
from paw.core.typed_room import DEFAULT_ROOM, Fit, fit_at
from paw.errors import PawError
from paw.supervisor.observe import pane_for
from paw.supervisor.records import load_agents

if TYPE_CHECKING:
    from paw.supervisor.context import Context


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
        spec = spec_for(ctx.profile(record.kind).detector_id)
    except PawError:
        return None
    room = spec.input_room if spec is not None else DEFAULT_ROOM
    return fit_at(room, pane.width, pane.height)


def tail_room(ctx: Context, agent: str, output: str, *name: str | int) -> TailRoom:
    """The follow-up's room in ``agent``'s input, and ``output`` saved in paw's state directory
    under a file ``name`` parts name (wave, task, run)."""
    try:
        saved: str | None = ctx.state.save_text(
            CHECKS_FOLDER, saved_output_name(*name), output[-SAVED_MAX_CHARS:]
        )
    except PawError as err:
        ctx.record("check-output-unsaved", agent=agent, error=err.message)
        saved = None
    return TailRoom(fit=input_fit(ctx, agent), saved=saved)
