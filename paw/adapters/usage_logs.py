"""The usage logs paw has an agent write (aider's analytics log, see
:mod:`paw.core.usage_aider`): placed in paw's state directory, one folder per agent name
(``.paw/usage/<agent>/``), never in the agent's worktree; read like the agents' own files (only
a regular file, its parse kept by the :class:`~paw.adapters.usage_cache.UsageCache` while its size
and mtime stay).

The log of an agent name outlives the agent (``paw wave report`` reads a removed task's agent's
usage); an agent spawned again under the name appends to it, and only the events since its
start are its own."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

from paw.adapters.usage_cache import UsageCache, usage_data, usage_of, usage_valid
from paw.core.names import name_problem
from paw.core.usage_aider import CONFIG_FILE, DOTENV_FILE, parse_aider_log, user_names_log

if TYPE_CHECKING:
    from collections.abc import Mapping

    from paw.core.usage import Usage

USAGE_DIR = "usage"
AIDER_LOG = "aider-analytics.jsonl"


def aider_log(state_dir: Path, agent: str) -> Path | None:
    """Where agent ``agent``'s aider writes its analytics log for paw; None for a name no agent
    can have (it would lead outside paw's folder)."""
    if name_problem(agent) is not None:
        return None
    return state_dir / USAGE_DIR / agent / AIDER_LOG


def prepare_aider_log(state_dir: Path, agent: str) -> str:
    """The analytics log of agent ``agent`` (:func:`aider_log`), its folder created (private
    to the user): aider writes nothing when the folder is missing. OSError when it cannot be
    made, ValueError for a name no agent can have."""
    path = aider_log(state_dir, agent)
    if path is None:
        raise ValueError(f"not an agent name: {agent!r}")
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    return str(path)


def read_aider(log: Path | None, since: float | None, cache: UsageCache) -> Usage | None:
    """The usage in aider's analytics log ``log`` since ``since``; None when the log holds
    none (or there is none)."""
    if log is None or not log.is_file():
        return None
    return usage_of(
        cache.parsed(
            f"aider\0{since}\0{log}", log, functools.partial(_aider_file, log, since), usage_valid
        )
    )


def _aider_file(path: Path, since: float | None) -> object:
    with path.open(encoding="utf-8", errors="replace") as handle:
        return usage_data(parse_aider_log(handle, since))


def user_aider_log(worktree: str, env: Mapping[str, str]) -> bool:
    """Whether the user names aider's analytics log themselves for an aider started in
    ``worktree`` with ``env`` (see :func:`~paw.core.usage_aider.user_names_log`): its
    environment, ``.aider.conf.yml`` in the worktree (its cwd and git root) and in the home
    folder, ``.env`` in both. A settings file paw cannot read counts as naming one
    (paw then leaves aider's settings alone)."""
    home = Path(env.get("HOME") or Path.home())
    configs = [_text(Path(worktree) / CONFIG_FILE), _text(home / CONFIG_FILE)]
    dotenvs = [_text(Path(worktree) / DOTENV_FILE), _text(home / DOTENV_FILE)]
    if None in configs or None in dotenvs:
        return True
    return user_names_log(env, (c or "" for c in configs), (d or "" for d in dotenvs))


def _text(path: Path) -> str | None:
    """The file's text; "" when there is none; None when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except (FileNotFoundError, NotADirectoryError):
        return ""
    except OSError:
        return None
