"""`paw wave land` on real git: the queue's order, conflicts and checks failing after the rebase,
dependencies, fast-forward only, and kill -9 at every step of a landing, then land again.

The wave's state is written as a runner would leave it (tasks done, their branches committed),
so these tests need no agent; test_land_agent_real.py sends a conflict back to a live one.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from paw.core.wave import Phase, WaveFile, file_digest, initial_state
from paw.supervisor.land import LAND_STEPS

if TYPE_CHECKING:
    from libtmux.server import Server

pytestmark = [pytest.mark.git, pytest.mark.tmux, pytest.mark.timeout(300)]

PAW = [sys.executable, "-m", "paw"]


def git(cwd: Path, *args: str) -> str:
    """Run git; its stdout."""
    out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def commit_on(repo: Path, branch: str, files: dict[str, str], message: str) -> str:
    """A commit on ``branch`` (made from main's first commit), without touching the checkout."""
    tree = repo.parent / f"wt-{branch.replace('/', '-')}"
    if not git(repo, "branch", "--list", branch):
        git(repo, "worktree", "add", "-q", "-b", branch, str(tree), "main")
    for name, text in files.items():
        (tree / name).write_text(text, encoding="utf-8")
    git(tree, "add", "-A")
    git(tree, "commit", "-q", "-m", message)
    return git(tree, "rev-parse", "HEAD")


def write_wave(repo: Path, toml: str, done: dict[str, float], failed: tuple[str, ...] = ()) -> Path:
    """The wave file, and its state as a runner leaves it: ``done`` tasks (with when each
    finished), ``failed`` ones, the rest pending."""
    import tomllib

    path = repo.parent / "night.toml"
    path.write_text(toml, encoding="utf-8")
    wave = WaveFile.model_validate(tomllib.loads(toml))
    state = initial_state(wave, str(path), file_digest(path.read_bytes()), 0.0)
    for task in state.tasks:
        if task.name in done:
            task.phase, task.ended_at, task.outcome = Phase.DONE, done[task.name], "check passed"
        elif task.name in failed:
            task.phase, task.ended_at = Phase.FAILED, 1.0
    waves = repo / ".paw" / "waves"
    waves.mkdir(parents=True, exist_ok=True)
    (repo / ".paw" / ".gitignore").write_text("*\n", encoding="utf-8")
    (waves / "night.json").write_text(json.dumps(state.model_dump(mode="json")), encoding="utf-8")
    return path


def land(
    repo: Path, socket: str, *args: str, crash: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``paw wave land`` as a user runs it (optionally killed -9 at a step)."""
    env = {**os.environ, "PAW_TMUX_SOCKET": socket}
    if crash is not None:
        env["PAW_TEST_CRASH_AT"] = crash
    return subprocess.run(
        [*PAW, "wave", "land", *args], cwd=repo, env=env, capture_output=True, text=True,
        check=False, timeout=240,
    )  # fmt: skip


def journal(repo: Path) -> dict[str, Any]:
    """The lander's journal."""
    data: dict[str, Any] = json.loads(
        (repo / ".paw" / "waves" / "night.land.json").read_text(encoding="utf-8")
    )
    return data


def subjects(repo: Path, rev: str = "main") -> list[str]:
    """The commit subjects of ``rev``, oldest first."""
    return git(repo, "log", "--reverse", "--format=%s", rev).splitlines()


def scratch_left(repo: Path) -> list[str]:
    """Scratch worktrees still there (folders or git's worktree list)."""
    folder = repo / ".paw" / "land"
    found = [p.name for p in folder.glob("*/*")] if folder.is_dir() else []
    listed = [ln for ln in git(repo, "worktree", "list").splitlines() if "/.paw/land/" in ln]
    return found + listed


QUEUE_WAVE = """
name = "night"
land_check = "test -f README.md"

[[tasks]]
name = "a"
task = "a"
check = "grep -q A shared.txt"
retries = 0

[[tasks]]
name = "b"
task = "b"
retries = 0

[[tasks]]
name = "c"
task = "c"
check = "! grep -q A shared.txt"
retries = 0

[[tasks]]
name = "d"
task = "d"
depends_on = ["a"]
retries = 0

[[tasks]]
name = "e"
task = "e"
depends_on = ["b"]
retries = 0

[[tasks]]
name = "f"
task = "f"
retries = 0
"""


def test_queue_lands_in_order_parks_conflicts_and_late_check_failures(
    git_repo: Path, server: Server
) -> None:
    repo = git_repo
    assert server.socket_name is not None
    (repo / "shared.txt").write_text("base\n", encoding="utf-8")
    git(repo, "add", "shared.txt")
    git(repo, "commit", "-q", "-m", "shared")
    heads = {
        "a": commit_on(repo, "paw/night-a", {"shared.txt": "A\n"}, "task a"),
        "b": commit_on(repo, "paw/night-b", {"shared.txt": "B\n"}, "task b"),
        "c": commit_on(repo, "paw/night-c", {"c.txt": "c\n"}, "task c"),
        "d": commit_on(repo, "paw/night-d", {"d.txt": "d\n"}, "task d"),
        "e": commit_on(repo, "paw/night-e", {"e.txt": "e\n"}, "task e"),
        "f": commit_on(repo, "paw/night-f", {"f.txt": "f\n"}, "task f"),
    }
    # d finished first but depends on a; f failed in the wave: never landed
    write_wave(repo, QUEUE_WAVE, {"d": 1.0, "a": 2.0, "b": 3.0, "c": 4.0, "e": 5.0}, ("f",))
    before = git(repo, "rev-parse", "main")

    done = land(repo, server.socket_name, "--no-wait", "--json")

    assert done.returncode == 1, done.stdout + done.stderr
    out = json.loads(done.stdout)
    status = {row["task"]: row["status"] for row in out["tasks"]}
    assert status == {
        "a": "landed", "d": "landed", "b": "parked", "c": "parked", "e": "blocked",
    }  # fmt: skip
    rows = {row["task"]: row for row in out["tasks"]}
    assert rows["b"]["files"] == ["shared.txt"]
    assert "conflict" in rows["b"]["problem"]
    assert rows["c"]["check"] == "! grep -q A shared.txt"
    assert "check failed after the rebase" in rows["c"]["problem"]
    assert "depends on b" in rows["e"]["why"]
    assert out["error"]["exit_code"] == 1
    # exactly the landed commits, in order, by fast-forward from where main was
    assert subjects(repo)[-3:] == ["shared", "task a", "task d"]
    assert git(repo, "merge-base", "--is-ancestor", before, "main") == ""
    assert out["base_commits"] == git(repo, "rev-list", "--reverse", f"{before}..main").split()
    # the checkout of main follows (merge --ff-only there), clean; task branches untouched
    assert (repo / "d.txt").read_text(encoding="utf-8") == "d\n"
    assert git(repo, "status", "--porcelain") == ""
    for task, head in heads.items():
        assert git(repo, "rev-parse", f"paw/night-{task}") == head
    assert scratch_left(repo) == []
    # run again: nothing lands twice, the base stays
    again = land(repo, server.socket_name, "--no-wait")
    assert again.returncode == 1
    assert subjects(repo)[-3:] == ["shared", "task a", "task d"]
    report = subprocess.run(
        [*PAW, "wave", "report"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout
    assert "## Landing" in report
    assert "| b | parked: conflict on rebase |" in report
    assert "conflicting files: shared.txt" in report


def test_merge_strategy_onto_a_branch_not_checked_out(git_repo: Path, server: Server) -> None:
    repo = git_repo
    assert server.socket_name is not None
    git(repo, "branch", "trunk")
    commit_on(repo, "paw/night-a", {"a.txt": "a\n"}, "task a")
    commit_on(repo, "paw/night-b", {"b.txt": "b\n"}, "task b")
    toml = (
        'name = "night"\n[land]\nstrategy = "merge"\ninto = "trunk"\n'
        '[[tasks]]\nname = "a"\ntask = "a"\n[[tasks]]\nname = "b"\ntask = "b"\n'
    )
    write_wave(repo, toml, {"a": 1.0, "b": 2.0})
    main = git(repo, "rev-parse", "main")

    done = land(repo, server.socket_name, "--no-wait")

    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 of 2 landed on trunk" in done.stdout
    merges = git(repo, "log", "--merges", "--format=%s", "trunk").splitlines()
    assert merges == [
        "Merge night task b (paw wave land)", "Merge night task a (paw wave land)",
    ]  # fmt: skip
    assert git(repo, "rev-parse", "main") == main  # only `into` moves
    assert git(repo, "merge-base", "--is-ancestor", main, "trunk") == ""


def test_a_base_that_is_not_a_branch_is_one_clear_line(git_repo: Path, server: Server) -> None:
    repo = git_repo
    assert server.socket_name is not None
    git(repo, "tag", "v1")
    commit_on(repo, "paw/night-a", {"a.txt": "a\n"}, "task a")
    write_wave(repo, 'name = "night"\nbase = "v1"\n[[tasks]]\nname = "a"\ntask = "a"\n', {"a": 1})

    done = land(repo, server.socket_name, "--no-wait")

    assert done.returncode == 1
    assert done.stderr.startswith("paw: 'v1' is not a branch"), done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) <= 2  # the error and its hint


CRASH_WAVE = """
name = "night"
land_check = "test -f x.txt"

[[tasks]]
name = "x"
task = "x"
check = "test -f x.txt"

[[tasks]]
name = "y"
task = "y"
"""


@pytest.mark.parametrize("step", [s for s in LAND_STEPS if s != "land:followup"])
def test_kill_9_at_each_step_then_land_again(git_repo: Path, server: Server, step: str) -> None:
    repo = git_repo
    assert server.socket_name is not None
    commit_on(repo, "paw/night-x", {"x.txt": "x\n"}, "task x")
    commit_on(repo, "paw/night-y", {"y.txt": "y\n"}, "task y")
    write_wave(repo, CRASH_WAVE, {"x": 1.0, "y": 2.0})
    before = git(repo, "rev-parse", "main")

    killed = land(repo, server.socket_name, "--no-wait", crash=step)

    assert killed.returncode == -9, killed.stdout + killed.stderr
    # the base is where it was, or holds x's whole landing: never a half-finished step
    now = git(repo, "rev-parse", "main")
    assert now == before or subjects(repo)[-1] == "task x"
    assert git(repo, "status", "--porcelain") == ""

    again = land(repo, server.socket_name, "--no-wait", "--json")

    assert again.returncode == 0, again.stdout + again.stderr
    assert subjects(repo) == ["initial", "task x", "task y"]  # each landed once, in order
    assert git(repo, "rev-list", "--count", f"{before}..main") == "2"
    assert git(repo, "status", "--porcelain") == ""
    assert scratch_left(repo) == []
    tasks = {t["name"]: t for t in journal(repo)["tasks"]}
    assert [t["status"] for t in tasks.values()] == ["landed", "landed"]
    assert journal(repo)["current"] is None
    assert sum(len(t["commits"]) for t in tasks.values()) == 2


def test_changes_in_the_checkout_of_the_base_stop_it_in_one_line_then_it_lands(
    git_repo: Path, server: Server
) -> None:
    repo = git_repo
    assert server.socket_name is not None
    commit_on(repo, "paw/night-x", {"x.txt": "x\n"}, "task x")
    write_wave(repo, 'name = "night"\n[[tasks]]\nname = "x"\ntask = "x"\n', {"x": 1.0})
    (repo / "x.txt").write_text("mine, not committed\n", encoding="utf-8")  # in the way
    before = git(repo, "rev-parse", "main")

    stopped = land(repo, server.socket_name, "--no-wait")

    assert stopped.returncode == 1
    assert stopped.stderr.startswith("paw: cannot fast-forward main in "), stopped.stderr
    assert "commit or stash" in stopped.stderr
    assert "Traceback" not in stopped.stderr
    assert git(repo, "rev-parse", "main") == before
    assert (repo / "x.txt").read_text(encoding="utf-8") == "mine, not committed\n"
    assert scratch_left(repo) == []
    (repo / "x.txt").unlink()

    again = land(repo, server.socket_name, "--no-wait")

    assert again.returncode == 0, again.stdout + again.stderr
    assert subjects(repo) == ["initial", "task x"]


def test_one_lander_per_wave(git_repo: Path, server: Server) -> None:
    import fcntl

    repo = git_repo
    assert server.socket_name is not None
    commit_on(repo, "paw/night-x", {"x.txt": "x\n"}, "task x")
    write_wave(repo, 'name = "night"\n[[tasks]]\nname = "x"\ntask = "x"\n', {"x": 1.0})
    lock = repo / ".paw" / "waves" / "night.land.lock"
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # as a running `paw wave land` holds it

        refused = land(repo, server.socket_name, "--no-wait", "--json")

    assert refused.returncode == 1
    error = json.loads(refused.stdout)["error"]
    assert error["message"] == "wave 'night' is being landed already"
    assert subjects(repo) == ["initial"]


def test_every_change_is_one_message(git_repo: Path, server: Server) -> None:
    from tests.support.receiver import Receiver

    repo = git_repo
    assert server.socket_name is not None
    receiver = Receiver()
    try:
        (repo / "shared.txt").write_text("base\n", encoding="utf-8")
        git(repo, "add", "shared.txt")
        git(repo, "commit", "-q", "-m", "shared")
        commit_on(repo, "paw/night-a", {"shared.txt": "A\n"}, "task a")
        commit_on(repo, "paw/night-b", {"shared.txt": "B\n"}, "task b")
        toml = (
            f'name = "night"\n[notify]\nurls = ["{receiver.url}"]\nbell = false\n'
            '[[tasks]]\nname = "a"\ntask = "a"\n'
            '[[tasks]]\nname = "b"\ntask = "b"\nretries = 0\n'
        )
        write_wave(repo, toml, {"a": 1.0, "b": 2.0})

        done = land(repo, server.socket_name, "--no-wait")

        assert done.returncode == 1, done.stdout + done.stderr
        assert receiver.wait(lambda titles: len(titles) >= 4)
        titles = receiver.titles()
        assert len(titles) == 4, titles  # a queued, b queued, a landed, b parked: once each
        assert sum("a landed: landed: 1 commit" in t for t in titles) == 1, titles
        assert sum("b parked: conflict on rebase in shared.txt" in t for t in titles) == 1
        # ...and one progress line each on stdout, written as it happens (the renderer's
        # live line), none on stderr
        said = [ln for ln in done.stdout.splitlines() if ln.startswith("land night: ")]
        assert len(said) == 4, done.stdout
        assert any(ln.startswith("land night: a: landed") for ln in said), said
        assert "land night: " not in done.stderr, done.stderr
    finally:
        receiver.close()


ONE_TASK = '[[tasks]]\nname = "x"\ntask = "x"\n'


def _bare(repo: Path) -> Path:
    bare = repo.parent / "remote.git"
    git(repo.parent, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "origin", "main")
    return bare


def test_push_goes_to_a_bare_remote_fast_forward_only(git_repo: Path, server: Server) -> None:
    repo = git_repo
    assert server.socket_name is not None
    bare = _bare(repo)
    git(repo, "branch", "notes")
    git(repo, "push", "-q", "origin", "notes")
    commit_on(repo, "paw/night-x", {"x.txt": "x\n"}, "task x")
    write_wave(repo, f'name = "night"\n[land]\ninto = "notes"\n{ONE_TASK}', {"x": 1.0})

    done = land(repo, server.socket_name, "--no-wait", "--push", "--json")

    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["push"] == {"pushed": True, "detail": "pushed notes to origin"}
    assert git(bare, "rev-parse", "notes") == git(repo, "rev-parse", "notes")
    assert git(bare, "log", "-1", "--format=%s", "notes") == "task x"


def test_a_protected_branch_is_pushed_only_when_a_standing_rule_names_the_push(
    git_repo: Path, server: Server
) -> None:
    repo = git_repo
    assert server.socket_name is not None
    bare = _bare(repo)
    remote_main = git(bare, "rev-parse", "main")
    commit_on(repo, "paw/night-x", {"x.txt": "x\n"}, "task x")
    write_wave(repo, f'name = "night"\n{ONE_TASK}', {"x": 1.0})

    refused = land(repo, server.socket_name, "--no-wait", "--push")

    assert refused.returncode == 1
    assert refused.stderr.count("paw: not pushed: main is a protected branch") == 1, refused.stderr
    assert "git push origin main" in refused.stderr
    assert subjects(repo)[-1] == "task x"  # landed locally all the same
    assert git(bare, "rev-parse", "main") == remote_main
    rule = '[[rules]]\nkind = "shell"\nsubject = "git push origin main"\n'
    (repo.parent / "night.toml").write_text(f'name = "night"\n{rule}{ONE_TASK}', encoding="utf-8")

    pushed = land(repo, server.socket_name, "--no-wait", "--push")

    assert pushed.returncode == 0, pushed.stdout + pushed.stderr
    assert "pushed main to origin" in pushed.stdout
    assert git(bare, "rev-parse", "main") == git(repo, "rev-parse", "main")


def test_no_remote_is_said_once(git_repo: Path, server: Server) -> None:
    repo = git_repo
    assert server.socket_name is not None
    commit_on(repo, "paw/night-x", {"x.txt": "x\n"}, "task x")
    write_wave(repo, f'name = "night"\n[land]\ninto = "main"\n{ONE_TASK}', {"x": 1.0})

    done = land(repo, server.socket_name, "--no-wait", "--push")

    assert done.returncode == 1
    assert done.stderr.strip() == (
        "paw: not pushed: main has no remote to push to (`git remote add origin URL`)"
    )
    assert subjects(repo)[-1] == "task x"


def test_a_remote_that_moved_elsewhere_is_never_forced(git_repo: Path, server: Server) -> None:
    repo = git_repo
    assert server.socket_name is not None
    bare = _bare(repo)
    git(repo, "branch", "notes")
    other = repo.parent / "other"
    git(repo.parent, "clone", "-q", str(bare), str(other))
    git(other, "checkout", "-q", "-b", "notes")
    (other / "theirs.txt").write_text("theirs\n", encoding="utf-8")
    git(other, "add", "theirs.txt")
    git(other, "commit", "-q", "-m", "theirs")
    git(other, "push", "-q", "origin", "notes")
    theirs = git(bare, "rev-parse", "notes")
    commit_on(repo, "paw/night-x", {"x.txt": "x\n"}, "task x")
    write_wave(repo, f'name = "night"\n[land]\ninto = "notes"\n{ONE_TASK}', {"x": 1.0})

    done = land(repo, server.socket_name, "--no-wait", "--push")

    assert done.returncode == 1
    assert done.stderr.startswith("paw: not pushed to origin: "), done.stderr
    assert git(bare, "rev-parse", "notes") == theirs


def test_while_the_wave_runs_tasks_land_as_they_finish(git_repo: Path, server: Server) -> None:
    import fcntl
    import time

    from tests.support.budget import budget

    repo = git_repo
    assert server.socket_name is not None
    commit_on(repo, "paw/night-x", {"x.txt": "x\n"}, "task x")
    commit_on(repo, "paw/night-y", {"y.txt": "y\n"}, "task y")
    toml = 'name = "night"\npoll_s = 0.2\n' + ONE_TASK + '[[tasks]]\nname = "y"\ntask = "y"\n'
    write_wave(repo, toml, {"x": 1.0})  # y still runs
    state_path = repo / ".paw" / "waves" / "night.json"
    env = {**os.environ, "PAW_TMUX_SOCKET": server.socket_name}

    def wait_for(what: str, predicate: Any) -> None:
        end = time.monotonic() + budget(60)
        while time.monotonic() < end:
            if predicate():
                return
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for: {what}")

    def landed(task: str) -> bool:
        path = repo / ".paw" / "waves" / "night.land.json"
        tasks = json.loads(path.read_text(encoding="utf-8"))["tasks"] if path.exists() else []
        return any(t["name"] == task and t["status"] == "landed" for t in tasks)

    with (repo / ".paw" / "waves" / "night.lock").open("w") as runner:
        fcntl.flock(runner, fcntl.LOCK_EX)  # the runner of the wave is alive
        lander = subprocess.Popen(
            [*PAW, "wave", "land", "--quiet"], cwd=repo, env=env, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        try:
            wait_for("x landed", lambda: landed("x"))
            wait_for("x's scratch worktree removed", lambda: scratch_left(repo) == [])
            with pytest.raises(subprocess.TimeoutExpired):  # it stays: the wave runs
                lander.wait(timeout=3)
            state = json.loads(state_path.read_text(encoding="utf-8"))
            state["tasks"][1].update(phase="done", ended_at=2.0)
            state["status"] = "done"
            # Atomically, as the runner writes it: the lander reads this file every look, and a
            # half-written one (a loaded machine's timing) is a corrupt state it stops on.
            fresh = state_path.with_name(state_path.name + ".new")
            fresh.write_text(json.dumps(state), encoding="utf-8")
            fresh.replace(state_path)
            wait_for("y landed", lambda: landed("y"))
        finally:
            fcntl.flock(runner, fcntl.LOCK_UN)
        out, err = lander.communicate(timeout=budget(60))
    assert lander.returncode == 0, out + err
    assert subjects(repo) == ["initial", "task x", "task y"]


LAND_CHECK = "if test -f a.txt && test -f b.txt; then echo 'suite: a and b clash'; exit 3; fi"
LAND_CHECK_WAVE = f"""
name = "night"
land_check = "{LAND_CHECK}"

[[tasks]]
name = "a"
task = "a"
check = "test -f a.txt"
retries = 0

[[tasks]]
name = "b"
task = "b"
check = "test -f b.txt"
retries = 0
"""


def test_a_land_check_failing_after_the_rebase_parks_the_task_and_leaves_the_base(
    git_repo: Path, server: Server
) -> None:
    """The wave's ``land_check`` fails only on the combined work: a lands; b's own check passes
    on top of a, the land check does not: b is parked with the land check's tail (no follow-up
    left: ``retries = 0``), the base stays at a's landing, and the report says why."""
    repo = git_repo
    assert server.socket_name is not None
    commit_on(repo, "paw/night-a", {"a.txt": "a\n"}, "task a")
    head_b = commit_on(repo, "paw/night-b", {"b.txt": "b\n"}, "task b")
    write_wave(repo, LAND_CHECK_WAVE, {"a": 1.0, "b": 2.0})

    done = land(repo, server.socket_name, "--no-wait", "--json")

    assert done.returncode == 1, done.stdout + done.stderr
    rows = {row["task"]: row for row in json.loads(done.stdout)["tasks"]}
    assert rows["a"]["status"] == "landed"
    b = rows["b"]
    assert b["status"] == "parked"
    assert b["problem"] == "check failed after the rebase"
    assert b["check"] == LAND_CHECK
    assert "suite: a and b clash" in b["tail"]
    assert b["why"] == "check failed after the rebase (exit 3) after 0 follow-ups"
    assert (b["attempts"], b["followups"], b["commits"]) == (1, 0, [])
    # the base holds a alone: b's rebased work never reached it; b's branch is untouched
    assert subjects(repo) == ["initial", "task a"]
    assert not (repo / "b.txt").exists()
    assert git(repo, "rev-parse", "paw/night-b") == head_b
    assert git(repo, "status", "--porcelain") == ""
    assert scratch_left(repo) == []
    checks = [
        json.loads(line)
        for line in (repo / ".paw" / "audit.jsonl").read_text(encoding="utf-8").splitlines()
        if '"land-check"' in line
    ]
    assert [(c["task"], c["exit_code"]) for c in checks] == [
        ("a", 0), ("a", 0), ("b", 0), ("b", 3),
    ]  # fmt: skip  # each task's own check, then the land check
    report = subprocess.run(
        [*PAW, "wave", "report"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout
    assert "| b | parked: check failed after the rebase |" in report
    assert "**b** (parked): check failed after the rebase (exit 3) after 0 follow-ups" in report
    assert "suite: a and b clash" in report


TWO_TASKS = '[[tasks]]\nname = "a"\ntask = "a"\n[[tasks]]\nname = "b"\ntask = "b"\n'
WHERE = f"repo on {socket.gethostname()}"  # a message names the repository and the machine
TOLD = [  # each change of a landing of a then b, as its message's title
    f"paw wave night ({WHERE}): a queued: entered the queue",
    f"paw wave night ({WHERE}): b queued: entered the queue",
    f"paw wave night ({WHERE}): a landed: landed: 1 commit",
    f"paw wave night ({WHERE}): b landed: landed: 1 commit",
]


def _land_events(repo: Path) -> list[dict[str, Any]]:
    """The lander's ``land-notify-*`` audit records."""
    audit = (repo / ".paw" / "audit.jsonl").read_text(encoding="utf-8").splitlines()
    return [r for r in map(json.loads, audit) if str(r.get("event")).startswith("land-notify")]


def _two_tasks_to_land(repo: Path, url: str) -> None:
    commit_on(repo, "paw/night-a", {"a.txt": "a\n"}, "task a")
    commit_on(repo, "paw/night-b", {"b.txt": "b\n"}, "task b")
    toml = f'name = "night"\n[notify]\nurls = ["{url}"]\nbell = false\n{TWO_TASKS}'
    write_wave(repo, toml, {"a": 1.0, "b": 2.0})


def test_messages_written_to_the_journal_but_never_sent_leave_once_after_kill_9(
    git_repo: Path, server: Server
) -> None:
    """Killed right after the journal holds changes and before their messages left
    (``land:noted``): `paw wave land` again sends them, then the rest; each message once."""
    from paw.supervisor.land import LAND_MESSAGE_STEPS
    from tests.support.receiver import Receiver

    repo = git_repo
    assert server.socket_name is not None
    receiver = Receiver()
    try:
        _two_tasks_to_land(repo, receiver.url)

        killed = land(repo, server.socket_name, "--no-wait", crash=LAND_MESSAGE_STEPS[0])

        assert killed.returncode == -9, killed.stdout + killed.stderr
        noted = journal(repo)["events"]
        assert [(e["task"], e["status"]) for e in noted] == [("a", "queued"), ("b", "queued")]
        assert receiver.titles() == []  # the process is gone: nothing more can arrive

        again = land(repo, server.socket_name, "--no-wait")

        assert again.returncode == 0, again.stdout + again.stderr
        assert subjects(repo) == ["initial", "task a", "task b"]
        assert receiver.titles() == TOLD  # the owed ones first, then the rest: once each
        resumed = [(r["event"], r["id"]) for r in _land_events(repo)]
        assert resumed == [("land-notify-resumed", e["id"]) for e in noted]

        nothing = land(repo, server.socket_name, "--no-wait")  # all landed, all told

        assert nothing.returncode == 0, nothing.stdout + nothing.stderr
        assert receiver.titles() == TOLD
    finally:
        receiver.close()


def test_a_message_cut_off_mid_delivery_is_never_sent_twice_the_rest_leave_after_kill_9(
    git_repo: Path, server: Server
) -> None:
    """The channel has the first message but has not answered when the lander is killed -9:
    that one may have arrived and is not sent again (``uncertain``); the messages queued behind
    it never reached a channel and leave when `paw wave land` runs again, once each."""
    from tests.support.budget import budget
    from tests.support.receiver import Receiver

    repo = git_repo
    assert server.socket_name is not None
    receiver = Receiver()
    try:
        _two_tasks_to_land(repo, receiver.url)
        receiver.gate.clear()  # the channel takes the first message, then does not answer
        lander = subprocess.Popen(
            [*PAW, "wave", "land", "--no-wait"], cwd=repo, text=True,
            env={**os.environ, "PAW_TMUX_SOCKET": server.socket_name},
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        try:
            assert receiver.wait(lambda ms: len(ms) >= 1, budget(60)), receiver.titles()
            lander.kill()  # SIGKILL, while the channel holds the first message
        finally:
            out, err = lander.communicate(timeout=budget(60))
        assert lander.returncode == -9, out + err
        receiver.gate.set()
        assert receiver.titles() == TOLD[:1]

        again = land(repo, server.socket_name, "--no-wait")

        assert again.returncode == 0, again.stdout + again.stderr
        assert subjects(repo) == ["initial", "task a", "task b"]
        events = journal(repo)["events"]
        # each change told once, in order: the first not again, the others once each (and a
        # landing the kill cut off, if it hit one, is a change too: "cut off: again")
        titles = receiver.titles()
        assert titles == [
            f"paw wave night ({WHERE}): {e['task']} {e['status']}: {e['text']}" for e in events
        ]
        assert all(titles.count(title) == 1 for title in TOLD), titles
        assert events[0]["outcome"] == "uncertain"
        told = {r["id"]: r["event"] for r in _land_events(repo)}
        assert told[events[0]["id"]] == "land-notify-uncertain"
        assert all(told.get(e["id"]) != "land-notify-uncertain" for e in events[1:])
    finally:
        receiver.close()


@pytest.mark.parametrize("into", ["main", "trunk"])  # checked out (merge --ff-only), or not
def test_the_base_moved_meanwhile_is_tried_again_from_the_new_base(
    git_repo: Path, server: Server, into: str
) -> None:
    """Someone commits on the base while a task's check runs on top of it: the fast-forward
    from the old base is refused (``base-moved``), nothing of the task reaches the base then,
    and the task is tried again on the new base, where it lands on top of their commit."""
    repo = git_repo
    assert server.socket_name is not None
    git(repo, "branch", "trunk")
    head = commit_on(repo, "paw/night-x", {"x.txt": "x\n"}, "task x")
    marker = repo / ".paw" / "moved"
    who = f"git -C {repo} -c user.name=someone -c user.email=someone@example.invalid"
    move = (  # someone else's commit on the base, in its checkout or by update-ref
        f"{who} commit -q --allow-empty -m elsewhere"
        if into == "main"
        else f"{who} update-ref refs/heads/trunk $({who} commit-tree -m elsewhere -p trunk "
        "'trunk^{tree}')"
    )
    check = f"test -f {marker} || {{ touch {marker} && {move}; }}"
    toml = f'name = "night"\n[land]\ninto = "{into}"\n[[tasks]]\nname = "x"\ntask = "x"\n'
    toml += f'check = """{check}"""\n'
    write_wave(repo, toml, {"x": 1.0})
    before = git(repo, "rev-parse", into)

    done = land(repo, server.socket_name, "--no-wait", "--json")

    assert done.returncode == 0, done.stdout + done.stderr
    row = json.loads(done.stdout)["tasks"][0]
    assert (row["status"], row["attempts"], row["followups"]) == ("landed", 2, 0)
    assert row["setbacks"] == []  # the base moving is nobody's fault: no follow-up either
    assert subjects(repo, into) == ["initial", "elsewhere", "task x"]
    moved = [e for e in journal(repo)["events"] if "base moved" in str(e["text"])]
    assert [e["text"] for e in moved] == ["the base moved meanwhile: tried again"]
    # the base moved by fast-forward only, from their commit (never rewritten back to `before`)
    elsewhere = git(repo, "rev-parse", f"{into}~1")
    assert git(repo, "rev-parse", f"{elsewhere}~1") == before
    assert git(repo, "merge-base", "--is-ancestor", elsewhere, into) == ""
    assert git(repo, "rev-parse", "paw/night-x") == head
    assert git(repo, "status", "--porcelain") == ""
    assert scratch_left(repo) == []


def test_a_merge_conflict_is_aborted_and_sent_back_naming_git_merge(
    git_repo: Path, server: Server
) -> None:
    """``[land] strategy = "merge"``: a conflicting merge is aborted; the task is sent back
    with a follow-up that says ``git merge main`` (its agent is gone here: with no retries left
    after that, parked), the base keeps only the first task's merge, and no scratch is left."""
    repo = git_repo
    assert server.socket_name is not None
    (repo / "shared.txt").write_text("base\n", encoding="utf-8")
    git(repo, "add", "shared.txt")
    git(repo, "commit", "-q", "-m", "shared")
    commit_on(repo, "paw/night-a", {"shared.txt": "A\n"}, "task a")
    head_b = commit_on(repo, "paw/night-b", {"shared.txt": "B\n"}, "task b")
    toml = (
        'name = "night"\n[land]\nstrategy = "merge"\n'
        '[[tasks]]\nname = "a"\ntask = "a"\n[[tasks]]\nname = "b"\ntask = "b"\nretries = 0\n'
    )
    write_wave(repo, toml, {"a": 1.0, "b": 2.0})

    done = land(repo, server.socket_name, "--no-wait", "--json")

    assert done.returncode == 1, done.stdout + done.stderr
    rows = {row["task"]: row for row in json.loads(done.stdout)["tasks"]}
    assert rows["a"]["status"] == "landed"
    b = rows["b"]
    assert (b["status"], b["problem"], b["files"]) == (
        "parked",
        "conflict on merge",
        ["shared.txt"],
    )
    assert b["why"] == "conflict on merge in shared.txt after 0 follow-ups"
    assert git(repo, "log", "--format=%s", "-1", "main") == "Merge night task a (paw wave land)"
    assert (repo / "shared.txt").read_text(encoding="utf-8") == "A\n"
    assert git(repo, "rev-parse", "paw/night-b") == head_b
    assert git(repo, "status", "--porcelain") == ""
    assert scratch_left(repo) == []


def test_a_conflicting_merge_leaves_the_scratch_worktree_clean(git_repo: Path) -> None:
    """The git adapter itself: after a conflicting ``merge`` (or ``rebase``) in a scratch
    worktree, the conflicting files are named and the merge is aborted: no MERGE_HEAD, no
    rebase in progress, nothing changed."""
    from paw.adapters.git.land import LandGitCli

    repo = git_repo
    (repo / "shared.txt").write_text("base\n", encoding="utf-8")
    git(repo, "add", "shared.txt")
    git(repo, "commit", "-q", "-m", "shared")
    head = commit_on(repo, "paw/night-b", {"shared.txt": "B\n"}, "task b")
    (repo / "shared.txt").write_text("A\n", encoding="utf-8")
    git(repo, "commit", "-qam", "theirs")
    base = git(repo, "rev-parse", "main")
    cli = LandGitCli()
    for strategy in ("merge", "rebase"):
        scratch = repo / ".paw" / "land" / "night" / f"b-{strategy}"
        cli.add_scratch(str(repo), str(scratch), base)

        result, files = cli.apply(str(scratch), head, base, strategy, "Merge b")

        assert (result, files) == (None, ("shared.txt",))
        assert git(scratch, "status", "--porcelain") == ""
        # where it started: the base (merge), or the task's head, which `git rebase BASE
        # HEAD` checks out first (detached: no branch is touched)
        assert git(scratch, "rev-parse", "HEAD") == (base if strategy == "merge" else head)
        gitdir = Path(git(scratch, "rev-parse", "--absolute-git-dir"))
        assert not (gitdir / "MERGE_HEAD").exists()
        assert not (gitdir / "rebase-merge").exists()
        assert not (gitdir / "rebase-apply").exists()
        expected = "A\n" if strategy == "merge" else "B\n"
        assert (scratch / "shared.txt").read_text(encoding="utf-8") == expected
        cli.remove_scratch(str(repo), str(scratch))
    assert scratch_left(repo) == []


def test_a_branch_the_guard_protects_by_its_last_segment_is_not_pushed_without_a_rule(
    git_repo: Path, server: Server
) -> None:
    """``release/main`` is protected for the guard (its last path segment is ``main``), so the
    lander too pushes it only with a standing rule naming that push."""
    repo = git_repo
    assert server.socket_name is not None
    bare = _bare(repo)
    git(repo, "branch", "release/main")
    git(repo, "push", "-q", "origin", "release/main")
    remote_before = git(bare, "rev-parse", "release/main")
    commit_on(repo, "paw/night-x", {"x.txt": "x\n"}, "task x")
    land_into = '[land]\ninto = "release/main"\n'
    write_wave(repo, f'name = "night"\n{land_into}{ONE_TASK}', {"x": 1.0})

    refused = land(repo, server.socket_name, "--no-wait", "--push")

    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert "paw: not pushed: release/main is a protected branch" in refused.stderr
    assert git(bare, "rev-parse", "release/main") == remote_before
    assert subjects(repo, "release/main")[-1] == "task x"  # landed locally
    rule = '[[rules]]\nkind = "shell"\nsubject = "git push origin release/main"\n'
    (repo.parent / "night.toml").write_text(
        f'name = "night"\n{rule}{land_into}{ONE_TASK}', encoding="utf-8"
    )

    pushed = land(repo, server.socket_name, "--no-wait", "--push")

    assert pushed.returncode == 0, pushed.stdout + pushed.stderr
    assert git(bare, "rev-parse", "release/main") == git(repo, "rev-parse", "release/main")
