"""What a failed live e2e test leaves behind, so that a flake is a finding, not a shrug.

When a live case fails, :func:`on_failure` collects, before the agent's tmux server is killed:
the pane (its screen and tmux's view of it), what ``paw detect`` reads on it,
``paw ls --json``, ``paw prompts --json``, the last audit records (``paw log --json``), and
what paw's process proof saw (:meth:`paw.supervisor.service.Supervisor.proof`: the pane's
process tree as paw reads it, which process it resolved as the agent and why, or why none).
The text goes into the test's report (a ``paw e2e diagnostics`` section, through the hook in
``conftest.py``) and to ``$PAW_AGENTS_HOME/failures/<test id>/diagnostics.txt``.

Collecting never raises: each piece that cannot be read says why instead.
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from tests.e2e import agents, paw_run
from tests.support.budget import budget

if TYPE_CHECKING:
    from collections.abc import Iterator

    import pytest

    from tests.e2e.paw_run import PawRun

STEP_TIMEOUT = budget(60.0)

# test key -> diagnostics text, taken by the report hook (conftest.py)
_FOUND: dict[str, str] = {}
_LOCK = threading.Lock()

_PROOF = """
import json, sys
from paw.cli.compose import build_supervisor
print(json.dumps(build_supervisor().proof(sys.argv[1]), indent=1))
"""


def _paw(run: PawRun, *args: str) -> str:
    try:
        done = subprocess.run(
            [sys.executable, *args],
            cwd=run.ws.repo,
            env=run.env,
            capture_output=True,
            text=True,
            timeout=STEP_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as err:
        return f"(could not run: {err})"
    tail = f"\n(stderr) {done.stderr.strip()}" if done.stderr.strip() else ""
    return f"(exit {done.returncode})\n{done.stdout.strip()}{tail}"


def _pane(run: PawRun) -> str:
    try:
        pane = run.pane
        return f"{pane.info()}\n{pane.capture().rstrip()}"
    except (OSError, RuntimeError) as err:
        return f"(could not capture: {err})"


def _detect(run: PawRun) -> str:
    """What paw's detector reads on the pane's screen now (state, prompt, notes)."""
    try:
        saved = run.ws.root / "diagnosed-screen.txt"
        saved.write_text(run.pane.capture(), encoding="utf-8")
    except (OSError, RuntimeError) as err:
        return f"(could not capture: {err})"
    return _paw(run, "-m", "paw", "detect", "--json", "--agent", run.agent, str(saved))


def _channel_files(run: PawRun) -> str:
    """What the agent's structured channel left under ``.paw/channels`` (hook records, answers,
    done marks, wake FIFOs): each file with its size, small text files with their start (the
    secret is never printed). A request that was never listed, or answered by keys where the
    channel should have, is read from here."""
    root = run.ws.repo / ".paw" / "channels"
    if not root.exists():
        return "(no .paw/channels: no channel wired)"
    lines: list[str] = []
    for path in sorted(root.rglob("*")):
        if path.is_dir() or len(lines) > 200:
            continue
        try:
            size = path.lstat().st_size
            head = ""
            if path.is_file() and path.name != "secret" and size <= 8192:
                head = " " + path.read_text(encoding="utf-8", errors="replace")[:600].strip()
        except OSError as err:
            size, head = -1, f" ({err})"
        lines.append(f"{path.relative_to(root)} {size}{head}")
    return "\n".join(lines) or "(empty)"


def collect(run: PawRun, agent_name: str) -> str:
    """Every piece, one titled block each."""
    pieces = [
        ("pane", _pane(run)),
        ("paw detect --json (the pane's screen now)", _detect(run)),
        ("paw ls --json", _paw(run, "-m", "paw", "ls", "--json")),
        ("paw prompts --json", _paw(run, "-m", "paw", "prompts", "--json")),
        ("paw log --json -n 30", _paw(run, "-m", "paw", "log", "--json", "-n", "30")),
        ("the process proof (Supervisor.proof)", _paw(run, "-c", _PROOF, agent_name)),
        ("the agent's channel files (.paw/channels)", _channel_files(run)),
        ("stub model", f"{len(run.stub.requests)} requests received"),
    ]
    return "\n".join(f"===== {title} =====\n{text}" for title, text in pieces)


def _run_in(repo: Path, env: dict[str, str], *args: str) -> str:
    try:
        done = subprocess.run(
            [sys.executable, *args], cwd=repo, env=env, capture_output=True, text=True,
            timeout=STEP_TIMEOUT, check=False,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError) as err:
        return f"(could not run: {err})"
    tail = f"\n(stderr) {done.stderr.strip()}" if done.stderr.strip() else ""
    return f"(exit {done.returncode})\n{done.stdout.strip()}{tail}"


def _panes_of(socket: str) -> str:
    """Every pane of the tmux server ``socket``: tmux's view of it and its screen."""
    tmux = ["tmux", "-L", socket]
    try:
        listed = subprocess.run(
            [*tmux, "list-panes", "-a", "-F",
             "#{pane_id} #{session_name} #{pane_pid} #{pane_current_command} #{pane_dead}"],
            capture_output=True, text=True, timeout=STEP_TIMEOUT, check=False,
        )  # fmt: skip
        blocks = []
        for line in listed.stdout.splitlines():
            shown = subprocess.run(
                [*tmux, "capture-pane", "-p", "-t", line.split()[0]],
                capture_output=True,
                text=True,
                timeout=STEP_TIMEOUT,
                check=False,
            )
            blocks.append(f"--- {line}\n{shown.stdout.rstrip()}")
    except (OSError, subprocess.SubprocessError, IndexError) as err:
        return f"(could not list the panes: {err})"
    return "\n".join(blocks) or f"(no pane: {listed.stderr.strip()})"


