"""A real OpenSSH server on 127.0.0.1 for the remote-host tests: a host key and a client key
made for the test, an ssh config that pins the host key, sshd run as the current user (who is
the only user it lets in). Nothing listens beyond the loopback interface."""

from __future__ import annotations

import getpass
import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.budget import budget

SSHD = shutil.which("sshd") or "/usr/sbin/sshd"


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _keygen(path: Path) -> None:
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "paw-test", "-f", str(path)],
        check=True, capture_output=True,
    )  # fmt: skip


@dataclass
class Sshd:
    """One test sshd: start, stop (the listener only, or everything), restart on its port."""

    root: Path
    port: int = field(default_factory=free_port)
    user: str = field(default_factory=getpass.getuser)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The ``ssh://`` URL of this server."""
        return f"ssh://{self.user}@127.0.0.1:{self.port}"

    @property
    def client_config(self) -> Path:
        """An ssh config that logs in with the test's key and knows only this host key."""
        return self.root / "ssh_config"

    def prepare(self) -> None:
        """Keys, authorized_keys, known_hosts, sshd_config and the client config."""
        self.root.mkdir(parents=True, exist_ok=True)
        _keygen(self.root / "host_key")
        _keygen(self.root / "client_key")
        (self.root / "authorized_keys").write_text(
            (self.root / "client_key.pub").read_text(encoding="utf-8"), encoding="utf-8"
        )
        host_pub = (self.root / "host_key.pub").read_text(encoding="utf-8").split()
        (self.root / "known_hosts").write_text(
            f"[127.0.0.1]:{self.port} {host_pub[0]} {host_pub[1]}\n", encoding="utf-8"
        )
        (self.root / "sshd_config").write_text(
            f"Port {self.port}\nListenAddress 127.0.0.1\n"
            f"HostKey {self.root / 'host_key'}\nPidFile {self.root / 'sshd.pid'}\n"
            f"AuthorizedKeysFile {self.root / 'authorized_keys'}\n"
            "StrictModes no\nUsePAM no\nPasswordAuthentication no\n"
            "KbdInteractiveAuthentication no\nPubkeyAuthentication yes\n"
            "PermitRootLogin prohibit-password\n"
            f"AllowUsers {self.user}\nLogLevel ERROR\n",
            encoding="utf-8",
        )
        self.client_config.write_text(
            "Host *\n"
            f"  IdentityFile {self.root / 'client_key'}\n  IdentitiesOnly yes\n"
            f"  UserKnownHostsFile {self.root / 'known_hosts'}\n"
            "  GlobalKnownHostsFile /dev/null\n  StrictHostKeyChecking yes\n"
            "  LogLevel ERROR\n",
            encoding="utf-8",
        )
        (self.root / "client_key").chmod(0o600)
        if os.geteuid() == 0:
            Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege separation

    def start(self) -> None:
        """Run sshd in the foreground (``-D``) and wait until it accepts connections."""
        log = self.root / "sshd.log"
        self.process = subprocess.Popen(
            [SSHD, "-D", "-e", "-f", str(self.root / "sshd_config")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=log.open("ab"),
        )  # fmt: skip
        end = time.monotonic() + budget(30.0)
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise RuntimeError(f"sshd exited: {log.read_text(encoding='utf-8')[-500:]}")
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError("sshd did not listen in time")

    def stop_listener(self) -> None:
        """Stop accepting connections (sessions already open keep running)."""
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=budget(30.0))
            self.process = None

    def ssh(self, *command: str) -> subprocess.CompletedProcess[str]:
        """Run ``command`` on the server with the test's key (no multiplexing)."""
        return subprocess.run(
            ["ssh", "-F", str(self.client_config), "-p", str(self.port), "-o", "BatchMode=yes",
             f"{self.user}@127.0.0.1", "--", *command],
            capture_output=True, text=True, check=False, timeout=budget(60.0),
        )  # fmt: skip
