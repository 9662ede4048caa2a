"""The sweep paths of the tmux adapter: one tmux process lists the server's panes and
captures the requested panes (chained commands split by a random per-sweep marker), or a
control-mode client does the same without a process. tmux refuses a command longer than
16 KiB, so a chain holds as many panes as fit in ``COMMAND_BUDGET`` bytes (about 110, see
:mod:`paw.adapters.tmux.format`): more panes take one more process per chunk, never one per
pane.

tmux aborts a chain at its first failing command (a pane that vanished), so every chain
starts with ``list-panes -a``: after a failure that listing says which panes still exist,
and one more process captures those.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Protocol

from paw.adapters.proc import Completed, last_line
from paw.adapters.tmux.control import ControlClient, parse_control_sweep
from paw.adapters.tmux.delta import PaneState, parse_pane_states
from paw.adapters.tmux.format import (
    TAG_KEYS,
    is_pane_id,
    pane_format,
    parse_listing,
    parse_pane_list,
    parse_sweep,
    server_gone,
    split_by_budget,
    sweep_argv,
)
from paw.core.ports import PaneCapture, PaneInfo, Survey
from paw.errors import TmuxError

ATTEMPTS = 3  # a chain, then retries while panes keep vanishing mid-call


class Run(Protocol):
    """The adapter's tmux gateway: run ``tmux <args>`` on its socket."""

    def __call__(self, *args: str, check: bool = True) -> Completed:
        """Run tmux with ``args``; with ``check=False`` a failure is returned, not raised."""
        ...


def separator() -> str:
    """A fresh field separator: tag values are free text, so split on a random token."""
    return f"\x1f{uuid.uuid4().hex[:8]}\x1f"


def sweep(
    run: Run, wanted: list[str], *, ansi: bool
) -> tuple[dict[str, PaneCapture], dict[str, PaneState]]:
    """Captures of ``wanted``, and every pane's state from the listing that starts the chain.

    One tmux process per chunk of panes (``COMMAND_BUDGET`` bytes of command each: tmux
    refuses longer commands), about 110 panes per process. A pane that vanished is left
    out (gone); a chunk that fails otherwise raises: its panes are unknown, never gone.

    Raises:
        TmuxError: no server answers on the socket, or a chunk's tmux call failed for
            another reason than its panes vanishing.
    """
    found: dict[str, PaneCapture] = {}
    states: dict[str, PaneState] | None = None
    sizing = uuid.uuid4().hex
    for group in split_by_budget(wanted, lambda g: sweep_argv(g, sizing, ansi=ansi)):
        captures, listed = _sweep_chunk(run, group, ansi=ansi)
        found.update(captures)
        states = listed if states is None else states
    return found, states or {}


def _sweep_chunk(
    run: Run, wanted: list[str], *, ansi: bool
) -> tuple[dict[str, PaneCapture], dict[str, PaneState]]:
    """:func:`sweep` of one chunk: one tmux process, more only while panes vanish mid-call."""
    states: dict[str, PaneState] | None = None
    todo = wanted
    for _ in range(ATTEMPTS):
        token = uuid.uuid4().hex
        done = run(*sweep_argv(todo, token, ansi=ansi), check=False)
        existing, captures = parse_sweep(done.stdout, token)
        if not done.ok and not existing:
            raise TmuxError(f"tmux: {_failure(done)}")
        if states is None:
            states = parse_pane_states(done.stdout, f"{token}L")
        if done.ok:
            return captures, states
        todo = [pane for pane in todo if pane in existing]
    raise TmuxError(f"tmux: capturing {len(todo)} panes kept failing ({last_line(done.stderr)})")


def _failure(done: Completed) -> str:
    """Why a chain whose listing did not even run failed (server gone, command refused…)."""
    reason = "server is gone" if server_gone(done.stderr) else "list-panes failed"
    return f"{reason} ({last_line(done.stderr)})"


