"""Pure parsers and texts of the git adapter (no I/O), tested on strings."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from paw.core.ports import StatusCounts


@dataclass(frozen=True, slots=True)
class Worktree:
    """One entry of ``git worktree list --porcelain``."""

    path: str
    head: str = ""
    branch: str | None = None  # short name ("main"); None when detached or bare
    bare: bool = False
    detached: bool = False
    locked: bool = False
    prunable: bool = False


def parse_worktree_porcelain(text: str) -> list[Worktree]:
    r"""Parse ``git worktree list --porcelain`` output, NUL- (``-z``) or newline-separated.

    >>> wts = parse_worktree_porcelain("worktree /r\nHEAD ab12\nbranch refs/heads/main\n\n"
    ...                                "worktree /r/wt\nHEAD cd34\ndetached\n")
    >>> [(w.path, w.branch, w.detached) for w in wts]
    [('/r', 'main', False), ('/r/wt', None, True)]
    """
    fields = text.split("\0") if "\0" in text else text.split("\n")
    records: list[dict[str, str]] = []
    current: dict[str, str] | None = None
    for field in fields:
        if not field:
            current = None
            continue
        key, _, value = field.partition(" ")
        if key == "worktree":
            current = {"worktree": value}
            records.append(current)
        elif current is not None:
            current[key] = value
    return [_worktree(record) for record in records]


def _worktree(record: dict[str, str]) -> Worktree:
    branch = record.get("branch")
    if branch is not None and branch.startswith("refs/heads/"):
        branch = branch[len("refs/heads/") :]
    return Worktree(
        path=record["worktree"],
        head=record.get("HEAD", ""),
        branch=branch,
        bare="bare" in record,
        detached="detached" in record,
        locked="locked" in record,
        prunable="prunable" in record,
    )


def parse_status_z(text: str) -> StatusCounts:
    """Count entries of ``git status --porcelain=v2 -z``: ahead/behind are left at 0.

    ``uncommitted`` counts changed tracked paths (staged or not), ``untracked`` the ``?``
    entries (ignored files are not listed), ``unmerged`` the conflicted paths.

    >>> c = parse_status_z("# branch.head m\\0" "1 .M N... 1 1 1 a a a\\0" "? new\\0" "u UU x\\0")
    >>> c.uncommitted, c.untracked, c.unmerged
    (1, 1, 1)
    """
    uncommitted = untracked = unmerged = 0
    fields = iter(text.split("\0"))
    for field in fields:
        kind = field[:2]
        if kind == "1 ":
            uncommitted += 1
        elif kind == "2 ":
            uncommitted += 1
            next(fields, None)  # a rename/copy entry carries its original path as a field
        elif kind == "u ":
            unmerged += 1
        elif kind == "? ":
            untracked += 1
    return StatusCounts(
        uncommitted=uncommitted, untracked=untracked, unmerged=unmerged, ahead=0, behind=0
    )


def parse_branch_oid(text: str) -> str | None:
    """The commit HEAD is on, from the ``# branch.oid`` header of ``git status
    --porcelain=v2 --branch -z``; None on an unborn branch or without the header.

    >>> parse_branch_oid("# branch.oid " + "0" * 40 + "\\0# branch.head main\\0") == "0" * 40
    True
    >>> parse_branch_oid("# branch.oid (initial)\\0") is None
    True
    """
    for field in text.split("\0"):
        if field.startswith("# branch.oid "):
            oid = field[len("# branch.oid ") :].strip()
            return oid if is_hex_oid(oid) else None
        if field[:2] != "# ":
            break  # the headers come first
    return None


def is_hex_oid(text: str) -> bool:
    """A full object id (SHA-1 or SHA-256) in lower-case hex."""
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


def parse_marked_statuses(text: str, token: str, count: int) -> list[str | None]:
    """Split the output of ``count`` `git status -z` runs, each followed by
    ``\\0<token> <exit status>\\0``, into each run's output (None where git failed, or
    past the last marker: a shell cut short).

    >>> parse_marked_statuses("# a\\0\\0T 0\\0\\0T 128\\0# c\\0", "T", 3)
    ['# a\\x00', None, None]
    """
    marker = f"\0{token} "
    out: list[str | None] = []
    pos = 0
    while len(out) < count:
        at = text.find(marker, pos)
        end = text.find("\0", at + len(marker)) if at >= 0 else -1
        if end < 0:
            break
        status = text[at + len(marker) : end]
        out.append(text[pos:at] if status == "0" else None)
        pos = end + 1
    return out + [None] * (count - len(out))


def parse_left_right(text: str) -> tuple[int, int]:
    """Parse ``git rev-list --left-right --count base...HEAD`` into ``(behind, ahead)``.

    >>> parse_left_right("3\\t5\\n")
    (3, 5)
    """
    left, _, right = text.strip().partition("\t")
    return int(left or 0), int(right or 0)


def parse_shortstat(text: str) -> tuple[int, int]:
    """Parse ``git diff --shortstat`` into ``(insertions, deletions)``.

    >>> parse_shortstat(" 2 files changed, 5 insertions(+), 1 deletion(-)")
    (5, 1)
    >>> parse_shortstat("")
    (0, 0)
    """
    insertions = deletions = 0
    for part in text.split(","):
        words = part.split()
        if len(words) >= 2 and words[0].isdigit():
            if words[1].startswith("insertion"):
                insertions = int(words[0])
            elif words[1].startswith("deletion"):
                deletions = int(words[0])
    return insertions, deletions


def restore_instructions(ref: str, worktree: str) -> str:
    """How a user gets a snapshot back (every file, untracked ones included).

    >>> print(restore_instructions("refs/paw/snapshots/a/1", "/r/wt").splitlines()[0])
    paw saved the work of /r/wt in refs/paw/snapshots/a/1.
    """
    q_ref = shlex.quote(ref)
    return "\n".join(
        [
            f"paw saved the work of {worktree} in {ref}.",
            "Its parent is the branch head at save time; .gitignore'd files are not in it.",
            "To see it:            git show --stat " + q_ref,
            "To restore it into a new worktree:",
            f"    git worktree add --detach ../restored {q_ref}",
            "To restore its files into the current worktree (overwrites those paths):",
            f"    git restore --source={q_ref} --worktree -- .",
            "To keep it as a branch:  git branch restored " + q_ref,
        ]
    )
