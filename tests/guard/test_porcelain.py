"""parse_porcelain: v1 with and without -z, renames, copies, quoting, collapsed dirs, Unicode."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paw.core.guard.porcelain import parse_porcelain, unquote_path


class PorcelainCase(NamedTuple):
    test_id: str
    text: str
    expect: list[tuple[str, tuple[str, ...]]]  # (XY, paths)


CASES = [
    PorcelainCase("modified", " M src/a.py\n", [(" M", ("src/a.py",))]),
    PorcelainCase("staged-added", "A  b.txt\n", [("A ", ("b.txt",))]),
    PorcelainCase("untracked-dir", "?? build/\n", [("??", ("build/",))]),
    PorcelainCase("rename", "R  old.txt -> new.txt\n", [("R ", ("old.txt", "new.txt"))]),
    PorcelainCase("copy", "C  a.txt -> b.txt\n", [("C ", ("a.txt", "b.txt"))]),
    PorcelainCase(
        "rename-quoted",
        'R  "a b.txt" -> "c d.txt"\n',
        [("R ", ("a b.txt", "c d.txt"))],
    ),
    PorcelainCase(
        "rename-half-quoted",
        'RM plain.txt -> "with space.txt"\n',
        [("RM", ("plain.txt", "with space.txt"))],
    ),
    PorcelainCase("octal", '?? "\\303\\251t\\303\\251.txt"\n', [("??", ("été.txt",))]),
    PorcelainCase("escaped-quote", '?? "q\\"x"\n', [("??", ('q"x',))]),
    PorcelainCase("escaped-tab", '?? "a\\tb"\n', [("??", ("a\tb",))]),
    PorcelainCase("conflict", "UU .env.production\n", [("UU", (".env.production",))]),
    PorcelainCase("branch-header", "## main...origin/main\n M x\n", [(" M", ("x",))]),
    PorcelainCase("bare-path", "docs/日本語.md\n", [("  ", ("docs/日本語.md",))]),
    PorcelainCase("bare-with-space", "my project/.env.local", [("  ", ("my project/.env.local",))]),
    PorcelainCase("crlf", " M a\r\n M b\r\n", [(" M", ("a",)), (" M", ("b",))]),
    PorcelainCase(
        "z-rename-new-first",
        "R  new name.txt\0old name.txt\0 M a -> b\0",
        [("R ", ("old name.txt", "new name.txt")), (" M", ("a -> b",))],
    ),
    PorcelainCase(
        "z-copy-and-untracked",
        "C  copy.txt\0orig.txt\0?? dir/\0",
        [("C ", ("orig.txt", "copy.txt")), ("??", ("dir/",))],
    ),
    PorcelainCase("z-unicode", "?? ключи/id_ed25519\0", [("??", ("ключи/id_ed25519",))]),
    PorcelainCase("empty", "", []),
    PorcelainCase(
        "name-status",
        'M\tsrc/a.py\nR100\t.env\tconfig/.env.example\nA\t"\\303\\251.pem"\n',
        [("M ", ("src/a.py",)), ("R ", (".env", "config/.env.example")), ("A ", ("é.pem",))],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.test_id)
def test_parse_porcelain_table(case: PorcelainCase) -> None:
    got = [(e.index + e.worktree, e.paths) for e in parse_porcelain(case.text)]
    assert got == case.expect


def test_parse_porcelain_entry_flags() -> None:
    entries = parse_porcelain("?? build/\n D gone.txt\nR  a -> b\n!! ignored.log\n")
    assert [e.is_dir for e in entries] == [True, False, False, False]
    assert [e.is_deletion for e in entries] == [False, True, False, False]
    assert [e.is_rename for e in entries] == [False, False, True, False]
    assert [e.is_ignored for e in entries] == [False, False, False, True]


def test_unquote_path_passes_unquoted_text_through() -> None:
    assert unquote_path('"unterminated') == '"unterminated'
    assert unquote_path('"\\001x"') == "\x01x"


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, capture_output=True, check=True)
    return done.stdout.decode("utf-8")


@pytest.mark.git
@pytest.mark.parametrize("z", [False, True], ids=["lines", "nul"])
def test_parse_porcelain_matches_real_git(git_repo: Path, z: bool) -> None:
    names = ["a b.txt", "été.txt", 'q"x.txt', "arrow -> name.txt"]
    for name in names:
        (git_repo / name).write_text("x\n", encoding="utf-8")
    (git_repo / "sub").mkdir()
    (git_repo / "sub" / "inner.txt").write_text("x\n", encoding="utf-8")
    _git(git_repo, "mv", "README.md", "READ ME.md")
    args = ["status", "--porcelain=v1"] + (["-z"] if z else [])
    entries = parse_porcelain(_git(git_repo, *args))
    got: dict[str, list[tuple[str, ...]]] = {e.index + e.worktree: [] for e in entries}
    for e in entries:
        got[e.index + e.worktree].append(e.paths)
    assert got["R "] == [("README.md", "READ ME.md")]
    assert sorted(p for (p,) in got["??"]) == sorted([*names, "sub/"])


_C_ESCAPES = {"\t": "\\t", "\n": "\\n", '"': '\\"', "\\": "\\\\", "\a": "\\a", "\b": "\\b"}


def _git_quote(path: str) -> str:
    """Quote a path the way git does with core.quotePath=true (C style, octal bytes)."""
    out = []
    for byte in path.encode("utf-8"):
        ch = chr(byte)
        if ch in _C_ESCAPES:
            out.append(_C_ESCAPES[ch])
        elif byte < 0x20 or byte >= 0x7F:
            out.append(f"\\{byte:03o}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


_PATHS = st.text(
    st.characters(blacklist_categories=["Cs"], blacklist_characters="\0\r/"), min_size=1
).filter(lambda p: p.strip() == p and p not in (".", ".."))


@given(_PATHS, _PATHS)
def test_parse_porcelain_round_trips_quoted_renames(old: str, new: str) -> None:
    line = f"R  {_git_quote(old)} -> {_git_quote(new)}\n"
    (entry,) = parse_porcelain(line)
    assert entry.paths == (old, new)


@given(_PATHS)
def test_parse_porcelain_round_trips_z_paths(path: str) -> None:
    (entry,) = parse_porcelain(f"?? {path}\0")
    assert entry.path == path
