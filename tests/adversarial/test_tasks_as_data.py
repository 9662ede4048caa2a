"""A task is data, never an option or a command (issue scenario 3), for every built-in agent:
proven on paw's launch plan, and on each real agent CLI's own argv parser in a tmux pane."""

from __future__ import annotations

import contextlib
import json
import subprocess
import time
from pathlib import Path

import psutil
import pytest

from paw.core.agents import BUILTIN_PROFILES, TaskError, plan_launch, profile_for
from paw.core.config import PawConfig
from paw.core.verified import verified_versions
from tests.adversarial.ident_support import (
    Env,
    configure,
    listed,
    paw,
    screen,
    tmux,
    wait_for,
)
from tests.e2e import agents

OPTION_TASKS = (
    "--dangerously-skip-permissions", "--version", "-h", "--", "-", "--help me now", "update",
)  # fmt: skip


@pytest.mark.parametrize("kind", sorted(BUILTIN_PROFILES))
@pytest.mark.parametrize("task", OPTION_TASKS)
def test_every_builtin_passes_an_option_like_task_as_data(kind: str, task: str) -> None:
    profile = BUILTIN_PROFILES[kind]
    if profile.operand_subcommands and task.isalpha():
        # refused, never passed: no form carries a one-word task as data there
        with pytest.raises(TaskError, match="one-word task"):
            plan_launch(profile, task, "/usr/bin/python3")
        return
    launch = plan_launch(profile, task, "/usr/bin/python3")
    base = len(profile.command)
    extra = launch.argv[base:]
    if launch.typed_task is not None:
        assert (extra, launch.typed_task) == ((), task)  # typed into the input, not argv
    elif profile.task_flag:
        assert profile.task_flag.startswith("--")
        assert extra == (f"{profile.task_flag}={task}",)
    else:
        assert extra == ("--", task)


@pytest.mark.parametrize("kind", sorted(BUILTIN_PROFILES))
def test_a_leading_slash_command_is_refused_for_every_agent(kind: str) -> None:
    with pytest.raises(TaskError, match="slash"):
        plan_launch(BUILTIN_PROFILES[kind], "/run rm -rf ~", "/usr/bin/python3")
    launch = plan_launch(BUILTIN_PROFILES[kind], "/src/app is slow: find out why", "py")
    carried = (*launch.argv, launch.typed_task or "")
    assert any(a.endswith("/src/app is slow: find out why") for a in carried)


def test_claude_one_word_task_is_refused_not_run_as_a_subcommand() -> None:
    with pytest.raises(TaskError, match="subcommand"):
        plan_launch(BUILTIN_PROFILES["claude-code"], "doctor", "py")
    assert plan_launch(BUILTIN_PROFILES["claude-code"], "fix the doctor page", "py").argv == (
        "claude", "--", "fix the doctor page",
    )  # fmt: skip


@pytest.mark.tmux
@pytest.mark.git
def test_scripted_agent_receives_an_option_like_task_as_its_task(env: Env) -> None:
    configure(env, "busy 600")
    done = paw("spawn", "alice", "--agent", "scripted", "--task=--dangerously-skip-permissions")
    assert done.returncode == 0, done.stderr
    agents = listed("ls")
    pane = agents[0]["pane_id"]
    assert wait_for(lambda: "task: --dangerously-skip-permissions" in screen(env, pane))


@pytest.fixture(scope="module")
def installed_agents() -> Path:
    """The agents cache; fails (never skips) when an agent CLI is missing."""
    home = agents.agents_home()
    missing = agents.missing_binaries(home)
    if missing:
        pytest.fail(
            f"agent CLIs not installed in {home}: {', '.join(missing)}; {agents.INSTALL_HINT}"
        )
    return home


ARGV_AGENTS = ("claude-code", "codex", "gemini-cli", "qwen-code", "opencode")


def _ui_lines(env: Env, pane: str) -> list[str]:
    """What the pane's program drew (tmux's own "Pane is dead" line aside)."""
    lines = [line for line in screen(env, pane).splitlines() if line.strip()]
    return [line for line in lines if not line.startswith("Pane is dead")]


def _history(env: Env, pane: str) -> str:
    """The pane's scrollback and screen."""
    return tmux(env, "capture-pane", "-p", "-S", "-", "-t", pane).stdout


