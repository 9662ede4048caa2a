"""A whole wave, run and then landed, on real tmux and git with scripted agents that commit.

Six tasks: ``a`` and ``b`` touch the same file (``b`` conflicts once ``a`` landed, is sent back,
rebases, resolves and lands), ``c`` has a check that fails only on top of ``a`` (sent back, it
fixes it and lands), ``d`` depends on ``a``, ``e`` is independent, ``f`` conflicts and has no
retries (parked). The lander is killed -9 right after its first base move and run again: the
base ends with exactly the landed commits, in the order they landed, by fast-forward only.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.supervisor.test_land_real import PAW, git, journal, land, scratch_left, subjects
from tests.support.budget import budget

if TYPE_CHECKING:
    from libtmux.server import Server

pytestmark = [pytest.mark.git, pytest.mark.tmux, pytest.mark.timeout(600)]

WORK = """\
set -e
n=$(basename "$PWD")
g="git -c user.name=agent -c user.email=agent@example.invalid"
if [ -f "{marks}/$n" ]; then
  case $n in
    night-b) $g rebase main >/dev/null 2>&1 || {{
        printf 'A\\nB\\n' > shared.txt; git add shared.txt
        GIT_EDITOR=true $g rebase --continue >/dev/null; }} ;;
    night-c) $g rebase main >/dev/null 2>&1; touch c-compat.txt; git add c-compat.txt
        $g commit -qm "task c: compat" ;;
  esac
  exit 0
fi
touch "{marks}/$n"
case $n in
  night-a) echo A > shared.txt ;;
  night-b) echo B > shared.txt ;;
  night-c) echo c > c.txt ;;
  night-d) echo d > d.txt ;;
  night-e) echo e > e.txt ;;
  night-f) echo F > shared.txt ;;
esac
git add -A
$g commit -qm "task ${{n#night-}}"
"""

WAVE = """
name = "night"
agent = "worker"
max_parallel = 6
poll_s = 0.5
settle_s = 1

[land]
wait_s = 180

[[tasks]]
name = "a"
task = "write A"

[[tasks]]
name = "b"
task = "write B"
depends_on = ["a"]

[[tasks]]
name = "c"
task = "write c"
check = "test -f c.txt && {{ ! grep -qs A shared.txt || test -f c-compat.txt; }}"
depends_on = ["a"]

[[tasks]]
name = "d"
task = "write d"
depends_on = ["a"]

[[tasks]]
name = "e"
task = "write e"

[[tasks]]
name = "f"
task = "write F"
depends_on = ["a"]
retries = 0
"""


def test_a_wave_of_six_runs_then_lands_through_a_kill_9(
    git_repo: Path, server: Server, tmp_path: Path
) -> None:
    repo = git_repo
    assert server.socket_name is not None
    socket = server.socket_name
    marks = tmp_path / "marks"
    marks.mkdir()
    work = tmp_path / "work.sh"
    work.write_text(WORK.format(marks=marks), encoding="utf-8")
    command = json.dumps(
        ["{python}", "-m", "paw.demo.agent", "--on-line", f"sh {work}", "busy 0.3"]
    )
    (repo / "paw.toml").write_text(
        f'[agents.worker]\ncommand = {command}\ndetector = "scripted"\ntask_mode = "stdin-typed"\n'
        'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }\n',
        encoding="utf-8",
    )
    (repo / "shared.txt").write_text("base\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "setup")
    wave_file = tmp_path / "night.toml"
    wave_file.write_text(WAVE.format(), encoding="utf-8")
    env = {**os.environ, "PAW_TMUX_SOCKET": socket}
    ran = subprocess.run(
        [*PAW, "wave", "run", str(wave_file), "--quiet"], cwd=repo, env=env,
        capture_output=True, text=True, check=False, timeout=budget(240),
    )  # fmt: skip
    assert ran.returncode == 0, ran.stdout + ran.stderr
    before = git(repo, "rev-parse", "main")

    killed = land(repo, socket, crash="land:moved")

    assert killed.returncode == -9, killed.stdout + killed.stderr
    assert subjects(repo)[-1] in ("task a", "task e")  # the one whole step it made

    done = land(repo, socket, "--json")

    assert done.returncode == 1, done.stdout + done.stderr
    rows = {row["task"]: row for row in json.loads(done.stdout)["tasks"]}
    status = {name: row["status"] for name, row in rows.items()}
    assert status == {
        "a": "landed", "b": "landed", "c": "landed", "d": "landed", "e": "landed",
        "f": "parked",
    }, rows  # fmt: skip
    assert rows["b"]["followups"] == 1
    assert rows["c"]["followups"] == 1
    assert rows["f"]["files"] == ["shared.txt"]
    # the base: exactly the landed commits, in landing order, fast-forward only from `before`
    landed = [
        str(e["task"])
        for e in journal(repo)["events"]
        if e["status"] == "landed"
    ]  # fmt: skip
    assert sorted(landed) == ["a", "b", "c", "d", "e"]  # each once, though killed mid-way
    expected = []
    for task in landed:
        expected += ["task c", "task c: compat"] if task == "c" else [f"task {task}"]
    assert subjects(repo)[-len(expected) :] == expected
    assert git(repo, "rev-list", "--count", f"{before}..main") == str(len(expected))
    assert sum(len(row["commits"]) for row in rows.values()) == len(expected)  # recorded once
    assert (repo / "shared.txt").read_text(encoding="utf-8") == "A\nB\n"
    assert git(repo, "status", "--porcelain") == ""
    assert scratch_left(repo) == []
    report = subprocess.run(
        [*PAW, "wave", "report", "--json"], cwd=repo, env=env, capture_output=True, text=True,
        check=True,
    ).stdout  # fmt: skip
    assert json.loads(report)["landing"]["into"] == "main"


AS_THEY_FINISH_WORK = """\
set -e
n=$(basename "$PWD")
g="git -c user.name=agent -c user.email=agent@example.invalid"
case $n in
  night-a) echo a > a.txt ;;
  night-b) seen=no; i=0
    while [ $i -lt {tries} ]; do
      if git log main --format=%s | grep -qx "task a"; then seen=yes; break; fi
      sleep 0.5; i=$((i + 1))
    done
    echo "a on main while the wave ran: $seen" > b.txt ;;
