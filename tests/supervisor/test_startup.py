"""The start-up watch of `paw spawn`: pure rules, the wall-clock budget over fakes, and the
default process match of custom agents."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import pytest

from paw.core.agents import derive_match, matches_process, profile_for
from paw.core.config import AgentProfileConfig, PawConfig, ProcessMatch
from paw.core.detect import detect
from paw.core.models import Detection, DetectionState
from paw.core.ports import ProcInfo, Survey
from paw.core.startup import DEAD_STATUS_WAIT_S, Look, StartupState, StartupWatch
from paw.errors import PawError
from paw.supervisor.service import Supervisor
from tests.support.fakes import FakeProcesses, FakeTerminal, FakeVcs, MemoryAudit, MemoryState
from tests.support.supervision import IDLE_SCREEN, REPO, demo_proc, demo_screen

# -- pure rules ---------------------------------------------------------------------------------


def _look(at: float, text: str | None, *, dead: bool = False, agent: str = "scripted") -> Look:
    detection = (
        detect(text or "", agent) if text is not None else Detection(DetectionState.UNKNOWN, agent)
    )
    return Look(at, text, dead, detection)


def test_idle_input_is_ready_and_a_dead_pane_died_with_its_status() -> None:
    watch = StartupWatch(typed=True, has_detector=True)
    ready = watch.look(_look(0.0, IDLE_SCREEN))
    assert ready is not None
    assert ready.state is StartupState.READY
    dead = StartupWatch(typed=False, has_detector=True).look(
        _look(0.0, "boom\n\nPane is dead (status 2, Mon Nov 30 2026)\n", dead=True)
    )
    assert dead is not None
    assert (dead.state, dead.exit_status, dead.screen) == (StartupState.DIED, 2, ("boom",))


def test_a_dead_pane_waits_for_tmux_to_show_its_status() -> None:
    """tmux marks the pane dead when its terminal closes and draws the status once it has
    reaped the process: a busy machine sees the first without the second for a moment."""
    watch = StartupWatch(typed=False, has_detector=True)
    assert watch.look(_look(10.0, "bash: x: not found\n", dead=True)) is None
    later = watch.look(
        _look(10.5, "bash: x: not found\nPane is dead (status 127, Mon)\n", dead=True)
    )
    assert later is not None
    assert (later.state, later.exit_status) == (StartupState.DIED, 127)
    never = StartupWatch(typed=False, has_detector=True)
    assert never.look(_look(0.0, "x\n", dead=True)) is None
    gone = never.look(_look(DEAD_STATUS_WAIT_S + 0.1, "x\n", dead=True))
    assert gone is not None
    assert (gone.state, gone.exit_status, gone.detail) == (StartupState.DIED, None, "ended")


def test_a_dead_pane_tmux_never_reaped_reports_its_zombies_status() -> None:
    """tmux can miss a fast exit's SIGCHLD (the program stays a zombie, the status line never
    comes); the zombie's wait status says how it ended, at once."""
    look = _look(0.0, "bash: x: not found\n", dead=True)
    found = StartupWatch(typed=False, has_detector=True).look(replace(look, wait_status=127 << 8))
    assert found is not None
    assert (found.state, found.exit_status, found.detail) == (
        StartupState.DIED, 127, "exit status 127"
    )  # fmt: skip
    killed = StartupWatch(typed=False, has_detector=True).look(replace(look, wait_status=9))
    assert killed is not None
    assert (killed.signal, killed.detail) == (9, "killed by signal 9")
    shown = _look(0.0, "x\nPane is dead (status 2, Mon)\n", dead=True)
    first = StartupWatch(typed=False, has_detector=True).look(replace(shown, wait_status=1 << 8))
    assert first is not None
    assert first.exit_status == 2  # tmux's own line wins


