"""The channels paw can wire, by agent kind: :class:`~paw.core.ports.ChannelHub`."""

from __future__ import annotations

import json
import posixpath
from collections.abc import Sequence
from pathlib import Path

from paw.adapters.channels.claude import (
    ClaudeHookChannel,
    ClaudeWiring,
    channel_dir,
    wire_claude,
)
from paw.core.ports import ChannelPort

CLAUDE_KIND = "claude-code"


class FileChannelHub:
    """Channels whose records live in paw's state dir (Claude Code's hook)."""

    def __init__(self, state_root: str | Path, python: str) -> None:
        self.root = Path(state_root)
        self.python = python
        self._ports: dict[tuple[str, str], ClaudeHookChannel] = {}

    def wire(self, agent: str, kind: str, spawn: str, argv: Sequence[str]) -> tuple[str, ...]:
        """``claude`` gets ``--settings FILE`` right after its program name; a custom command
        (a wrapper whose flags paw does not know) is launched as it is."""
        if kind != CLAUDE_KIND or not argv or posixpath.basename(argv[0]) != "claude":
            return tuple(argv)
        wiring = wire_claude(self.root, agent, spawn, self.python)
        return (argv[0], *wiring.argv, *argv[1:])

    def port(self, agent: str, kind: str, spawn: str, agent_pid: int | None) -> ChannelPort | None:
        """The spawn's channel when its settings were written (it was wired), else None."""
        if kind != CLAUDE_KIND or not spawn:
            return None
        cached = self._ports.get((agent, spawn))
        if cached is not None and cached.agent_pid == agent_pid:
            return cached
        directory = channel_dir(self.root, agent, spawn)
        settings = directory / "settings.json"
        if not settings.exists():
            return None
        wiring = read_wiring(directory, agent, spawn)
        if wiring is None:
            return None
        port = ClaudeHookChannel(wiring, agent_pid)
        self._ports[(agent, spawn)] = port
        return port


def read_wiring(directory: Path, agent: str, spawn: str) -> ClaudeWiring | None:
    """The wiring a spawn's settings file records (the exact hook command), or None."""
    try:
        settings = json.loads((directory / "settings.json").read_text(encoding="utf-8"))
        hook = settings["hooks"]["PermissionRequest"][0]["hooks"][0]
        command = hook["command"]
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None
    if not isinstance(command, str):
        return None
    return ClaudeWiring(directory, agent, spawn, command, directory / "settings.json")
