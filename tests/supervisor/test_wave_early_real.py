"""A wave's runner parks a hook channel's request from the poke's early look, before the screen
sweep (issue 32): over real tmux (control mode, as `paw wave run` builds its supervisor) and
git, the runner's own loop (its ticks 3600 s apart, a poke's wake only), paw's real hook program
run as Qwen Code runs it (the stand-in agent of :mod:`tests.support.hook_stand_in`, which
draws nothing while its hook waits), and notifications through real apprise to a local HTTP
receiver.

The screen sweep of the tick the poke starts is held at its first tmux call: the request must be
parked (in the wave's state on disk) and announced to the human while it is held; the screen
sweep's step that follows announces nothing more."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from libtmux.server import Server

from paw.adapters.notify import ChannelNotifier
from paw.adapters.state import StateStore
from paw.cli.compose import build_supervisor
from paw.core.wave import CheckResult, Phase, WaveFile, WaveState, file_digest
from paw.supervisor.channels import WakeableSleep
from paw.supervisor.service import Supervisor
from paw.supervisor.wave import WaveRunner
from paw.supervisor.wave.runner import STOP_SUFFIX
from tests.support.budget import budget
from tests.support.hook_stand_in import (
    COMMAND,
    EVENT,
    HeldSurvey,
    configure_stand_in,
    launched_pid,
    stop_hooks,
)
from tests.support.receiver import Receiver

pytestmark = [pytest.mark.tmux, pytest.mark.git]

AGENT = "night-t0"


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A local notification receiver."""
    found = Receiver()
    yield found
    found.close()


class Loop:
    """The runner's sleep between ticks (woken by a poke, or by the test) and its ticks."""

    def __init__(self) -> None:
        self.wakeable = WakeableSleep(min_gap_s=0.0)
        self.ticked = threading.Condition()
        self.ticks: list[WaveState] = []
        self.sleeping = threading.Event()

    def on_tick(self, state: WaveState) -> None:
        with self.ticked:
            self.ticks.append(state)
            self.ticked.notify_all()

    def sleep(self, seconds: float) -> None:
        self.sleeping.set()
        try:
            self.wakeable(seconds)
        finally:
            self.sleeping.clear()

    def ticked_after(self, count: int, seconds: float) -> bool:
        with self.ticked:
            return self.ticked.wait_for(lambda: len(self.ticks) > count, seconds)

    def ticked_until(self, check: Callable[[], bool], seconds: float) -> bool:
        """Wake the runner for a tick at a time until ``check()`` holds."""
        end = time.monotonic() + budget(seconds)
        while not check():
            if time.monotonic() > end:
                return False
            count = len(self.ticks)
            self.wakeable.wake()
            self.ticked_after(count, 1.0)
        return True


def _parked(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if "needs a human" in str(m.get("title", ""))]


def test_a_wave_parks_a_channel_request_from_the_pokes_early_look(
    git_repo: Path, server: Server, tmp_path: Path, receiver: Receiver
) -> None:
    socket = server.socket_name or ""
    go = configure_stand_in(git_repo, socket, tmp_path)
    wave = WaveFile.model_validate(
        {
            "name": "night", "agent": "qwen-code", "poll_s": 3600, "idle_poll_s": 3600,
            "notify": {"urls": [receiver.url], "bell": False, "digest_over": 10},
            "tasks": [{"name": "t0", "task": "make a file"}],
        }
    )  # fmt: skip
    sup = build_supervisor(str(git_repo), socket_name=socket, control=True)  # as `paw wave run`
    assert isinstance(sup, Supervisor)
    notifier = ChannelNotifier(wave.notify or sup.ctx.config.notify)

    def run_check(command: str, worktree: str, timeout: float) -> CheckResult:
        del command, worktree, timeout
        return CheckResult(0, "ok", 0.0)

    store = StateStore(git_repo / ".paw" / "waves")  # as `paw wave run` keeps it
    runner = WaveRunner(
        sup, wave, file="night.toml", sha256=file_digest(b"night"), texts={"t0": "make a file"},
        store=store, notifier=notifier, run_check=run_check,
    )  # fmt: skip
    # The screen sweep, held at its first tmux call while ``hold`` is set.
    gate = HeldSurvey(sup.ctx.terminal)
    held, hold, entered = gate.held, gate.hold, gate.entered
    loop = Loop()
    sup.listen_counts(loop.wakeable.wake)  # as `paw wave run` does

    def idle() -> bool:  # running, seen, proven, asking nothing, its channel's mark settled
        seen = sup.ctx.memory.observed.get(AGENT)
        view = sup.ctx.memory.views.get(AGENT)
        return (
            runner.state.task("t0").phase is Phase.RUNNING
            and seen is not None
            and seen[1].proc is not None
            and view is not None
            and view[5].status.value != "starting"
            and not any(p.live for p in runner.state.task("t0").prompts)
            and isinstance(sup.ctx.memory.channel_marks.get(AGENT), tuple)
        )

    ran = threading.Thread(target=runner.run, args=(loop.sleep, loop.on_tick), daemon=True)
    ran.start()
    pid: int | None = None
    try:
        assert loop.ticked_until(idle, 90), runner.state.task("t0")
        pid = launched_pid(sup.ctx.state, AGENT)
        assert sup.publish_early == runner.park_early
        deadline = time.monotonic() + budget(30)
        while not loop.sleeping.is_set() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert loop.sleeping.is_set()  # between ticks, for an hour
        before = len(receiver.messages)
        hold.set()
        go.write_text(json.dumps(EVENT), encoding="utf-8")  # the real hook lands it and pokes
        assert receiver.wait(lambda m: _parked(m[before:]), budget(60)), receiver.messages
        assert entered.wait(budget(60))  # the screen sweep is held all this time
        [message] = _parked(receiver.messages[before:])
        assert "t0" in json.dumps(message)
        on_disk = WaveState.model_validate(store.read("night"))
        [prompt] = on_disk.task("t0").prompts
        assert (prompt.route, prompt.live, prompt.subject) == ("human", True, COMMAND)
        # the screen sweep's step follows: the same prompt, announced once
        count = len(loop.ticks)
        held.set()
        assert loop.ticked_after(count, budget(60))
        [after] = runner.state.task("t0").prompts
        assert (after.id, after.live) == (prompt.id, True)
        assert len(_parked(receiver.messages[before:])) == 1
    finally:
        held.set()
        store.write(f"night{STOP_SUFFIX}", {"stop": True})
        loop.wakeable.wake()
        ran.join(budget(60))
        if pid is not None:
            stop_hooks(pid)
        notifier.close()
        sup.close()
    assert not ran.is_alive()
    assert sup.publish_early is None
