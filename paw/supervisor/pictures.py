"""What the feed hands every front end, and where a sweeper's pictures come from.

A front end subscribed to the feed (:class:`paw.supervisor.feed.Feed`) receives
:data:`FeedEvent` values: each sweep's :class:`Picture` (or a channel-only look's, ``early``),
the selected agent's :class:`~paw.supervisor.details.AgentDetails`, a :class:`SweepFailed`.
The feed is fed by its own sweeps or by a sweeper process's :class:`Pushes`, and posts the
channel-only looks of a supervisor that makes them (:class:`EarlyLooks`). Values and ports only:
no thread, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from paw.supervisor.details import AgentDetails

if TYPE_CHECKING:
    from collections.abc import Callable

    from paw.core.wave_view import WaveReading
    from paw.errors import PawError
    from paw.supervisor.model import Snapshot


@dataclass(frozen=True, slots=True)
class Picture:
    """A sweep's picture (this process's or a sweeper's) and what goes with it."""

    snapshot: Snapshot
    audit: list[dict[str, object]]
    wave: WaveReading | None  # the latest wave (None: there is none)
    waves: bool  # whether waves are looked for at all
    # A channel-only look's picture (a hook channel's poke), posted before the screen sweep
    # that cross-checks it: its channel-only prompts are listed, nothing was captured; the
    # screen sweep's own picture (``early`` False) follows.
    early: bool = False


@dataclass(frozen=True, slots=True)
class SweepFailed:
    """A sweep raised (a :class:`~paw.errors.TmuxError`: tmux is gone)."""

    error: BaseException


FeedEvent = Picture | AgentDetails | SweepFailed


class Pushes(Protocol):
    """Pictures a sweeper process pushes on its own pane events (``paw.cli.sweep_child``):
    with them the feed runs no event client and no event pump of its own."""

    def follow(
        self,
        on_picture: Callable[[Snapshot, frozenset[str]], None],
        on_failure: Callable[[PawError], None],
        on_early: Callable[[Snapshot], None] | None = None,
    ) -> bool:
        """Start the pushes (False: they cannot start); ``on_early`` is given each
        channel-only look the sweeper makes before a poked sweep (see the feed's
        :meth:`~paw.supervisor.feed.Feed._early`)."""
        ...

    @property
    def following(self) -> bool:
        """The pushes were started and the sweeper still runs."""
        ...

    def events_live(self) -> bool:
        """Following, and the sweeper's pane events arrive."""
        ...

    def handled(self) -> None:
        """The front end handled a picture: the next push may come."""
        ...

    def drain_touched(self) -> set[str]:
        """The panes the answers to sweep requests said drew since the last call."""
        ...


@runtime_checkable
class EarlyLooks(Protocol):
    """A supervisor that makes a channel-only look before a poked sweep
    (:attr:`paw.supervisor.service.Supervisor.publish_early`; a Fleet's is this machine's look
    beside the hosts' last picture: :attr:`paw.supervisor.fleet.Fleet.publish_early`)."""

    publish_early: Callable[[Snapshot], None] | None
