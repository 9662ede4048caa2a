"""`paw archive` (issue 9): lists, restores and prunes refs/paw/archive/, asking first."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from tests.adversarial.conftest import one_line_error

if TYPE_CHECKING:
    from tests.adversarial.conftest import Rig

pytestmark = [pytest.mark.tmux, pytest.mark.git]


def _archived_agent(rig: Rig, name: str) -> str:
    rig.ok("spawn", name, "--agent", "scripted")
    (rig.worktree(name) / f"{name}.txt").write_text(f"{name}'s work\n", encoding="utf-8")
    rig.ok("rm", "--force", name)
    return next(r for r in rig.archives() if r.startswith(f"refs/paw/archive/{name}-"))


def test_archive_lists_restores_and_prunes_with_confirmation(rig: Rig) -> None:
    assert json.loads(rig.ok("archive", "--json")) == {"archives": []}
    assert "no archives" in rig.ok("archive")
    first = _archived_agent(rig, "alice")
    second = _archived_agent(rig, "bob")
    listed = json.loads(rig.ok("archive", "list", "--json"))["archives"]
    assert [(a["ref"], a["agent"], a["branch"]) for a in listed] == [
        (first, "alice", "paw/alice"),
        (second, "bob", "paw/bob"),
    ]
    table = rig.ok("archive").splitlines()
    assert table[0].split() == ["ID", "AGENT", "ARCHIVED", "COMMIT"]
    assert len(table) == 3

    done = rig.paw("archive", "prune", "--all")  # no terminal to ask: refused, nothing deleted
    assert done.returncode == 2
    assert "--yes" in one_line_error(done.stderr)
    assert rig.archives() == [first, second]
    done = rig.paw("archive", "prune")
    assert done.returncode == 2
    one_line_error(done.stderr)

    pruned = json.loads(rig.ok("archive", "prune", first.rsplit("/", 1)[1], "--yes", "--json"))
    assert [a["ref"] for a in pruned["pruned"]] == [first]
    assert rig.archives() == [second]
    assert [r["ref"] for r in rig.audit() if r["event"] == "archive-prune"] == [first]

    restored = json.loads(rig.ok("archive", "restore", second.rsplit("/", 1)[1], "--json"))
    assert restored["branch"] == "paw/bob"
    assert (rig.worktree("bob") / "bob.txt").read_text(encoding="utf-8") == "bob's work\n"
    done = rig.paw("archive", "restore", "no-such-archive")
    assert done.returncode == 1
    assert "no archive" in one_line_error(done.stderr)


def test_rm_removes_a_leftover_paw_has_no_record_of_only_when_nothing_is_lost(rig: Rig) -> None:
    """A worktree and branch named like an agent but unknown to paw (an older paw killed while
    spawning): `paw rm NAME` checks and removes them."""
    wt = rig.worktree("ghost")
    rig.git("worktree", "add", "-q", "-b", "paw/ghost", str(wt), "main")
    (wt / "work.txt").write_text("x\n", encoding="utf-8")
    rig.git("add", "work.txt", cwd=wt)
    rig.git("commit", "-q", "-m", "work", cwd=wt)
    done = rig.paw("rm", "ghost")
    assert done.returncode == 1
    assert "1 commit on no other branch" in one_line_error(done.stderr)
    rig.git("branch", "keep", "paw/ghost")
    rig.ok("rm", "ghost")
    assert not wt.exists()
    assert "paw/ghost" not in rig.branches()
    done = rig.paw("rm", "ghost")
    assert done.returncode == 1
    assert "no agent named 'ghost'" in one_line_error(done.stderr)
