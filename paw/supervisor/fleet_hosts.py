"""A fleet's hosts: the record of each host paw drives over ssh (``.paw/hosts.json``), the
connection it is reached through and the events its terminal reports, and :class:`Remote`, one
host as the :class:`~paw.supervisor.fleet.Fleet` holds it (record, link, supervisor)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, ValidationError

from paw.errors import PawError

if TYPE_CHECKING:
    from paw.supervisor.records import StateStore
    from paw.supervisor.service import Supervisor

HOSTS_DOC = "hosts"
PaneListener = Callable[[str | None], None]  # a pane's key, or None for a structure change


class HostRecord(BaseModel):
    """One host paw drives over ssh (``paw host add``)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    name: str
    url: str  # ssh://[user@]host[:port]
    repo: str  # the clone on the host agents' worktrees branch from
    socket: str = "paw"  # the host's tmux server: `tmux -L SOCKET`
    python: str = "python3"  # the host's interpreter for `{python}` agent commands
    identity: str | None = None  # ssh -i FILE
    ssh_config: str | None = None  # ssh -F FILE
    options: tuple[str, ...] = ()  # ssh -o KEY=VALUE


def load_hosts(state: StateStore) -> dict[str, HostRecord]:
    """The hosts of ``.paw/hosts.json``, by name."""
    data = state.read(HOSTS_DOC) or {}
    items = data.get("hosts", [])
    if not isinstance(items, list):
        raise PawError(".paw/hosts.json is corrupt: 'hosts' is not a list")
    try:
        hosts = [HostRecord.model_validate(item) for item in items]
    except ValidationError as err:
        raise PawError(f".paw/hosts.json is corrupt: {err.errors()[0]['msg']}") from err
    return {h.name: h for h in hosts}


def save_hosts(state: StateStore, hosts: Mapping[str, HostRecord]) -> None:
    """Replace ``.paw/hosts.json``."""
    state.write(HOSTS_DOC, {"hosts": [h.model_dump(mode="json") for h in hosts.values()]})


class HostLink(Protocol):
    """The connection to one host."""

    def connect(self) -> None:
        """Make sure the connection is up; PawError (one line) when the host is unreachable."""
        ...

    def disconnect(self) -> None:
        """Close the connection (the host's tmux and agents keep running)."""
        ...

    def close(self) -> None:
        """Release what this process holds open on the host; the connection may persist."""
        ...


@runtime_checkable
class EventSource(Protocol):
    """A terminal that reports pane events (this machine's tmux, a host's tmux over ssh)."""

    def watch(self, listener: PaneListener) -> bool:
        """Report pane ids (None: structure) to ``listener``; False when it cannot."""
        ...

    def events_live(self) -> bool:
        """True while events arrive."""
        ...


@dataclass(slots=True)
class Remote:
    """One host: its record, its connection and its supervisor."""

    record: HostRecord
    link: HostLink
    supervisor: Supervisor
    error: str | None = None  # why the host was unreachable at the last sweep
