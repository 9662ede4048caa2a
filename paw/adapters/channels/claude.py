"""Claude Code's, Qwen Code's and Codex's ``PermissionRequest`` hook channel: the wiring at spawn
and the port paw reads (one shape for all; the wiring's ``source`` says whose hook it is).

Layout of one spawn's channel directory (in paw's state dir, mode 0700, never the worktree):

- ``secret``: 32 random bytes (0600); records and answers are signed with it;
- ``settings.json``: what paw passes as ``claude --settings FILE``, or names to Qwen with
  ``QWEN_CODE_SYSTEM_DEFAULTS_PATH=FILE`` (only the hook); for Codex, the hook table paw passes
  in ``-c`` flags (Codex does not read the file: it records the exact command);
- ``req/<id>.json``: one record per request, written by the hook program (:mod:`paw.channel_hook`);
- ``ans/<id>.json``: paw's decision, created exclusively (a second answer fails: never twice);
- ``done/<id>.json``: the hook's outcome (answered, timed-out, ended).

Every record, answer and outcome is written to a temporary file in the spawn's directory and
moved (or linked) into its folder, so the spawn directory's mtime changes with each: one
``stat`` tells a sweep whether the channel may have changed (``FileChannelHub.mark``).

A record is listed only when it verifies (signature, agent, spawn, id = file name) *and* the
process it names is alive, holds that very file open, and was started by Claude's hook runner:
its parent is ``/bin/sh -c <the command paw wrote>`` whose parent is the agent's process (Qwen,
Codex: see :meth:`ClaudeHookChannel._writer_problem`). This is read from /proc, not from the record.
See SECURITY.md for what this can and cannot prove.
"""

from __future__ import annotations

import contextlib
import json
import os
import posixpath
import secrets
import shlex
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from paw.core.channels import claude, codex, qwen
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
    command: str  # the hook command in the settings, exactly as the agent runs it (sh/bash -c)
    settings: Path
    source: str = claude.SOURCE  # the hook's agent: claude.SOURCE, qwen.SOURCE, codex.SOURCE

    def is_runner(self, cmdline: tuple[str, ...]) -> bool:
        """Whether ``cmdline`` is the agent's hook runner (the parent of paw's hook program) for
        this command: Claude's ``/bin/sh -c CMD``, Qwen's ``bash -c CMD`` (bash from its PATH),
        Codex's ``<its user's shell> -c CMD`` (0.171.0 ran ``/bin/bash``, whatever ``$SHELL``
        said: any absolute path of a known shell; ``-lc`` as newer Codex sources do)."""
        if len(cmdline) != 3 or cmdline[2] != self.command:
            return False
        shell, flag = cmdline[0], cmdline[1]
        if self.source == qwen.SOURCE:
            return shell in _BASHES and flag == "-c"
        if self.source == codex.SOURCE:
            known = shell.startswith("/") and posixpath.basename(shell) in _SHELLS
            return known and flag in ("-c", "-lc")
        return (shell, flag) == ("/bin/sh", "-c")

    @property
    def execed(self) -> frozenset[tuple[str, ...]]:
        """The hook's own command line once its runner exec'd it in place (Qwen's, Codex's)."""
        if self.source in (qwen.SOURCE, codex.SOURCE):
            return frozenset({tuple(shlex.split(self.command))})
        return frozenset()

    @property
    def env(self) -> dict[str, str]:
        """What the launch's environment gets (Qwen reads its per-launch settings from it)."""
        if self.source == qwen.SOURCE:
            return {QWEN_DEFAULTS_VAR: str(self.settings)}
        return {}

    @property
    def argv(self) -> tuple[str, ...]:
        """The flags that wire this launch (``claude --settings``, ``codex -c``; Qwen: none)."""
        if self.source == qwen.SOURCE:
            return ()
        if self.source == codex.SOURCE:
            return codex.launch_flags(self.command)
        return ("--settings", str(self.settings))


# Qwen Code reads a settings file named by this variable as its lowest-precedence layer.
QWEN_DEFAULTS_VAR = "QWEN_CODE_SYSTEM_DEFAULTS_PATH"
_BASHES = ("bash", "/bin/bash", "/usr/bin/bash")
# The shells Codex may run its hooks with (its user's login shell).
_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "fish"})
# How many copies of itself an agent's program may start before its hooks' parent (Qwen 0.24.4:
# two).
_RELAUNCHES = 4
# A record's source -> whose hook runner it names in a refusal.
_WHO = {claude.SOURCE: "Claude", qwen.SOURCE: "Qwen", codex.SOURCE: "Codex"}
# A record's source -> how its agent names its tools.
_CLASSIFY: dict[str, claude.Classify] = {
    claude.SOURCE: claude.classify_tool,
    qwen.SOURCE: qwen.classify_tool,
    codex.SOURCE: codex.classify_tool,
}


