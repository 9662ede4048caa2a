"""How many clients are attached to a pane's session, paw's own control-mode clients left out
(a client paw runs is nobody watching the pane)."""

from __future__ import annotations

from paw.core.ports import PaneInfo, Survey


def without_own_clients(
    survey: Survey, own: str | None, mine: int, memo: dict[str, tuple[PaneInfo, int, PaneInfo]]
) -> Survey:
    """``survey`` with the ``attached`` count of every pane of paw's session ``own`` less the
    ``mine`` clients paw runs there; ``memo`` keeps each pane's last answer, so a pane whose
    line did not change is the very object of the sweep before."""
    if own is None or not mine:
        return survey
    if len(memo) > 4 * len(survey.panes) + 64:
        memo.clear()
    panes = []
    for pane in survey.panes:
        if pane.session != own:
            panes.append(pane)
            continue
        known = memo.get(pane.pane_id)
        if known is None or known[0] is not pane or known[1] != mine:
            known = (pane, mine, with_attached(pane, max(0, pane.attached - mine)))
            memo[pane.pane_id] = known
        panes.append(known[2])  # (the same pane as last sweep's when its line was)
    return Survey(panes=tuple(panes), captures=survey.captures)


def with_attached(pane: PaneInfo, attached: int) -> PaneInfo:
    """``pane`` with another ``attached`` count (the constructor: dataclasses.replace costs
    several times more, and a sweep does this for every pane of paw's session)."""
    if pane.attached == attached:
        return pane
    return PaneInfo(
        pane_id=pane.pane_id, pane_pid=pane.pane_pid, session=pane.session, width=pane.width,
        height=pane.height, dead=pane.dead, current_command=pane.current_command,
        tags=pane.tags, server=pane.server, attached=attached,
    )  # fmt: skip
