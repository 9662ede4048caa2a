"""Gemini CLI's ``Notification`` hook as an observe-only channel: the wiring at spawn and the
port paw reads (:mod:`paw.core.channels.gemini`).

The spawn's channel directory is laid out as Claude's and Qwen's
(:mod:`paw.adapters.channels.claude`): ``secret``, ``settings.json`` (named to Gemini by
``GEMINI_CLI_SYSTEM_DEFAULTS_PATH`` in the launch's environment), ``req/<id>.json``. Gemini
runs the hook before it draws its dialog and waits for it, so paw's hook writes its record and
exits at once: only the latest record is kept. No process holds it while the dialog is up, so
paw lists nothing from it alone; it names the screen's prompt when the screen agrees
(:func:`paw.core.channels.fuse.fuse`) and never answers anything.

Gemini skips a settings file when any directory above it may be written by group or others
(a security warning painted over its TUI): paw then wires nothing (the agent runs on the
screen path) and says why.
"""

from __future__ import annotations

import json
import shlex
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from paw.adapters.channels.claude import (
    _prepare,
    _read_json,
    _replace_file,
    channel_dir,
    read_requests,
)
from paw.core.channels import claude, gemini
from paw.core.channels.request import ChannelAnswer, ChannelRequest, ChannelState
from paw.errors import PawError


@dataclass(frozen=True, slots=True)
class GeminiWiring:
    """What one spawn's notification hook was wired with."""

    directory: Path
    agent: str
    spawn: str
    command: str
    settings: Path

    @property
    def env(self) -> dict[str, str]:
        """What the launch's environment gets: the per-launch settings file's name."""
        return {gemini.DEFAULTS_VAR: str(self.settings)}


Check = Callable[[Path], "Path | None"]


def insecure_ancestor(path: Path) -> Path | None:
    """The first directory above ``path`` that group or others may write to (Gemini then skips
    a settings file there), or None when every one is private to its owner."""
    for parent in path.resolve().parents:
        try:
            mode = parent.stat().st_mode
        except OSError:
            continue  # (not made yet: paw makes it 0700)
        if mode & (stat.S_IWGRP | stat.S_IWOTH):
            return parent
    return None


def unwired_reason(
    state_root: Path, settings: Path | None = None, check: Check = insecure_ancestor
) -> str | None:
    """Why paw cannot wire Gemini's hook under ``state_root`` (None: it can); ``settings``:
    the settings file itself, once its folders exist."""
    bad = check(settings if settings is not None else state_root / "channels")
    if bad is None:
        return None
    return (
        f"gemini-cli's channel is off: Gemini skips a settings file below {bad}, which group or "
        "others may write to; it runs on the screen path alone"
    )


def wire_gemini(
    state_root: Path, agent: str, spawn: str, python: str, *, check: Check = insecure_ancestor
) -> GeminiWiring:
    """Create the spawn's channel directory, secret and settings file (nothing else: not the
    user's settings, not the worktree). PawError when a directory above it is not private
    (``check`` finds one; tests under a shared temporary directory pass their own)."""
    why = unwired_reason(state_root, check=check)
    if why is not None:
        raise PawError(why, hint="keep paw's state dir below directories only you may write to")
    directory = _prepare(state_root, agent, spawn)
    settings = directory / "settings.json"
    why = unwired_reason(state_root, settings, check)  # (again: with the folders just made)
    if why is not None:
        raise PawError(why, hint="keep paw's state dir below directories only you may write to")
    argv = [
        python, "-I", "-m", "paw.channel_hook", str(directory), agent, spawn, "0", "gemini",
    ]  # fmt: skip
    command = shlex.join(argv)
    text = json.dumps(gemini.render_settings(command)).encode("utf-8")
    _replace_file(settings, text, mode=0o600)
    return GeminiWiring(directory, agent, spawn, command, settings)


def read_gemini_wiring(state_root: Path, agent: str, spawn: str) -> GeminiWiring | None:
    """The wiring a spawn's settings file records, or None (not wired)."""
    directory = channel_dir(state_root, agent, spawn)
    settings = directory / "settings.json"
    command = gemini.hook_command(_read_json(settings))
    if command is None:
        return None
    return GeminiWiring(directory, agent, spawn, command, settings)


class GeminiNotifyChannel:
    """The :class:`~paw.core.ports.ChannelPort` of one Gemini CLI spawn: observe only."""

    def __init__(self, wiring: GeminiWiring, agent_pid: int | None) -> None:
        self.wiring = wiring
        self.agent_pid = agent_pid
        self._secret = (wiring.directory / "secret").read_bytes()
        self._req = str(wiring.directory / "req")
        self.refused: dict[str, str] = {}  # request id -> why it was not listed (last read)

    def pending(self) -> list[ChannelRequest]:
        """The latest verified record, as an observe-only claim (never answerable); older
        ones are over (the hook removes them). Empty without one."""
        read = read_requests(self._req, self._read)
        if read is None:
            return []
        found, self.refused = read
        if not found:
            return []
        latest = max(found, key=lambda r: (r.seen_at, r.request_id))
        return [_observed(latest)]

    def _read(self, rid: str, path: Path) -> ChannelRequest | str:
        doc = _read_json(path)
        written = doc.get("written_at") if isinstance(doc, dict) else None
        at = float(written) if isinstance(written, (int, float)) else 0.0
        return claude.parse_record(
            doc, secret=self._secret, agent=self.wiring.agent, spawn=self.wiring.spawn,
            request_id=rid, seen_at=at, source=gemini.SOURCE, classify=gemini.classify_tool,
        )  # fmt: skip

    def answer(self, request_id: str, answer: ChannelAnswer) -> None:
        """Never: Gemini's notification takes no answer."""
        raise PawError(
            f"channel request {request_id} cannot be answered: Gemini's notification hook only "
            "observes; its dialog is answered by keys"
        )

    def state(self, request_id: str) -> ChannelState:
        """PENDING while its record is the latest kept (a claim), else RESOLVED."""
        path = self.wiring.directory / "req" / f"{request_id}.json"
        return ChannelState.PENDING if path.exists() else ChannelState.RESOLVED


def _observed(request: ChannelRequest) -> ChannelRequest:
    return ChannelRequest(
        agent=request.agent, source=request.source, request_id=request.request_id,
        tool=request.tool, kind=request.kind, subject=request.subject, raw=request.raw,
        state=ChannelState.PENDING, can_answer=False, seen_at=request.seen_at, observe_only=True,
    )  # fmt: skip
