"""`paw host add|ls|rm|check`: the machines paw drives over ssh (docs/remote.md)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING

from paw.cli import EXIT_ERROR, UsageError, error_object
from paw.cli.result import Result, json_of, lines_of
from paw.errors import PawError

if TYPE_CHECKING:
    from paw.adapters.state import StateStore
    from paw.supervisor.fleet_hosts import HostRecord


def _state(args: argparse.Namespace) -> StateStore:
    from paw.adapters.state import StateStore
    from paw.cli.compose import STATE_DIR, find_repo_root

    return StateStore(Path(find_repo_root(args.repo)) / STATE_DIR)


def _probe(host: HostRecord, *, fresh: bool = False) -> tuple[float, str]:
    """Connect, then prove the clone and tmux are there; (seconds, git top-level) or PawError.
    ``fresh``: end a master already at this entry's socket first (one left by an earlier
    entry of that name, say), so the connection proven is one this entry made itself."""
    from paw.adapters import proc
    from paw.adapters.remote.ssh import SshError
    from paw.cli.compose import transport_for

    transport = transport_for(host)
    if fresh:
        transport.disconnect()
    started = time.monotonic()
    try:
        transport.connect()
    except SshError as err:
        raise PawError(
            str(err), hint="try `ssh` to it by hand; paw never asks for a password"
        ) from err
    done = transport.run(["sh", "-c", PROBE, "sh", host.repo], timeout=30)
    transport.close_channel()
    took = time.monotonic() - started
    out = done.stdout.strip().splitlines()
    why = proc.last_line(done.stderr)
    if done.returncode == PROBE_NO_TMUX:
        raise PawError(f"host {host.name}: tmux is not installed there (not on its PATH)")
    if done.returncode == PROBE_NO_CLONE or (done.ok and not out):
        raise PawError(f"host {host.name}: {host.repo} is not a git clone there ({why})")
    if not done.ok:
        raise PawError(f"host {host.name}: the check failed ({why or done.returncode})")
    return took, out[-1]


# The probe run on the host: each failure its own exit status (`a && b || c` would run `c`
# when `a` fails, and call a missing clone a missing tmux).
PROBE_NO_CLONE, PROBE_NO_TMUX = 3, 4
PROBE = (
    f'top=$(git -C "$1" rev-parse --show-toplevel) || exit {PROBE_NO_CLONE}; '
    f'command -v tmux >/dev/null || exit {PROBE_NO_TMUX}; printf "%s\\n" "$top"'
)


def cmd_host_add(args: argparse.Namespace) -> Result:
    """Add a host: agents can then run there (`paw spawn NAME --host HOST`)."""
    from paw.adapters.remote.ssh import host_name_problem, parse_target
    from paw.supervisor.fleet_hosts import HostRecord, load_hosts, save_hosts

    problem = host_name_problem(args.name)
    if problem is not None:
        raise UsageError(problem)
    try:
        target = parse_target(args.url)
    except ValueError as err:
        raise UsageError(str(err)) from err
    if not args.host_repo.startswith("/"):
        raise UsageError(f"--repo must be an absolute path on the host, got {args.host_repo!r}")
    host = HostRecord(
        name=args.name, url=target.url(), repo=args.host_repo.rstrip("/") or "/",
        socket=args.socket, python=args.python, identity=_abs(args.identity),
        ssh_config=_abs(args.ssh_config), options=tuple(args.ssh_option or ()),
    )  # fmt: skip
    state = _state(args)
    state.check_writable()
    with state.lock("hosts"):
        hosts = load_hosts(state)
        if args.name in hosts:
            raise UsageError(f"a host named {args.name!r} exists (`paw host rm {args.name}` first)")
        if not args.no_check:
            took, top = _probe(host, fresh=True)
            host = host.model_copy(update={"repo": top})
        hosts[args.name] = host
        save_hosts(state, hosts)
    if args.json:
        return json_of({"host": host.model_dump(mode="json"), "checked": not args.no_check})
    checked = "" if args.no_check else f" (reached in {took:.2f}s; clone {host.repo})"
    return lines_of(
        f"added host {host.name}: {host.url}{checked}",
        f"  spawn there: paw spawn NAME --agent KIND --host {host.name}",
    )


def _abs(path: str | None) -> str | None:
    return None if path is None else str(Path(path).expanduser().resolve())


def cmd_host_ls(args: argparse.Namespace) -> Result:
    """List the hosts."""
    from paw.supervisor.fleet_hosts import load_hosts

    hosts = load_hosts(_state(args))
    if args.json:
        return json_of({"hosts": [h.model_dump(mode="json") for h in hosts.values()]})
    if not hosts:
        return lines_of("no hosts (add one with `paw host add NAME ssh://user@host --repo PATH`)")
    rows = [("NAME", "URL", "REPO", "TMUX SOCKET")]
    rows += [(h.name, h.url, h.repo, h.socket) for h in hosts.values()]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return lines_of(
        *("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows)
    )


def cmd_host_rm(args: argparse.Namespace) -> Result:
    """Forget a host (refused while paw supervises agents there)."""
    from paw.adapters.state import StateStore
    from paw.supervisor.fleet_hosts import load_hosts, save_hosts
    from paw.supervisor.records import load_agents

    state = _state(args)
    with state.lock("hosts"):
        hosts = load_hosts(state)
        if args.name not in hosts:
            raise UsageError(f"no host named {args.name!r}")
        agents = load_agents(StateStore(state.root / "hosts" / args.name))
        if agents:
            names = ", ".join(sorted(agents))
            raise PawError(
                f"host {args.name} still has agents: {names}", hint="`paw rm NAME` each first"
            )
        host = hosts.pop(args.name)
        save_hosts(state, hosts)
    from paw.cli.compose import transport_for

    transport_for(host).disconnect()
    if args.json:
        return json_of({"host": args.name, "removed": True})
    return lines_of(f"removed host {args.name}")


def cmd_host_check(args: argparse.Namespace) -> Result:
    """Connect to a host and check its clone and tmux."""
    from paw.supervisor.fleet_hosts import load_hosts

    hosts = load_hosts(_state(args))
    host = hosts.get(args.name)
    if host is None:
        raise UsageError(f"no host named {args.name!r}")
    try:
        took, top = _probe(host)
    except PawError as err:
        if args.json:
            error = error_object(err.message, hint=err.hint)
            return json_of({"host": args.name, "reachable": False, "error": error}, code=EXIT_ERROR)
        raise
    if args.json:
        return json_of(
            {"host": args.name, "reachable": True, "seconds": round(took, 3), "repo": top}
        )
    return lines_of(f"host {args.name} reachable in {took:.2f}s; clone {top}; tmux found")


ADD_EPILOG = """examples:
  paw host add build ssh://me@build.example:2222 --repo /home/me/src/project
  paw host add lab ssh://lab --repo /srv/project --identity ~/.ssh/id_paw

