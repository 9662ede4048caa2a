"""A prompt the wave parks for a human is announced exactly once, whatever line the runner is
killed at (``kill -9``) and however often ``paw wave run`` goes on: on real tmux, git,
scripted agents, a real runner process and real apprise to a local HTTP receiver.

The windows (:data:`paw.supervisor.crash_steps.WAVE_STEPS`):

- ``wave:decided``: the prompt is parked (and its message owed) in the state; no message is
  recorded in the outbox yet. The resumed runner records and sends it: never lost.
- ``wave:recorded``: the message is recorded in the outbox; no channel has it yet. The resumed
  runner delivers it once; the parked prompt is not announced a second time.
- ``wave:audited``: the message's ``wave-notify`` is in the audit too; no channel has it yet. The
  resumed runner delivers it once, without a second ``wave-notify``.

Whatever the step, each message ends with exactly one ``wave-notify`` (record, then act).
"""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from paw.adapters.state import StateStore
from paw.supervisor.crash_steps import WAVE_STEPS
from tests.supervisor.test_wave_real import (
    BUDGET_S,
    WHERE,
    _agent,
    _audit,
    _paw,
    _state,
    _task,
    _wait,
)
from tests.supervisor.test_wave_windows_real import _finish, _notify, _setup, _start
from tests.support.hook_stand_in import (
    COMMAND,
    EVENT,
    install_stand_in,
    launched_pid,
    stand_in_config,
    stop_hooks,
)
from tests.support.receiver import Receiver

if TYPE_CHECKING:
    from collections.abc import Iterator

    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git, pytest.mark.timeout(300)]

TASKS = ("one", "two")
TITLE = f"paw wave night ({WHERE}): {{}} needs a human: shell git push origin feature"


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A local notification receiver."""
    found = Receiver()
    yield found
    found.close()


def _parked(repo: Path, tasks: tuple[str, ...] = TASKS) -> list[dict[str, object]]:
    return [
        p
        for t in tasks
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
    notified = [str(r["id"]) for r in _audit(repo) if r["event"] == "wave-notify"]
    assert sorted(notified) == sorted(str(m["id"]) for m in _state(repo)["messages"])


def test_a_channel_request_parked_from_the_early_look_is_announced_once_after_a_kill(
    git_repo: Path, server: Server, tmp_path: Path, receiver: Receiver
) -> None:
    """A hook channel's request (paw's real hook program, run as Qwen Code runs it) parked from
    the poke's early look (the poke ends the runner's sleep; a tick's own screen sweep is the
    same window, should the poke land mid-tick), the runner killed right after the park was
    saved (``wave:decided``): ``paw wave run`` again announces it, once."""
    socket, repo = server.socket_name or "", git_repo
    agent, go = install_stand_in(tmp_path)
    wave_file = _setup(
        repo, socket, stand_in_config(socket, agent, go),
        'name = "night"\nagent = "qwen-code"\npoll_s = 1\nidle_poll_s = 1\n'
        f'{_notify(receiver.url)}[[tasks]]\nname = "t0"\ntask = "make a file"\n',
    )  # fmt: skip
    crashed = _start(repo, socket, "run", str(wave_file), crash="wave:decided")
    pid: int | None = None
    try:
        # its agent seen and its screen stepped on (the poke's early look then knows it)
        _wait("t0 observed", lambda: _task(_state(repo), "t0").get("last_signature") is not None)
        pid = launched_pid(StateStore(repo / ".paw"), "night-t0")
        go.write_text(json.dumps(EVENT), encoding="utf-8")  # the real hook lands it and pokes
        code, output = _finish(crashed)
        assert code == -signal.SIGKILL, output
        [parked] = _parked(repo, ("t0",))
        assert (parked["subject"], parked["notified_at"]) == (COMMAND, None)
        # a tool request the channel carries (answered through it): a prompt, not a dialog
        assert "dialog" not in str(parked["why"]), parked
        listed = json.loads(_paw(repo, socket, "prompts", "--json").stdout)["prompts"]
        assert [(p["id"], p["waiting"]) for p in listed] == [(parked["id"], False)], listed
        [row] = json.loads(_paw(repo, socket, "ls", "--json").stdout)["agents"]
        assert row["status"] == "prompt", row
        assert receiver.titles() == []
        resumed = _start(repo, socket, "run", str(wave_file))
        try:
            assert receiver.wait(lambda ms: _needs_human(ms) == 1, BUDGET_S), receiver.titles()
            _wait("announced", lambda: all(p["notified_at"] for p in _parked(repo, ("t0",))))
            stopped = _paw(repo, socket, "wave", "stop")
            assert stopped.returncode == 0, stopped.stdout + stopped.stderr
        finally:
            code, output = _finish(resumed)
        assert code == 0, output
    finally:
        if pid is not None:
            stop_hooks(pid)
    assert _needs_human(receiver.messages) == 1, receiver.titles()
    [body] = [str(m["message"]) for m in receiver.messages if "needs a human" in str(m["title"])]
    assert f"paw approve {parked['id']}" in body, body
    assert "answer it in the agent's pane" not in body, body


def _needs_human(messages: list[dict[str, Any]]) -> int:
    return sum(1 for m in messages if "needs a human" in str(m.get("title", "")))


def test_a_standing_rule_approves_a_channel_request_through_the_channel_on_its_exact_input(
    git_repo: Path, server: Server, tmp_path: Path, receiver: Receiver
) -> None:
    """Issue 32, 6: a request only the agent's channel reports (the stand-in draws nothing
    while paw's real hook waits, as Qwen Code does) whose exact input a standing rule names and
    the guard allows is approved by that rule, through the channel, bound to the request: no
    key is sent, and no human is asked."""
    socket, repo = server.socket_name or "", git_repo
    agent, go = install_stand_in(tmp_path)
    wave_file = _setup(
        repo, socket, stand_in_config(socket, agent, go),
        'name = "night"\nagent = "qwen-code"\npoll_s = 0.5\n'
        f'{_notify(receiver.url)}'
        '[[rules]]\nkind = "shell"\nsubject = "touch waked.txt && echo *"\n'
        '[[tasks]]\nname = "t0"\ntask = "make a file"\n',
    )  # fmt: skip
    runner = _start(repo, socket, "run", str(wave_file))
    pid: int | None = None
    try:
        _wait("t0 observed", lambda: _task(_state(repo), "t0").get("last_signature") is not None)
        pid = launched_pid(StateStore(repo / ".paw"), "night-t0")
        go.write_text(json.dumps(EVENT), encoding="utf-8")
        _wait(
            "approved by the rule",
            lambda: any(
                str(p.get("answered", "")).startswith("approved by rule 1")
                for p in _task(_state(repo), "t0").get("prompts", [])
            ),
        )
        stopped = _paw(repo, socket, "wave", "stop")
        assert stopped.returncode == 0, stopped.stdout + stopped.stderr
    finally:
        code, output = _finish(runner)
        if pid is not None:
            stop_hooks(pid)
    assert code == 0, output
    [prompt] = _task(_state(repo), "t0")["prompts"]
    assert (prompt["subject"], prompt["route"], prompt["verdict"]) == (COMMAND, "rule", "allow")
    decisions = [r for r in _audit(repo) if r["event"] == "approve" and r.get("decision")]
    assert [(r["decision"], r["path"], r["source"], r["subject"]) for r in decisions] == [
        ("send", "channel", "channel-only", COMMAND)
    ], decisions
    assert "approved by rule 1 of" in str(decisions[0]["user"])
    assert not [t for t in receiver.titles() if "needs a human" in t], receiver.titles()