def survey(
    run: Run, pane_ids: Sequence[str], *, ansi: bool, states: bool = False
) -> tuple[Survey, dict[str, PaneState]]:
    """Every pane of the server with paw's tags, and the captures of ``pane_ids`` (in order;
    ``text=None`` for a pane that is gone or not a pane id). One tmux process lists the panes
    and captures as many as fit in one command (``COMMAND_BUDGET``); the rest are
    captured by :func:`sweep`, one process per chunk. With ``states`` the same listing also
    gives every pane's :class:`PaneState` (else ``{}``).

    Raises:
        TmuxError: no server answers on the socket (a lost server is not "no panes"), the
            listing itself failed, or a chunk of captures failed (its panes are unknown).
    """
    sep = separator()
    fmt = listing_format(sep, states=states)
    listing: tuple[list[PaneInfo], dict[str, PaneState]] = ([], {})
    found: dict[str, PaneCapture] = {}
    wanted = [pane for pane in dict.fromkeys(pane_ids) if is_pane_id(pane)]
    sizing = uuid.uuid4().hex
    first = split_by_budget(wanted, lambda g: sweep_argv(g, sizing, ansi=ansi, listing=fmt))[0]
    todo = first
    for _ in range(ATTEMPTS):
        token = uuid.uuid4().hex
        done = run(*sweep_argv(todo, token, ansi=ansi, listing=fmt), check=False)
        panes, pane_states = parse_listing_states(done.stdout, token, sep, states=states)
        if not done.ok and not panes:
            raise TmuxError(f"tmux: {_failure(done)}")
        listing = listing if listing[0] else (panes, pane_states)
        if done.ok:
            found.update(parse_sweep(done.stdout, token)[1])
            break
        todo = [pane for pane in todo if pane in {p.pane_id for p in panes}]
    else:
        raise TmuxError(
            f"tmux: capturing {len(todo)} panes kept failing ({last_line(done.stderr)})"
        )
    rest = wanted[len(first) :]
    if rest:
        found.update(sweep(run, rest, ansi=ansi)[0])
    out = tuple(found.get(p) or PaneCapture(pane_id=p, text=None) for p in pane_ids)
    panes, pane_states = listing
    return Survey(panes=tuple(panes), captures=out), pane_states


def survey_control(
    client: ControlClient, pane_ids: Sequence[str], *, ansi: bool, states: bool = False
) -> tuple[Survey, dict[str, PaneState]] | None:
    """:func:`survey` through a control-mode client (no process); None when the answer is
    incomplete and the caller should use a process.

    Raises:
        paw.adapters.tmux.control.ControlError: the client is gone or its output is garbled.
    """
    sep = f"|{uuid.uuid4().hex[:12]}|"  # printable: it sits in a quoted control-mode command
    token = uuid.uuid4().hex
    wanted = [pane for pane in dict.fromkeys(pane_ids) if is_pane_id(pane)]
    lines = client.script_lines(
        wanted, token, ansi=ansi, listing=listing_format(sep, states=states)
    )
    panes, pane_states = parse_listing_states("\n".join(lines), token, sep, states=states)
    existing = {pane.pane_id for pane in panes}
    captures = parse_control_sweep(lines, wanted, token, existing) if panes else None
    if captures is None:
        return None
    found = {capture.pane_id: capture for capture in captures}
    out = tuple(found.get(p) or PaneCapture(pane_id=p, text=None) for p in pane_ids)
    return Survey(panes=tuple(panes), captures=out), pane_states


def listing_format(sep: str, *, states: bool) -> str:
    """The listing of a survey: paw's pane format without the current command (paw resolves
    programs from process trees), then (with ``states``) the window's last output time as one
    more ``sep``-joined field."""
    return sep + pane_format(sep, command=False) + (sep + "#{window_activity}" if states else "")


def parse_listing_states(
    text: str, token: str, sep: str, *, states: bool
) -> tuple[list[PaneInfo], dict[str, PaneState]]:
    """The panes of a :func:`listing_format` listing and, with ``states``, their states
    (process, size and liveness from the pane fields, plus the last output time).

    >>> line = "TI|%1|7|s|80|24|0|sh|9.1|0|||||9\\n"
    >>> panes, st = parse_listing_states(line, "T", "|", states=True)
    >>> [p.pane_id for p in panes], st["%1"]
    (['%1'], PaneState(pid=7, width=80, height=24, dead=False, activity=9))
    """
    if not states:
        return parse_listing(text, token, sep, TAG_KEYS), {}
    mark = f"{token}I{sep}"
    head, _, _ = text.partition(f"\n{token}P ")
    rows: list[str] = []
    activity: dict[str, int] = {}
    for line in head.split("\n"):
        if line.startswith(mark):
            row, _, when = line[len(mark) :].rpartition(sep)
            rows.append(row)
            if when.isdigit():
                activity[row.partition(sep)[0]] = int(when)
    panes = parse_pane_list("\n".join(rows), sep, TAG_KEYS)
    found = {
        p.pane_id: PaneState(p.pane_pid, p.width, p.height, p.dead, activity[p.pane_id])
        for p in panes
        if p.pane_id in activity
    }
    return panes, found
