"""`paw wave` on the command line: check with file:line problems, clear errors, one runner per
wave, --detach, stop."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from paw.adapters.state import StateStore
from paw.cli import main
from paw.cli.wave import RunnerLock
from tests.support.budget import budget

if TYPE_CHECKING:
    from libtmux.server import Server

BAD = """name = "night"
max_parallel = 0

[[tasks]]
name = "a"
task = "x"

[[tasks]]
name = "b"
task = "y"
retries = -1
colour = "blue"
"""


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_check_lists_every_problem_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wave = tmp_path / "night.toml"
    wave.write_text(BAD, encoding="utf-8")
    code, out, _ = _run(capsys, "wave", "check", str(wave))
    assert code == 2
    assert out.splitlines() == [
        "night.toml:2: max_parallel: Input should be greater than or equal to 1",
        "night.toml:11: tasks[2].retries: Input should be greater than or equal to 0",
        (
            "night.toml:12: tasks[2].colour: unknown key (allowed: name, agent, task, task_file,"
            " check, retries, depends_on, budget_s, budget_tokens, budget_usd, base)"
        ),
    ]


def test_check_names_the_task_of_a_whole_file_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wave = tmp_path / "night.toml"
    wave.write_text(
        'name = "night"\n[[tasks]]\nname = "a"\ntask = "x"\ndepends_on = ["zz"]\n', encoding="utf-8"
    )
    code, out, _ = _run(capsys, "wave", "check", str(wave))
    assert code == 2
    assert out.strip() == "night.toml:5: tasks[1].depends_on: unknown task 'zz'"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("name = ", "night.toml: invalid TOML: Invalid value"),
        ('name = "n"\n', "night.toml: tasks: required, but missing"),
    ],
)
def test_check_syntax_and_missing_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, needle: str
) -> None:
    wave = tmp_path / "night.toml"
    wave.write_text(text, encoding="utf-8")
    code, out, _ = _run(capsys, "wave", "check", str(wave))
    assert code == 2
    assert needle in out


def test_run_of_a_bad_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wave = tmp_path / "night.toml"
    wave.write_text(BAD, encoding="utf-8")
    code, _, err = _run(capsys, "wave", "run", str(wave))
    assert code == 2
    assert err.splitlines()[0].startswith("paw: night.toml:2: max_parallel:")
    assert "(+2 more; run `paw wave check" in err


def test_status_without_any_wave_is_a_clear_error(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(git_repo)
    for verb in ("status", "report", "resume", "stop"):
        code, _, err = _run(capsys, "wave", verb)
        assert code == 2
        assert err.startswith("paw: no wave has run in this repository")


def test_a_second_runner_is_refused(
    git_repo: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(git_repo)
    wave = tmp_path / "night.toml"
    wave.write_text('name = "night"\n[[tasks]]\nname = "a"\ntask = "x"\n', encoding="utf-8")
    lock = RunnerLock(StateStore(git_repo / ".paw" / "waves"), "night")
    assert lock.acquire()
    try:
        code, _, err = _run(capsys, "wave", "run", str(wave))
    finally:
        lock.release()
    assert code == 1
    assert "wave 'night' already has a runner" in err


@pytest.mark.tmux
@pytest.mark.git
@pytest.mark.timeout(180)
def test_detach_runs_the_wave_in_a_tmux_window(
    git_repo: Path,
    tmp_path: Path,
    server: Server,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.chdir(git_repo)
    command = json.dumps(["{python}", "-m", "paw.demo.agent", "busy 0.3"])
    (git_repo / "paw.toml").write_text(
        f'[agents.quick]\ncommand = {command}\ndetector = "scripted"\ntask_flag = "--task"\n'
        'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }\n',
        encoding="utf-8",
    )
    wave = tmp_path / "night.toml"
    wave.write_text(
        'name = "night"\nagent = "quick"\nsettle_s = 1\npoll_s = 0.5\ndone_without_check = "idle"\n'
        '[notify]\nbell = false\n[[tasks]]\nname = "a"\ntask = "x"\n',
        encoding="utf-8",
    )
    code, out, err = _run(capsys, "wave", "run", str(wave), "--detach")
    assert code == 0, err
    assert "runner started in tmux pane" in out
    state = git_repo / ".paw" / "waves" / "night.json"
    end = time.monotonic() + budget(90)
    status, doc = "", {}
    while time.monotonic() < end:
        if state.exists():
            doc = json.loads(state.read_text(encoding="utf-8"))
            status = doc.get("status", "")
            if status in ("done", "failed"):
                break
        time.sleep(0.3)
    assert status == "done", [(t["name"], t["phase"], t["outcome"]) for t in doc.get("tasks", [])]
    code, out, _ = _run(capsys, "wave", "report")
    assert code == 0
    assert "| a | done |" in out
    # The runner drove the server this command used: its agent is listed here (a runner that
    # followed the socket's name from its own pane found another server, under the agents'
    # TMUX_TMPDIR, where its agents ran unseen and outlived the test).
    code, out, err = _run(capsys, "ls", "--json")
    assert code == 0, err
    agents = {a["name"]: a for a in json.loads(out)["agents"]}
    assert agents["night-a"]["status"] not in ("lost", "exited", "unknown"), agents["night-a"]
    started = [p.pane_start_command or "" for p in server.panes]
    assert any("--task=x" in cmd for cmd in started), started
