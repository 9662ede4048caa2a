"""`paw rm` cannot lose anything: commits on any HEAD, ignored files, stashes (issue scenarios 4
and 5), and a removal with nothing to keep leaves no archive."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.adversarial.conftest import one_line_error

if TYPE_CHECKING:
    from pathlib import Path

    from tests.adversarial.conftest import Rig

pytestmark = [pytest.mark.tmux, pytest.mark.git]

IGNORES = ".env\nbuild/\n*.log\nnode_modules/\n__pycache__/\n"


def _spawn(rig: Rig, name: str = "alice") -> Path:
    rig.ok("spawn", name, "--agent", "scripted")
    worktree = rig.worktree(name)
    assert worktree.is_dir()
    return worktree


def _commit(rig: Rig, worktree: Path, name: str, text: str) -> str:
    (worktree / name).write_text(text, encoding="utf-8")
    rig.git("add", name, cwd=worktree)
    rig.git("commit", "-q", "-m", f"add {name}", cwd=worktree)
    return rig.git("rev-parse", "HEAD", cwd=worktree).strip()


def test_commits_on_a_detached_head_are_refused_then_archived_and_restored(rig: Rig) -> None:
    """Scenario 4: commit, `git checkout --detach main`, then plain `paw rm` used to exit 0
    and lose the commit. Also a commit made on the detached HEAD itself."""
    wt = _spawn(rig)
    on_branch = _commit(rig, wt, "feature.txt", "on the branch\n")
    rig.git("checkout", "-q", "--detach", "main", cwd=wt)
    done = rig.paw("rm", "alice")
    assert done.returncode == 1
    assert "1 commit on no other branch or the base" in one_line_error(done.stderr)
    assert wt.is_dir()
    assert "paw/alice" in rig.branches()

    detached = _commit(rig, wt, "loose.txt", "on a detached HEAD\n")
    done = rig.paw("rm", "alice")
    assert done.returncode == 1
    assert "2 commits on no other branch" in one_line_error(done.stderr)

    out = rig.ok("rm", "--force", "alice")
    [ref] = rig.archives()
    assert rig.reaches(ref, on_branch)
    assert rig.reaches(ref, detached)
    assert not wt.exists()
    assert "paw/alice" not in rig.branches()
    [archived] = [r for r in rig.audit() if r["event"] == "archive"]
    assert archived["ref"] == ref
    [removed] = [r for r in rig.audit() if r["event"] == "remove"]
    assert removed["archive_ref"] == ref
    ident = ref.removeprefix("refs/paw/archive/")
    assert f"paw archive restore {ident}" in out

    rig.ok("archive", "restore", ident)
    assert rig.git("rev-parse", "paw/alice").strip() == on_branch
    assert rig.git("rev-parse", "HEAD", cwd=wt).strip() == detached
    assert (wt / "loose.txt").read_text(encoding="utf-8") == "on a detached HEAD\n"
    assert rig.git("status", "--porcelain", cwd=wt) == ""


def test_ignored_files_are_refused_then_archived_except_disposable_caches(rig: Rig) -> None:
    """Scenario 5: `.env`, `build/`, `*.log` (gitignored) used to vanish with plain `paw rm`."""
    (rig.repo / ".gitignore").write_text(IGNORES, encoding="utf-8")
    rig.git("add", ".gitignore")
    rig.git("commit", "-q", "-m", "ignores")
    wt = _spawn(rig)
    (wt / ".env").write_text("TOKEN=abc\n", encoding="utf-8")
    (wt / "build").mkdir()
    (wt / "build" / "out.bin").write_bytes(b"\x00\x01binary")
    (wt / "debug.log").write_text("log line\n", encoding="utf-8")
    (wt / "node_modules" / "left-pad").mkdir(parents=True)
    (wt / "node_modules" / "left-pad" / "index.js").write_text("x\n", encoding="utf-8")
    (wt / "pkg" / "__pycache__").mkdir(parents=True)
    (wt / "pkg" / "__pycache__" / "m.pyc").write_bytes(b"pyc")

    done = rig.paw("rm", "alice")
    assert done.returncode == 1
    line = one_line_error(done.stderr)
    assert "3 ignored" in line
    assert ".env" in line
    assert "node_modules" not in line
    assert (wt / ".env").exists()

    rig.ok("rm", "--force", "alice")
    assert not wt.exists()
    [ref] = rig.archives()
    files = rig.files_in(ref)
    assert {".env", "build/out.bin", "debug.log", ".gitignore", "README.md"} <= files
    assert not any("node_modules" in f or "__pycache__" in f for f in files)

    rig.ok("archive", "restore", ref.removeprefix("refs/paw/archive/"))
    assert (wt / ".env").read_text(encoding="utf-8") == "TOKEN=abc\n"
    assert (wt / "build" / "out.bin").read_bytes() == b"\x00\x01binary"
    assert rig.git("status", "--porcelain", cwd=wt) == ""  # ignored again, not staged


def test_a_removal_with_nothing_to_keep_leaves_no_archive(rig: Rig) -> None:
    """Issue 9: clean removals used to add a ref each. Disposable caches do not count."""
    (rig.repo / ".gitignore").write_text(IGNORES, encoding="utf-8")
    rig.git("add", ".gitignore")
    rig.git("commit", "-q", "-m", "ignores")
    wt = _spawn(rig)
    (wt / "node_modules").mkdir()
    (wt / "node_modules" / "dep.js").write_text("x\n", encoding="utf-8")
    out = rig.ok("rm", "alice")
    assert "no archive" in out
    _spawn(rig, "bob")
    rig.ok("rm", "--force", "bob")
    assert rig.archives() == []
    assert [r["archive_ref"] for r in rig.audit() if r["event"] == "remove"] == [None, None]


def test_commits_kept_by_another_branch_and_stashes_survive(rig: Rig) -> None:
    wt = _spawn(rig)
    commit = _commit(rig, wt, "kept.txt", "kept by a branch\n")
    rig.git("branch", "keep", commit)
    (wt / "README.md").write_text("# stashed change\n", encoding="utf-8")
    rig.git("stash", "push", "-q", "-m", "agent work", cwd=wt)
    rig.ok("rm", "alice")  # nothing is lost: the branch `keep` and the stash hold it all
    assert not wt.exists()
    assert rig.archives() == []
    assert rig.git("rev-parse", "keep").strip() == commit
    assert "agent work" in rig.git("stash", "list")
    assert "# stashed change" in rig.git("stash", "show", "-p", "stash@{0}")
