"""opencode's (and Kilo Code's) server beside its TUI, wired by paw at spawn: where it listens,
the credential paw gave it, the launcher that hands it over.

``wire_opencode`` gives the spawn its private server: ``--port`` (a free port on 127.0.0.1
that paw picked), ``--hostname 127.0.0.1`` and ``--no-mdns`` (flags win over any ``server``
table in the user's global config), and a per-spawn password in the environment
(``OPENCODE_SERVER_PASSWORD`` / ``KILO_SERVER_PASSWORD``; the server then answers 401 to any
request without it). Nothing is written to the user's settings or to the worktree; the port and
password are kept in paw's state directory (mode 0600) so a later paw process can reconnect.

The password never passes through a process's argv (``ps`` shows every user the argv of the
tmux client that starts the pane): it is written to a file of its own in paw's state directory
(mode 0600), and the pane starts ``/bin/sh -c LAUNCH paw-launch FILE PROGRAM ARGS…``, a few
lines of shell that read it into the variable and ``exec`` the agent in place (same pid).
The channel that reads the server: :mod:`paw.adapters.channels.opencode`.
"""

from __future__ import annotations

import base64
import json
import re
import secrets
import socket
from dataclasses import asdict, dataclass
from pathlib import Path

from paw.adapters.channels.claude import _replace_file
from paw.errors import PawError

HOST = "127.0.0.1"

# Per agent kind: the environment variables of the server's credential, its default user name.
_FLAVOURS: dict[str, tuple[str, str, str]] = {
    "opencode": ("OPENCODE_SERVER_PASSWORD", "OPENCODE_SERVER_USERNAME", "opencode"),
    "kilocode": ("KILO_SERVER_PASSWORD", "KILO_SERVER_USERNAME", "kilo"),
}
KINDS = tuple(_FLAVOURS)
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


@dataclass(frozen=True, slots=True)
class OpencodeServer:
    """Where one spawn's server listens and the credential paw gave it."""

    agent: str  # paw's agent name
    kind: str  # "opencode" | "kilocode"
    host: str
    port: int
    username: str
    password: str

    def authorization(self) -> str:
        """The ``Authorization`` header value."""
        token = base64.b64encode(f"{self.username}:{self.password}".encode()).decode()
        return f"Basic {token}"


def wire_opencode(
    agent_name: str, state_dir: Path, *, kind: str = "opencode"
) -> tuple[list[str], dict[str, str], OpencodeServer]:
    """The flags and environment that give this spawn its private server, and where it will be.

    The port is free on 127.0.0.1 when picked (another process could take it before the agent
    binds it: the agent then fails to start its server and the channel stays down, so the screen
    path is used as without a channel). Saved under ``state_dir/channels/`` (0600)."""
    if kind not in _FLAVOURS:
        raise PawError(f"no opencode-style server for agent kind {kind!r}")
    if not _NAME.match(agent_name):
        raise PawError(f"invalid agent name for a channel: {agent_name!r}")
    _password_var, user_var, username = _FLAVOURS[kind]
    server = OpencodeServer(
        agent=agent_name,
        kind=kind,
        host=HOST,
        port=_free_port(),
        username=username,
        password=secrets.token_urlsafe(32),
    )
    _save(server, state_dir)
    argv = ["--port", str(server.port), "--hostname", HOST, "--no-mdns"]
    env = {user_var: username}
    return argv, env, server


# The launcher the pane starts: reads the password from the file paw wrote (never an argument
# of any process), puts it in the agent's environment and execs the agent in place. A file it
# cannot read starts nothing (a server without its password would answer anyone on the host).
_LAUNCH = (
    '{{ IFS= read -r secret < "$1"; }} 2>/dev/null || {{ echo "paw: cannot read the channel '
    'password file $1 (the agent was not started; spawn it again)" >&2; exit 1; }}; '
    'export {var}="$secret"; unset secret; shift; exec "$@"'
)
LAUNCHER = "paw-launch"  # the launcher's $0 (what ps shows of it until the exec)


def launch_argv(server: OpencodeServer, state_dir: Path, argv: list[str]) -> list[str]:
    """``argv`` started through the launcher that gives it the server's password from a file
    (mode 0600, next to the record) instead of from the pane's environment on tmux's command
    line. The file stays until the agent is forgotten (a respawned pane reads it again)."""
    path = _password_file(server.agent, state_dir)
    _write_private(path, server.password + "\n")
    var = _FLAVOURS[server.kind][0]
    return ["/bin/sh", "-c", _LAUNCH.format(var=var), LAUNCHER, str(path), *argv]


def load_opencode_server(agent_name: str, state_dir: Path) -> OpencodeServer | None:
    """The server ``wire_opencode`` recorded for ``agent_name``; ``None`` when none is (or the
    record is unreadable: then the agent runs on the screen path)."""
    if not _NAME.match(agent_name):
        return None
    try:
        data = json.loads(_record(agent_name, state_dir).read_text(encoding="utf-8"))
        server = OpencodeServer(**data)
    except (OSError, ValueError, TypeError):
        return None
    if server.agent != agent_name or server.kind not in _FLAVOURS or server.host != HOST:
        return None
    return server


def forget_opencode_server(agent_name: str, state_dir: Path) -> None:
    """Remove the record (the agent is gone)."""
    if _NAME.match(agent_name):
        _record(agent_name, state_dir).unlink(missing_ok=True)
        _password_file(agent_name, state_dir).unlink(missing_ok=True)


def _record(agent_name: str, state_dir: Path) -> Path:
    return state_dir / "channels" / f"{agent_name}.opencode.json"


def _password_file(agent_name: str, state_dir: Path) -> Path:
    return state_dir / "channels" / f"{agent_name}.opencode.password"


def _save(server: OpencodeServer, state_dir: Path) -> None:
    _write_private(_record(server.agent, state_dir), json.dumps(asdict(server)))


def _write_private(path: Path, text: str) -> None:
    """``text`` to ``path`` atomically, mode 0600 from its creation on."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    _replace_file(path, text.encode("utf-8"), mode=0o600)  # (mkstemp's mode: 0600 already)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])