paw connects once (ssh with BatchMode: keys only, never a password) and checks that the clone
and tmux are there. It runs nothing of its own on the host (docs/remote.md)."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `paw host`."""
    host = sub.add_parser(
        "host", help="machines paw drives over ssh",
        description="Machines paw drives over ssh (docs/remote.md).",
    )  # fmt: skip
    host_sub = host.add_subparsers(dest="host_command", metavar="COMMAND", required=True)
    add = _add(host_sub, "add", cmd_host_add, ADD_EPILOG)
    add.add_argument("name", help="the host's name in paw (letters, digits, '.', '-', '_')")
    add.add_argument("url", help="ssh://[user@]host[:port]")
    add.add_argument(
        "--repo", dest="host_repo", required=True, metavar="PATH", help="the clone on the host"
    )
    add.add_argument("--socket", default="paw", help="tmux -L name on the host (default: paw)")
    add.add_argument("--python", default="python3", help="the host's Python for {python} agents")
    add.add_argument("--identity", metavar="FILE", help="ssh -i FILE (default: ssh's own)")
    add.add_argument("--ssh-config", metavar="FILE", help="ssh -F FILE")
    add.add_argument(
        "--ssh-option", action="append", metavar="KEY=VALUE", help="ssh -o KEY=VALUE (repeat)"
    )
    add.add_argument("--no-check", action="store_true", help="save without connecting first")
    _add(host_sub, "ls", cmd_host_ls, "example:\n  paw host ls --json")
    rm = _add(host_sub, "rm", cmd_host_rm, "example:\n  paw host rm build")
    rm.add_argument("name")
    check = _add(host_sub, "check", cmd_host_check, "example:\n  paw host check build")
    check.add_argument("name")


def _add(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    func: object,
    epilog: str,
) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        name, help=(getattr(func, "__doc__", "") or "").splitlines()[0].rstrip("."),
        description=getattr(func, "__doc__", None), epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    parser.add_argument("-C", dest="repo", metavar="DIR", help="run as if in DIR")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=func)
    return parser
