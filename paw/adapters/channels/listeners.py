"""The processes listening on a TCP port of this machine (whose server a channel talks to)."""

from __future__ import annotations

import psutil


def listening_ports() -> dict[int, frozenset[int]]:
    """Per TCP port, the processes listening on it on this machine (empty when unknown)."""
    try:
        conns = psutil.net_connections(kind="tcp")
    except (psutil.Error, OSError):
        return {}
    found: dict[int, set[int]] = {}
    for c in conns:
        if c.pid and c.status == psutil.CONN_LISTEN and c.laddr:
            found.setdefault(c.laddr.port, set()).add(c.pid)
    return {port: frozenset(pids) for port, pids in found.items()}


def listening_pids(port: int) -> frozenset[int]:
    """The processes listening on ``port`` (empty when none or unknown)."""
    return listening_ports().get(port, frozenset())
