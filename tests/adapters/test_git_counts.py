"""GitCli.status_counts: the same counts as git's three commands, from one git process when a
worktree rests at its base (real repositories under tmp_path, isolated git config)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from paw.adapters.git.parse import parse_left_right, parse_shortstat, parse_status_z
from paw.adapters.git.runner import EarlyStatuses, GitCli
from paw.core.ports import StatusCounts
from tests.adapters.conftest import run_git

pytestmark = pytest.mark.git


def _expected(worktree: Path, base: str) -> StatusCounts:
    """The counts as git gives them, every command run (status, rev-list, diff-index)."""
    status = run_git(worktree, "status", "--porcelain=v2", "-z", "--untracked-files=all")
    behind, ahead = parse_left_right(
        run_git(worktree, "rev-list", "--left-right", "--count", f"{base}...HEAD")
    )
    stat = run_git(worktree, "diff-index", "-M", "--shortstat", "--merge-base", base, "--")
    insertions, deletions = parse_shortstat(stat)
    c = parse_status_z(status)
    return StatusCounts(
        c.uncommitted, c.untracked, c.unmerged, ahead, behind, insertions, deletions
    )


def _commit(cwd: Path, name: str, text: str) -> None:
    (cwd / name).write_text(text, encoding="utf-8")
    run_git(cwd, "add", name)
    run_git(cwd, "commit", "-q", "-m", f"add {name}")


def _git_calls(calls: list[tuple[str, ...]]) -> list[str]:
    return [argv[3] for argv in calls if argv[:1] == ("git",)]


@pytest.fixture
def worktree(git_repo: Path) -> Path:
    path = git_repo.parent / "wt"
    GitCli().add_worktree(str(git_repo), str(path), "agent/a", "main")
    return path


def test_a_worktree_at_rest_costs_one_git_process(
    worktree: Path, proc_calls: list[tuple[str, ...]]
) -> None:
    (worktree / "new.txt").write_text("untracked\n", encoding="utf-8")
    counts = GitCli().status_counts(str(worktree), "main")
    assert counts == _expected(worktree, "main")
    assert counts.untracked == 1
    assert _git_calls(proc_calls) == ["status"]


def test_a_base_in_packed_refs_also_costs_one(
    git_repo: Path, worktree: Path, proc_calls: list[tuple[str, ...]]
) -> None:
    run_git(git_repo, "pack-refs", "--all")
    assert not (git_repo / ".git" / "refs" / "heads" / "main").exists()
    for base in ("main", "refs/heads/main", run_git(git_repo, "rev-parse", "main").strip()):
        proc_calls.clear()
        assert GitCli().status_counts(str(worktree), base) == _expected(worktree, base)
        assert _git_calls(proc_calls) == ["status"], base


@pytest.mark.parametrize(
    "change",
    ["none", "edit", "stage", "commit", "base_moves", "both_move", "tag_elsewhere", "packed"],
)
def test_counts_equal_gits_whatever_changed(git_repo: Path, worktree: Path, change: str) -> None:
    """Every shortcut gives git's own answer: a tracked edit, a staged one, commits on either
    side, a tag ``main`` (git prefers refs/tags/main to refs/heads/main), refs packed."""
    if change == "edit":
        (worktree / "README.md").write_text("changed\nmore\n", encoding="utf-8")
    elif change == "stage":
        (worktree / "README.md").write_text("staged\n", encoding="utf-8")
        run_git(worktree, "add", "README.md")
    elif change in ("commit", "both_move"):
        _commit(worktree, "work.txt", "one\ntwo\n")
    if change in ("base_moves", "both_move"):
        _commit(git_repo, "main.txt", "upstream\n")
    if change == "tag_elsewhere":
        _commit(git_repo, "main.txt", "upstream\n")
        run_git(git_repo, "tag", "main", "main")  # refs/tags/main: ahead of the worktree
        run_git(git_repo, "reset", "-q", "--hard", "HEAD~1")  # refs/heads/main: at it
    if change == "packed":
        _commit(git_repo, "main.txt", "upstream\n")
        run_git(git_repo, "pack-refs", "--all")
    got = {
        base: GitCli().status_counts(str(worktree), base) for base in ("main", "refs/heads/main")
    }
    for base, counts in got.items():
        assert counts == _expected(worktree, base), (change, base)
    if change == "tag_elsewhere":
        assert (got["main"].behind, got["refs/heads/main"].behind) == (1, 0)


def test_an_ambiguous_or_symbolic_base_is_left_to_git(
    git_repo: Path, worktree: Path, proc_calls: list[tuple[str, ...]]
) -> None:
    """A tag and a branch of one name on the same commit, or a symbolic ref: git decides."""
    run_git(git_repo, "tag", "main", "main")
    run_git(git_repo, "symbolic-ref", "refs/heads/alias", "refs/heads/main")
    for base in ("main", "alias"):
        proc_calls.clear()
        assert GitCli().status_counts(str(worktree), base) == _expected(worktree, base)
        assert "rev-list" in _git_calls(proc_calls), base


def test_many_worktrees_counted_by_a_few_shells_equal_one_by_one(
    git_repo: Path, proc_calls: list[tuple[str, ...]]
) -> None:
    """status_counts_many: at rest, edited, committed, with an untracked file named like a
    marker's tail, and gone (None, as status_counts raises); paw itself starts at most
    STATUS_SHELLS shells, plus the follow-ups of the worktrees that need them."""
    git = GitCli()
    paths = []
    for i in range(7):
        path = git_repo.parent / f"wt{i}"
        git.add_worktree(str(git_repo), str(path), f"agent/{i}", "main")
        paths.append(path)
    (paths[1] / "README.md").write_text("edited\n", encoding="utf-8")
    _commit(paths[2], "work.txt", "one\n")
    (paths[3] / " 0").write_text("x", encoding="utf-8")
    _commit(git_repo, "main.txt", "upstream\n")  # every worktree is now 1 behind
    gone = git_repo.parent / "gone"
    items = [(str(p), "main") for p in paths] + [(str(gone), "main")]
    proc_calls.clear()
    many = git.status_counts_many(items)
    started = [argv[0] if argv[0] == "sh" else argv[3] for argv in proc_calls]
    assert many[:-1] == [_expected(p, "main") for p in paths]
    assert many[-1] is None
    assert [m.behind for m in many[:-1] if m] == [1] * 7
    assert started.count("sh") == 4
    assert sorted(s for s in started if s != "sh") == sorted(
        ["rev-list"] * 7 + ["diff-index"] * 2 + ["status"]  # the gone one, alone
    )


def test_early_statuses_serve_the_first_batch_once_and_others_are_counted_as_before(
    git_repo: Path, proc_calls: list[tuple[str, ...]]
) -> None:
    """EarlyStatuses: the first status_counts_many takes their outputs (no shell of its own
    for them), counts a worktree they do not cover and one whose status failed as before,
    and a second call runs its own statuses (an output serves once)."""
    git = GitCli()
    paths = []
    for i in range(4):
        path = git_repo.parent / f"wt{i}"
        git.add_worktree(str(git_repo), str(path), f"agent/{i}", "main")
        paths.append(path)
    (paths[1] / "README.md").write_text("edited\n", encoding="utf-8")
    gone = git_repo.parent / "gone"
    proc_calls.clear()
    early = EarlyStatuses([str(paths[0]), str(paths[1]), str(gone)])
    started_early = [argv[0] for argv in proc_calls]
    assert started_early == ["sh", "sh", "sh"]  # one worktree each: up to STATUS_SHELLS
    proc_calls.clear()
    counted = GitCli(early=early)
    items = [(str(p), "main") for p in paths] + [(str(gone), "main")]
    many = counted.status_counts_many(items)
    assert many[:-1] == [_expected(p, "main") for p in paths]
    assert many[-1] is None
    assert many[1] is not None
    assert many[1].uncommitted == 1
    started = [argv[0] if argv[0] == "sh" else argv[3] for argv in proc_calls]
    # paths 2 and 3 in shells of their own; the edited one's lines; the gone one alone
    assert sorted(started) == sorted(["sh", "sh", "diff-index", "status"])
    proc_calls.clear()
    assert counted.status_counts_many(items) == many
    assert [argv[0] for argv in proc_calls].count("sh") == 3  # 5 worktrees, in runs of 2


def test_early_statuses_never_taken_are_waited_for_on_close(git_repo: Path) -> None:
    git = GitCli()
    paths = [git_repo.parent / f"wt{i}" for i in range(2)]
    for i, path in enumerate(paths):
        git.add_worktree(str(git_repo), str(path), f"agent/{i}", "main")
    early = EarlyStatuses([str(p) for p in paths])
    early.close()
    assert early.take([str(p) for p in paths]) == {}
    assert EarlyStatuses([str(paths[0])]).take([str(paths[0])]) == {}  # one alone: not early


def test_a_batch_reads_the_base_once_but_each_worktree_own_files(
    git_repo: Path, proc_calls: list[tuple[str, ...]]
) -> None:
    """status_counts_many reads the base's refs once for a repository (its common directory,
    however each worktree spells its path), but a worktree's own git directory is still read
    for each: a file there named like the base leaves that worktree (only) to git."""
    git = GitCli()
    paths = []
    for i in range(3):
        path = git_repo.parent / f"wt{i}"
        git.add_worktree(str(git_repo), str(path), f"agent/{i}", "main")
        paths.append(path)
    (git.git_path(str(paths[1]), "main")).write_text(run_git(git_repo, "rev-parse", "main"))
    proc_calls.clear()
    many = git.status_counts_many([(str(p), "main") for p in paths])
    assert many == [_expected(p, "main") for p in paths]
    assert _git_calls(proc_calls) == ["rev-list"]  # the one with its own `main` file
    assert [argv[-1] for argv in proc_calls if argv[:1] == ("git",)] == ["main...HEAD"]
    assert [argv[2] for argv in proc_calls if argv[:1] == ("git",)] == [str(paths[1])]


def test_counts_run_git_in_the_c_locale(worktree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """git's --shortstat line is translated in the user's language; paw reads English. Every
    counting git process (and each status shell) runs with LC_ALL=C, never an optional lock."""
    from paw.adapters import proc

    envs: list[tuple[str, dict[str, str]]] = []
    real_run, real_start = proc.run, proc.start

    def run(argv: Any, **kw: Any) -> proc.Completed:
        envs.append((argv[3], dict(kw.get("env") or {})))
        return real_run(argv, **kw)

    def start(argv: Any, **kw: Any) -> proc.Started:
        envs.append((argv[0], dict(kw.get("env") or {})))
        return real_start(argv, **kw)

    monkeypatch.setattr(proc, "run", run)
    monkeypatch.setattr(proc, "start", start)
    monkeypatch.setenv("LANGUAGE", "de")
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    (worktree / "README.md").write_text("edited\nmore\n", encoding="utf-8")
    other = worktree.parent / "wt2"
    GitCli().add_worktree(str(worktree), str(other), "agent/b", "main")
    envs.clear()
    many = GitCli().status_counts_many([(str(worktree), "main"), (str(other), "main")])
    assert many[0] is not None
    assert many[0].insertions == 2
    assert {verb for verb, _ in envs} == {"sh", "diff-index"}
    assert all(env["LC_ALL"] == "C" and env["GIT_OPTIONAL_LOCKS"] == "0" for _, env in envs)
