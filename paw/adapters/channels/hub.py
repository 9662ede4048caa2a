"""The channels paw can wire, by agent kind: :class:`~paw.core.ports.ChannelHub`.

- Claude Code, Qwen Code and Codex: their ``PermissionRequest`` hook, a settings file per spawn
  (``claude --settings FILE``; ``QWEN_CODE_SYSTEM_DEFAULTS_PATH=FILE`` in Qwen's environment)
  or ``-c`` flags that add and trust the hook for that launch (``codex``)
  (:mod:`paw.adapters.channels.claude`).
- Gemini CLI: its ``Notification`` hook, observe only (a settings file per spawn named by
  ``GEMINI_CLI_SYSTEM_DEFAULTS_PATH``; :mod:`paw.adapters.channels.gemini`); not wired when a
  directory above paw's state dir is not private (Gemini would skip the file).
- opencode and Kilo Code: the server beside the TUI, on a port and with a password paw picked
  per spawn (:mod:`paw.adapters.channels.opencode_wiring`, read by
  :mod:`paw.adapters.channels.opencode`). A long-running paw process (``streams``: the TUI,
  the sweeper, a wave runner) starts one event-stream reader per agent, reused by every sweep,
  while it holds one of the agent's ``MAX_STREAMS`` stream slots (a ``flock`` on
  ``.paw/channels/<agent>.stream-<k>.lock``, freed by the kernel when the process ends, even
  by kill -9); any other paw process, and a long-running one finding every slot taken, holds
  no stream and reads the server's pending list when it looks. opencode's server prints a
  warning over its TUI past ten event streams at once. Either way the server is trusted only
  while every process listening on the port is in the agent's process tree.
"""

from __future__ import annotations

import fcntl
import json
import os
import posixpath
import socket
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path

from paw.adapters.channels.claude import (
    ANSWERED_GRACE_S,
    ClaudeHookChannel,
    ClaudeWiring,
    channel_dir,
    wire_claude,
    wire_codex,
    wire_qwen,
)
from paw.adapters.channels.gemini import (
    GeminiNotifyChannel,
    read_gemini_wiring,
    unwired_reason,
    wire_gemini,
)
from paw.adapters.channels.listeners import listening_ports
from paw.adapters.channels.opencode import OpencodeChannel
from paw.adapters.channels.opencode_wiring import (
    OpencodeServer,
    forget_opencode_server,
    launch_argv,
    load_opencode_server,
    wire_opencode,
)
from paw.adapters.channels.wake import WakeListener
from paw.adapters.pstree import PsutilInspector
from paw.core.channels import claude, codex, qwen
from paw.core.config import SERVER_TIMEOUT_S
from paw.core.ports import ChannelPort, Wired

CLAUDE_KIND = "claude-code"
QWEN_KIND = "qwen-code"
CODEX_KIND = "codex"
GEMINI_KIND = "gemini-cli"
# The agent kinds with a PermissionRequest hook paw wires: their program and their records'
# source.
HOOK_KINDS: dict[str, tuple[str, str]] = {
    CLAUDE_KIND: ("claude", claude.SOURCE),
    QWEN_KIND: ("qwen", qwen.SOURCE),
    CODEX_KIND: ("codex", codex.SOURCE),
}
# The agent kinds with an opencode-style server, and the programs paw knows take its flags (a
# custom command, a wrapper whose flags paw does not know, is launched as it is).
SERVER_PROGRAMS: dict[str, frozenset[str]] = {
    "opencode": frozenset({"opencode"}),
    "kilocode": frozenset({"kilo", "kilocode"}),
}
PROBE_TIMEOUT_S = 0.5
# Without streams: one read of the machine's listening sockets serves every agent's look in a
# sweep (reading them costs tens of milliseconds), for this long.
LISTENERS_TTL_S = 0.5
# Event streams per agent across all of paw's processes on this machine (opencode's server
# warns over its TUI past ten): the sweeper, a TUI and a wave runner or two each get one; a
# further long-running process reads the list as one-shot commands do, and tries for a slot
# again every SLOT_RETRY_S.
MAX_STREAMS = 4
SLOT_RETRY_S = 5.0
# A hook channel's directories changed this recently (or in the future: a clock that went
# back) are not marked as settled: two changes within one tick of the file system's clock share
# an mtime, and an answered request leaves the list ANSWERED_GRACE_S after its hook ended with
# no change on disk.
UNSETTLED_S = ANSWERED_GRACE_S + 1.0
MARKED_PATHS = 4096  # spawns whose marked paths a hub remembers