esac
git add -A
$g commit -qm "task ${{n#night-}}"
"""

AS_THEY_FINISH_WAVE = """
name = "night"
agent = "worker"
poll_s = 0.5
settle_s = 1

[land]
as_tasks_finish = true

[[tasks]]
name = "a"
task = "write a"

[[tasks]]
name = "b"
task = "write b"
depends_on = ["a"]
"""


def _worker(repo: Path, work: Path) -> None:
    command = json.dumps(
        ["{python}", "-m", "paw.demo.agent", "--on-line", f"sh {work}", "busy 0.3"]
    )
    (repo / "paw.toml").write_text(
        f'[agents.worker]\ncommand = {command}\ndetector = "scripted"\ntask_mode = "stdin-typed"\n'
        'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }\n',
        encoding="utf-8",
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "setup")


def test_land_as_tasks_finish_lands_during_the_run_through_kill_9s(
    git_repo: Path, server: Server, tmp_path: Path
) -> None:
    """``[land] as_tasks_finish = true``: a real ``paw wave run`` lands each task as it is done
    (``b``'s agent, started after ``a`` was done, sees ``a`` on main while the wave runs). Its
    lander is killed -9 right after each move of the base (and started again by the runner),
    then the runner itself is killed -9 and ``paw wave run`` started again: each task lands
    once, the base moves by fast-forward only, no scratch worktree is left."""
    import time

    from paw.adapters import parent_death
    from paw.cli.wave.store import RunnerLock

    repo = git_repo
    assert server.socket_name is not None
    work = tmp_path / "work.sh"
    work.write_text(AS_THEY_FINISH_WORK.format(tries=int(budget(240))), encoding="utf-8")
    _worker(repo, work)
    wave_file = tmp_path / "night.toml"
    wave_file.write_text(AS_THEY_FINISH_WAVE, encoding="utf-8")
    before = git(repo, "rev-parse", "main")
    env = {**os.environ, "PAW_TMUX_SOCKET": server.socket_name}

    def wait_for(what: str, predicate: Any, seconds: float = 180) -> None:
        end = time.monotonic() + budget(seconds)
        while time.monotonic() < end:
            if predicate():
                return
            time.sleep(0.2)
        raise AssertionError(f"timed out waiting for: {what}")

    def landed(task: str) -> bool:
        path = repo / ".paw" / "waves" / "night.land.json"
        tasks = json.loads(path.read_text(encoding="utf-8"))["tasks"] if path.exists() else []
        return any(t["name"] == task and t["status"] == "landed" for t in tasks)

    runner = subprocess.Popen(
        [*PAW, "wave", "run", str(wave_file)], cwd=repo, text=True,
        env={**env, "PAW_TEST_CRASH_AT": "land:moved"},  # its lander: killed at each move
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        wait_for("a landed while the wave runs", lambda: landed("a"))
        assert runner.poll() is None  # the wave still runs: b waits for a on main
        runner.kill()  # kill -9 of the runner (its lander dies with it)
    finally:
        out, err = runner.communicate(timeout=budget(60))
    assert runner.returncode == -9, out + err
    assert "paw: the lander was killed (signal 9); started again" in err, err
    if parent_death.available():
        from paw.adapters.state import StateStore

        docs = StateStore(repo / ".paw" / "waves")
        wait_for("its lander gone", lambda: not RunnerLock(docs, "night.land").held_by_other(), 30)

    again = subprocess.run(
        [*PAW, "wave", "run", str(wave_file)], cwd=repo, env=env, capture_output=True,
        text=True, check=False, timeout=budget(300),
    )  # fmt: skip

    assert again.returncode == 0, again.stdout + again.stderr
    assert "wave night: 2 of 2 landed on main" in again.stdout, again.stdout
    assert subjects(repo) == ["initial", "setup", "task a", "task b"]
    assert git(repo, "merge-base", "--is-ancestor", before, "main") == ""
    assert (repo / "b.txt").read_text(encoding="utf-8") == "a on main while the wave ran: yes\n"
    events = journal(repo)["events"]
    assert sorted(str(e["task"]) for e in events if e["status"] == "landed") == ["a", "b"]
    assert journal(repo)["current"] is None
    assert git(repo, "status", "--porcelain") == ""
    assert scratch_left(repo) == []
    audit = (repo / ".paw" / "audit.jsonl").read_text(encoding="utf-8").splitlines()
    recovered = [r for r in map(json.loads, audit) if r.get("event") == "land-recover"]
    assert ("a", "landed") in [(r["task"], r["outcome"]) for r in recovered], recovered
    nothing = land(repo, server.socket_name, "--no-wait")  # all landed: nothing moves
    assert nothing.returncode == 0, nothing.stdout + nothing.stderr
    assert subjects(repo) == ["initial", "setup", "task a", "task b"]


TAIL_WORK = """\
set -e
g="git -c user.name=agent -c user.email=agent@example.invalid"
echo "turn" >> t.txt
git add -A
$g commit -qm "task t: turn $(wc -l < t.txt)"
"""

TAIL_WAVE = """
name = "night"
agent = "worker"
poll_s = 0.5
settle_s = 1
land_check = "for i in $(seq 1 40); do echo suite line $i; done; exit 4"

[land]
as_tasks_finish = true
wait_s = 240

[[tasks]]
name = "t"
task = "write t"
retries = 1
"""


def test_a_check_failing_on_top_of_the_base_in_a_real_run_is_sent_back_then_parked_with_its_tail(
    git_repo: Path, server: Server, tmp_path: Path
) -> None:
    """A real ``paw wave run`` landing as tasks finish: the wave's ``land_check`` fails on the
    task's work; the follow-up goes to its live agent, which commits again; it fails again and
    the task is parked with the check's last 30 lines, in ``--json`` and in the report; the base
    is untouched and ``paw wave run`` exits 1."""
    repo = git_repo
    assert server.socket_name is not None
    work = tmp_path / "work.sh"
    work.write_text(TAIL_WORK, encoding="utf-8")
    _worker(repo, work)
    wave_file = tmp_path / "night.toml"
    wave_file.write_text(TAIL_WAVE, encoding="utf-8")
    before = git(repo, "rev-parse", "main")
    env = {**os.environ, "PAW_TMUX_SOCKET": server.socket_name}

    ran = subprocess.run(
        [*PAW, "wave", "run", str(wave_file), "--json"], cwd=repo, env=env,
        capture_output=True, text=True, check=False, timeout=budget(400),
    )  # fmt: skip

    assert ran.returncode == 1, ran.stdout + ran.stderr
    out = json.loads(ran.stdout)
    assert out["status"] == "done"
    assert out["error"]["message"] == "wave night done: not every task landed"
    row = out["landing"]["tasks"][0]
    assert (row["task"], row["status"]) == ("t", "parked")
    assert (row["attempts"], row["followups"]) == (2, 1)
    assert row["problem"] == "check failed after the rebase"
    assert row["why"] == "check failed after the rebase (exit 4) after 1 follow-up"
    assert row["history"] == "2 failing checks"
    lines = row["tail"].splitlines()
    assert lines == [f"suite line {i}" for i in range(11, 41)]  # its last 30 lines
    assert isinstance(row["queued_s"], float)
    assert row["queued_s"] > 0
    assert git(repo, "rev-parse", "main") == before  # nothing landed
    assert subjects(repo, "paw/night-t")[-2:] == ["task t: turn 1", "task t: turn 2"]
    assert git(repo, "status", "--porcelain") == ""
    assert scratch_left(repo) == []
    report = subprocess.run(
        [*PAW, "wave", "report"], cwd=repo, env=env, capture_output=True, text=True, check=True
    ).stdout
    assert "| t | parked: check failed after the rebase | 2 | 1 |" in report
    assert "**t** (parked): check failed after the rebase (exit 4) after 1 follow-up" in report
    assert "suite line 40" in report
    assert "suite line 10\n" not in report
