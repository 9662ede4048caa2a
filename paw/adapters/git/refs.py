"""What git keeps in files, read without running git: a worktree's git directories, the
commit a base ref names (loose or packed, never guessed: None when not certain), and the stamp
of a worktree's git state that counting compares (:func:`status_mark`).

Counting a worktree at rest (see :mod:`paw.adapters.git.counting`) needs no `git rev-list`
when its HEAD is on the commit its base names; these reads say so in a few ``stat`` calls."""

from __future__ import annotations

from pathlib import Path

from paw.adapters.git.parse import is_hex_oid


def status_mark(worktree: str, base: str) -> tuple[object, ...]:
    """What a worktree's status counts depend on that git itself stamps, read without running
    git (a few ``stat`` calls and two small file reads): the worktree's index and HEAD,
    the ref HEAD names, the refs ``base`` may name (loose, ``packed-refs``, reftable),
    and the worktree directory itself (its mtime moves when a top-level entry is created,
    renamed or removed). Equal marks mean no git command changed the worktree's state
    in between; editing a tracked file without git changes none of them."""
    top = Path(worktree)
    git_dir = _git_dir(top)
    common = _common_dir(git_dir)
    head = _read_small(git_dir / "HEAD")
    paths = [top, git_dir / "index", git_dir / "HEAD", common / "packed-refs"]
    paths.append(common / "reftable" / "tables.list")
    if head is not None and head.startswith("ref: "):
        paths.append(common / head[5:].strip())
    paths += [common / name for name in _ref_candidates(base)]
    return (head, *(_stat_key(path) for path in paths))


def _git_dir(top: Path) -> Path:
    """The worktree's own git directory: ``.git`` itself, or where its ``gitdir:`` file points."""
    dot = top / ".git"
    text = _read_small(dot)
    if text is not None and text.startswith("gitdir: "):
        found = Path(text[8:].strip())
        return found if found.is_absolute() else top / found
    return dot


def _common_dir(git_dir: Path) -> Path:
    """The repository's common git directory (refs, packed-refs) for a worktree's git dir."""
    text = _read_small(git_dir / "commondir")
    if text is None or not text.strip():
        return git_dir
    found = Path(text.strip())
    return found if found.is_absolute() else git_dir / found


def _read_small(path: Path) -> str | None:
    """The first bytes of a small git bookkeeping file (``.git``, ``HEAD``); None when absent."""
    try:
        with path.open("rb") as handle:
            return handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return None


def _ref_candidates(rev: str) -> list[str]:
    """The loose ref files ``rev`` may name, in git's lookup order (``git help revisions``);
    none for a revision with characters a ref path cannot hold (``main~1``, ``a..b``)."""
    if not rev or rev.startswith(("/", "-")) or ".." in rev or any(c in rev for c in "~^:@{ "):
        return []
    return [rev, f"refs/{rev}", f"refs/tags/{rev}", f"refs/heads/{rev}", f"refs/remotes/{rev}",
            f"refs/remotes/{rev}/HEAD"]  # fmt: skip


# Refs that live in each worktree's own git directory, not in the shared one.
_PER_WORKTREE = ("refs/worktree/", "refs/bisect/", "refs/rewritten/")


def base_commit(top: Path, base: str, shared: SharedRefs | None = None) -> str | None:
    """The commit ``base`` names, read from the repository's files without running git, or
    None whenever that is not certain (the caller then asks git).

    ``base`` is a full object id, or a ref name with exactly ONE match among the places git
    looks (``git help revisions``: ``NAME``, ``refs/NAME``, ``refs/tags/NAME``,
    ``refs/heads/NAME``, ``refs/remotes/NAME``, ``refs/remotes/NAME/HEAD``), loose or in
    ``packed-refs``, holding an object id. A symbolic ref, a pseudo-ref (``HEAD``), a
    per-worktree ref, a name with two matches, an annotated tag (its id is not the commit's:
    never equal to HEAD) or a reftable repository gives None or an id no HEAD equals.

    ``shared``: what was read of the repository's common directory for ``base`` (the same
    for every worktree of it), kept by a caller that counts many worktrees at once; only the
    worktree's own files are read again."""
    if is_hex_oid(base):
        return base
    if not _ref_candidates(base) or base.startswith(_PER_WORKTREE):
        return None
    git_dir = _git_dir(top)
    if not base.startswith("refs/") and (git_dir / base).exists():
        return None  # a pseudo-ref or a file git reads first: leave it to git
    common = _common_dir(git_dir)
    if shared is None:
        return _shared_base_commit(common, base)
    try:
        st = common.stat()  # the directory itself, however its path is spelled
    except OSError:
        return _shared_base_commit(common, base)
    key = (st.st_dev, st.st_ino, base)
    if key not in shared:
        shared[key] = _shared_base_commit(common, base)
    return shared[key]


SharedRefs = dict[tuple[int, int, str], "str | None"]


def _shared_base_commit(common: Path, base: str) -> str | None:
    """:func:`base_commit` as read from the common directory ``common`` alone."""
    candidates = _ref_candidates(base)
    if (common / "reftable").exists():
        return None
    if base.startswith("refs/"):
        names = candidates  # the name itself is a ref (``refs/heads/main``)
    elif (common / base).exists():
        return None  # a pseudo-ref or a file git reads first: leave it to git
    else:
        names = candidates[1:]
    packed = _packed_refs(common / "packed-refs")
    if packed is None:
        return None
    found: list[str | None] = []
    for name in names:
        loose = common / name
        if loose.is_file():
            text = _read_small(loose)
            oid = text.strip() if text is not None else None
            found.append(oid if oid is not None and is_hex_oid(oid) else None)
        elif loose.exists():
            return None  # a directory of that name: git's lookup is not this one's
        elif name in packed:
            found.append(packed[name])
    return found[0] if len(found) == 1 else None


def _packed_refs(path: Path) -> dict[str, str] | None:
    """Ref name -> object id from ``packed-refs`` ({} when there is none; None when it
    cannot be read). Parsed once per version of the file (git replaces it by renaming a new
    one over it: see :func:`_stat_key`), not once per worktree of a sweep."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return {}
    except OSError:
        return None
    key = (st.st_mtime_ns, st.st_size, st.st_ino)
    cached = _PACKED_REFS.get(str(path))
    if cached is not None and cached[0] == key:
        return cached[1]
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError):
        return None
    refs: dict[str, str] = {}
    for line in text.splitlines():
        if not line or line[0] in "#^":
            continue
        oid, _, name = line.partition(" ")
        if is_hex_oid(oid) and name:
            refs[name] = oid
    if _stat_key(path) == key:  # unchanged while read: keep it
        _PACKED_REFS[str(path)] = (key, refs)
    return refs


_PACKED_REFS: dict[str, tuple[tuple[int, int, int], dict[str, str]]] = {}


def _stat_key(path: Path) -> tuple[int, int, int] | None:
    """The file's modification time, size and inode (git replaces files by renaming a lock
    file over them, so even a same-nanosecond rewrite changes the inode); None when absent."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)
