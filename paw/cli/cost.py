"""What each task's agent cost: composes the usage readers for ``paw wave report``."""

from __future__ import annotations

import os
import posixpath
from pathlib import Path
from typing import TYPE_CHECKING

from paw.errors import PawError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from paw.core.config import PawConfig
    from paw.core.usage import UsageReading
    from paw.core.wave import TaskState, WaveState
    from paw.supervisor.api import Operations


def _config(root: str) -> PawConfig | None:
    from paw.cli.compose import CONFIG_NAME, load_config

    try:
        return load_config(Path(root) / CONFIG_NAME, root)
    except PawError:
        return None  # a broken paw.toml: the defaults (the report still comes)


def task_usage(root: str, state: WaveState) -> dict[str, UsageReading]:
    """Each started task's usage, read where its agent records it (see paw.core.usage)."""
    from paw.adapters.state import StateStore
    from paw.adapters.usage import read_usage
    from paw.cli.compose import STATE_DIR
    from paw.core.agents import profile_for
    from paw.core.config import PawConfig
    from paw.supervisor.records import load_agents

    config = _config(root) or PawConfig()
    records = load_agents(StateStore(Path(root) / STATE_DIR))
    readings: dict[str, UsageReading] = {}
    for task in state.tasks:
        if task.started_at is None:
            continue
        kind = task.kind or "unknown"
        profile = profile_for(config, kind)
        record = records.get(task.agent)
        worktree = record.worktree if record is not None else _worktree(config, root, task.agent)
        env = {**os.environ, **(profile.env if profile is not None else {})}
        detector = profile.detector_id if profile is not None else kind
        readings[task.name] = read_usage(
            detector, worktree, env, task.started_at, log=_log(root, task.agent)
        )
    return readings


def _log(root: str, agent: str) -> Path | None:
    """The usage log paw has agent ``agent`` write, where its kind has one (aider's)."""
    from paw.adapters.usage_logs import aider_log
    from paw.cli.compose import STATE_DIR

    return aider_log(Path(root) / STATE_DIR, agent)


def _worktree(config: PawConfig, root: str, agent: str) -> str:
    """Where the agent's worktree was (its record is gone after ``paw rm``)."""
    repo = posixpath.basename(root.rstrip("/"))
    folder = config.worktrees.root.replace("{repo}", repo)
    return posixpath.normpath(posixpath.join(root, folder, agent))


def agent_usages(
    root: str, config: PawConfig, agents: Sequence[tuple[str, str, str, str | None]]
) -> dict[str, UsageReading]:
    """Each agent's usage (``paw ls``): ``agents`` is ``(name, kind, worktree, host)``; the
    files read are kept in ``.paw/usage-cache.json`` by size and mtime, so a look opens only
    what changed since the last one. An agent on another host: unknown (its files are
    there)."""
    from paw.adapters.state import StateStore
    from paw.adapters.usage import read_usage
    from paw.adapters.usage_cache import UsageCache
    from paw.cli.compose import STATE_DIR
    from paw.core.agents import profile_for
    from paw.core.usage import UsageReading as Reading
    from paw.supervisor.records import load_agents

    store = StateStore(Path(root) / STATE_DIR)
    try:
        records = load_agents(store)
    except PawError:
        records = {}
    cache = UsageCache(store)
    readings: dict[str, UsageReading] = {}
    environ = dict(os.environ)
    for name, kind, worktree, host in agents:
        if host is not None:
            readings[name] = Reading(None, unknown=f"its records are on host {host}")
            continue
        profile = profile_for(config, kind)
        env = {**environ, **profile.env} if profile is not None and profile.env else environ
        detector = profile.detector_id if profile is not None else kind
        record = records.get(name)
        since = record.created_at if record is not None and record.created_at else None
        readings[name] = read_usage(detector, worktree, env, since, cache, log=_log(root, name))
    cache.save()
    return readings


class UsageLines:
    """The TUI card's usage line per agent (see paw.supervisor.details): the agent's record
    says its kind and worktree; the files read are kept between looks (size and mtime), in
    memory and in ``.paw/usage-cache.json``. Called on the feed's details thread only."""

    def __init__(self, root: str, config: PawConfig) -> None:
        """For the repository at ``root`` with its paw.toml ``config``."""
        from paw.adapters.state import StateStore
        from paw.adapters.usage_cache import UsageCache
        from paw.cli.compose import STATE_DIR

        self._root = root
        self._config = config
        self._store = StateStore(Path(root) / STATE_DIR)
        self._cache = UsageCache(self._store)

    def __call__(self, agent: str) -> str | None:
        """One line (``tokens 12.3k in, 1.2k out``, or why unknown); None for an agent this
        repository's records do not hold (one on another host)."""
        from paw.adapters.usage import read_usage
        from paw.core.agents import profile_for
        from paw.core.usage import usage_text
        from paw.supervisor.records import load_agents

        record = load_agents(self._store).get(agent)
        if record is None:
            return None
        profile = profile_for(self._config, record.kind)
        env = {**os.environ, **(profile.env if profile is not None else {})}
        detector = profile.detector_id if profile is not None else record.kind
        self._cache.new_look()
        reading = read_usage(
            detector,
            record.worktree,
            env,
            record.created_at or None,
            self._cache,
            log=_log(self._root, agent),
        )
        self._cache.save()
        return usage_text(reading)


def usage_line(supervisor: Operations) -> UsageLines:
    """The usage reader for the TUI of ``supervisor``'s repository."""
    ctx = supervisor.ctx
    return UsageLines(ctx.repo_root, ctx.config)


def task_spend(
    root: str, config: PawConfig
) -> Callable[[TaskState], tuple[int | None, float | None]]:
    """The wave runner's reader of a task's agent's usage (tokens, dollars where stated; None
    each where unknown), for the token and dollar budgets; files kept by size and mtime."""
    from paw.adapters.usage import read_usage
    from paw.adapters.usage_cache import UsageCache
    from paw.core.agents import profile_for

    cache = UsageCache()
    environ = dict(os.environ)

    def spend(task: TaskState) -> tuple[int | None, float | None]:
        kind = task.kind or "unknown"
        profile = profile_for(config, kind)
        env = {**environ, **profile.env} if profile is not None and profile.env else environ
        detector = profile.detector_id if profile is not None else kind
        cache.new_look()
        reading = read_usage(
            detector,
            _worktree(config, root, task.agent),
            env,
            task.started_at,
            cache,
            log=_log(root, task.agent),
        )
        usage = reading.usage
        return (None, None) if usage is None else (usage.total_tokens, usage.cost_usd)

    return spend
