"""Semantic config checks (scenario 11): `paw config check` and every command refuse what
would fail later or create something wrong, naming file, line and key; nothing is created."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import pytest

from tests.adversarial.conftest import one_line_error

if TYPE_CHECKING:
    from tests.adversarial.conftest import Rig

pytestmark = [pytest.mark.tmux, pytest.mark.git]


class Bad(NamedTuple):
    test_id: str
    toml: str
    where: str  # "LINE: KEY"


BAD = [
    Bad("custom-kind-no-command", '[agents.mine]\ntask_mode = "none"\n', "1: agents.mine"),
    Bad("empty-command", "[agents.mine]\ncommand = []\n", "2: agents.mine.command"),
    Bad("negative-timeout", "[guard]\ngit_timeout_s = -5\n", "2: guard.git_timeout_s"),
    Bad("nan-timeout", "[guard]\ngit_timeout_s = nan\n", "2: guard.git_timeout_s"),
    Bad("negative-preview", "[guard]\ndiff_preview_lines = -1\n", "2: guard.diff_preview_lines"),
    Bad("root-in-git-dir", '[worktrees]\nroot = ".git"\n', "2: worktrees.root"),
    Bad("root-under-git-dir", '[worktrees]\nroot = ".git/agents"\n', "2: worktrees.root"),
    Bad("root-under-a-file", '[worktrees]\nroot = "README.md/agents"\n', "2: worktrees.root"),
    Bad(
        "prefix-git-rejects", '[worktrees]\nbranch_prefix = "a..b/"\n', "2: worktrees.branch_prefix"
    ),
    Bad("prefix-option", '[worktrees]\nbranch_prefix = "-x"\n', "2: worktrees.branch_prefix"),
    Bad("base-option", '[worktrees]\nbase = "--detach"\n', "2: worktrees.base"),
    Bad("base-unknown", '[worktrees]\nbase = "no-such-branch"\n', "2: worktrees.base"),
]


def _nothing_created(rig: Rig) -> None:
    assert rig.branches() == {"main"}
    assert rig.worktrees() == [str(rig.repo)]
    assert not (rig.repo.parent / f"{rig.repo.name}-paw").exists()
    assert not (rig.repo / ".git" / "agents").exists()


@pytest.mark.parametrize("bad", BAD, ids=[b.test_id for b in BAD])
def test_config_check_and_spawn_refuse_with_file_line_and_key(rig: Rig, bad: Bad) -> None:
    (rig.repo / "paw.toml").write_text(bad.toml, encoding="utf-8")
    done = rig.paw("config", "check")
    assert done.returncode == 2, done.stdout
    assert done.stdout.startswith(f"paw.toml:{bad.where}: "), done.stdout
    assert "Traceback" not in done.stderr
    done = rig.paw("spawn", "x", "--agent", "scripted")
    assert done.returncode == 2
    assert f"paw.toml:{bad.where}" in one_line_error(done.stderr)
    _nothing_created(rig)


@pytest.mark.parametrize("base", ["--detach", "-b", "no-such-ref", "main~99"])
def test_a_bad_base_is_refused_before_anything_is_created(rig: Rig, base: str) -> None:
    done = rig.paw("spawn", "x", "--agent", "scripted", f"--base={base}")
    assert done.returncode == 1
    assert f"base {base!r} names no commit" in one_line_error(done.stderr)
    _nothing_created(rig)
