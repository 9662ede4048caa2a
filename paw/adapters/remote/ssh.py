"""The OpenSSH client as paw's transport to another machine.

paw runs nothing of its own on a host: its commands (tmux, git, ps) go over one multiplexed
connection (``ControlMaster``/``ControlPath``/``ControlPersist``), through one ``/bin/sh`` kept
open per host (:class:`ShellChannel`: a command costs a round trip, not an ssh process and a
login shell), or as one ``ssh`` call each when that shell cannot be used. The master is started
explicitly (``ssh -N -f``) with its output sent to a file: a master started as a side effect of
a captured call would keep that call's pipes open and hang it. Calls themselves never start a
master (``ControlMaster=no``), and ``BatchMode=yes`` means no password or passphrase is ever
asked for: keys come from the user's agent or ssh configuration.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import selectors
import shlex
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from paw.adapters import proc

#: ssh's exit status for its own failures (connection refused, host key, authentication).
SSH_FAILED = 255
CONNECT_TIMEOUT_S = 10
PERSIST_S = 600  # an idle master stays this long after the last paw process used it
_HOST_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$")


class SshError(Exception):
    """The host cannot be reached (or ssh refused to run)."""


class SshUnconfirmed(Exception):  # noqa: N818 - an outcome, not a bug
    """A command was handed to ssh and no answer came back (the connection dropped, ssh
    failed mid-command, time ran out): the host may have run it."""


class ChannelRefused(OSError):  # noqa: N818 - read as "the channel refused it"
    """The shell channel took none of a command: its ssh had ended before the write."""


@dataclass(frozen=True, slots=True)
class SshTarget:
    """Where a host is: ``ssh://[user@]host[:port]``."""

    host: str
    user: str | None = None
    port: int | None = None

    @property
    def destination(self) -> str:
        """``user@host`` (or ``host``), as ssh takes it."""
        return f"{self.user}@{self.host}" if self.user else self.host

    def url(self) -> str:
        """The target as an ``ssh://`` URL."""
        port = f":{self.port}" if self.port else ""
        return f"ssh://{self.destination}{port}"


def parse_target(url: str) -> SshTarget:
    """``ssh://[user@]host[:port]`` as a target; ValueError with a one-line reason."""
    if not url.startswith("ssh://"):
        raise ValueError(f"not an ssh:// URL: {url!r} (write ssh://user@host[:port])")
    parts = urlsplit(url)
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.password:
        raise ValueError(f"{url!r}: only ssh://user@host[:port] is understood (no path)")
    try:
        port = parts.port
    except ValueError as err:
        raise ValueError(f"{url!r}: bad port") from err
    host = parts.hostname or ""
    if not host or host.startswith("-") or not re.fullmatch(r"[A-Za-z0-9.:_\[\]-]+", host):
        raise ValueError(f"{url!r}: no host name")
    user = parts.username
    if user is not None and (not user or user.startswith("-") or not user.isprintable()):
        raise ValueError(f"{url!r}: bad user name")
    return SshTarget(host=host, user=user, port=port)


def host_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a host (None when it can)."""
    if name == "local":
        return "'local' names this machine; pick another host name"
    if not _HOST_NAME.fullmatch(name):
        return f"bad host name {name!r}: letters, digits, '.', '-' and '_' only"
    return None


def control_dir() -> Path:
    """Where masters' sockets live: a private directory under the temporary directory, short
    enough for a unix socket path whatever the user's HOME."""
    base = os.environ.get("PAW_SSH_CONTROL_DIR") or str(
        Path(tempfile.gettempdir()) / f"paw-ssh-{os.geteuid()}"
    )
    path = Path(base)
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def control_name(transport: SshTransport) -> str:
    """The file name of ``transport``'s master socket: a hash of everything that decides how
    it logs in (entry name, user, host, port, identity, config file, options). ssh's own
    ``%C`` covers user, host and port only, so an entry without working credentials would
    ride on another entry's master to the same host and seem to work. 24 hex digits keep
    the socket path far below the ~100 bytes a unix socket path may have, whatever HOME."""
    import hashlib
    import json

    what = [
        transport.entry, transport.target.url(), transport.identity,
        transport.config_file, list(transport.options),
    ]  # fmt: skip
    return hashlib.sha256(json.dumps(what).encode()).hexdigest()[:24]