@dataclass(slots=True)
class _Open:
    """A server channel this process started: the spawn and process it is bound to."""

    kind: str
    spawn: str
    agent_pid: int
    channel: OpencodeChannel
    slot: int | None = None  # the fd holding a stream slot's lock (None: no stream)
    tried: float = 0.0  # monotonic time a slot was last sought (none free then)

    def close(self) -> None:
        """Stop the channel, then free its stream slot."""
        self.channel.close()
        if self.slot is not None:
            os.close(self.slot)  # the lock goes with the last descriptor
            self.slot = None


class FileChannelHub:
    """Channels wired from paw's state dir: Claude Code's, Qwen Code's and Codex's hook,
    Gemini CLI's notification, opencode's and Kilo Code's server."""

    def __init__(
        self,
        state_root: str | Path,
        python: str,
        *,
        streams: bool = False,
        server_timeout: float = SERVER_TIMEOUT_S,
    ) -> None:
        """``streams``: this process is long-running (the TUI, the sweeper, a wave runner) and
        keeps one event stream per opencode or Kilo agent; otherwise (one-shot commands) it
        never opens one and reads each server's pending list when it looks.
        ``server_timeout``: the wall-clock budget of one request to a server, and of the first
        connection of its stream when something listens on its port (``[channels]
        server_timeout_s``): a loaded machine answers late, and a late answer is still the
        agent's word."""
        self.root = Path(state_root)
        self.python = python
        self.streams = streams
        self.server_timeout = server_timeout
        self._ports: dict[tuple[str, str], ClaudeHookChannel] = {}
        self._observers: dict[tuple[str, str], GeminiNotifyChannel] = {}
        self._servers: dict[str, _Open] = {}
        self._procs = PsutilInspector()
        self._listening: tuple[float, dict[int, frozenset[int]]] | None = None
        self._wake: WakeListener | None = None
        self._marked: dict[tuple[str, str], str] = {}
        self._on_change: Callable[[], None] | None = None

    def listen(self, on_change: Callable[[], None] | None) -> bool:
        """Call ``on_change`` when paw's hook program pokes this process's FIFO (a Claude or
        Qwen request landed or ended; see :mod:`paw.adapters.channels.wake`); None stops and
        removes the FIFO. opencode's and Kilo's servers tell their stream reader, not this."""
        self._on_change = on_change
        if on_change is None:
            wake, self._wake = self._wake, None
            if wake is not None:
                wake.close()
            return False
        if self._wake is None:
            wake = WakeListener(self.root, self._woken)
            if not wake.start():
                return False
            self._wake = wake
        return True

    def _woken(self) -> None:
        on_change = self._on_change
        if on_change is not None:
            on_change()

    def mark(self, agent: str, kind: str, spawn: str) -> Hashable | None:
        """A hook channel's mark: its spawn directory's identity and times (every record,
        answer and outcome is made there and moved into its folder, see
        :mod:`paw.adapters.channels.claude`), or a fresh object while it changed within
        :data:`UNSETTLED_S`; None for a server channel (read as before). A file written
        straight into a folder by anything else (a forgery) changes no mark: it is read at
        the next screen change or ``observe_ttl``, and refused there as always."""
        if (kind not in HOOK_KINDS and kind != GEMINI_KIND) or not spawn:
            return None
        path = self._marked.get((agent, spawn))
        if path is None:  # (a string made once: a sweep marks every agent's channel)
            path = str(channel_dir(self.root, agent, spawn))
            if len(self._marked) > MARKED_PATHS:
                self._marked.clear()
            self._marked[(agent, spawn)] = path
        try:
            info = os.stat(path)  # noqa: PTH116 - a str, not a Path: 200 agents a sweep
        except OSError:
            return ()
        now = time.time()
        if now - info.st_mtime < UNSETTLED_S or now - info.st_ctime < UNSETTLED_S:
            return object()
        return (info.st_ino, info.st_mtime_ns, info.st_ctime_ns)

    def wire(self, agent: str, kind: str, spawn: str, argv: Sequence[str]) -> Wired:
        """``claude`` gets ``--settings FILE`` right after its program name; ``codex`` gets the
        ``-c`` flags that add and trust paw's hook there; ``qwen`` gets
        ``QWEN_CODE_SYSTEM_DEFAULTS_PATH=FILE`` in its environment; ``opencode`` and ``kilo``
        get ``--port N --hostname 127.0.0.1 --no-mdns`` there and are started through a
        launcher that reads the server's password from a file (0600) into their environment,
        so it is in no process's argv; a custom command is launched as it is."""
        program = posixpath.basename(argv[0]) if argv else ""
        if kind == CLAUDE_KIND and program == "claude":
            wiring = wire_claude(self.root, agent, spawn, self.python)
            return Wired((argv[0], *wiring.argv, *argv[1:]))
        if kind == CODEX_KIND and program == "codex":
            wiring = wire_codex(self.root, agent, spawn, self.python)
            return Wired((argv[0], *wiring.argv, *argv[1:]))
        if kind == QWEN_KIND and program == "qwen":
            wiring = wire_qwen(self.root, agent, spawn, self.python)
            return Wired(tuple(argv), wiring.env)
        if kind == GEMINI_KIND and program == "gemini":
            return Wired(tuple(argv), wire_gemini(self.root, agent, spawn, self.python).env)
        if program in SERVER_PROGRAMS.get(kind, ()):
            flags, env, server = wire_opencode(agent, self.root, kind=kind)
            launch = launch_argv(server, self.root, [argv[0], *flags, *argv[1:]])
            return Wired(tuple(launch), env)
        return Wired(tuple(argv))

    def port(self, agent: str, kind: str, spawn: str, agent_pid: int | None) -> ChannelPort | None:
        """The spawn's channel when it was wired, else None."""
        if kind in HOOK_KINDS:
            return self._hook_port(agent, kind, spawn, agent_pid)
        if kind == GEMINI_KIND:
            return self._gemini_port(agent, spawn, agent_pid)
        if kind in SERVER_PROGRAMS:
            return self._server_port(agent, kind, spawn, agent_pid)
        return None

    def unwired(self, kind: str) -> str | None:
        """Why a channel of ``kind`` is not wired on this machine (None: it is, or ``kind``
        has none): Gemini's when a directory above paw's state dir is not private."""
        return unwired_reason(self.root) if kind == GEMINI_KIND else None

    def release(self, agent: str) -> None:
        """Stop the agent's server channel (if this process opened one) and forget its port
        and password."""
        opened = self._servers.pop(agent, None)
        if opened is not None:
            opened.close()
        forget_opencode_server(agent, self.root)
        for k in range(MAX_STREAMS):
            _slot_path(self.root, agent, k).unlink(missing_ok=True)
        for key in [k for k in self._ports if k[0] == agent]:
            del self._ports[key]
        for key in [k for k in self._observers if k[0] == agent]:
            del self._observers[key]

    def close(self) -> None:
        """Stop every server channel this process opened and the wake-up (the records
        stay)."""
        self.listen(None)
        for agent in list(self._servers):
            self._servers.pop(agent).close()

    def _hook_port(
        self, agent: str, kind: str, spawn: str, agent_pid: int | None
    ) -> ChannelPort | None:
        if not spawn:
            return None
        cached = self._ports.get((agent, spawn))
        if cached is not None and cached.agent_pid == agent_pid:
            return cached
        directory = channel_dir(self.root, agent, spawn)
        settings = directory / "settings.json"
        if not settings.exists():
            return None
        wiring = read_wiring(directory, agent, spawn, HOOK_KINDS[kind][1])
        if wiring is None:
            return None
        port = ClaudeHookChannel(wiring, agent_pid)
        self._ports[(agent, spawn)] = port
        return port

    def _gemini_port(self, agent: str, spawn: str, agent_pid: int | None) -> ChannelPort | None:
        if not spawn:
            return None
        cached = self._observers.get((agent, spawn))
        if cached is not None and cached.agent_pid == agent_pid:
            return cached
        wiring = read_gemini_wiring(self.root, agent, spawn)
        if wiring is None:
            return None
        try:
            port = GeminiNotifyChannel(wiring, agent_pid)
        except OSError:
            return None
        self._observers[(agent, spawn)] = port
        return port

    def _server_port(
        self, agent: str, kind: str, spawn: str, agent_pid: int | None
    ) -> ChannelPort | None:
        """One reader per agent, made at the first look and reused by later sweeps; a new
        spawn or a new agent process (a restart) gets a new one bound to it. With ``streams``
        it holds the agent's event stream; without, it reads the list when looked at."""
        if not spawn or agent_pid is None:
            return None
        slot: int | None = None
        opened = self._servers.get(agent)
        if opened is not None:
            if (opened.kind, opened.spawn, opened.agent_pid) == (kind, spawn, agent_pid):
                if not self._may_stream(opened):
                    return opened.channel
                slot = self._take_slot(agent)
                if slot is None:
                    opened.tried = time.monotonic()
                    return opened.channel
            del self._servers[agent]
            opened.close()
        server = load_opencode_server(agent, self.root)
        if server is None or server.kind != kind:
            if slot is not None:
                os.close(slot)
            return None

        def is_agent(pid: int) -> bool:
            return any(p.pid == pid for p in self._procs.tree(agent_pid))

        if slot is None and self.streams:
            slot = self._take_slot(agent)
        if slot is None:
            channel = OpencodeChannel(
                server,
                timeout=self.server_timeout,
                is_agent=is_agent,
                stream=False,
                listeners=self._listeners,
            )
            self._servers[agent] = _Open(kind, spawn, agent_pid, channel, None, time.monotonic())
            return channel
        channel = OpencodeChannel(server, timeout=self.server_timeout, is_agent=is_agent).start()
        self._servers[agent] = _Open(kind, spawn, agent_pid, channel, slot)
        if _listening(server):
            # (the first look must see what the agent holds open, not an empty list that the
            # screen alone would then answer by keys)
            channel.wait_connected(self.server_timeout)
        return channel

    def _may_stream(self, opened: _Open) -> bool:
        """A long-running process reading the list (every slot was taken) may try again for
        a stream (not while a request it answered is still listed as answered: the new reader
        would not know it)."""
        return (
            self.streams
            and opened.slot is None
            and time.monotonic() - opened.tried >= SLOT_RETRY_S
            and not opened.channel.answered_recently()
        )

    def _take_slot(self, agent: str) -> int | None:
        """The fd of a free stream slot of ``agent``, locked (None: all taken, or no lock)."""
        for k in range(MAX_STREAMS):
            path = _slot_path(self.root, agent, k)
            try:
                path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            except OSError:
                return None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue
            return fd
        return None

    def _listeners(self, port: int) -> frozenset[int]:
        """The processes listening on ``port``, from one read of the machine's listening
        sockets shared by every agent's look for ``LISTENERS_TTL_S``."""
        now = time.monotonic()
        cached = self._listening
        if cached is None or now - cached[0] >= LISTENERS_TTL_S:
            cached = (now, listening_ports())
            self._listening = cached
        return cached[1].get(port, frozenset())


def _slot_path(root: Path, agent: str, k: int) -> Path:
    return root / "channels" / f"{agent}.stream-{k}.lock"


def _listening(server: OpencodeServer) -> bool:
    """Whether something accepts connections on the server's port (when nothing does, the agent
    is not up or gone: the channel is not waited for, the screen path applies)."""
    try:
        with socket.create_connection((server.host, server.port), PROBE_TIMEOUT_S):
            return True
    except OSError:
        return False


def read_wiring(
    directory: Path, agent: str, spawn: str, source: str = claude.SOURCE
) -> ClaudeWiring | None:
    """The wiring a spawn's settings file records (the exact hook command), or None."""
    try:
        settings = json.loads((directory / "settings.json").read_text(encoding="utf-8"))
        hook = settings["hooks"]["PermissionRequest"][0]["hooks"][0]
        command = hook["command"]
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None
    if not isinstance(command, str):
        return None
    return ClaudeWiring(directory, agent, spawn, command, directory / "settings.json", source)
