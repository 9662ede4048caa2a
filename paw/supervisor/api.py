"""The one supervisor API a command line uses: one machine (:class:`~paw.supervisor.service.
Supervisor`) or this machine and its hosts (:class:`~paw.supervisor.fleet.Fleet`) alike.

The TUI needs less (:class:`~paw.supervisor.model.SupervisorApi`); `paw` commands take this and
never ask which of the two they hold."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from paw.supervisor.context import Context
    from paw.supervisor.model import AgentView, Decision, Snapshot
    from paw.supervisor.records import AgentRecord
    from paw.supervisor.spawn import Startup


class Operations(Protocol):
    """What `paw` commands ask of the supervisor."""

    @property
    def ctx(self) -> Context:
        """This machine's context (configuration, audit log, repository)."""
        ...

    @property
    def session(self) -> str:
        """paw's tmux session on this machine."""
        ...

    def hosts(self) -> tuple[str, ...]:
        """The hosts paw drives beside this machine (none without `paw host add`)."""
        ...

    def poll_once(self) -> Snapshot:
        """One sweep's picture."""
        ...

    def unreachable(self) -> dict[str, str]:
        """Hosts the last sweep could not reach, with the reason."""
        ...

    def approve(
        self,
        prompt_id: str,
        *,
        always: bool = False,
        confirmed: bool = False,
        override: str | None = None,
    ) -> Decision:
        """Re-verify, record, then send the approve keys of a live prompt."""
        ...

    def deny(self, prompt_id: str) -> Decision:
        """Re-verify, record, then send the deny keys of a live prompt."""
        ...

    def spawn_agent(
        self,
        name: str,
        kind: str,
        task: str | None,
        base: str | None = None,
        *,
        startup_timeout_s: float | None = None,
        host: str | None = None,
        resume: bool = False,
    ) -> tuple[AgentView, Startup]:
        """Spawn on ``host`` (this machine when None or ``local``) and wait until it is up."""
        ...

    def send(self, agent: str, text: str) -> None:
        """Type ``text`` into the agent's idle input and press Enter."""
        ...

    def stop(self, agent: str) -> None:
        """End the agent and its pane; keep the work."""
        ...

    def remove(self, agent: str, *, force: bool = False) -> str:
        """Remove worktree and branch."""
        ...

    def adopt(self, pane_id: str, *, name: str | None = None, kind: str | None = None) -> AgentView:
        """Supervise an existing agent pane started outside paw."""
        ...

    def agent(self, name: str) -> AgentRecord:
        """The persisted record of agent ``name``."""
        ...

    def attach_argv(self, agent: str) -> list[str]:
        """The argv that attaches the user's terminal to the agent's pane."""
        ...

    def audit_tail(self, n: int) -> list[dict[str, object]]:
        """The last ``n`` audit records."""
        ...

    def stats(self) -> dict[str, dict[str, int]]:
        """Per-agent and overall counts from the audit log."""
        ...

    def close(self) -> None:
        """Release long-lived connections (the agents keep running)."""
        ...