def channel_dir(state_root: Path, agent: str, spawn: str) -> Path:
    """The spawn's channel directory under paw's state dir."""
    return state_root / "channels" / agent / spawn


def wire_claude(
    state_root: Path, agent: str, spawn: str, python: str, *, wait_s: float = claude.WAIT_S
) -> ClaudeWiring:
    """Create the spawn's channel directory, secret and settings file (nothing else is touched:
    not the user's settings, not the worktree)."""
    return _wire(state_root, (agent, spawn), python, wait_s, claude.SOURCE)


def wire_qwen(
    state_root: Path, agent: str, spawn: str, python: str, *, wait_s: float = qwen.WAIT_S
) -> ClaudeWiring:
    """As :func:`wire_claude`, for Qwen Code: the settings file is named to Qwen by
    ``QWEN_CODE_SYSTEM_DEFAULTS_PATH`` in the launch's environment (its lowest-precedence
    layer: the user's and the project's settings are read as always, and untouched)."""
    return _wire(state_root, (agent, spawn), python, wait_s, qwen.SOURCE)


def wire_codex(
    state_root: Path, agent: str, spawn: str, python: str, *, wait_s: float = codex.WAIT_S
) -> ClaudeWiring:
    """As :func:`wire_claude`, for Codex: the hook is passed, and trusted for that launch only,
    by ``-c`` flags (:attr:`ClaudeWiring.argv`); the user's ``~/.codex`` is read as always, and
    untouched. The settings file records the hook table those flags carry (Codex never reads
    it); the secret is only in paw's state dir, never in an argv."""
    return _wire(state_root, (agent, spawn), python, wait_s, codex.SOURCE)


# A hook's source -> the hook program's flavor argument and its settings' shape.
_FLAVORS = {
    claude.SOURCE: ((), claude.render_settings),
    qwen.SOURCE: (("qwen",), qwen.render_settings),
    codex.SOURCE: (("codex",), codex.render_settings),
}


def _wire(
    state_root: Path, names: tuple[str, str], python: str, wait_s: float, source: str
) -> ClaudeWiring:
    agent, spawn = names
    directory = _prepare(state_root, agent, spawn)
    flavor, render = _FLAVORS[source]
    # -I: isolated, so the worktree the hook runs in (the agent's cwd) cannot shadow paw.
    argv = [python, "-I", "-m", "paw.channel_hook", str(directory), agent, spawn, f"{wait_s:g}"]
    command = shlex.join([*argv, *flavor])
    settings = directory / "settings.json"
    _replace_file(settings, json.dumps(render(command)).encode("utf-8"), mode=0o600)
    return ClaudeWiring(directory, agent, spawn, command, settings, source)


def _prepare(state_root: Path, agent: str, spawn: str) -> Path:
    """The spawn's channel directory (0700) with its request, answer and outcome folders and
    its secret (created once)."""
    directory = channel_dir(state_root, agent, spawn)
    for sub in ("req", "ans", "done"):
        (directory / sub).mkdir(parents=True, exist_ok=True, mode=0o700)
    directory.chmod(0o700)
    secret = directory / "secret"
    if not secret.exists():
        _create_exclusive(secret, secrets.token_bytes(32), mode=0o600)
    return directory


