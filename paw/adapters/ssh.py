"""The OpenSSH client as paw's transport to another machine.

paw runs nothing of its own on a host: every command (tmux, git, ps) is one ``ssh`` call over a
multiplexed connection (``ControlMaster``/``ControlPath``/``ControlPersist``), so after the first
login a call costs a local ssh process and one round trip, not a handshake. The master is
started explicitly (``ssh -M -N -f``) with its output sent to a file: a master started as a side
effect of a captured call would keep that call's pipes open and hang it. Calls themselves never
start a master (``ControlMaster=no``), and ``BatchMode=yes`` means no password or passphrase is
ever asked for: keys come from the user's agent or ssh configuration.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import tempfile
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


@dataclass(slots=True)
class SshTransport:
    """Runs argv on one host through a multiplexed OpenSSH connection."""

    target: SshTarget
    identity: str | None = None  # -i FILE
    config_file: str | None = None  # -F FILE
    options: tuple[str, ...] = ()  # extra -o KEY=VALUE
    connect_timeout: int = CONNECT_TIMEOUT_S
    _control: str = field(default="", init=False)

    def __post_init__(self) -> None:
        self._control = str(control_dir() / "%C")

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
            "-o", f"ControlMaster={'yes' if master else 'no'}",
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

    def connect(self) -> None:
        """Start the master unless one answers; SshError (one line) when the host cannot be
        reached or refuses the login."""
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
        """Stop the master (``ssh -O exit``); nothing when none runs."""
        argv = [*self.base_argv(destination=False), "-O", "exit", self.target.destination]
        try:
            proc.run(argv, timeout=self.connect_timeout, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return
