"""Agents on several machines: this one and hosts reached over ssh, seen as one supervisor.

Each host has a :class:`~paw.supervisor.service.Supervisor` of its own (its tmux, git and process
trees read on the host, its records under ``.paw/hosts/NAME/``), and every one of them writes to
the one local audit log. :class:`Fleet` offers the same operations as a Supervisor: a sweep
merges every machine's picture, and a decision, a spawn or a stop goes to the machine that holds
the prompt or the agent. A host that cannot be reached is shown as unreachable and its agents
as ``unknown`` (never exited); a decision on its prompts is refused and recorded, nothing sent.

Pane events (:meth:`Fleet.watch`) come from every machine's tmux: this machine's event client
and, per host, a tmux control-mode client over that host's ssh connection. A host's panes are
reported as ``HOST:%N`` (:func:`~paw.supervisor.model.pane_key`); a host's client that drops or
reconnects reports a structure change, and the sweep that follows finds the host unreachable
(its agents ``unknown``) or sweeps it in full. While a host's events arrive, a sweep started by
another machine's event reuses that host's last picture instead of asking it again.

A hook channel's poke (this machine's agents: no channel is wired on a host) makes the fleet's
early look (:attr:`Fleet.publish_early`, set by the feed as on a supervisor of one machine): this
machine's channel-only look, with every host's agents and prompts as the last picture showed
them, goes out before any screen is captured; the sweep's own picture follows.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, Protocol

from paw.core.occurrence import DELIVERY_UNKNOWN
from paw.errors import PawError
from paw.supervisor.approve import unknown_reason
from paw.supervisor.channels import source_fields
from paw.supervisor.fleet_hosts import EventSource, PaneListener, Remote
from paw.supervisor.model import LOCAL_HOST, AgentStatus, Decision, Outcome, Snapshot, pane_key
from paw.supervisor.records import load_agents, load_prompts

if TYPE_CHECKING:
    from paw.supervisor.context import Context
    from paw.supervisor.model import AgentView, LivePrompt
    from paw.supervisor.records import AgentRecord
    from paw.supervisor.service import Supervisor
    from paw.supervisor.spawn import Startup

LOCAL = LOCAL_HOST
HOST_REFRESH_S = 20.0  # with its events arriving, a host is swept at least this often anyway


class Fleet:
    """This machine's supervisor plus one per host, as one."""

    def __init__(self, local: Supervisor, remotes: Mapping[str, Remote]) -> None:
        """Drive ``local`` and the ``remotes`` (by host name)."""
        self.local = local
        self.remotes = dict(remotes)
        self._watched: list[EventSource] = []  # the machines whose events are reported
        self._sources: dict[str, EventSource] = {}  # the hosts among them, by name
        self._lock = threading.Lock()
        self._dirty: set[str] = set()  # hosts with an event since their last sweep began
        self._parts: dict[str, tuple[float, Snapshot]] = {}  # host -> (when, its last picture)
        # the hosts' agents and prompts as the last picture showed them (the early look's)
        self._hosts_shown: tuple[tuple[AgentView, ...], tuple[LivePrompt, ...]] = ((), ())
        self._publish_early: Callable[[Snapshot], None] | None = None

    # -- pane events ---------------------------------------------------------------------------

    def watch(self, listener: PaneListener) -> bool:
        """Report the pane events of every machine to ``listener``: this machine's panes by
        id, a host's as ``HOST:%N`` (:func:`pane_key`), None for a structure change of any
        machine (a host's event client that drops or reconnects included). True when at
        least one machine reports events (the others are then swept on every event and by
        the safety sweep)."""
        sources: list[tuple[str, EventSource]] = []
        local = self.local.ctx.terminal
        if isinstance(local, EventSource):
            sources.append((LOCAL, local))
        for name, remote in self.remotes.items():
            terminal = remote.supervisor.ctx.terminal
            if isinstance(terminal, EventSource):
                sources.append((name, terminal))
        for name, source in sources:
            if source.watch(listener if name == LOCAL else self._keyed(name, listener)):
                self._watched.append(source)
                if name != LOCAL:
                    self._sources[name] = source
        # a worktree count that ends on a worker asks for the sweep that shows it
        self.local.listen_counts(lambda: listener(None))
        for name, remote in self.remotes.items():
            remote.supervisor.listen_counts(partial(self._keyed(name, listener), None))
        return bool(self._watched)

    def _keyed(self, host: str, listener: PaneListener) -> PaneListener:
        """``listener`` fed a host's pane ids as that host's pane keys; the host is due for a
        sweep from then on (marked before the listener hears of it)."""

        def note(pane: str | None) -> None:
            with self._lock:
                self._dirty.add(host)
            listener(None if pane is None else pane_key(host, pane))

        return note

    def events_live(self) -> bool:
        """True while every machine's events arrive (else the caller keeps its poll cycle:
        a host whose event client is down is polled, and so tried again, every cycle)."""
        watched = self._watched
        expected = 1 + len(self.remotes)
        return len(watched) == expected and all(source.events_live() for source in watched)

    @property
    def ctx(self) -> Context:
        """This machine's context (configuration, audit log, repository)."""
        return self.local.ctx

    def listen_counts(self, listener: Callable[[], None] | None) -> None:
        """This machine's :meth:`Supervisor.listen_counts` (:meth:`watch` tells each
        machine's to its listener)."""
        self.local.listen_counts(listener)

    @property
    def session(self) -> str:
        """paw's tmux session on this machine."""
        return self.local.session

    # -- the early look ------------------------------------------------------------------------

    @property
    def publish_early(self) -> Callable[[Snapshot], None] | None:
        """Given, before a sweep that this machine's hook channel's poke asked for, the
        fleet's picture with the channels' new requests listed: this machine's channel-only
        look (:attr:`Supervisor.publish_early`) beside the hosts as the last picture showed
        them (nothing asked of them); None: the sweep alone lists them. A host has no channel
        wired (docs/remote.md): its prompts come from its screens, by its pane events."""
        return self._publish_early

    @publish_early.setter
    def publish_early(self, publish: Callable[[Snapshot], None] | None) -> None:
        self._publish_early = publish
        self.local.publish_early = None if publish is None else self._local_look

    def _local_look(self, look: Snapshot) -> None:
        """This machine's early look (inside :meth:`poll_once`, the hosts' sweeps beside
        it): handed on with the hosts' last agents and prompts."""
        publish = self._publish_early
        if publish is not None:
            agents, prompts = self._hosts_shown
            publish(self._merged(look, agents, prompts))

    def _merged(
        self, here: Snapshot, agents: tuple[AgentView, ...], prompts: tuple[LivePrompt, ...]
    ) -> Snapshot:
        """This machine's picture ``here`` with the hosts' ``agents`` and ``prompts``."""
        mine = tuple(dataclasses.replace(v, host=LOCAL) for v in here.agents)
        return Snapshot(
            here.taken_at, mine + agents, here.prompts + prompts, here.tmux_ok, here.error
        )

    # -- the picture ---------------------------------------------------------------------------

    def poll_once(self) -> Snapshot:
        """Sweep this machine and every host side by side (a sweep costs the slowest machine,
        not their sum); merge the pictures. A host that cannot be reached contributes its
        agents as ``unknown`` with the reason, and no prompts.

        While a host's pane events arrive (:meth:`watch`), it is swept only when it had an
        event since its last sweep, or that sweep is :data:`HOST_REFRESH_S` old: an event of
        another machine reuses its last picture (nothing on it drew, and the connection that
        brings its events is up)."""
        kept = {name: self._reusable(name) for name in self.remotes}
        due = {name: r for name, r in self.remotes.items() if kept[name] is None}
        with ThreadPoolExecutor(max_workers=max(1, len(due))) as pool:
            parts = {name: pool.submit(self._poll_host, r) for name, r in due.items()}
            snap = self.local.poll_once()
        agents: list[AgentView] = []
        prompts: list[LivePrompt] = []
        for name, remote in self.remotes.items():
            part = parts[name].result() if name in parts else kept[name]
            if part is None:
                agents += self._unreachable_views(remote)
                continue
            agents += [dataclasses.replace(v, host=name) for v in part.agents]
            prompts += part.prompts
        self._hosts_shown = (tuple(agents), tuple(prompts))
        return self._merged(snap, *self._hosts_shown)

    def hosts(self) -> tuple[str, ...]:
        """The hosts beside this machine."""
        return tuple(self.remotes)

    def unreachable(self) -> dict[str, str]:
        """Hosts unreachable at the last sweep, with the reason."""
        return {name: r.error for name, r in self.remotes.items() if r.error is not None}

    def _reusable(self, host: str) -> Snapshot | None:
        """``host``'s last picture when it need not be swept now (see :meth:`poll_once`);
        None when it must be (its events from here on make it due again)."""
        source = self._sources.get(host)
        live = source is not None and source.events_live()
        now = self.local.ctx.clock()
        with self._lock:
            kept = self._parts.get(host)
            fresh = kept is not None and 0 <= now - kept[0] < HOST_REFRESH_S
            if live and fresh and kept is not None and host not in self._dirty:
                return kept[1]
            self._dirty.discard(host)
            return None

    def _poll_host(self, remote: Remote) -> Snapshot | None:
        name = remote.record.name
        started = self.local.ctx.clock()
        part: Snapshot | None = None
        try:
            remote.link.connect()
            swept = remote.supervisor.poll_once()
        except PawError as err:
            remote.error = err.message
        else:
            if swept.tmux_ok:
                remote.error, part = None, swept
            else:
                remote.error = swept.error or "tmux on the host cannot be read"
        with self._lock:
            if part is None:
                self._parts.pop(name, None)
            else:
                self._parts[name] = (started, part)
        return part

    def _unreachable_views(self, remote: Remote) -> list[AgentView]:
        from paw.supervisor.model import AgentView, WorktreeStat

        name = remote.record.name
        note = f"host {name} unreachable: {remote.error}"
        now = self.local.ctx.clock()
        return [
            AgentView(
                name=a.name,
                kind=a.kind,
                pane_id=a.pane_id,
                alive=None,  # unknown: the host cannot be reached
                status=AgentStatus.UNKNOWN,
                status_since=now,
                branch=a.branch,
                worktree=a.worktree,
                stat=WorktreeStat(counted=False),
                task=a.task,
                note=note,
                host=name,
            )
            for a in load_agents(remote.supervisor.ctx.state).values()
        ]

    def ls(self) -> tuple[AgentView, ...]:
        """Every agent of every machine as of one sweep."""
        return self.poll_once().agents

    # -- decisions -----------------------------------------------------------------------------

    def approve(
        self,
        prompt_id: str,
        *,
        always: bool = False,
        confirmed: bool = False,
        override: str | None = None,
    ) -> Decision:
        """Approve on the machine whose agent shows ``prompt_id`` (proved there first)."""
        remote = self._remote_of_prompt(prompt_id)
        if remote is None:
            return self.local.approve(
                prompt_id, always=always, confirmed=confirmed, override=override
            )
        return self._decide(
            remote, "approve", prompt_id,
            lambda: remote.supervisor.approve(
                prompt_id, always=always, confirmed=confirmed, override=override
            ),
        )  # fmt: skip

    def deny(self, prompt_id: str) -> Decision:
        """Deny on the machine whose agent shows ``prompt_id``."""
        remote = self._remote_of_prompt(prompt_id)
        if remote is None:
            return self.local.deny(prompt_id)
        return self._decide(remote, "deny", prompt_id, lambda: remote.supervisor.deny(prompt_id))

    def _decide(self, remote: Remote, action: str, prompt_id: str, run: _Decide) -> Decision:
        """A decision on a host: refused (and recorded) while the host cannot be reached or
        when it drops during the proof; nothing is sent then. A link that drops once the keys
        were handed to ssh is the decision's outcome ``delivery-unknown``, never a refusal."""
        try:
            remote.link.connect()
            return run()
        except PawError as err:
            remote.error = err.message
            reason = f"host {remote.record.name} unreachable: {err.message}; nothing sent"
            record = load_prompts(remote.supervisor.ctx.state).get(prompt_id)
            if record is not None and record.state == DELIVERY_UNKNOWN:
                reason = f"{unknown_reason(record)} (host {remote.record.name} unreachable)"
            remote.supervisor.ctx.record(
                action,
                decision="refuse",
                reason=reason,
                prompt_id=prompt_id,
                path=None,
                **source_fields(None),
            )
            return Decision(Outcome.REFUSED, prompt_id, reason)

    def _remote_of_prompt(self, prompt_id: str) -> Remote | None:
        for remote in self.remotes.values():
            if prompt_id in load_prompts(remote.supervisor.ctx.state):
                return remote
        return None

    # -- agents --------------------------------------------------------------------------------

    def host_of(self, agent: str) -> str | None:
        """The machine agent ``agent`` runs on (``local`` or a host name); None when unknown."""
        if agent in load_agents(self.local.ctx.state):
            return LOCAL
        for name, remote in self.remotes.items():
            if agent in load_agents(remote.supervisor.ctx.state):
                return name
        return None

    def _on(self, agent: str) -> Supervisor:
        host = self.host_of(agent)
        if host is None or host == LOCAL:
            return self.local  # the local supervisor names the missing agent
        remote = self.remotes[host]
        remote.link.connect()
        return remote.supervisor

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
        """Spawn on ``host`` (this machine when None or ``local``); names are unique across
        every machine."""
        taken = self.host_of(name)
        if taken is not None:
            raise PawError(f"an agent named {name!r} exists (on {taken})")
        sup = self._host_supervisor(host)
        view, startup = sup.spawn_agent(
            name, kind, task, base, startup_timeout_s=startup_timeout_s, resume=resume
        )
        return dataclasses.replace(view, host=host or LOCAL), startup

    def spawn(self, name: str, kind: str, task: str | None, base: str | None = None) -> AgentView:
        """Spawn on this machine (the TUI's spawn form)."""
        return self.local.spawn(name, kind, task, base)

    def _host_supervisor(self, host: str | None) -> Supervisor:
        if host is None or host == LOCAL:
            return self.local
        remote = self.remotes.get(host)
        if remote is None:
            known = ", ".join(sorted(self.remotes)) or "none"
            raise PawError(f"no host named {host!r} (hosts: {known})", hint="`paw host ls`")
        remote.link.connect()
        return remote.supervisor

    def send(self, agent: str, text: str) -> None:
        """Type ``text`` into the agent's input (on its machine)."""
        self._on(agent).send(agent, text)

    def stop(self, agent: str) -> None:
        """End the agent (on its machine); keep the work."""
        self._on(agent).stop(agent)

    def remove(self, agent: str, *, force: bool = False) -> str:
        """Remove the agent's worktree and branch (on its machine)."""
        return self._on(agent).remove(agent, force=force)

    def capture_ansi(self, agent: str) -> str:
        """The agent pane's screen with colours ("" when its host cannot be reached)."""
        try:
            return self._on(agent).capture_ansi(agent)
        except PawError:
            if self.host_of(agent) in (None, LOCAL):
                raise
            return ""

    def diff(self, agent: str) -> str:
        """``git diff`` of the agent's worktree (read on its machine)."""
        return self._on(agent).diff(agent)

    def attach_argv(self, agent: str) -> list[str]:
        """The argv that attaches the terminal to the agent's pane (``ssh -t`` for a host)."""
        return self._on(agent).attach_argv(agent)

    def agent(self, name: str) -> AgentRecord:
        """The persisted record of agent ``name``."""
        return self._on(name).agent(name)

    def adopt(self, pane_id: str, *, name: str | None = None, kind: str | None = None) -> AgentView:
        """Supervise an existing pane of this machine."""
        return self.local.adopt(pane_id, name=name, kind=kind)

    def audit_tail(self, n: int) -> list[dict[str, object]]:
        """The last ``n`` records of the one (local) audit log."""
        return self.local.audit_tail(n)

    def stats(self) -> dict[str, dict[str, int]]:
        """Counts from the one audit log."""
        return self.local.stats()

    def close(self) -> None:
        """Release long-lived connections (control clients); masters persist for a while."""
        self.local.close()
        for remote in self.remotes.values():
            remote.supervisor.close()
            remote.link.close()


class _Decide(Protocol):
    def __call__(self) -> Decision: ...
