"""is_path_allowed: component-wise containment after resolving `..`, `~` and symlinks."""

from __future__ import annotations

from pathlib import Path

from paw.guard.paths import is_path_allowed


def test_is_path_allowed_inside_and_equal(tmp_path: Path) -> None:
    allowed = tmp_path / "user"
    (allowed / "repo").mkdir(parents=True)
    assert is_path_allowed(allowed / "repo", [allowed])
    assert is_path_allowed(allowed, [allowed])
    assert is_path_allowed(str(allowed / "not-yet" / "created"), [str(allowed)])


def test_is_path_allowed_rejects_prefix_trick(tmp_path: Path) -> None:
    (tmp_path / "user").mkdir()
    (tmp_path / "user-evil").mkdir()
    assert not is_path_allowed(tmp_path / "user-evil", [tmp_path / "user"])


def test_is_path_allowed_resolves_dotdot(tmp_path: Path) -> None:
    allowed = tmp_path / "user"
    allowed.mkdir()
    assert not is_path_allowed(f"{allowed}/repo/../../etc", [allowed])
    assert is_path_allowed(f"{allowed}/a/../b", [allowed])


def test_is_path_allowed_follows_symlinks(tmp_path: Path) -> None:
    allowed = tmp_path / "user"
    outside = tmp_path / "outside"
    allowed.mkdir()
    outside.mkdir()
    (allowed / "escape").symlink_to(outside)
    (tmp_path / "alias").symlink_to(allowed)
    assert not is_path_allowed(allowed / "escape" / "file", [allowed])
    assert is_path_allowed(tmp_path / "alias" / "repo", [allowed])
    assert is_path_allowed(allowed / "repo", [tmp_path / "alias"])


def test_is_path_allowed_expands_home_and_needs_a_list(tmp_path: Path, isolated_env: Path) -> None:
    (isolated_env / "repos").mkdir()
    assert is_path_allowed("~/repos/x", [isolated_env])
    assert not is_path_allowed(tmp_path, [])
    assert is_path_allowed(tmp_path / "a", ["/nonexistent-dir", tmp_path])