def _settled(env: Env, pane: str) -> bool:
    """The program ended, or drew its interface (more than a version line)."""
    dead = tmux(env, "display-message", "-p", "-t", pane, "#{pane_dead}").stdout.strip()
    return dead == "1" or len(_ui_lines(env, pane)) > 2


@pytest.mark.e2e
@pytest.mark.tmux
@pytest.mark.git
@pytest.mark.parametrize("kind", ARGV_AGENTS)
def test_real_cli_reads_a_dash_dash_task_as_its_prompt_not_as_an_option(
    env: Env, installed_agents: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    binary = str(agents.binary_path(kind, installed_agents))
    version = verified_versions()[kind]
    home = env.tmp / "home"  # the CLIs write their settings there, never into the user's HOME
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    # the probe bites: the bare option makes this CLI print its version and exit
    started = time.monotonic()
    control = subprocess.run(
        [binary, "--version"], capture_output=True, text=True, timeout=120, check=False,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert (control.returncode, version in control.stdout) == (0, True), control
    answer_s = time.monotonic() - started  # how long the option path takes to print and exit
    # paw's launch plan for the same task: the CLI starts with it as its prompt
    # codex starts an app-server daemon that outlives its pane unless told not to
    command = [binary, "--no-daemon"] if kind == "codex" else [binary]
    (env.repo / "paw.toml").write_text(
        f"[agents.{kind}]\ncommand = {json.dumps(command)}\n", encoding="utf-8"
    )
    # as when paw runs in a CI job: the pane must still be an interactive terminal (with
    # CI=true gemini-cli took itself for headless and exited on its untrusted folder)
    monkeypatch.setenv("CI", "true")  # paw starts the test's tmux server: it inherits this
    done = paw("spawn", "x", "--agent", kind, "--task=--version")
    # up (0), or up and waiting for you at a start-up dialog (5: gemini's folder-trust dialog,
    # drawn a moment after it starts; paw says so when it sees it first): either way it started
    assert done.returncode == 0 or (
        done.returncode == 5 and "waiting for you (x)" in done.stderr
    ), done.stderr
    pane = listed("ls")[0]["pane_id"]
    pid = int(tmux(env, "display-message", "-p", "-t", pane, "#{pane_pid}").stdout.strip())
    try:
        # it starts its interface with the task (offline, claude then gives up; opencode draws
        # nothing until its model list loads): it never prints its version and exits
        wait_for(lambda: _settled(env, pane), 3 * answer_s + 10)
        drawn = _ui_lines(env, pane)
        dead = tmux(env, "display-message", "-p", "-t", pane, "#{pane_dead}").stdout.strip()
        if kind == "claude-code":  # offline it draws its welcome, then gives up and exits
            assert wait_for(lambda: "Welcome to Claude Code" in _history(env, pane)), drawn
        else:  # the others stay up in their interface (gemini: its trust dialog)
            assert dead == "0", screen(env, pane)
        assert not any(line.strip().startswith(version) for line in drawn), drawn
    finally:
        _end_tree(pid)  # node CLIs outlive their pane (gemini ignores the hangup)


def _end_tree(pid: int) -> None:
    """End the process started in the pane and everything it started."""
    try:
        root = psutil.Process(pid)
        family = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return
    for proc in family:
        with contextlib.suppress(psutil.NoSuchProcess):
            proc.kill()
    psutil.wait_procs(family, timeout=10)


def test_a_custom_command_gets_a_plain_task_and_refuses_an_option_like_one() -> None:
    config = PawConfig.model_validate({"agents": {"hello": {"command": ["sh", "hello.sh"]}}})
    profile = profile_for(config, "hello")
    assert profile is not None
    assert plan_launch(profile, "count the TODOs", "py").argv == (
        "sh",
        "hello.sh",
        "count the TODOs",
    )
    with pytest.raises(TaskError, match="read as an option"):
        plan_launch(profile, "--dangerously-skip-permissions", "py")
    flagged = profile_for(
        PawConfig.model_validate({"agents": {"x": {"command": ["x"], "task_flag": "-m"}}}), "x"
    )
    assert flagged is not None
    assert plan_launch(flagged, "do it", "py").argv == ("x", "-m", "do it")
    with pytest.raises(TaskError, match="short flag -m"):
        plan_launch(flagged, "-rf", "py")
