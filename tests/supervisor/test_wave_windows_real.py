"""Issue 29, items 5-7 and the wave side of 1: every crash window of a wave, on real tmux, git,
scripted agents, a real wave runner process (killed with SIGKILL where a window is a crash) and
real apprise to a local HTTP receiver.

- A rule approval killed between its record and its key (``approve:recorded``) is parked for a
  human on resume, with one message; never taken for approved.
- A message queued behind a slow delivery when the runner is killed is delivered on resume,
  once; the one cut off mid-delivery (it had arrived) is not sent again.
- A prompt or question shown while the task's check runs is parked and announced at once; the
  check's follow-up waits for the human's answer and is typed only at the idle input after it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from typing import TYPE_CHECKING, Any

import pytest

from tests.supervisor.test_wave_real import (
    BUDGET_S,
    PAW,
    WHERE,
    _agent,
    _agent_of,
    _audit,
    _paw,
    _state,
    _task,
    _wait,
)
from tests.support.receiver import Receiver

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git, pytest.mark.timeout(300)]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A local notification receiver."""
    found = Receiver()
    yield found
    found.close()


def _start(repo: Path, socket: str, *args: str, crash: str | None = None) -> subprocess.Popen[str]:
    env = {**os.environ, "PAW_TMUX_SOCKET": socket}
    env.pop("PAW_TEST_CRASH_AT", None)
    if crash is not None:
        env["PAW_TEST_CRASH_AT"] = crash
    return subprocess.Popen(
        [*PAW, "wave", *args, "--quiet"], cwd=repo, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


def _finish(runner: subprocess.Popen[str]) -> tuple[int, str]:
    """Wait for a runner to end by itself (killed if the test fails first)."""
    try:
        out, err = runner.communicate(timeout=BUDGET_S)
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait(30)
    return runner.returncode, out + err


def _kill(runner: subprocess.Popen[str]) -> None:
    if runner.poll() is None:
        runner.send_signal(signal.SIGKILL)
    runner.wait(30)


def _human(repo: Path, task: str) -> dict[str, Any] | None:
    prompts = _task(_state(repo), task).get("prompts", [])
    live = [p for p in prompts if p["live"] and p["route"] == "human" and p["notified_at"]]
    return live[-1] if live else None


def _setup(repo: Path, socket: str, paw_toml: str, wave: str) -> Path:
    (repo / "paw.toml").write_text(paw_toml, encoding="utf-8")
    wave_file = repo.parent / "night.toml"
    wave_file.write_text(wave, encoding="utf-8")
    checked = _paw(repo, socket, "wave", "check", str(wave_file))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    return wave_file


def _notify(url: str) -> str:
    return f'[notify]\nurls = ["{url}"]\nbell = false\ntmux_badge = false\ndigest_over = 10\n'


# -- 5: a rule approval killed between its record and its key --------------------------------


def test_a_rule_approval_killed_before_its_key_is_parked_for_a_human_on_resume(
    git_repo: Path, server: Server, receiver: Receiver
) -> None:
    """Killed at ``approve:recorded``: the sweep reconciles ``not-sent``; the resumed runner
    parks the live prompt for a human with one "parked" message (it never reads the decision
    alone as "approved by rule"), and the human's approval then finishes the task."""
    assert server.socket_name is not None
    socket, repo = server.socket_name, git_repo
    wave_file = _setup(
        repo, socket, _agent("demo-rule", "busy 0.3", "shell ls -la"),
        f'name = "night"\nagent = "demo-rule"\npoll_s = 0.5\nsettle_s = 1\n{_notify(receiver.url)}'
        '[[rules]]\nkind = "shell"\nsubject = "ls *"\n'
        '[[tasks]]\nname = "list"\ntask = "list the files"\ncheck = "true"\n',
    )  # fmt: skip
    crashed = _start(repo, socket, "run", str(wave_file), crash="approve:recorded")
    code, output = _finish(crashed)
    assert code == -signal.SIGKILL, output
    decided = [r for r in _audit(repo) if r["event"] == "approve" and r["decision"] == "send"]
    assert len(decided) == 1
    assert "approved by rule 1 of" in decided[0]["user"]

    resumed = _start(repo, socket, "resume")
    try:
        _wait("the cut-off rule approval parked", lambda: _human(repo, "list") is not None)
        parked = _human(repo, "list")
        assert parked is not None
        assert parked["why"] == "a rule approval was cut off before its key was sent"
        assert parked["answered"] is None
        assert receiver.wait(lambda ms: any("needs a human" in str(m["title"]) for m in ms), 30)
        approved = _paw(repo, socket, "approve", parked["id"], "--yes")
        assert approved.returncode == 0, approved.stdout + approved.stderr
    finally:
        code, output = _finish(resumed)
    assert code == 0, output
    assert _task(_state(repo), "list")["phase"] == "done"
    audit = _audit(repo)
    outcomes = [r["outcome"] for r in audit if r["event"] == "outcome"]
    assert outcomes.count("not-sent") == 1
    assert outcomes.count("sent") + outcomes.count("sent-unconfirmed") == 1  # the human's
    titles = receiver.titles()
    assert titles.count(f"paw wave night ({WHERE}): list needs a human: shell ls -la") == 1, titles
    report = json.loads(_paw(repo, socket, "wave", "report", "--json").stdout)
    row = report["tasks"][0]
    assert (row["approved_by_human"], row["approved_by_rule"]) == (1, 0)


# -- 6: a message queued behind a slow delivery when the runner is killed ----------------------


def test_messages_cut_off_by_a_kill_during_a_slow_delivery_arrive_once_after_resume(
    git_repo: Path, server: Server, receiver: Receiver
) -> None:
    """The first message hangs in a slow channel (it has arrived; the answer has not); the
    second waits behind it in the runner. kill -9, resume: the second is delivered, once; the
    first is not sent again (at most once per message)."""
    assert server.socket_name is not None
    socket, repo = server.socket_name, git_repo
    push = _agent("demo-confirm", "busy 0.3", "shell git push origin feature")
    tasks = "".join(
        f'[[tasks]]\nname = "{name}"\ntask = "push the branch"\ncheck = "true"\n'
        for name in ("one", "two")
    )
    slow = f"{receiver.url}?rto=300"  # apprise waits for the slow receiver
    wave_file = _setup(
        repo, socket, push,
        f'name = "night"\nagent = "demo-confirm"\npoll_s = 0.5\nsettle_s = 1\n{_notify(slow)}'
        + tasks,
    )  # fmt: skip
    receiver.gate.clear()
    runner = _start(repo, socket, "run", str(wave_file))
    try:
        _wait("both messages recorded", lambda: len(_state(repo).get("messages", [])) == 2)
        assert receiver.wait(lambda ms: len(ms) == 1, BUDGET_S)
    finally:
        _kill(runner)
    receiver.gate.set()
    first = receiver.titles()
    assert len(first) == 1, first
    wanted = {
        f"paw wave night ({WHERE}): {t} needs a human: shell git push origin feature"
        for t in ("one", "two")
    }

    resumed = _start(repo, socket, "resume")
    try:
        assert receiver.wait(lambda ms: {str(m["title"]) for m in ms} >= wanted, BUDGET_S)
        stopped = _paw(repo, socket, "wave", "stop")
        assert stopped.returncode == 0, stopped.stdout + stopped.stderr
    finally:
        code, output = _finish(resumed)
    assert code == 0, output
    titles = receiver.titles()
    for title in wanted:
        assert titles.count(title) == 1, titles
    audit = _audit(repo)
    assert [r["title"] for r in audit if r["event"] == "wave-notify-uncertain"] == first
    resent = [r["title"] for r in audit if r["event"] == "wave-notify-resumed"]
    assert resent == sorted(wanted - set(first))


# -- 7 and 1: a prompt or a question shown while the check runs --------------------------------


@pytest.mark.parametrize(
    "step",
    ["shell git push origin feature", "question Which table should I drop?"],
    ids=["permission", "question"],
)
def test_a_prompt_shown_while_the_check_runs_is_parked_and_the_follow_up_waits_for_it(
    git_repo: Path, server: Server, receiver: Receiver, tmp_path: Path, step: str
) -> None:
    """The agent looked finished, its check started (and waits for the test), then the agent
    asked: the prompt is parked and announced while the check runs. The check fails: the
    follow-up is neither refused nor typed into the prompt (its `1` would answer a question);
    it is typed once the human answered and the agent is idle again, and the task finishes."""
    assert server.socket_name is not None
    socket, repo = server.socket_name, git_repo
    gate, go, second = tmp_path / "gate", tmp_path / "go", tmp_path / "second"
    check = (
        f"touch {gate}; while [ ! -f {go} ]; do sleep 0.1; done; "
        f"test -f {second} || {{ touch {second}; echo 'FAILED test_add: expected 2, got 1'; "
        "exit 1; }"
    )
    _setup(
        repo, socket, _agent("demo-late", "busy 0.3", f"wait {gate}", step),
        f'name = "night"\nagent = "demo-late"\npoll_s = 0.5\nsettle_s = 1\nstuck_after_s = 600\n'
        f'{_notify(receiver.url)}'
        f'[[tasks]]\nname = "late"\ntask = "add numbers"\ncheck = "{check}"\nretries = 1\n',
    )  # fmt: skip
    runner = _start(repo, socket, "run", str(repo.parent / "night.toml"))
    try:
        _wait(
            "the prompt parked while the check runs",
            lambda: (
                _human(repo, "late") is not None
                and _task(_state(repo), "late").get("checking_since") is not None
            ),
        )
        parked = _human(repo, "late")
        assert parked is not None
        assert receiver.wait(
            lambda ms: any(f"late needs a human: {step}" in str(m["title"]) for m in ms), 30
        )
        go.touch()  # the check fails
        _wait(
            "the check's failure", lambda: len(_task(_state(repo), "late").get("checks", [])) == 1
        )
        _wait(
            "the follow-up waiting", lambda: bool(_task(_state(repo), "late").get("followup_text"))
        )
        late = _task(_state(repo), "late")
        assert late["phase"] == "running", late["outcome"]
        assert late["followups"] == 0
        assert not [r for r in _audit(repo) if r["event"] == "wave-followup"]
        assert _human(repo, "late") is not None  # still shown: nothing typed into it
        # The human answers (a question: in the agent's pane; `2`, so a `1` would show).
        if step.startswith("question"):
            pane = next(
                p
                for p in server.panes
                if p.pane_id and "night-late" in _agent_of(server, p.pane_id)
            )
            server.cmd("send-keys", "-t", str(pane.pane_id), "2")
        else:
            approved = _paw(repo, socket, "approve", parked["id"], "--yes")
            assert approved.returncode == 0, approved.stdout + approved.stderr
        _wait("the task done", lambda: _task(_state(repo), "late").get("phase") == "done")
    finally:
        code, output = _finish(runner)
    assert code == 0, output
    audit = _audit(repo)
    events = [r["event"] for r in audit]
    assert events.count("wave-followup") == 1
    assert "expected 2, got 1" in next(r for r in audit if r["event"] == "wave-followup")["text"]
    answer = ("approve", "outcome", "prompt-ended")
    ended = [
        i
        for i, r in enumerate(audit)
        if r.get("prompt_id") == parked["id"] and r["event"] in answer
    ]
    # answered first, then typed: the answer's first record (the human's decision, or the
    # prompt seen ending) precedes the follow-up; the approving process writes its verified
    # outcome later, and the runner may type once the screen shows the agent idle before that
    assert ended[0] < events.index("wave-followup")
    if step.startswith("question"):
        screen = "\n".join(
            server.cmd("capture-pane", "-p", "-S", "-200", "-t", str(pane.pane_id)).stdout
        )
        assert "received key '2': answer" in screen, screen
        assert "received key '1'" not in screen, screen
    titles = receiver.titles()
    assert sum(f"late needs a human: {step}" in t for t in titles) == 1, titles


# -- a follow-up killed between its count and its keys -----------------------------------------


def test_a_follow_up_killed_before_its_keys_is_typed_once_by_the_next_runner(
    git_repo: Path, server: Server, receiver: Receiver, tmp_path: Path
) -> None:
    """Killed at ``wave:followup-counted`` (the failed check's follow-up counted and audited,
    nothing typed): the agent's idle screen is the one from before, so the next runner types
    the follow-up, once, and the task finishes after its second check. Before this, the
    resumed runner took the follow-up for sent and waited for a turn that never came."""
    assert server.socket_name is not None
    socket, repo = server.socket_name, git_repo
    tried = tmp_path / "tried"
    fail = "echo 'FAILED test_add: expected 2, got 1'; exit 1"
    check = f"test -f {tried} || {{ touch {tried}; {fail}; }}"
    wave_file = _setup(
        repo, socket, _agent("demo-fix", "busy 0.3"),
        f'name = "night"\nagent = "demo-fix"\npoll_s = 0.5\nsettle_s = 1\nstuck_after_s = 600\n'
        f'{_notify(receiver.url)}'
        f'[[tasks]]\nname = "fix"\ntask = "fix test_add"\ncheck = "{check}"\nretries = 1\n',
    )  # fmt: skip
    crashed = _start(repo, socket, "run", str(wave_file), crash="wave:followup-counted")
    code, output = _finish(crashed)
    assert code == -signal.SIGKILL, output
    left = _task(_state(repo), "fix")
    assert left["followups"] == 1, left
    assert left["followup_typing"], left  # counted, not known to be typed
    sends = [r for r in _audit(repo) if r["event"] == "send" and r.get("agent") == "night-fix"]
    assert sends == []

    resumed = _start(repo, socket, "run", str(wave_file))
    code, output = _finish(resumed)  # the wave ends by itself once its one task is done
    assert code == 0, output
    done = _task(_state(repo), "fix")
    assert done["phase"] == "done", done
    assert done["followups"] == 1
    assert len(done["checks"]) == 2
    assert done["followup_typing"] is None
    audit = _audit(repo)
    typed = [
        r for r in audit
        if r["event"] == "send" and r.get("agent") == "night-fix" and "decision" not in r
    ]  # fmt: skip
    assert len(typed) == 1, typed
    assert "expected 2, got 1" in typed[0]["text"]
    pane = next(
        p for p in server.panes if p.pane_id and "night-fix" in _agent_of(server, p.pane_id)
    )
    screen = "\n".join(
        server.cmd("capture-pane", "-p", "-J", "-S", "-200", "-t", str(pane.pane_id)).stdout
    )
    assert screen.count("received: ") == 1, screen
