"""Claude Code's ``PermissionRequest`` hook channel: the wiring at spawn and the port paw reads.

Layout of one spawn's channel directory (in paw's state dir, mode 0700, never the worktree):

- ``secret``: 32 random bytes (0600); records and answers are signed with it;
- ``settings.json``: what paw passes as ``claude --settings FILE`` (only the hook);
- ``req/<id>.json``: one record per request, written by the hook program (:mod:`paw.channel_hook`);
- ``ans/<id>.json``: paw's decision, created exclusively (a second answer fails: never twice);
- ``done/<id>.json``: the hook's outcome (answered, timed-out, ended).

A record is listed only when it verifies (signature, agent, spawn, id = file name) *and* the
process it names is alive, holds that very file open, and was started by Claude's hook runner:
its parent is ``/bin/sh -c <the command paw wrote>`` whose parent is the agent's process. This
is read from /proc, not from the record. See SECURITY.md for what this can and cannot prove.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shlex
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from paw.core.channels import claude
from paw.core.channels.request import ChannelAnswer, ChannelRequest, ChannelState
from paw.errors import PawError

# How long an answered request stays listed (state RESOLVED) after its hook ended: the agent may
# still be repainting its dialog, and keys must never answer it a second time.
ANSWERED_GRACE_S = 3.0


@dataclass(frozen=True, slots=True)
class ClaudeWiring:
    """What one spawn's channel was wired with."""

    directory: Path
    agent: str
    spawn: str
    command: str  # the hook command in the settings, exactly as Claude runs it via /bin/sh -c
    settings: Path

    @property
    def argv(self) -> tuple[str, ...]:
        """The flags that pass the settings to this launch of ``claude``."""
        return ("--settings", str(self.settings))


def channel_dir(state_root: Path, agent: str, spawn: str) -> Path:
    """The spawn's channel directory under paw's state dir."""
    return state_root / "channels" / agent / spawn


def wire_claude(
    state_root: Path, agent: str, spawn: str, python: str, *, wait_s: float = claude.WAIT_S
) -> ClaudeWiring:
    """Create the spawn's channel directory, secret and settings file (nothing else is touched:
    not the user's settings, not the worktree)."""
    directory = channel_dir(state_root, agent, spawn)
    for sub in ("req", "ans", "done"):
        (directory / sub).mkdir(parents=True, exist_ok=True, mode=0o700)
    directory.chmod(0o700)
    secret = directory / "secret"
    if not secret.exists():
        _create_exclusive(secret, secrets.token_bytes(32), mode=0o600)
    # -I: isolated, so the worktree the hook runs in (Claude's cwd) cannot shadow paw's modules.
    argv = [python, "-I", "-m", "paw.channel_hook", str(directory), agent, spawn, f"{wait_s:g}"]
    command = shlex.join(argv)
    settings = directory / "settings.json"
    text = json.dumps(claude.render_settings(command)).encode("utf-8")
    _replace_file(settings, text, mode=0o600)
    return ClaudeWiring(directory, agent, spawn, command, settings)