def test_a_task_prompt_is_ready_with_an_argv_task_but_waiting_with_a_typed_one() -> None:
    screen = demo_screen("shell", "ls")
    argv = StartupWatch(typed=False, has_detector=True).look(_look(0.0, screen))
    assert argv is not None
    assert argv.state is StartupState.READY
    typed = StartupWatch(typed=True, has_detector=True)
    assert typed.look(_look(0.0, screen)) is None  # a dialog must stay a moment
    waiting = typed.look(_look(1.5, screen))
    assert waiting is not None
    assert waiting.state is StartupState.WAITING
    assert "Run this command? (ls)" in waiting.detail


def test_without_a_detector_a_settled_screen_or_the_ready_pattern_is_ready() -> None:
    watch = StartupWatch(typed=True, has_detector=False)
    assert watch.look(_look(0.0, "loading", agent="none")) is None
    assert watch.look(_look(0.5, "loading\nnotes>", agent="none")) is None  # changed
    assert watch.look(_look(1.0, "loading\nnotes>", agent="none")) is None  # not a second yet
    settled = watch.look(_look(1.6, "loading\nnotes>", agent="none"))
    assert settled is not None
    assert settled.detail == "its screen settled"
    pattern = StartupWatch(typed=True, has_detector=False, ready_pattern="^notes>")
    assert pattern.look(_look(0.0, "notes> \n\n", agent="none")) is not None
    assert pattern.look(_look(0.0, "notes> hi\nworking", agent="none")) is None


def test_out_of_time_busy_is_starting_anything_else_waiting() -> None:
    watch = StartupWatch(typed=True, has_detector=True)
    busy = watch.give_up(_look(60.0, "paw demo agent\n⠋ working…"), 60.0)
    assert busy.state is StartupState.STARTING
    other = watch.give_up(_look(60.0, "Sign in at https://example.invalid"), 60.0)
    assert other.state is StartupState.WAITING
    assert other.screen == ("Sign in at https://example.invalid",)


# -- the budget on the wall clock, over fakes ---------------------------------------------------


@dataclass
class SlowTerminal(FakeTerminal):
    """A pane that shows ``screen`` once the clock reaches ``ready_at``; each look costs
    ``cost`` seconds of wall clock (a loaded machine)."""

    clock: list[float] | None = None
    ready_at: float = 0.0
    screen: str = IDLE_SCREEN
    cost: float = 0.0
    looks: int = 0

    def survey(self, pane_ids: Sequence[str], *, ansi: bool = False, fresh: bool = True) -> Survey:
        assert self.clock is not None
        self.looks += 1
        self.clock[0] += self.cost
        for pane in self.panes.values():
            pane.screen = self.screen if self.clock[0] >= self.ready_at else "loading…"
        return super().survey(pane_ids, ansi=ansi, fresh=fresh)


def _supervisor(terminal: SlowTerminal, config: PawConfig) -> tuple[Supervisor, list[float]]:
    now = [1000.0]
    terminal.clock = now
    procs = FakeProcesses()
    procs.trees_by_root[terminal.next_pid] = [demo_proc(terminal.next_pid)]

    def sleep(seconds: float) -> None:
        now[0] += seconds

    sup = Supervisor(
        config, REPO, terminal, FakeVcs(), procs, MemoryAudit(), MemoryState(),
        lambda: now[0], python="/usr/bin/python3", sleep=sleep,
    )  # fmt: skip
    return sup, now


TYPED = PawConfig(
    agents={"typed": AgentProfileConfig(command=("{python}", "-m", "paw.demo.agent"),
                                        task_mode="stdin-typed", detector="scripted")}
)  # fmt: skip


def test_a_slow_start_within_the_default_budget_gets_its_task_typed() -> None:
    """aider needs 4-5 s idle and more under load: the old 5 s budget gave up on it."""
    terminal = SlowTerminal(ready_at=1000.0 + 20.0)
    sup, now = _supervisor(terminal, TYPED)
    view, startup = sup.spawn_agent("a", "typed", "fix it")
    assert startup.outcome.state is StartupState.READY
    assert startup.task_typed is True
    assert terminal.typed == [(view.pane_id, "fix it")]
    assert 20.0 <= startup.waited_s < 21.0
    assert now[0] > 1020.0


