"""Build Supervisors over fakes, and demo-agent screens, for supervisor tests."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from paw.core.config import PawConfig
from paw.core.models import Action, Finding, Verdict
from paw.core.ports import ProcInfo
from paw.demo.agent import Step, render_box
from paw.supervisor.context import Context
from paw.supervisor.service import Supervisor
from tests.support.fakes import FakeProcesses, FakeTerminal, FakeVcs, MemoryAudit, MemoryState

REPO = "/src/app"


def demo_screen(kind: str, subject: str, *, history: str = "") -> str:
    """A scripted-agent screen whose live prompt asks ``kind`` ``subject``."""
    head = ["paw demo agent — task: t", "✓ done working", *history.splitlines()]
    return "\n".join(head + render_box(Step(kind, subject))) + "\n\n"


IDLE_SCREEN = "paw demo agent — task: t\nreceived key 'y': approve\ndemo> \n"


def demo_proc(pid: int, create_time: float = 100.0) -> ProcInfo:
    """A process running the scripted demo agent."""
    argv = ("/usr/bin/python3", "-m", "paw.demo.agent")
    return ProcInfo(pid, "python3", "/usr/bin/python3", argv, create_time)


def shell_proc(pid: int) -> ProcInfo:
    """A plain shell."""
    return ProcInfo(pid, "bash", "/bin/bash", ("bash",), 200.0)


def table_shell_guard(command: str, cwd: str, config: object) -> Verdict:
    """A stand-in shell guard for fake tests: blocks ``rm -rf``, confirms ``git push``."""
    del cwd, config
    if "rm -rf" in command:
        return Verdict.from_findings((Finding("shell.rm-root", Action.BLOCK, "deletes /"),))
    if command.startswith("git push"):
        return Verdict.from_findings((Finding("git.push", Action.CONFIRM, "pushes"),))
    return Verdict(Action.ALLOW)


@dataclass
class Rig:
    """A Supervisor and its fakes."""

    sup: Supervisor
    terminal: FakeTerminal
    procs: FakeProcesses
    vcs: FakeVcs
    audit: MemoryAudit
    state: MemoryState
    now: list[float]


def make_rig(config: PawConfig | None = None) -> Rig:
    """A Supervisor over fresh fakes with a controllable clock."""
    terminal, procs, vcs = FakeTerminal(), FakeProcesses(), FakeVcs()
    audit, state, now = MemoryAudit(), MemoryState(), [1000.0]
    sup = Supervisor(
        config or PawConfig(), REPO, terminal, vcs, procs, audit, state, lambda: now[0],
        shell=table_shell_guard, python="/usr/bin/python3",
    )  # fmt: skip
    return Rig(sup, terminal, procs, vcs, audit, state, now)


def spawn_demo(rig: Rig, name: str, screen: str) -> str:
    """Spawn a scripted agent whose pane shows ``screen`` from the start; return its pane id.

    The spawn's start-up look is not counted in ``rig.terminal.survey_fresh`` (tests of it
    are about polls)."""
    pid = rig.terminal.next_pid
    rig.procs.trees_by_root[pid] = [demo_proc(pid)]
    rig.terminal.start_screen = screen
    seen = len(rig.terminal.survey_fresh)
    try:
        view = rig.sup.spawn(name, "scripted", None)
    finally:
        rig.terminal.start_screen = ""
    del rig.terminal.survey_fresh[seen:]
    assert view.pane_id is not None
    assert rig.terminal.panes[view.pane_id].info.pane_pid == pid
    return view.pane_id


def with_ports(sup: Supervisor, **changes: Any) -> Context:
    """Give ``sup`` other ports (a test's clock, sleep, terminal…); the memory stays."""
    sup.ctx = replace(sup.ctx, **changes)
    return sup.ctx


def with_settings(sup: Supervisor, **changes: Any) -> Context:
    """Give ``sup`` other sweep settings (paw's composition chooses them when it builds a
    supervisor; a test changes them on the way)."""
    return with_ports(sup, settings=replace(sup.ctx.settings, **changes))