class ClaudeHookChannel:
    """The :class:`~paw.core.ports.ChannelPort` of one Claude Code (or Qwen Code, or Codex)
    spawn."""

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
        read = read_requests(self._req, lambda rid, path: self._read(rid, path, now))
        if read is None:
            return []
        found, self.refused = read
        found.sort(key=lambda r: (r.seen_at, r.request_id))
        return found

    def _read(self, rid: str, path: Path, now: float) -> ChannelRequest | str:
        done = _read_json(self.wiring.directory / "done" / f"{rid}.json")
        answered = (self.wiring.directory / "ans" / f"{rid}.json").exists()
        if done is not None:
            at = done.get("at") if isinstance(done, dict) else None
            recent = isinstance(at, (int, float)) and now - at < ANSWERED_GRACE_S
            # (an answer written after the hook gave up never reached the agent: its dialog,
            # drawn now, is the screen's to list)
            given = isinstance(done, dict) and str(done.get("outcome", "")).startswith("answered")
            if not (answered and recent and given):
                return ""  # over: not listed, not refused
        doc = _read_json(path)
        seen = self._seen.setdefault(rid, now)
        source = self.wiring.source
        request = claude.parse_record(
            doc, secret=self._secret, agent=self.wiring.agent, spawn=self.wiring.spawn,
            request_id=rid, seen_at=seen, source=source, classify=_CLASSIFY[source],
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
        """Why the process the record names is not the agent's hook holding it ('' if it is).

        Claude's hook runs as ``/bin/sh -c CMD``, a child of Claude's process. Qwen's as
        ``bash -c CMD``, which bash replaces by paw's hook program itself (its command line is
        then CMD's words), a child of Qwen's node process (a copy of itself that the launched
        ``qwen`` started: see :meth:`_is_agent`). Codex's as ``<its user's shell> -c CMD``,
        replaced in place the same way, a child of Codex's native program (started by the
        launched ``codex``, npm's node launcher)."""
        if pid is None:
            return "it names no writer"
        if not _holds(self._proc / str(pid), path):
            return f"process {pid} does not hold it open (a copy, a replay or a forgery)"
        parent = _ppid(self._proc / str(pid))
        if parent is None:
            return f"process {pid} is gone"
        if self.wiring.is_runner(_cmdline(self._proc / str(parent))):
            runner = parent
        elif _cmdline(self._proc / str(pid)) in self.wiring.execed:
            runner = pid  # the runner replaced itself by the hook: the agent is its parent
        else:
            who = _WHO.get(self.wiring.source, "Claude")
            return f"process {pid} was not started by {who}'s hook runner"
        if self.agent_pid is not None and not self._is_agent(_ppid(self._proc / str(runner))):
            return f"process {pid}'s hook runner is not the agent's (pid {self.agent_pid})"
        return ""

    def _is_agent(self, pid: int | None) -> bool:
        """Whether ``pid`` is the agent paw launched or (Qwen) a copy of itself it started: the
        pinned ``qwen`` relaunches its node program twice, each a child of the last, running the
        same executable; its hooks are children of the last one."""
        if pid is None or self.agent_pid is None:
            return False
        if pid == self.agent_pid:
            return True
        if self.wiring.source == codex.SOURCE:  # the native codex npm's launcher started
            exe = _exe(self._proc / str(pid))
            named = exe is not None and posixpath.basename(exe) == "codex"
            return named and _ppid(self._proc / str(pid)) == self.agent_pid
        if self.wiring.source != qwen.SOURCE:
            return False
        launched = _exe(self._proc / str(self.agent_pid))
        current = pid
        for _ in range(_RELAUNCHES):
            if launched is None or _exe(self._proc / str(current)) != launched:
                return False
            parent = _ppid(self._proc / str(current))
            if parent is None:
                return False
            if parent == self.agent_pid:
                return True
            current = parent
        return False

    def answer(self, request_id: str, answer: ChannelAnswer) -> None:
        """Deliver ``answer`` to the hook holding ``request_id``, exactly once."""
        if answer is ChannelAnswer.ALWAYS:
            raise PawError("a hook channel answers once or denies; 'always' is not offered")
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
            _create_exclusive(
                target, json.dumps(doc).encode("utf-8"), mode=0o600,
                staging=self.wiring.directory,
            )  # fmt: skip
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


def read_requests(
    req: str, read: Callable[[str, Path], ChannelRequest | str]
) -> tuple[list[ChannelRequest], dict[str, str]] | None:
    """Each hook request record in the folder ``req`` (``<id>.json``), read by ``read``: the
    requests it lists and, by request id, why it refused the others (``read`` returns "" for a
    record that is over: neither). None when the folder cannot be read."""
    found: list[ChannelRequest] = []
    refused: dict[str, str] = {}
    try:
        entries = list(os.scandir(req))
    except OSError:
        return None
    for entry in entries:
        name = entry.name
        if not name.endswith(".json") or name.startswith("."):
            continue
        rid = name[: -len(".json")]
        result = read(rid, Path(entry.path))
        if isinstance(result, str):
            if result:
                refused[rid] = result
            continue
        found.append(result)
    return found, refused


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


def _exe(proc: Path) -> str | None:
    try:
        return str((proc / "exe").readlink())
    except OSError:
        return None


def _cmdline(proc: Path) -> tuple[str, ...]:
    try:
        raw = (proc / "cmdline").read_bytes()
    except OSError:
        return ()
    return tuple(part.decode("utf-8", "replace") for part in raw.split(b"\0")[:-1])


def _create_exclusive(path: Path, data: bytes, *, mode: int, staging: Path | None = None) -> None:
    """Write ``path`` whole and fsync'd, failing with FileExistsError if it exists (os.link is
    atomic and exclusive: two processes answering at once, one wins). ``staging``: where the
    temporary file is made (default: beside ``path``); an answer's is the spawn's channel
    directory, whose mtime then marks the change (FileChannelHub.mark)."""
    tmp = _staged(path.parent if staging is None else staging, path.name, data, mode)
    try:
        os.link(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _replace_file(path: Path, data: bytes, *, mode: int) -> None:
    tmp = _staged(path.parent, path.name, data, mode)
    try:
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _staged(where: Path, name: str, data: bytes, mode: int) -> Path:
    """A temporary file in ``where`` holding ``data``, fsync'd and of ``mode``, to be put in
    place as ``name`` (removed again if writing it fails)."""
    fd, tmp = tempfile.mkstemp(dir=where, prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        Path(tmp).chmod(mode)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)
