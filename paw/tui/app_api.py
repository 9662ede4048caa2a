"""What screens ask of the app (``PawApp`` provides it): screens depend on this, not on the app
module that imports them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import threading

    from paw.supervisor.model import SupervisorApi


class AppApi(Protocol):
    """The supervisor, the one-operation lock, the agent kinds and the app's services."""

    action_lock: threading.Lock
    kinds: tuple[str, ...]

    @property
    def supervisor(self) -> SupervisorApi:
        """The supervisor the app runs over (a placeholder until it is connected)."""
        ...

    def request_poll(self) -> None:
        """Sweep now, or right after the sweep in flight."""
        ...

    def report_error(self, what: str, error: BaseException) -> None:
        """Show ``error`` to the human (repeats held back)."""
        ...

    def attach(self, agent: str) -> None:
        """Attach to ``agent``'s pane and come back on detach."""
        ...