def test_the_budget_counts_the_time_looks_take() -> None:
    terminal = SlowTerminal(ready_at=float("inf"), cost=7.0)
    sup, now = _supervisor(terminal, TYPED)
    _view, startup = sup.spawn_agent("a", "typed", None)  # nothing to type: never raises
    assert startup.outcome.state is StartupState.WAITING
    assert terminal.looks <= 10  # 60 s of 7-second looks, not 600 looks of 0.1 s sleeps
    assert 60.0 <= startup.waited_s < 70.0
    assert now[0] < 1000.0 + 80.0


def test_the_budget_comes_from_the_kind_or_the_spawn() -> None:
    config = PawConfig(
        agents={"typed": TYPED.agents["typed"].model_copy(update={"startup_timeout_s": 5.0})}
    )
    terminal = SlowTerminal(ready_at=1000.0 + 20.0)
    sup, _now = _supervisor(terminal, config)
    with pytest.raises(PawError, match="waiting for you: it shows a screen paw does not recog"):
        sup.spawn("a", "typed", "fix it")
    assert terminal.typed == []
    terminal2 = SlowTerminal(ready_at=1000.0 + 20.0)
    sup2, _ = _supervisor(terminal2, config)
    _view, startup = sup2.spawn_agent("b", "typed", "fix it", startup_timeout_s=30.0)
    assert startup.task_typed is True


def test_a_typed_task_is_never_typed_while_the_agent_is_busy_starting() -> None:
    terminal = SlowTerminal(ready_at=0.0, screen="paw demo agent\n⠋ working…")
    sup, _ = _supervisor(terminal, TYPED)
    with pytest.raises(PawError, match=r"still starting after 6\d?s \(busy\)"):
        sup.spawn_agent("a", "typed", "fix it")
    assert terminal.typed == []


# -- the default process match of a custom command ----------------------------------------------


def _proc(*argv: str, name: str = "") -> ProcInfo:
    return ProcInfo(4242, name or argv[0].rsplit("/", 1)[-1], argv[0], argv, 1.0)


@pytest.mark.parametrize(
    ("command", "proc", "matches"),
    [
        (("{python}", "agents/notes.py"), _proc("/venv/bin/python", "agents/notes.py"), True),
        (("{python}", "agents/notes.py"), _proc("/venv/bin/python", "other.py"), False),
        (("python3", "-u", "notes.py"), _proc("/usr/bin/python3.12", "-u", "notes.py"), True),
        (("{python}", "-m", "my.agent"), _proc("python3", "-m", "my.agent", "--task", "t"), True),
        (("sh", "agents/hello.sh"), _proc("sh", "agents/hello.sh", "a task"), True),
        (("sh", "agents/hello.sh"), _proc("sh", "agents/other.sh"), False),
        (("./agents/hello.sh",), _proc("/bin/sh", "./agents/hello.sh", name="hello.sh"), True),
        (("./my-long-agent-name",), _proc("/bin/bash", "./my-long-agent-name", name="x"), True),
        (("env", "A=1", "node", "cli.js"), _proc("node", "/w/cli.js"), True),
        (("bash",), _proc("bash"), True),
        (("bash",), _proc("zsh"), False),
    ],
)
def test_derived_match(command: tuple[str, ...], proc: ProcInfo, matches: bool) -> None:
    assert matches_process(derive_match(command), proc) is matches


def test_a_wrapper_with_a_detector_also_matches_the_cli_it_execs() -> None:
    config = PawConfig(
        agents={
            "careful": AgentProfileConfig(
                command=("sh", "agents/careful.sh", "{python}"), detector="scripted"
            ),
            "own": AgentProfileConfig(
                command=("sh", "agents/careful.sh"), match=ProcessMatch(executables=("x",))
            ),
        }
    )
    careful = profile_for(config, "careful")
    assert careful is not None
    assert matches_process(careful.match, _proc("python3", "-m", "paw.demo.agent", "--task", "t"))
    assert matches_process(careful.match, _proc("sh", "agents/careful.sh", "/venv/bin/python"))
    own = profile_for(config, "own")
    assert own is not None
    assert own.match == ProcessMatch(executables=("x",))  # a written match wins
