"""What paw persists in ``.paw/``: agent records and prompts seen (pydantic: a trust boundary).

A prompt occurrence's record and its life are :mod:`paw.core.occurrence`'s; it is stored here.

Everything else (panes, processes, screens, worktree counts) is rebuilt from tmux and git on
every sweep, so any paw process sees the same picture and killing paw loses nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from paw.core.occurrence import ProcIdentity, PromptRecord
from paw.errors import PawError

_T = TypeVar("_T")

AGENTS_DOC = "agents"
PROMPTS_DOC = "prompts"
PROMPTS_LOCK = "prompts"  # held while a paw process reads-and-rewrites prompts.json
AGENTS_LOCK = AGENTS_DOC  # held while agents.json is read and rewritten

SPAWNING = "spawning"  # AgentRecord.pending: an intent written before `git worktree add`
REMOVING = "removing"  # AgentRecord.pending: an intent written before anything is removed


class StateStore(Protocol):
    """Small JSON documents under ``.paw/`` (``agents.json``, ``prompts.json``)."""

    def read(self, name: str) -> dict[str, object] | None:
        """The document ``name``, or None when it does not exist."""
        ...

    def read_parsed(
        self, name: str, kind: str, parse: Callable[[dict[str, object] | None], _T]
    ) -> _T:
        """``parse(read(name))``, remembered while the document's text is unchanged (the
        file is read every time; ``parse`` must return something immutable)."""
        ...

    def write(
        self,
        name: str,
        data: Mapping[str, object],
        *,
        durable: bool = True,
        parsed: tuple[str, object] | None = None,
    ) -> None:
        """Replace the document ``name`` atomically (write a temp file, fsync, rename, fsync
        the directory). ``durable=False`` fsyncs nothing: other processes and a crash of paw
        see the old document or the new one whole; a crash of the machine may lose it.
        ``parsed``: ``(kind, value)``, what :meth:`read_parsed` under ``kind`` would give for
        the text written (remembered: the writer's next read of its own text parses nothing)."""
        ...

    def save_text(
        self, folder: str, name: str, text: str, *, group: str = "", keep: int = 0
    ) -> str:
        """Write a new text file ``name`` in the folder ``folder`` of paw's state directory
        (never in a worktree; a taken name gets a counter) and return its path; PawError when
        it cannot be written. ``group`` and ``keep``: of the files whose names start with
        ``group``, only the newest ``keep`` (the new one among them) stay."""
        ...

    def lock(self, name: str) -> AbstractContextManager[None]:
        """An exclusive lock shared by every paw process of this repository (blocking,
        re-entrant within one thread)."""
        ...

    def try_lock(self, name: str) -> AbstractContextManager[bool]:
        """The same lock without waiting: the context yields False when someone holds it."""
        ...

    def check_writable(self) -> None:
        """Raise PawError (one line) unless paw can write its state."""
        ...


class _Record(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class AgentRecord(_Record):
    """One supervised agent."""

    name: str
    kind: str
    branch: str
    worktree: str
    base: str
    pane_id: str | None = None
    task: str | None = None
    created_at: float = 0.0
    adopted: bool = False
    proc: ProcIdentity | None = None  # the agent process, once resolved
    # Identity bound at spawn (or adopt): the pane's random tag, the tmux server the pane lives
    # on, and the process paw launched in it; the agent is that process or its descendant.
    token: str | None = None
    server: str | None = None
    launched: ProcIdentity | None = None
    pending: str | None = None  # SPAWNING or REMOVING while that operation is unfinished
    force: bool = False  # with REMOVING: the removal was forced (`paw rm --force`)
    # spawned with --resume in a worktree that existed before it (restored from an archive):
    # a failed or interrupted spawn forgets the record and never takes back that worktree
    resumed: bool = False
    # the version its program printed at spawn ("" when it printed none; None: not asked)
    version: str | None = None


_R = TypeVar("_R", bound=BaseModel)


def load_agents(state: StateStore) -> dict[str, AgentRecord]:
    """Every agent record, by name."""
    return {r.name: r for r in _load_list(state, AGENTS_DOC, AgentRecord)}


def save_agents(state: StateStore, agents: Mapping[str, AgentRecord]) -> None:
    """Replace the agent records."""
    state.write(AGENTS_DOC, {"agents": [a.model_dump(mode="json") for a in agents.values()]})


def store_agent(state: StateStore, record: AgentRecord) -> None:
    """Add or replace one agent record (under the agents lock: parallel paw processes never
    lose each other's records)."""
    with state.lock(AGENTS_DOC):
        agents = load_agents(state)
        agents[record.name] = record
        save_agents(state, agents)


def add_new_agent(state: StateStore, record: AgentRecord) -> bool:
    """Add ``record`` unless an agent of that name exists (checked and written under one lock);
    returns False when the name is taken."""
    with state.lock(AGENTS_DOC):
        agents = load_agents(state)
        if record.name in agents:
            return False
        agents[record.name] = record
        save_agents(state, agents)
        return True


def forget_agent(state: StateStore, name: str) -> None:
    """Drop the record of agent ``name`` (nothing else: worktree, branch and pane stay)."""
    with state.lock(AGENTS_DOC):
        agents = load_agents(state)
        if agents.pop(name, None) is not None:
            save_agents(state, agents)


GIT_LOCK = "git-worktrees"
"""Held around `git worktree add/remove`: git reads every worktree's metadata while it adds
one, and fails when another paw process is adding one at the same moment."""


def op_lock(name: str) -> str:
    """The lock a process holds while it spawns or removes agent ``name``."""
    return f"op-{name}"


def update_agents(state: StateStore, updates: Mapping[str, Mapping[str, object]]) -> None:
    """Apply field ``updates`` to the named agents' current records (re-read under a lock, so
    a record written meanwhile by another paw process is kept, and a gone agent stays gone)."""
    with state.lock(AGENTS_LOCK):
        agents = load_agents(state)
        for name, update in updates.items():
            if name in agents:
                agents[name] = agents[name].model_copy(update=dict(update))
        save_agents(state, agents)


def load_prompts(state: StateStore) -> dict[str, PromptRecord]:
    """Prompts seen (and still live at the last sweep), by id."""
    return {r.id: r for r in _load_list(state, PROMPTS_DOC, PromptRecord, key="prompts")}


def save_prompts(
    state: StateStore, prompts: Mapping[str, PromptRecord], *, durable: bool = True
) -> None:
    """Replace the prompts seen. ``durable=False`` for a sweep's bookkeeping (occurrences
    seen or gone: the next sweep finds them again), which a new prompt's way to the screen
    must not wait for on a slow disk; a decision's write, which the keys wait for, is always
    durable."""
    records = tuple(prompts.values())
    doc = {"prompts": [_dumped(record) for record in records]}
    parsed = (_parse_kind(PromptRecord, "prompts"), records)
    state.write(PROMPTS_DOC, doc, durable=durable, parsed=parsed)


# A sweep writes the prompts seen whenever the set of live prompts changes, most of them the
# same records as the sweep before: each record's JSON form is kept beside it (records are
# frozen; the memo holds the record itself, so an id is never another record's).
_DUMPS: dict[int, tuple[PromptRecord, dict[str, object]]] = {}
_DUMPS_LOCK = threading.Lock()


def _dumped(record: PromptRecord) -> dict[str, object]:
    with _DUMPS_LOCK:
        known = _DUMPS.get(id(record))
        if known is not None and known[0] is record:
            return known[1]
        dumped = record.model_dump(mode="json")
        if len(_DUMPS) > 4096:
            _DUMPS.clear()
        _DUMPS[id(record)] = (record, dumped)
        return dumped


def _parse_kind(model: type[BaseModel], key: str) -> str:
    return f"{model.__module__}.{model.__qualname__}:{key}"


def _load_list(state: StateStore, doc: str, model: type[_R], key: str = AGENTS_DOC) -> list[_R]:
    """The records of ``doc`` (frozen models, so one parse serves every sweep until the
    document's text changes: see ``StateStore.read_parsed``)."""

    def parse(data: dict[str, object] | None) -> tuple[_R, ...]:
        items = (data or {}).get(key, [])
        if not isinstance(items, list):
            raise PawError(f".paw/{doc}.json is corrupt: '{key}' is not a list")
        try:
            return tuple(model.model_validate(item) for item in items)
        except ValidationError as err:
            raise PawError(f".paw/{doc}.json is corrupt: {err.errors()[0]['msg']}") from err

    return list(state.read_parsed(doc, _parse_kind(model, key), parse))
