"""`paw wave land --pr` on real git: each landed task's branch is pushed to a real bare
repository (never forced) and one pull request per task is opened with `gh pr create` (a fake
`gh` on PATH records its argv: the real one cannot reach GitHub here); kill -9 at each step,
then again: one pull request per task; `gh` or a remote missing is said once, not per task."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from paw.supervisor.land_pr import PR_STEPS
from tests.supervisor.test_land_real import _bare, commit_on, git, land, write_wave

if TYPE_CHECKING:
    from libtmux.server import Server

pytestmark = [pytest.mark.git, pytest.mark.tmux, pytest.mark.timeout(300)]

TWO = """
name = "night"

[[tasks]]
name = "x"
task = "x"

[[tasks]]
name = "y"
task = "y"
"""

FAKE_GH = """\
import json, os, sys
args = sys.argv[1:]
with open(os.environ["FAKE_GH_LOG"], "a", encoding="utf-8") as log:
    log.write(json.dumps(args) + "\\n")
path = os.environ["FAKE_GH_PRS"]
known = json.load(open(path, encoding="utf-8")) if os.path.exists(path) else {}
head = args[args.index("--head") + 1] if "--head" in args else ""
if args[:2] == ["pr", "list"]:
    print(known.get(head, ""))
elif args[:2] == ["pr", "create"]:
    known[head] = f"https://github.example/o/r/pull/{len(known) + 1}"
    json.dump(known, open(path, "w", encoding="utf-8"))
    print("Creating pull request for " + head)
    print(known[head])
else:
    sys.exit(1)
"""


def _fake_gh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, installed: bool = True) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    if installed:
        gh = bin_dir / "gh"
        gh.write_text(f"#!{sys.executable}\n{FAKE_GH}", encoding="utf-8")
        gh.chmod(0o755)
    # PATH: the fake gh, then the system's programs (git, tmux), never another gh
    system = [d for d in ("/usr/local/bin", "/usr/bin", "/bin") if not (Path(d) / "gh").exists()]
    monkeypatch.setenv("PATH", ":".join([str(bin_dir), str(Path(sys.executable).parent), *system]))
    log = tmp_path / "gh.log"
    monkeypatch.setenv("FAKE_GH_LOG", str(log))
    monkeypatch.setenv("FAKE_GH_PRS", str(tmp_path / "prs.json"))
    return log


def _calls(log: Path) -> list[list[str]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def _creates(log: Path) -> list[list[str]]:
    return [c for c in _calls(log) if c[:2] == ["pr", "create"]]


def _two_landed_tasks(repo: Path) -> None:
    commit_on(repo, "paw/night-x", {"x.txt": "x\n"}, "task x")
    commit_on(repo, "paw/night-y", {"y.txt": "y\n"}, "task y")
    write_wave(repo, TWO, {"x": 1.0, "y": 2.0})


def test_each_landed_task_gets_one_pull_request_from_its_pushed_branch(
    git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert server.socket_name is not None
    log = _fake_gh(tmp_path, monkeypatch)
    bare = _bare(git_repo)
    _two_landed_tasks(git_repo)

    done = land(git_repo, server.socket_name, "--no-wait", "--pr", "--json")

    assert done.returncode == 0, done.stdout + done.stderr
    prs = json.loads(done.stdout)["pull_requests"]
    assert prs["problems"] == []
    assert [(p["task"], p["state"], p["url"]) for p in prs["prs"]] == [
        ("x", "opened", "https://github.example/o/r/pull/1"),
        ("y", "opened", "https://github.example/o/r/pull/2"),
    ]
    creates = _creates(log)
    assert [c[:9] for c in creates] == [
        ["pr", "create", "--base", "main", "--head", f"paw/night-{t}", "--title", f"night: {t}",
         "--body"] for t in ("x", "y")
    ]  # fmt: skip
    assert "Task `x` of wave `night`" in creates[0][9]
    for t in ("x", "y"):  # the task's branch as its agent left it, on the real remote
        assert git(bare, "rev-parse", f"paw/night-{t}") == git(
            git_repo, "rev-parse", f"paw/night-{t}"
        )
    # asked again: no second pull request
    again = land(git_repo, server.socket_name, "--no-wait", "--pr")
    assert again.returncode == 0, again.stdout + again.stderr
    assert len(_creates(log)) == 2


def test_gh_missing_is_said_once_not_per_task(
    git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert server.socket_name is not None
    _fake_gh(tmp_path, monkeypatch, installed=False)
    bare = _bare(git_repo)
    _two_landed_tasks(git_repo)

    done = land(git_repo, server.socket_name, "--no-wait", "--pr")

    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.splitlines() == [
        "paw: not opening pull requests: `gh` is not installed (no `gh` on PATH)"
    ]
    assert "wave night: 2 of 2 landed on main" in done.stdout  # landed all the same
    assert git(bare, "branch", "--list", "paw/*") == ""  # nothing pushed for nothing


def test_no_remote_is_said_once_not_per_task(
    git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert server.socket_name is not None
    log = _fake_gh(tmp_path, monkeypatch)
    _two_landed_tasks(git_repo)

    done = land(git_repo, server.socket_name, "--no-wait", "--pr")

    assert done.returncode == 1, done.stdout + done.stderr
    said = "paw: not opening pull requests: main has no remote to push to"
    assert done.stderr.splitlines() == [f"{said} (`git remote add origin URL`)"]
    assert _calls(log) == []


@pytest.mark.parametrize("step", PR_STEPS)
def test_kill_9_at_each_pull_request_step_then_again_one_per_task(
    git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    assert server.socket_name is not None
    log = _fake_gh(tmp_path, monkeypatch)
    bare = _bare(git_repo)
    _two_landed_tasks(git_repo)

    killed = land(git_repo, server.socket_name, "--no-wait", "--pr", crash=step)

    assert killed.returncode == -9, killed.stdout + killed.stderr
    again = land(git_repo, server.socket_name, "--no-wait", "--pr", "--json")

    assert again.returncode == 0, again.stdout + again.stderr
    heads = [c[c.index("--head") + 1] for c in _creates(log)]
    assert heads == ["paw/night-x", "paw/night-y"], _calls(log)
    prs = json.loads(again.stdout)["pull_requests"]["prs"]
    assert [(p["task"], p["state"]) for p in prs] == [("x", "opened"), ("y", "opened")]
    assert git(bare, "rev-parse", "paw/night-y") == git(git_repo, "rev-parse", "paw/night-y")