class ClaudeHookChannel:
    """The :class:`~paw.core.ports.ChannelPort` of one Claude Code spawn."""

    def __init__(
        self,
        wiring: ClaudeWiring,
        agent_pid: int | None,
        *,
        clock: Callable[[], float] = time.time,
        proc_root: Path = Path("/proc"),
    ) -> None:
        self.wiring = wiring
        self.agent_pid = agent_pid
        self._clock = clock
        self._proc = proc_root
        self._secret = (wiring.directory / "secret").read_bytes()
        self._req = str(wiring.directory / "req")  # (a str: the idle sweep's one scandir)
        self._seen: dict[str, float] = {}
        self.refused: dict[str, str] = {}  # request id -> why it was not listed (last read)

    def pending(self) -> list[ChannelRequest]:
        """Requests whose live hook holds them open, oldest first; answered ones stay listed
        (RESOLVED) for a grace period so keys never answer the dialog a second time."""
        now = self._clock()
        found: list[ChannelRequest] = []
        refused: dict[str, str] = {}
        try:
            entries = list(os.scandir(self._req))
        except OSError:
            return []
        for entry in entries:
            name = entry.name
            if not name.endswith(".json") or name.startswith("."):
                continue
            rid = name[: -len(".json")]
            result = self._read(rid, Path(entry.path), now)
            if isinstance(result, str):
                if result:
                    refused[rid] = result
                continue
            found.append(result)
        self.refused = refused
        found.sort(key=lambda r: (r.seen_at, r.request_id))
        return found

    def _read(self, rid: str, path: Path, now: float) -> ChannelRequest | str:
        done = _read_json(self.wiring.directory / "done" / f"{rid}.json")
        answered = (self.wiring.directory / "ans" / f"{rid}.json").exists()
        if done is not None:
            at = done.get("at") if isinstance(done, dict) else None
            recent = isinstance(at, (int, float)) and now - at < ANSWERED_GRACE_S
            if not (answered and recent):
                return ""  # over: not listed, not refused
        doc = _read_json(path)
        seen = self._seen.setdefault(rid, now)
        request = claude.parse_record(
            doc, secret=self._secret, agent=self.wiring.agent, spawn=self.wiring.spawn,
            request_id=rid, seen_at=seen,
        )  # fmt: skip
        if isinstance(request, str):
            return request
        if done is None:
            why = self._writer_problem(claude.hook_pid_of(doc), path)
            if why:
                return why
        state = ChannelState.RESOLVED if answered else ChannelState.PENDING
        return replace(request, state=state)

    def _writer_problem(self, pid: int | None, path: Path) -> str:
        """Why the process the record names is not Claude's hook holding it ('' if it is)."""
        if pid is None:
            return "it names no writer"
        if not _holds(self._proc / str(pid), path):
            return f"process {pid} does not hold it open (a copy, a replay or a forgery)"
        parent = _ppid(self._proc / str(pid))
        if parent is None:
            return f"process {pid} is gone"
        if _cmdline(self._proc / str(parent)) != ("/bin/sh", "-c", self.wiring.command):
            return f"process {pid} was not started by Claude's hook runner"
        if self.agent_pid is not None and _ppid(self._proc / str(parent)) != self.agent_pid:
            return f"process {pid}'s hook runner is not the agent's (pid {self.agent_pid})"
        return ""

    def answer(self, request_id: str, answer: ChannelAnswer) -> None:
        """Deliver ``answer`` to the hook holding ``request_id``, exactly once."""
        if answer is ChannelAnswer.ALWAYS:
            raise PawError("Claude's hook channel answers once or denies; 'always' is not offered")
        listed = {r.request_id: r for r in self.pending()}
        request = listed.get(request_id)
        if request is None or request.state is not ChannelState.PENDING:
            why = self.refused.get(request_id, "it is not pending")
            raise PawError(f"channel request {request_id} cannot be answered: {why}")
        doc = claude.make_answer(
            self._secret, agent=self.wiring.agent, spawn=self.wiring.spawn,
            request_id=request_id, answer=str(answer),
        )  # fmt: skip
        target = self.wiring.directory / "ans" / f"{request_id}.json"
        try:
            _create_exclusive(target, json.dumps(doc).encode("utf-8"), mode=0o600)
        except FileExistsError as err:
            raise PawError(f"channel request {request_id} was answered already") from err

    def state(self, request_id: str) -> ChannelState:
        """RESOLVED once the hook gave Claude paw's answer (or saw the agent take an answer
        given at the pane); TIMED_OUT when it gave up (or was ended) without one; PENDING while
        it waits."""
        done = _read_json(self.wiring.directory / "done" / f"{request_id}.json")
        if isinstance(done, dict):
            outcome = str(done.get("outcome", ""))
            resolved = outcome.startswith("answered") or outcome == "resolved-elsewhere"
            return ChannelState.RESOLVED if resolved else ChannelState.TIMED_OUT
        if (self.wiring.directory / "req" / f"{request_id}.json").exists():
            return ChannelState.PENDING
        return ChannelState.RESOLVED

    def taken(self, request_id: str) -> str | None:
        """The hook's outcome for ``request_id`` once it ended (``answered:allow``, ...)."""
        done = _read_json(self.wiring.directory / "done" / f"{request_id}.json")
        return str(done.get("outcome")) if isinstance(done, dict) else None


def _read_json(path: Path) -> object | None:
    try:
        value: object = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return value


def _holds(proc: Path, path: Path) -> bool:
    target = str(path)
    try:
        fds = list(os.scandir(proc / "fd"))
    except OSError:
        return False
    for fd in fds:
        with contextlib.suppress(OSError):
            if str(Path(fd.path).readlink()) == target:
                return True
    return False


def _ppid(proc: Path) -> int | None:
    try:
        stat = (proc / "stat").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[-1].split()
    try:
        return int(fields[1])
    except (IndexError, ValueError):
        return None


def _cmdline(proc: Path) -> tuple[str, ...]:
    try:
        raw = (proc / "cmdline").read_bytes()
    except OSError:
        return ()
    return tuple(part.decode("utf-8", "replace") for part in raw.split(b"\0")[:-1])


def _create_exclusive(path: Path, data: bytes, *, mode: int) -> None:
    """Write ``path`` whole and fsync'd, failing with FileExistsError if it exists (os.link is
    atomic and exclusive: two processes answering at once, one wins)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        Path(tmp).chmod(mode)
        os.link(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _replace_file(path: Path, data: bytes, *, mode: int) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        Path(tmp).chmod(mode)
        Path(tmp).replace(path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
