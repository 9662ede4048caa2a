"""What a new agent's pane starts with: the placeholder that holds it while paw tags it, and
the commands that tag it and respawn it with the agent (``env`` without the variables that
name paw's tmux server or a CI job), in a ``TMUX_TMPDIR`` of the agents' own."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from paw.adapters.tmux.format import TAG_KEYS, escape_arg

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

# Holds a new pane while paw tags it, before the real command starts. Two or more arguments
# make tmux exec the program directly instead of through the user's default-shell.
PLACEHOLDER = ("cat", "-u")
#: ``env`` arguments that start an agent without the variables naming paw's tmux server.
AGENT_UNSET: tuple[str, ...] = ("-u", "TMUX", "-u", "TMUX_PANE")
#: Variables that tell a program it runs in CI, with no person at a terminal. An agent in a
#: paw pane has a terminal and a person behind paw, but inherits paw's environment: a wave
#: started from a CI job or a scheduler would pass them on, and gemini-cli then takes itself
#: for headless (``CI=true``) and exits at start-up in a folder it has not been told to trust.
#: They are cleared unless the agent's own ``env`` sets them.
HEADLESS_MARKERS: tuple[str, ...] = ("CI", "CONTINUOUS_INTEGRATION", "GITHUB_ACTIONS")


def agent_tmux_dir() -> str:
    """The ``TMUX_TMPDIR`` agents get: a private directory of their own (created here), so a
    plain ``tmux`` run by an agent finds neither paw's server nor the user's."""
    base = Path(os.environ.get("TMUX_TMPDIR") or "/tmp")  # noqa: S108 - tmux's own default
    path = base / f"paw-agents-{os.geteuid()}"
    path.mkdir(mode=0o700, exist_ok=True)
    return str(path)


def check_tags(tags: Mapping[str, str]) -> None:
    """ValueError unless ``tags`` are paw's own, each one line."""
    unknown = sorted(set(tags) - set(TAG_KEYS))
    if unknown:
        raise ValueError(f"unknown pane tags {unknown}; paw's tags are {list(TAG_KEYS)}")
    if any("\n" in value for value in tags.values()):
        raise ValueError("pane tag values must be single lines")


def start_commands(
    pane_id: str,
    cwd: str,
    argv: Sequence[str],
    env: Mapping[str, str],
    tags: Mapping[str, str],
    size: tuple[int, int] | None,
    *,
    remain_on_exit: bool,
    tmpdir: str,
) -> list[str]:
    """The tmux commands that tag ``pane_id``, set its size and options, and respawn it
    with ``argv`` (in ``cwd``, with ``env`` and ``TMUX_TMPDIR=tmpdir``), then print it:
    the caller appends the listing's format."""
    out: list[str] = []
    for key, value in tags.items():
        out += ["set-option", "-p", "-t", pane_id, f"@{key}", escape_arg(value), ";"]
    if remain_on_exit:
        out += ["set-option", "-p", "-t", pane_id, "remain-on-exit", "on", ";"]
    if size is not None:
        out += ["resize-window", "-t", pane_id, "-x", str(size[0]), "-y", str(size[1]), ";"]
    out += ["respawn-pane", "-k", "-t", pane_id, "-c", cwd]
    for key, value in {**env, "TMUX_TMPDIR": tmpdir}.items():
        out += ["-e", escape_arg(f"{key}={value}")]
    # ``env … --`` makes the command two or more arguments: tmux then execs it directly, so
    # no shell (fish, nushell…) reinterprets the agent's argv; env execs in place (same pid).
    # The agent does not hold paw's server: tmux sets TMUX and TMUX_PANE in every pane, and
    # with them any command the agent runs could send keys into another agent's pane; and
    # TMUX_TMPDIR moves its default socket away from the user's (and paw's) servers. Nor
    # does it take itself for a CI job (HEADLESS_MARKERS).
    unset = [*AGENT_UNSET, *(f for v in HEADLESS_MARKERS if v not in env for f in ("-u", v))]
    out += ["env", *unset, "--", *(escape_arg(arg) for arg in argv), ";"]
    out += ["display-message", "-p", "-t", pane_id]  # the caller appends the format
    return out
