"""A prompt the wave parks for a human is announced exactly once, whatever line the runner is
killed at (``kill -9``) and however often ``paw wave run`` goes on: on real tmux, git,
scripted agents, a real runner process and real apprise to a local HTTP receiver.

The windows (:data:`paw.supervisor.crash_steps.WAVE_STEPS`):

- ``wave:decided``: the prompt is parked (and its message owed) in the state; no message is
  recorded in the outbox yet. The resumed runner records and sends it: never lost.
- ``wave:recorded``: the message is recorded in the outbox; no channel has it yet. The resumed
  runner delivers it once; the parked prompt is not announced a second time.
"""

from __future__ import annotations

import signal
from typing import TYPE_CHECKING

import pytest

from paw.supervisor.crash_steps import WAVE_STEPS
from tests.supervisor.test_wave_real import BUDGET_S, _agent, _paw, _state, _task, _wait
from tests.supervisor.test_wave_windows_real import _finish, _notify, _setup, _start
from tests.support.receiver import Receiver

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git, pytest.mark.timeout(300)]

TASKS = ("one", "two")
TITLE = "paw wave night (repo): {} needs a human: shell git push origin feature"


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A local notification receiver."""
    found = Receiver()
    yield found
    found.close()


def _parked(repo: Path) -> list[dict[str, object]]:
    return [
        p
        for t in TASKS
        for p in _task(_state(repo), t).get("prompts", [])
        if p["live"] and p["route"] == "human"
    ]


@pytest.mark.parametrize("step", WAVE_STEPS)
def test_a_parked_prompt_is_announced_once_after_a_kill_at_each_step(
    git_repo: Path, server: Server, receiver: Receiver, step: str
) -> None:
    """Killed at ``step`` right after the first prompt was parked: ``paw wave run`` again
    sends exactly one "needs a human" message per parked prompt (none lost, none twice)."""
    assert server.socket_name is not None
    socket, repo = server.socket_name, git_repo
    tasks = "".join(
        f'[[tasks]]\nname = "{name}"\ntask = "push the branch"\ncheck = "true"\n' for name in TASKS
    )
    wave_file = _setup(
        repo, socket, _agent("demo-confirm", "busy 0.3", "shell git push origin feature"),
        f'name = "night"\nagent = "demo-confirm"\npoll_s = 0.5\nsettle_s = 1\n'
        f"{_notify(receiver.url)}{tasks}",
    )  # fmt: skip
    crashed = _start(repo, socket, "run", str(wave_file), crash=step)
    code, output = _finish(crashed)
    assert code == -signal.SIGKILL, output
    left = _state(repo)
    parked = _parked(repo)
    assert parked, left  # killed after a prompt was parked for a human…
    if step == "wave:decided":  # … and before its message was recorded
        assert left.get("messages", []) == [], left
        assert all(p["notified_at"] is None for p in parked), parked
    else:  # … and after its message was recorded, before a channel had it
        recorded = [m for m in left.get("messages", []) if m["event"] == "parked"]
        assert len(recorded) == len(parked), left
    assert receiver.titles() == []

    wanted = [TITLE.format(t) for t in TASKS]
    resumed = _start(repo, socket, "run", str(wave_file))
    try:
        assert receiver.wait(lambda ms: {str(m["title"]) for m in ms} >= set(wanted), BUDGET_S), (
            receiver.titles()
        )
        _wait("both prompts parked and announced", lambda: len(_parked(repo)) == len(TASKS))
        stopped = _paw(repo, socket, "wave", "stop")
        assert stopped.returncode == 0, stopped.stdout + stopped.stderr
    finally:
        code, output = _finish(resumed)  # its channels are drained before it exits
    assert code == 0, output
    titles = receiver.titles()
    for title in wanted:
        assert titles.count(title) == 1, titles
    assert all(p["notified_at"] is not None for p in _parked(repo))
    assert _state(repo).get("due", []) == []
