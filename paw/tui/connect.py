"""Start-up in two steps: paint first, connect second.

Building a real supervisor costs imports (pydantic models, libtmux, psutil), a ``git`` call, the
config file and a tmux control-mode client: a few hundred milliseconds that used to delay the
first frame. ``paw tui`` now hands the app a *connector* instead; the app paints its layout with
"connecting to tmux…", then runs the connector on a thread worker and starts sweeping when it
returns. Until then every supervisor operation is refused with a clear message by
:class:`NotConnected` (nothing is listed yet, so nothing can be approved anyway).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn

from paw.core.detect.registry import agent_kinds
from paw.errors import PawError

if TYPE_CHECKING:
    from collections.abc import Callable

    from paw.core.wave_view import WaveReading
    from paw.supervisor.feed import Pushes
    from paw.supervisor.model import AgentView, Decision, Snapshot, SupervisorApi

DEFAULT_KINDS = agent_kinds()
STARTING = "paw is still connecting to tmux; try again in a moment"


@dataclass(frozen=True)
class Connection:
    """What a connector returns: the supervisor and what the TUI needs beside it."""

    supervisor: SupervisorApi
    attach: Callable[[str], None] | None = None
    kinds: tuple[str, ...] = DEFAULT_KINDS
    close: Callable[[], None] | None = None  # called once when the TUI exits
    waves: Callable[[], WaveReading | None] | None = None  # the repository's latest wave
    # pane events: watch(listener) starts reporting pane ids (None: structure) and returns
    # whether it could; live() tells whether events arrive right now (else the TUI polls)
    watch: Callable[[Callable[[str | None], None]], bool] | None = None
    live: Callable[[], bool] | None = None
    # a sweeper's pushed pictures, followed instead of ``watch`` while its process runs
    pushes: Pushes | None = None
    # the agent's usage line for its card (tokens from its own records), by agent name
    usage: Callable[[str], str | None] | None = None


class NotConnected:
    """The supervisor stand-in before the connector returned: refuses every operation."""

    def _refuse(self) -> NoReturn:
        raise PawError(STARTING)

    def poll_once(self) -> Snapshot:
        """Refused: not connected yet."""
        self._refuse()

    def approve(
        self,
        prompt_id: str,
        *,
        always: bool = False,
        confirmed: bool = False,
        override: str | None = None,
    ) -> Decision:
        """Refused: not connected yet."""
        del prompt_id, always, confirmed, override
        self._refuse()

    def deny(self, prompt_id: str) -> Decision:
        """Refused: not connected yet."""
        del prompt_id
        self._refuse()

    def capture_ansi(self, agent: str) -> str:
        """Refused: not connected yet."""
        del agent
        self._refuse()

    def diff(self, agent: str) -> str:
        """Refused: not connected yet."""
        del agent
        self._refuse()

    def audit_tail(self, n: int) -> list[dict[str, object]]:
        """Refused: not connected yet."""
        del n
        self._refuse()

    def spawn(self, name: str, kind: str, task: str | None) -> AgentView:
        """Refused: not connected yet."""
        del name, kind, task
        self._refuse()

    def send(self, agent: str, text: str) -> None:
        """Refused: not connected yet."""
        del agent, text
        self._refuse()

    def stop(self, agent: str) -> None:
        """Refused: not connected yet."""
        del agent
        self._refuse()

    def remove(self, agent: str, *, force: bool = False) -> str:
        """Refused: not connected yet."""
        del agent, force
        self._refuse()
