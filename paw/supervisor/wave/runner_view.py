"""What every room of the wave runner sees of it: the supervisor's context, the wave, its state,
and the two durable steps (save the state, owe a decision's messages). Each room's own
Protocol adds what only it needs; none imports the runner (it passes itself in)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from paw.core.wave import Notify, WaveFile, WaveState
    from paw.supervisor.context import Context


class RunnerView(Protocol):
    """The runner as its rooms see it (:class:`paw.supervisor.wave.runner.WaveRunner`)."""

    @property
    def ctx(self) -> Context: ...

    @property
    def wave(self) -> WaveFile: ...

    @property
    def state(self) -> WaveState: ...

    def save(self) -> None:
        """Write the wave's state (durable) before the next step."""
        ...

    def owe(self, notes: list[Notify]) -> None:
        """Owe the messages of a decision (saved with it by the next :meth:`save`)."""
        ...
