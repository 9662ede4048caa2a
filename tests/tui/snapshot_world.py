"""The real worlds the TUI's snapshots draw: the real supervisor, a real git repository, a real
tmux server on a private socket and scripted agents (``paw.demo.agent`` for prompts and the
idle input; ``still_agent.py`` for a busy screen that never moves) and, for the wave view,
the real wave runner (tests/tui/wave_real.py).

What varies from run to run (the clock, the repository's path, the socket's name, the order
in which the audit records were written) is pinned where the feed reads the supervisor
(:class:`Pinned`), never by faking the supervisor: every sweep, capture, diff, approval and
denial is the real one.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paw.adapters.wave_watch import WaveWatcher
from paw.cli.compose import build_supervisor
from paw.core.wave_view import WaveReading
from paw.supervisor.model import AgentStatus, Decision, Snapshot, WorktreeStat
from tests.support.budget import budget
from tests.tui.real_world import wait_for
from tests.tui.wave_real import kill_runner, start_runner, wait_until_parked

if TYPE_CHECKING:
    from collections.abc import Callable

    from libtmux.server import Server

    from paw.supervisor.service import Supervisor

T0 = 1_800_000_000.0  # the pinned clock: every age on screen is measured against it
STILL = Path(__file__).with_name("still_agent.py")
WORLD_BUDGET_S = budget(90.0)  # spawning a scenario's agents and seeing each settle
# a worktree's commit made with these dates has the same hash on every run (the identity is
# the suite's): a diff or a push's pending commits show it
FIXED_DATES = {
    "GIT_AUTHOR_DATE": "2027-01-15T12:00:00Z",
    "GIT_COMMITTER_DATE": "2027-01-15T12:00:00Z",
}


def _demo(*steps: str) -> list[str]:
    return ["{python}", "-m", "paw.demo.agent", *steps]


def _still(*args: str) -> list[str]:
    return ["{python}", str(STILL), *args]


# the kinds (paw.toml profiles) of the snapshots' agents: the command each runs
KIND_COMMANDS = {
    "demo-allow": _demo("shell touch paw-approved.txt"),
    "demo-push": _demo("shell git push origin main"),
    "demo-danger": _demo("shell sudo rm -rf /tmp/build"),
    "demo-idle": _demo("busy 0"),
    "demo-ask": _demo("question which database: sqlite or postgres"),  # no yes: a dialog
    "demo-busy": _still("reading the code", "⠿ working…"),
    "demo-ended": _demo("busy 0"),  # stopped once it is idle: an agent that ended
}


def paw_toml(socket: str) -> str:
    """paw.toml of a snapshot world: the private socket and the scripted kinds."""
    lines = ["[tmux]", f"socket_name = {json.dumps(socket)}", ""]
    for kind, command in KIND_COMMANDS.items():
        lines += [
            f"[agents.{kind}]",
            f"command = {json.dumps(command)}",
            'detector = "scripted"',
            'task_flag = "--task"',
            "",
        ]
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Role:
    """One agent of a scenario: its kind, the status it settles in, its pinned age (seconds in
    that status, and the age of its prompt), and whether its worktree holds work."""

    name: str
    kind: str
    status: AgentStatus
    age: float
    dirty: bool = False


API = Role("api", "demo-busy", AgentStatus.BUSY, 95)
DOCS = Role("docs", "demo-idle", AgentStatus.IDLE, 600, dirty=True)
OLD = Role("old", "demo-ended", AgentStatus.EXITED, 7300)
TOUCH = Role("touch", "demo-allow", AgentStatus.PROMPT, 42, dirty=True)
PUSHER = Role("pusher", "demo-push", AgentStatus.PROMPT, 12, dirty=True)
RMSUDO = Role("rmsudo", "demo-danger", AgentStatus.PROMPT, 5)
ASKER = Role("asker", "demo-ask", AgentStatus.WAITING, 70)

SCENARIOS: dict[str, tuple[Role, ...]] = {
    "empty": (),
    "agents": (API, DOCS, OLD),
    "allow": (TOUCH, API),
    "confirm": (PUSHER, API),
    "block": (RMSUDO, API),
    "mixed": (TOUCH, API, PUSHER, RMSUDO, DOCS, OLD),
    "tmux_gone": (API, DOCS, OLD),
    "waiting": (ASKER, API),
}


# The wave's agents (tests/tui/wave_real.py): three parked prompts (a confirm, a block, an
# allowed command a human must still approve) and a task done.
WAVE_ROLES = (
    Role("night-push", "demo-confirm", AgentStatus.PROMPT, 95),
    Role("night-wipe", "demo-block", AgentStatus.PROMPT, 40),
    Role("night-list", "demo-change", AgentStatus.PROMPT, 30),
    Role("night-quick", "demo-quick", AgentStatus.IDLE, 300),
)
# The wave's times, by field, in seconds before T0: an hour in, each task started a minute
# after the wave, the quick task done 5 minutes ago, prompts parked and announced.
WAVE_AGO = {
    "started_at": 3540.0,  # a task's (the wave's own: WAVE_STARTED_AGO)
    "ended_at": 300.0,
    "last_change": 60.0,
    "first_seen": 95.0,
    "notified_at": 90.0,
    "last_reminded": 90.0,
    "answered_at": 30.0,
    "at": 400.0,  # a check's run
    "checking_since": 20.0,
    "stuck_notified": 60.0,
    "dialog_notified": 60.0,
    "followup_notified": 60.0,
}
WAVE_STARTED_AGO = 3600.0


def _git(cwd: Path, *args: str, env: dict[str, str] | None = None) -> None:
    done = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=False,
        env={**os.environ, **(env or {})},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def add_origin(repo: Path) -> None:
    """A local bare ``origin`` with main pushed (a push prompt's details come from it)."""
    origin = repo.parent / "origin.git"
    _git(repo.parent, "init", "-q", "--bare", str(origin))
    _git(repo, "remote", "add", "origin", str(origin))
    _git(repo, "push", "-q", "origin", "main")


def make_dirty(worktree: Path) -> None:
    """Work in ``worktree``: one commit ahead of main (the same hash on every run) and two
    files changed but not committed (+12 -3 in all)."""
    (worktree / "app.py").write_text('import sys\n\nprint("hello")\n', encoding="utf-8")
    _git(worktree, "add", "app.py")
    _git(worktree, "commit", "-q", "-m", "fix the login form", env=FIXED_DATES)
    (worktree / "app.py").write_text(
        'import sys\n\nprint("hello, paw")\nsys.exit(0)\n', encoding="utf-8"
    )
    notes = "".join(f"note {n}\n" for n in range(10))
    (worktree / "README.md").write_text(notes, encoding="utf-8")


CLEAN = WorktreeStat()
DIRTY = WorktreeStat(uncommitted=2, ahead=1, insertions=14, deletions=1)  # what make_dirty does


def settled(snapshot: Snapshot, roles: tuple[Role, ...]) -> bool:
    """Every role's agent shows in the status it settles in (with its prompt or dialog, if it
    asks) and its worktree's work is counted."""
    views = {view.name: view for view in snapshot.agents}
    asking = {prompt.agent for prompt in snapshot.prompts}
    for role in roles:
        view = views.get(role.name)
        if view is None or view.status is not role.status or not view.stat.counted:
            return False
        if (role.status in (AgentStatus.PROMPT, AgentStatus.WAITING)) != (role.name in asking):
            return False
        if view.stat != (DIRTY if role.dirty else CLEAN):
            return False  # (a count made while make_dirty wrote is counted again)
    return True


def build_world(repo: Path, socket: str, scenario: str) -> Supervisor:
    """Spawn the scenario's agents in ``repo`` on the tmux server ``socket`` through the real
    supervisor and wait until each shows what its snapshot needs; the supervisor."""
    roles = SCENARIOS[scenario]
    (repo / "paw.toml").write_text(paw_toml(socket), encoding="utf-8")
    add_origin(repo)
    supervisor = build_supervisor(str(repo), socket_name=socket)
    for role in roles:
        view = supervisor.spawn(role.name, role.kind, "a test task")
        if role.dirty:
            make_dirty(Path(view.worktree))
        if role.status is AgentStatus.EXITED:
            supervisor.stop(role.name)  # (an agent that ends on its own dies on start)
    last: list[Snapshot] = []

    def ready() -> bool:
        last[:] = [supervisor.poll_once()]
        return settled(last[0], roles)

    assert wait_for(ready, WORLD_BUDGET_S, 0.2), last
    return supervisor


def lose_tmux(supervisor: Supervisor, server: Server) -> None:
    """Kill the tmux ``server`` and wait until a sweep says it is gone (not, while it shuts
    down, that it went away mid-call)."""
    server.kill()
    said: list[str | None] = []

    def gone() -> bool:
        snapshot = supervisor.poll_once()
        said[:] = [snapshot.error]
        return not snapshot.tmux_ok and "no server running" in (snapshot.error or "")

    assert wait_for(gone, WORLD_BUDGET_S, 0.2), said


def build_wave_world(repo: Path, socket: str) -> Supervisor:
    """Run the real wave runner (``paw wave run``, its own process) in ``repo`` on ``socket``
    until three prompts are parked and the quick task is done, then kill -9 it (the wave
    stays as it left it: the view says the runner stopped); the TUI's supervisor."""
    runner = start_runner(repo, socket)
    try:
        wait_until_parked(repo, runner)
    finally:
        kill_runner(runner)
    supervisor = build_supervisor(str(repo), socket_name=socket)
    last: list[Snapshot] = []

    def ready() -> bool:
        last[:] = [supervisor.poll_once()]
        return settled(last[0], WAVE_ROLES)

    assert wait_for(ready, WORLD_BUDGET_S, 0.2), last
    return supervisor


def _pin_times(value: object, key: str = "") -> object:
    """``value`` (a wave state as plain data) with each time in it pinned by its field."""
    if isinstance(value, dict):
        return {k: _pin_times(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_pin_times(v, key) for v in value]
    if key in WAVE_AGO and isinstance(value, float):
        return T0 - WAVE_AGO[key]
    return value


def pin_wave(reading: WaveReading | None, root: Path) -> WaveReading | None:
    """The wave as the runner left it, with its times pinned (see WAVE_AGO) and the world's
    root out of its file's path."""
    if reading is None or reading.state is None:
        return reading
    state = reading.state
    data = _pin_times(state.model_dump(mode="python"))
    assert isinstance(data, dict)
    data["started_at"] = T0 - WAVE_STARTED_AGO
    data["file"] = str(data["file"]).replace(str(root), "/home/you/src")
    return replace(reading, state=type(state).model_validate(data))


class Pinned:
    """The supervisor as the feed reads it, with what varies from run to run pinned: the
    sweep's clock (``T0``), each agent's age and its prompt's (its role's), the world's root
    and the tmux socket's name in any text (``/work``, ``paw-test``), and the order of the
    audit records (by event and agent: agents spawned together are recorded in any order).
    Everything else, and every operation, is the real supervisor's."""

    def __init__(self, real: Supervisor, roles: tuple[Role, ...], root: Path, socket: str) -> None:
        self.real = real
        self.ages = {role.name: role.age for role in roles}
        tmux_dir = Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}"
        self.replacements = (
            (str(root), "/home/you/src"),
            (str(tmux_dir / socket), "/tmp/tmux-1000/paw-test"),  # the socket's path
            (socket, "paw-test"),
        )

    def waves(self, repo: Path) -> Callable[[], WaveReading | None]:
        """What the feed reads of ``repo``'s latest wave, its times pinned."""
        watcher = WaveWatcher(repo / ".paw" / "waves")
        root = Path(self.replacements[0][0])
        return lambda: pin_wave(watcher.read(), root)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def text(self, value: str) -> str:
        """``value`` with the world's root and socket replaced."""
        for old, new in self.replacements:
            value = value.replace(old, new)
        return value

    def poll_once(self) -> Snapshot:
        """The real sweep's picture, pinned."""
        snapshot = self.real.poll_once()
        agents = tuple(
            replace(
                view,
                status_since=T0 - self.ages.get(view.name, 0.0),
                worktree=self.text(view.worktree),
                note=None if view.note is None else self.text(view.note),
            )
            for view in snapshot.agents
        )
        prompts = tuple(
            replace(prompt, first_seen=T0 - self.ages.get(prompt.agent, 0.0))
            for prompt in snapshot.prompts
        )
        error = None if snapshot.error is None else self.text(snapshot.error)
        return replace(snapshot, taken_at=T0, agents=agents, prompts=prompts, error=error)

    def audit_tail(self, n: int) -> list[dict[str, object]]:
        """The last ``n`` audit records in a stable order."""
        records = self.real.audit_tail(1000)
        records.sort(key=lambda r: (str(r.get("event")), str(r.get("agent"))))
        return records[-n:]

    def _decided(self, decision: Decision) -> Decision:
        confirmation = decision.confirmation
        return replace(
            decision,
            reason=self.text(decision.reason),
            confirmation=None if confirmation is None else self.text(confirmation),
        )

    def approve(
        self,
        prompt_id: str,
        *,
        always: bool = False,
        confirmed: bool = False,
        override: str | None = None,
    ) -> Decision:
        """The real approval; its texts pinned."""
        return self._decided(
            self.real.approve(prompt_id, always=always, confirmed=confirmed, override=override)
        )

    def deny(self, prompt_id: str) -> Decision:
        """The real denial; its texts pinned."""
        return self._decided(self.real.deny(prompt_id))
