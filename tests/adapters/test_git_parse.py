"""Pure parsers of the git adapter, on strings."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from paw.adapters.git.parse import (
    parse_left_right,
    parse_shortstat,
    parse_status_z,
    parse_worktree_porcelain,
    restore_instructions,
)


def test_parse_worktree_porcelain_z_with_bare_locked_prunable() -> None:
    text = (
        "worktree /srv/r.git\0bare\0\0"
        "worktree /w/a b\0HEAD 1111\0branch refs/heads/agent/a\0locked reason\0\0"
        "worktree /w/c\0HEAD 2222\0detached\0prunable gitdir file points nowhere\0\0"
    )
    wts = parse_worktree_porcelain(text)
    assert [(w.path, w.branch, w.bare, w.detached, w.locked, w.prunable) for w in wts] == [
        ("/srv/r.git", None, True, False, False, False),
        ("/w/a b", "agent/a", False, False, True, False),
        ("/w/c", None, False, True, False, True),
    ]


def test_parse_worktree_porcelain_empty() -> None:
    assert parse_worktree_porcelain("") == []


class StatusCase(NamedTuple):
    test_id: str
    text: str
    expected: tuple[int, int, int]  # uncommitted, untracked, unmerged


STATUS_CASES = [
    StatusCase("clean", "", (0, 0, 0)),
    StatusCase("modified", "1 .M N... 100644 100644 100644 a a f.txt\0", (1, 0, 0)),
    StatusCase(
        "rename-carries-origin",
        "2 R. N... 100644 100644 100644 a a R100 new.txt\0? old-looking.txt\0? x\0",
        (1, 1, 0),
    ),
    StatusCase("conflict", "u UU N... 1 1 1 1 a b c f\0", (0, 0, 1)),
    StatusCase("untracked-space", "? dir/a file.txt\0", (0, 1, 0)),
    StatusCase("headers-only", "# branch.oid abc\0# branch.head main\0", (0, 0, 0)),
]


@pytest.mark.parametrize("case", STATUS_CASES, ids=[c.test_id for c in STATUS_CASES])
def test_parse_status_z_counts(case: StatusCase) -> None:
    counts = parse_status_z(case.text)
    assert (counts.uncommitted, counts.untracked, counts.unmerged) == case.expected


def test_parse_status_z_rename_original_path_is_skipped() -> None:
    # the original path of a rename is its own NUL field and may look like any entry
    counts = parse_status_z("2 R. N... 1 1 1 a a R100 new\0? trap\0")
    assert (counts.uncommitted, counts.untracked) == (1, 0)


def test_parse_left_right_and_shortstat() -> None:
    assert parse_left_right("0\t7\n") == (0, 7)
    assert parse_shortstat(" 1 file changed, 3 deletions(-)\n") == (0, 3)
    assert parse_shortstat(" 1 file changed, 1 insertion(+)\n") == (1, 0)


def test_restore_instructions_quote_the_ref() -> None:
    text = restore_instructions("refs/paw/snapshots/a b/1", "/r/wt")
    assert "git worktree add --detach ../restored 'refs/paw/snapshots/a b/1'" in text
    assert "git restore --source='refs/paw/snapshots/a b/1' --worktree -- ." in text
