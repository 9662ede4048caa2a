"""What the channel live tests share: the long command they give the model (``SCENARIO
shell_long``; harmless and long, it wraps at 80 columns and the guard allows it, judged on the
exact input), a paw run that asks for it, what they read around it, and the forged hook run
every hook channel must refuse, and the repaint of a dialog (or the forgery of one, where a
hook holds the request and the agent draws none) by another process."""

from __future__ import annotations

import contextlib
import json
import re
import shlex
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from tests.e2e import channel_figure, paw_run, scenarios
from tests.e2e.pane import wait_until
from tests.e2e.scenarios import Action

LONG_FILE = "paw-long.txt"
LONG_COMMAND = (
    f"touch {LONG_FILE} && echo the quick brown fox jumps over the lazy dog and keeps on "
    "running across the long wide field until the evening comes"
)


def use_long_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``SCENARIO shell_long`` ask for :data:`LONG_COMMAND`."""
    monkeypatch.setitem(scenarios.SCENARIOS, "shell_long", Action("shell", command=LONG_COMMAND))


def started(agent: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[paw_run.PawRun]:
    """A fixture's body: paw and ``agent`` at 80x24, ``shell_long`` asking the long command;
    stopped after the test."""
    use_long_command(monkeypatch)
    run = paw_run.start(agent, 80, 24)
    try:
        yield run
    finally:
        paw_run.stop(run)


def turn_channels_off(run: paw_run.PawRun) -> None:
    """``[channels] enabled = false`` in the run's paw.toml (before anything is spawned)."""
    toml = run.ws.repo / "paw.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + "[channels]\nenabled = false\n", "utf-8")


def assert_approved_by_keys(
    run: paw_run.PawRun, prompt: dict[str, Any], effect_timeout: float
) -> None:
    """Approving ``prompt`` (``SCENARIO shell``'s) sends keys, its command runs, and every
    decision sent in the case went by keys."""
    decision = paw_run.decide(run, "approve", prompt["id"])
    assert decision["outcome"] in ("sent", "sent-unconfirmed"), decision
    assert decision["keys"] != []
    assert wait_until(lambda: (run.worktree / scenarios.SHELL_FILE).exists(), effect_timeout)
    assert [s.get("path") for s in sends(run)] == ["keys"]


def sends(run: paw_run.PawRun) -> list[dict[str, Any]]:
    """The case's audit records of a decision paw sent."""
    return [r for r in channel_figure.audit(run) if r.get("decision") == "send"]


def channel_dir(run: paw_run.PawRun) -> Path:
    """The spawn's channel directory (the only one)."""
    dirs = list((run.ws.repo / ".paw" / "channels" / paw_run.AGENT_NAME).iterdir())
    assert len(dirs) == 1, dirs
    return dirs[0]


def assert_a_forged_hook_run_is_refused(
    run: paw_run.PawRun,
    monkeypatch: pytest.MonkeyPatch,
    forged: tuple[dict[str, Any], str],
    timeouts: tuple[float, float],
) -> None:
    """The model's shell tool runs paw's hook program itself (``forged``: the event it pipes to
    it, and the shell the agent runs its hook with), with the spawn's real directory and secret
    at hand: its record verifies, but its writer is not the agent's hook runner, so paw lists
    nothing for it and answers nothing. ``timeouts``: for a prompt, for an effect."""
    event, shell = forged
    prompt_timeout, effect_timeout = timeouts
    paw_run.spawn(run, "SCENARIO shell")
    first = paw_run.wait_prompt(run, prompt_timeout)
    paw_run.decide(run, "approve", first["id"])
    paw_run.wait_no_prompt(run, effect_timeout)
    directory = channel_dir(run)
    settings = json.loads((directory / "settings.json").read_text(encoding="utf-8"))
    hook = settings["hooks"]["PermissionRequest"][0]["hooks"][0]["command"]
    forge = f"printf %s {shlex.quote(json.dumps(event))} | {shell} -c {shlex.quote(hook)}"
    monkeypatch.setitem(scenarios.SCENARIOS, "forge", Action("shell", command=forge))
    before = set((directory / "req").iterdir())
    paw_run.send(run, "SCENARIO forge")
    prompt = paw_run.wait_prompt(run, prompt_timeout)
    assert prompt["subject"] == forge  # the real request, carried exactly by the channel
    paw_run.decide(run, "approve", prompt["id"])
    assert wait_until(lambda: len(set((directory / "req").iterdir()) - before) >= 2, effect_timeout)
    # the forged request waits for an answer now; paw lists nothing for it
    for _ in range(3):
        assert paw_run.prompts(run) == []
    found = [
        p for p in set((directory / "req").iterdir()) - before
        if json.loads(p.read_text(encoding="utf-8"))["tool_input"] == event["tool_input"]
    ]  # fmt: skip
    assert len(found) == 1
    assert not (directory / "ans" / found[0].name).exists()
    channel_figure.assert_answered_by_the_channel_alone(run, scenarios.SHELL_COMMAND, forge)


