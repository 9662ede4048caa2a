"""A real supervisor over a private tmux server and a real git repository, with the scripted
demo agents: what the TUI's end-to-end tests and scripts/bench_tui.py run against."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from paw.cli.compose import build_supervisor
from paw.cli.demo import render_demo_config
from paw.supervisor.model import LivePrompt
from paw.supervisor.service import Supervisor
from tests.support.budget import budget

KINDS = {"safe": "demo-safe", "push": "demo-push", "danger": "demo-danger"}


def make_supervisor(repo: Path, socket: str) -> Supervisor:
    """Write the demo paw.toml (scripted agent kinds) into ``repo`` and build the supervisor."""
    (repo / "paw.toml").write_text(render_demo_config(socket), encoding="utf-8")
    return build_supervisor(str(repo), socket_name=socket)


def wait_for(
    check: Callable[[], bool], timeout: float = budget(60.0), interval: float = 0.05
) -> bool:
    """Poll ``check`` until it is true or ``timeout`` passes."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(interval)
    return check()


def wait_for_prompts(
    supervisor: Supervisor, count: int, timeout: float = budget(60.0)
) -> list[LivePrompt]:
    """Sweep until ``count`` live prompts are shown; return them."""
    found: list[LivePrompt] = []

    def enough() -> bool:
        found[:] = supervisor.poll_once().prompts
        return len(found) >= count

    assert wait_for(enough, timeout, 0.1), f"expected {count} prompts, saw {len(found)}"
    return found


def capture(socket: str, pane_id: str) -> str:
    """The pane's visible text, straight from tmux (not through paw)."""
    done = subprocess.run(
        ["tmux", "-L", socket, "capture-pane", "-p", "-t", pane_id],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    return done.stdout


def audit_records(repo: Path) -> list[dict[str, object]]:
    """Every record of the repository's audit log."""
    path = repo / ".paw" / "audit.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
