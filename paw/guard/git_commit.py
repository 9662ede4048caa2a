"""The commit action: prepare (checks, details, payload) and run after confirmation.

A commit that would add a sensitive file, by name (staged, unstaged or untracked) or by content
(a private key or provider token in a file it adds), raises SensitiveFilesError before any
confirmation. The confirmed run checks again and refuses if the changed paths differ from what
the human saw.
"""

from __future__ import annotations

from pathlib import Path

from paw.core.config import GuardConfig
from paw.core.guard.confirm import ConfirmationDetails
from paw.core.guard.content import find_secret_markers
from paw.core.guard.files import PathRules, StatusEntry
from paw.errors import GuardError, SensitiveFilesError
from paw.guard.git_cli import GitRunner
from paw.guard.git_types import GitAction, GitActionParams, GitActionResult, GitConfirmationPayload

_MAX_SCAN_BYTES = 1 << 20


def _selected(
    entries: list[StatusEntry], files: tuple[str, ...] | None, add_all: bool
) -> list[StatusEntry]:
    """The entries a commit would include."""
    if files is None and add_all:
        return [e for e in entries if not e.is_ignored]
    staged = [e for e in entries if e.index not in " ?!"]
    if files is None:
        return staged
    wanted = [f.rstrip("/") for f in files]
    picked = [
        e
        for e in entries
        if e not in staged and any(p == w or p.startswith(w + "/") for p in e.paths for w in wanted)
    ]
    return staged + picked


def _paths(entries: list[StatusEntry]) -> tuple[str, ...]:
    return tuple(sorted({p for e in entries for p in e.paths}))


def _check_sensitive(entries: list[StatusEntry], rules: PathRules) -> None:
    """Raise when any non-deletion entry, staged or not, names a sensitive path."""
    found = [
        p
        for e in entries
        if not e.is_ignored and not e.is_deletion
        for p in e.paths
        if rules.is_sensitive(p)
    ]
    if found:
        raise SensitiveFilesError(sorted(set(found)))


def _read_small(path: Path) -> str | None:
    """Text of a regular file up to 1 MiB (symlinks are committed as links, not content)."""
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > _MAX_SCAN_BYTES:
            return None
        return path.read_bytes().decode("utf-8", "ignore")
    except OSError:
        return None


def _check_content(repo: str, entries: list[StatusEntry], cfg: GuardConfig) -> None:
    """Raise when a file the commit would add carries a private key or a provider token."""
    if not cfg.content_scan:
        return
    found = []
    for entry in entries:
        if entry.is_deletion or entry.is_dir:
            continue
        text = _read_small(Path(repo) / entry.path)
        markers = find_secret_markers(text) if text else []
        if markers:
            found.append(f"{entry.path} (contains a {', '.join(markers)})")
    if found:
        raise SensitiveFilesError(found)


def _truncate(text: str, max_lines: int) -> str:
    lines = text.rstrip("\n").split("\n")
    if len(lines) <= max_lines:
        return "\n".join(lines)
    return "\n".join([*lines[:max_lines], f"… ({len(lines) - max_lines} more lines)"])


def _new_files(git: GitRunner, chosen: list[StatusEntry]) -> tuple[str, str]:
    """Stat and patch of the untracked files the commit will add (``git diff HEAD`` omits
    them): each as a diff against /dev/null, a symlink as the path it points to."""
    stats: list[str] = []
    patches: list[str] = []
    for entry in chosen:
        if entry.index != "?" or entry.is_dir:
            continue
        args = ["diff", "--no-index", "--no-color", "--", "/dev/null", entry.path]
        stat = git.run([*args[:3], "--stat", *args[3:]], check=False).stdout.strip()
        patch = git.run(args, check=False).stdout.strip()
        if stat:
            stats.append(stat)
        if patch:
            patches.append(patch)
    return "\n".join(stats), "\n".join(patches)


def _diff_preview(
    git: GitRunner, params: GitActionParams, chosen: list[StatusEntry], max_lines: int
) -> str:
    base = ["diff", "HEAD"] if params.add_all and git.has_ref("HEAD") else ["diff", "--cached"]
    tail = ["--", *params.files] if params.files else []
    stat = git.out([*base, "--stat", *tail]) or ""
    patch = git.out([*base, *tail]) or ""
    new_stat, new_patch = _new_files(git, chosen)
    parts = (stat, new_stat, patch, new_patch)
    return _truncate("\n\n".join(p for p in parts if p), max_lines)


def prepare_commit(git: GitRunner, params: GitActionParams, cfg: GuardConfig) -> GitActionResult:
    """Check the tree and build the confirmation for a commit (nothing is staged here)."""
    rules = PathRules.from_config(cfg)
    entries = git.status()
    _check_sensitive(entries, rules)
    chosen = _selected(entries, params.files, params.add_all)
    if not chosen:
        return GitActionResult(requires_confirmation=False, output="No changes to commit.")
    _check_content(params.repo_path, chosen, cfg)
    paths = _paths(chosen)
    message = params.message or "chore: automated commit"
    details = ConfirmationDetails(
        action="commit",
        repo_path=params.repo_path,
        branch=git.branch(),
        message=message,
        diff_preview=_diff_preview(git, params, chosen, cfg.diff_preview_lines),
        files=paths,
        agent_instruction_files_changed=tuple(p for p in paths if rules.is_instruction(p)),
        sensitive_files=tuple(
            p for e in chosen if e.is_deletion for p in e.paths if rules.is_sensitive(p)
        ),
    )
    payload = GitConfirmationPayload(
        action=GitAction.COMMIT,
        repo_path=params.repo_path,
        message=message,
        files=params.files,
        add_all=params.add_all,
        expected_paths=paths,
    )
    return GitActionResult(True, "", details, payload)


def run_commit(git: GitRunner, payload: GitConfirmationPayload, cfg: GuardConfig) -> str:
    """Re-check, stage and commit what the human confirmed."""
    entries = git.status()
    _check_sensitive(entries, PathRules.from_config(cfg))
    chosen = _selected(entries, payload.files, payload.add_all)
    paths = _paths(chosen)
    if paths != payload.expected_paths:
        changed = sorted(set(paths) ^ set(payload.expected_paths))
        raise GuardError(
            "the working tree changed since the commit was shown for confirmation: "
            + ", ".join(changed),
            hint="ask for the commit again so the human sees what it includes",
        )
    _check_content(payload.repo_path, chosen, cfg)
    if payload.files:
        git.run(["add", "-A", "--", *payload.files])
    elif payload.add_all:
        git.run(["add", "-A"])
    result = git.run(["commit", "-m", payload.message or "chore: automated commit"])
    return "Commit created: " + (result.stdout.strip().splitlines() or [""])[0]