@dataclass(slots=True)
class SshTransport:
    """Runs argv on one host through a multiplexed OpenSSH connection."""

    target: SshTarget
    identity: str | None = None  # -i FILE
    config_file: str | None = None  # -F FILE
    options: tuple[str, ...] = ()  # extra -o KEY=VALUE
    connect_timeout: int = CONNECT_TIMEOUT_S
    entry: str = ""  # the host entry's name in paw: its own master, never another entry's
    _control: str = field(default="", init=False)
    _channel: ShellChannel | None = field(default=None, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)
    # one connect at a time: the event client's thread and the sweeps both make sure of the
    # master, and two masters started at once would race for the socket; a connect that
    # waited on another's failed attempt fails with it (an unreachable host costs one timeout)
    _connecting: threading.Lock = field(default_factory=threading.Lock, init=False)
    _failed: tuple[float, str] | None = field(default=None, init=False)  # last connect failure

    def __post_init__(self) -> None:
        self._control = str(control_dir() / control_name(self))

    def run(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None = None,
        input: str | None = None,  # noqa: A002 - mirrors subprocess.run's keyword
        timeout: float,
    ) -> proc.Completed:
        """Run ``argv`` on the host: through the shell channel when one can run it (it is
        started on first use), else one ssh process. Exit 255 is ssh's own failure (the host
        cannot be reached); OSError when ssh cannot start, TimeoutExpired past ``timeout``."""
        command = shlex.join(argv)
        if cwd is not None:
            command = f"cd {shlex.quote(cwd)} && {command}"
        if input is None and self._lock.acquire(timeout=timeout):
            try:
                channel = self._channel_up()
                if channel is not None:
                    try:
                        code, out, err = channel.run(command, timeout)
                    except OSError as exc:
                        self._channel = None
                        return proc.Completed(tuple(argv), SSH_FAILED, "", f"ssh: {exc}")
                    return proc.Completed(tuple(argv), code, out, err)
            finally:
                self._lock.release()
        return proc.run([*self.base_argv(), command], input=input, timeout=timeout, check=False)

    def deliver(self, argv: Sequence[str], *, timeout: float) -> proc.Completed:
        """Run ``argv`` on the host when its effect must never be guessed (keys to an agent).

        SshError when provably none of it left this machine: ssh could not start, no shell
        channel runs and no master answers (keys never go over a connection opened for them),
        or the shell channel's ssh had ended before the command was written (a write of at
        most PIPE_BUF bytes to a pipe is all or nothing). SshUnconfirmed once it was handed to
        ssh and no answer came back: the connection dropped, ssh failed on its own (exit 255
        of a one-off ssh), or ``timeout`` ran out. The host may then have run it. The
        completed command otherwise, whatever its exit status (the host's answer)."""
        command = shlex.join(argv)
        if self._lock.acquire(timeout=timeout):
            try:
                running = self._channel is not None and self._channel.alive()
                if not running and not self.connected():
                    raise SshError(f"ssh {self.target.url()}: the connection is gone")
                channel = self._channel_up()
                if channel is not None:
                    try:
                        code, out, err = channel.run(command, timeout)
                    except ChannelRefused as exc:
                        self._channel = None
                        raise SshError(f"ssh {self.target.url()}: {exc}") from exc
                    except OSError as exc:
                        self._channel = None
                        raise SshUnconfirmed(f"{exc}") from exc
                    return proc.Completed(tuple(argv), code, out, err)
            finally:
                self._lock.release()
        try:
            done = proc.run([*self.base_argv(), command], timeout=timeout, check=False)
        except subprocess.TimeoutExpired as exc:
            raise SshUnconfirmed(f"no answer within {timeout:g}s") from exc
        except FileNotFoundError as exc:
            raise SshError(proc.not_installed("ssh")) from exc
        except OSError as exc:
            raise SshError(f"ssh {self.target.url()}: {exc}") from exc
        if done.returncode == SSH_FAILED:
            raise SshUnconfirmed(f"ssh failed: {proc.last_line(done.stderr)}")
        return done

    def _channel_up(self) -> ShellChannel | None:
        if self._channel is not None and self._channel.alive():
            return self._channel
        self._channel = None
        try:
            self._channel = ShellChannel([*self.base_argv(), "exec /bin/sh"])
        except OSError:
            return None
        return self._channel

    def close_channel(self) -> None:
        """End the shell channel (the next command starts another)."""
        with self._lock:
            if self._channel is not None:
                self._channel.close()
                self._channel = None

    def base_argv(self, *, master: bool = False, destination: bool = True) -> list[str]:
        """``ssh`` and its options, then the destination (unless not ``destination``).
        ``master`` starts the multiplexing master (``ssh -O`` commands must not)."""
        argv = ["ssh"]
        if self.config_file:
            argv += ["-F", self.config_file]
        if self.identity:
            argv += ["-i", self.identity, "-o", "IdentitiesOnly=yes"]
        if self.target.port:
            argv += ["-p", str(self.target.port)]
        for option in self.options:
            argv += ["-o", option]
        argv += [
            "-o", "BatchMode=yes",
            "-o", f"ConnectTimeout={self.connect_timeout}",
            "-o", "ServerAliveInterval=5",
            "-o", "ServerAliveCountMax=2",
            "-o", f"ControlPath={self._control}",
            # auto, not yes: a master killed without cleaning up leaves its socket behind, and
            # only auto removes such a stale socket (yes would run without one, for good)
            "-o", f"ControlMaster={'auto' if master else 'no'}",
        ]  # fmt: skip
        if master:
            argv += ["-o", f"ControlPersist={PERSIST_S}"]
        return [*argv, "--", self.target.destination] if destination else argv

    def wrap(self, argv: Sequence[str], *, cwd: str | None = None) -> list[str]:
        """The local argv that runs ``argv`` on the host (each word quoted for its shell)."""
        command = shlex.join(argv)
        if cwd is not None:
            command = f"cd {shlex.quote(cwd)} && {command}"
        return [*self.base_argv(), command]

    def connected(self) -> bool:
        """True when a master for this host answers (``ssh -O check``; no network traffic)."""
        argv = [*self.base_argv(destination=False), "-O", "check", self.target.destination]
        try:
            done = proc.run(argv, timeout=self.connect_timeout, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return False
        return done.ok

    def master_pid(self) -> int | None:
        """The pid of the running master (``ssh -O check``); None when none answers."""
        argv = [*self.base_argv(destination=False), "-O", "check", self.target.destination]
        try:
            done = proc.run(argv, timeout=self.connect_timeout, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return None
        found = re.search(r"pid=(\d+)", done.stderr + done.stdout)
        return int(found.group(1)) if done.ok and found else None

    def connect(self) -> None:
        """Start the master unless one answers; SshError (one line) when the host cannot be
        reached or refuses the login. A running shell channel is proof enough (no call)."""
        channel = self._channel
        if channel is not None and channel.alive():
            return
        asked = time.monotonic()
        with self._connecting:
            failed = self._failed
            if failed is not None and failed[0] >= asked:
                raise SshError(failed[1])  # an attempt that ended while this one waited
            try:
                self._connect()
            except SshError as err:
                self._failed = (time.monotonic(), str(err))
                raise
            self._failed = None

    def _connect(self) -> None:
        if self.connected():
            return
        with tempfile.TemporaryFile() as err:
            argv = [*self.base_argv(master=True, destination=False), "-N", "-f"]
            argv += [self.target.destination]
            try:
                done = subprocess.run(
                    argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                    timeout=self.connect_timeout * 3, check=False,
                )  # fmt: skip
            except FileNotFoundError as exc:
                raise SshError(proc.not_installed("ssh")) from exc
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise SshError(f"ssh {self.target.url()}: {exc}") from exc
            err.seek(0)
            text = err.read().decode("utf-8", "replace")
        if done.returncode != 0:
            raise SshError(f"ssh {self.target.url()}: {proc.last_line(text)}")

    def disconnect(self) -> None:
        """Stop the master (``ssh -O exit``) and with it every session over it (the shell
        channel, tmux control clients); nothing when none runs."""
        argv = [*self.base_argv(destination=False), "-O", "exit", self.target.destination]
        try:
            proc.run(argv, timeout=self.connect_timeout, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return


class ShellChannel:
    """One ``sh`` on the host, kept open over the multiplexed connection, that runs paw's
    commands one after another: a command then costs one round trip, not an ssh process and
    a login shell (whose start-up files can take most of a second). It is plain ``/bin/sh``
    reading from a pipe; nothing of paw's is installed or left running on the host."""

    def __init__(self, argv: Sequence[str]) -> None:
        """Start ``argv`` (``ssh … -- exec /bin/sh``)."""
        self._process = proc.spawn(argv, stderr=proc.PIPE)
        self._selector = selectors.DefaultSelector()
        self._buffers: dict[int, bytes] = {}
        for stream in (self._process.stdout, self._process.stderr):
            assert stream is not None  # noqa: S101 - piped above
            os.set_blocking(stream.fileno(), False)
            self._selector.register(stream, selectors.EVENT_READ)
            self._buffers[stream.fileno()] = b""

    def alive(self) -> bool:
        """True while the channel's ssh runs."""
        return self._process.poll() is None

    def run(self, command: str, timeout: float) -> tuple[int, str, str]:
        """Run ``command`` (a shell command line); (exit status, stdout, stderr). OSError when
        the channel is gone or did not answer within ``timeout`` (it is closed then):
        ChannelRefused when it took none of the command (the host cannot have run it)."""
        stdin, stdout, stderr = self._process.stdin, self._process.stdout, self._process.stderr
        assert stdin is not None  # noqa: S101 - piped
        assert stdout is not None  # noqa: S101 - piped
        assert stderr is not None  # noqa: S101 - piped
        marker = uuid.uuid4().hex
        script = (
            f"( {command}\n) </dev/null; printf '\\n%s %s\\n' {marker} $?; "
            f"printf '\\n%s\\n' {marker} >&2\n"
        )
        data = script.encode()
        try:
            stdin.write(data)
            stdin.flush()
        except OSError as exc:
            self.close()
            if len(data) <= select.PIPE_BUF:
                raise ChannelRefused(f"the host's shell is gone: {exc}") from exc
            raise  # part of a longer command may have gone
        try:
            out = self._read_until(stdout.fileno(), f"\n{marker} ".encode(), timeout, line=True)
            err = self._read_until(stderr.fileno(), f"\n{marker}\n".encode(), timeout)
        except OSError:
            self.close()
            raise
        body, _, status = out.rpartition(f"\n{marker} ".encode())
        return int(status.strip() or b"255"), _text(body), _text(err)

    def _read_until(self, fd: int, marker: bytes, timeout: float, *, line: bool = False) -> bytes:
        deadline = time.monotonic() + timeout
        while True:
            buffer = self._buffers[fd]
            at = buffer.find(marker)
            end = buffer.find(b"\n", at + len(marker)) if at >= 0 and line else at + len(marker)
            if at >= 0 and end >= 0:
                self._buffers[fd] = buffer[end + (1 if line else 0) :]
                return buffer[: end if line else at]
            left = deadline - time.monotonic()
            if left <= 0 or (not self.alive() and not self._drain()):
                raise OSError("the host's shell did not answer")
            for key, _events in self._selector.select(min(left, 0.5)):
                chunk = os.read(key.fd, 1 << 16)
                if not chunk and not self.alive():
                    raise OSError("the connection to the host was lost")
                self._buffers[key.fd] += chunk

    def _drain(self) -> bool:
        """Read what a finished process left in its pipes; True when anything came."""
        got = False
        for key, _events in self._selector.select(0):
            chunk = os.read(key.fd, 1 << 16)
            self._buffers[key.fd] += chunk
            got = got or bool(chunk)
        return got

    def close(self) -> None:
        """End the channel (the host's sh exits at end of input)."""
        with contextlib.suppress(OSError, ValueError):
            self._selector.close()
        proc.finish(self._process)


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")