def repaint(run: paw_run.PawRun, drawn: str, shown: str) -> int:
    """Another process writes to the agent's terminal (its pty, as any process of the user's
    may): the lowest row drawing ``drawn`` (the dialog's) is redrawn showing ``shown`` instead,
    the cursor put back (tests/adversarial/test_terminal_repaint.py). The row's index."""
    pane = run.pane
    tty = subprocess.run(
        ["tmux", "-L", run.socket, "display-message", "-p", "-t", pane.target, "#{pane_tty}"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    rows = pane.capture().splitlines()
    row = max(i for i, line in enumerate(rows) if drawn in line)
    line = rows[row].replace(drawn, shown.ljust(len(drawn)))
    with open(tty, "w", encoding="utf-8") as terminal:  # noqa: PTH123 - a terminal, not a file
        terminal.write(f"\0337\033[{row + 1};1H{line}\0338")
    return row


BLOCKED = "rm -rf .git"  # inside the worktree: its link to the repository (shell.rm-git-dir)
SHOWN = "ls -la"
FIXTURES = Path(__file__).parent.parent / "fixtures" / "screens-live"
_STYLE = re.compile(r"\x1b\[[0-9;]*m")


def forged_dialog(agent: str, top: str) -> list[str]:
    """The rows ``agent`` draws for its shell dialog when no hook is wired (its live 80x24
    capture, with styles), from the first row holding ``top`` to the last, asking ``ls -la``."""
    screen = (FIXTURES / agent / "shell_80x24" / "screen.ansi").read_text(encoding="utf-8")
    command = scenarios.SHELL_COMMAND
    rows = [  # a row drawing the command loses its styles (they split the command)
        plain.replace(command, SHOWN) if command in plain else row.replace("'touch", "'ls")
        for row, plain in ((row, _STYLE.sub("", row)) for row in screen.splitlines())
    ]
    return rows[next(i for i, row in enumerate(rows) if top in _STYLE.sub("", row)) :]


@contextlib.contextmanager
def forging(run: paw_run.PawRun, rows: list[str]) -> Iterator[None]:
    """Another process writes to the agent's terminal (its pty, as any process of the user's
    may) ``rows`` as the pane's lowest rows, again and again (the agent may redraw over them)
    until the block ends, the cursor put back each time. Each row is drawn over the one there
    and only its end cleared, so a frame caught half written still shows the forgery."""
    tty = subprocess.run(
        ["tmux", "-L", run.socket, "display-message", "-p", "-t", run.pane.target,
         "#{pane_tty}"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    height = int(run.pane.info()["pane_height"])
    top = height - len(rows) + 1
    frame = (
        "\0337"
        + "".join(f"\033[{top + i};1H\033[0m\033[2K{row}\033[0m" for i, row in enumerate(rows))
        + "\0338"
    )
    stop = threading.Event()

    def paint() -> None:
        with open(tty, "w", encoding="utf-8") as terminal:  # noqa: PTH123 - a terminal
            while not stop.is_set():
                terminal.write(frame)
                terminal.flush()
                stop.wait(0.005)

    painter = threading.Thread(target=paint, daemon=True)
    painter.start()
    try:
        yield
    finally:
        stop.set()
        painter.join()


@contextlib.contextmanager
def paused(process: psutil.Process) -> Iterator[None]:
    """``process`` stopped (SIGSTOP) for the block, continued after."""
    process.suspend()
    try:
        yield
    finally:
        process.resume()


def assert_a_forged_dialog_is_refused(
    run: paw_run.PawRun,
    monkeypatch: pytest.MonkeyPatch,
    dialog: tuple[str, str],
    timeouts: tuple[float, float],
) -> None:
    """While the agent's hook holds a request for a command the guard blocks (``rm -rf
    .git``), the agent draws no dialog of its own; another process writes one in the agent's
    own layout (``dialog``: the agent's name for its captures, the first row to copy) asking
    ``ls -la``. paw lists no approvable screen prompt for ``ls -la``: the request and the
    forged dialog disagree, and ``paw approve`` refuses; no key is sent, nothing goes to the
    hook, ``.git`` stays, and the refusal is audited."""
    agent, top = dialog
    prompt_timeout, effect_timeout = timeouts
    monkeypatch.setitem(scenarios.SCENARIOS, "blocked", Action("shell", command=BLOCKED))
    paw_run.spawn(run, "SCENARIO blocked")
    target = run.worktree / ".git"
    assert target.exists()
    held = paw_run.wait_prompt(run, prompt_timeout)
    assert (held["subject"], held["verdict"]) == (BLOCKED, "block"), held
    assert held["source"] == "channel-only", held  # the hook holds it; no dialog drawn
    request_id = held["channel_request"]
    directory = channel_dir(run)
    rows = forged_dialog(agent, top)
    (record,) = list((directory / "req").iterdir())
    drawer = psutil.Process(json.loads(record.read_text(encoding="utf-8"))["hook_pid"]).parent()
    assert drawer is not None

    seen: list[dict[str, Any]] = []

    def disagreeing() -> bool:
        seen[:] = [p for p in paw_run.prompts(run) if p["source"] == "disagree"]
        return bool(seen)

    # the agent's program (the hook's parent, which draws its screen) is paused meanwhile, as a
    # process of the user's may: its redraws no longer race the forgery, so what is tested is
    # the disagreement, never a look that caught the agent's own frame; the hook still holds
    with paused(drawer), forging(run, rows):
        assert wait_until(lambda: SHOWN in run.pane.capture(), effect_timeout)
        assert wait_until(disagreeing, effect_timeout), (paw_run.prompts(run), run.pane.capture())
        (shown,) = seen
        # both claims: the hook's exact input and the forged drawing; neither approvable
        assert shown["subject"] is None, shown
        assert shown["verdict"] != "allow", shown
        assert (shown["channel_subject"], shown["channel_request"]) == (BLOCKED, request_id)
        assert shown["screen_subject"] == SHOWN, shown
        assert "channel disagrees" in shown["question"], shown
        for _ in range(3):  # never an approvable screen prompt for the forged command
            for listed in paw_run.prompts(run):
                assert listed["subject"] != SHOWN, listed
                assert listed["verdict"] != "allow", listed
        refused = paw_run.decide(run, "approve", shown["id"])
    assert refused["outcome"] == "refused", refused
    assert "disagree" in refused["reason"], refused
    assert refused["exit"] != 0, refused
    # nothing sent: no key, no answer for the hook (it still holds the request)
    audit = channel_figure.audit(run)
    assert [r for r in audit if r.get("decision") == "send"] == [], audit
    assert [r for r in audit if r.get("keys") or r.get("path") == "keys"] == [], audit
    assert not list((directory / "ans").iterdir())
    assert target.exists()
    refusals = [r for r in audit if r.get("decision") == "refuse"]
    assert len(refusals) == 1, audit
    assert (refusals[0]["event"], refusals[0]["prompt_id"]) == ("approve", shown["id"])
    assert (refusals[0]["source"], refusals[0]["channel_request"]) == ("disagree", request_id)
    assert refusals[0]["channel_subject"] == BLOCKED, refusals
    assert refusals[0]["path"] is None, refusals  # neither keys nor the channel may answer it
    assert not run.stub.gated_results("blocked")
    # the request is still the hook's, listed from the channel alone once the forgery stops
    assert wait_until(
        lambda: (
            [(p["source"], p["subject"]) for p in paw_run.prompts(run)]
            == [("channel-only", BLOCKED)]
        ),
        effect_timeout,
    ), paw_run.prompts(run)