def collect_wave(repo: Path, env: dict[str, str], socket: str, extra: dict[str, str]) -> str:
    """A wave's pieces: every pane of its server, ``paw ls``/``prompts``/``log``, the wave's
    state files, the proof of each agent, and ``extra`` (the runner's output, the messages)."""
    pieces = [
        ("panes", _panes_of(socket)),
        ("paw ls --json", _run_in(repo, env, "-m", "paw", "ls", "--json")),
        ("paw prompts --json", _run_in(repo, env, "-m", "paw", "prompts", "--json")),
        ("paw log --json -n 40", _run_in(repo, env, "-m", "paw", "log", "--json", "-n", "40")),
    ]
    for state in sorted((repo / ".paw" / "waves").glob("*.json")):
        with contextlib.suppress(OSError):
            pieces.append((f"wave state {state.name}", state.read_text(encoding="utf-8")))
    with contextlib.suppress(OSError, ValueError):
        listed = json.loads(_run_in(repo, env, "-m", "paw", "ls", "--json").split("\n", 1)[1])
        for agent in listed.get("agents", []):
            proof = _run_in(repo, env, "-c", _PROOF, str(agent["name"]))
            pieces.append((f"the process proof of {agent['name']}", proof))
    pieces.extend(extra.items())
    return "\n".join(f"===== {title} =====\n{text}" for title, text in pieces)


def _safe(key: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", key)[-120:]


def record(key: str, text: str) -> None:
    """Keep ``text`` for the report of test ``key`` and save it under failures/."""
    with _LOCK:
        _FOUND[key] = text
    with contextlib.suppress(OSError):
        target = agents.agents_home() / "failures" / _safe(key)
        target.mkdir(parents=True, exist_ok=True)
        (target / "diagnostics.txt").write_text(text, encoding="utf-8")


@contextlib.contextmanager
def on_failure(run: PawRun, key: str, agent_name: str) -> Iterator[None]:
    """Collect the diagnostics of ``run`` when the body fails (anything but an interrupt)."""
    try:
        yield
    except KeyboardInterrupt:
        raise
    except BaseException:
        record(key, collect(run, agent_name))
        raise


def keys_of(item: pytest.Item) -> list[str]:
    """The keys a test's diagnostics can be recorded under: its node id, and the id of its
    parameters (the live cases run in threads and know only their case id)."""
    callspec = getattr(item, "callspec", None)
    return [item.nodeid] + ([callspec.id] if callspec is not None else [])


def take(item: pytest.Item) -> str | None:
    """The diagnostics recorded for ``item`` (once)."""
    with _LOCK:
        for key in keys_of(item):
            if key in _FOUND:
                return _FOUND.pop(key)
    return None


def from_fixtures(item: pytest.Item) -> str | None:
    """The diagnostics of every paw run among ``item``'s fixtures, for a failed test that
    recorded none itself: the report hook runs before the fixtures' teardown, so the agent's
    tmux server is still up."""
    runs = [v for v in getattr(item, "funcargs", {}).values() if isinstance(v, paw_run.PawRun)]
    if not runs:
        return None
    text = "\n\n".join(collect(run, paw_run.AGENT_NAME) for run in runs)
    record(item.nodeid, text)
    return take(item)
