"""paw.toml loading: every problem reported with its file, line and key."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

from paw.adapters.config_store import Problem, format_problem, load_config, scan_key_lines
from paw.core.config import PawConfig


class BadCase(NamedTuple):
    test_id: str
    text: str
    expect: list[tuple[int | None, str | None, str]]  # (line, key, message fragment)


BAD = [
    BadCase(
        "syntax",
        "[guard]\nallowed_dirs = [\n  '/a',\n  oops\n]\n",
        [(4, None, "invalid TOML")],
    ),
    BadCase(
        "unknown-key",
        "[guard]\ndiff_preview_lines = 10\nallowed_dir = ['/a']\n",
        [(3, "guard.allowed_dir", "did you mean 'allowed_dirs'")],
    ),
    BadCase("unknown-table", "\n\n[gaurd]\nx = 1\n", [(3, "gaurd", "unknown key")]),
    BadCase(
        "wrong-type",
        "[guard]\n# comment\ngit_timeout_s = 'soon'\n",
        [(3, "guard.git_timeout_s", "valid number")],
    ),
    BadCase(
        "wrong-element",
        "[guard]\nallowed_dirs = ['/a', 7]\n",
        [(2, "guard.allowed_dirs[2]", "valid string")],
    ),
    BadCase(
        "nested-table",
        "[guard.sensitive_files]\nextend = ['x']\nreplace = 3\n",
        [(3, "guard.sensitive_files.replace", "tuple")],
    ),
    BadCase(
        "dotted-key",
        "guard.protected_branches = 'main'\n",
        [(1, "guard.protected_branches", "tuple")],
    ),
    BadCase(
        "bad-regex",
        "[guard]\nsensitive_files = { extend = ['(unclosed'] }\n",
        [(2, "guard.sensitive_files.extend[1]", "invalid regular expression")],
    ),
    BadCase(
        "relative-dir",
        "[guard]\n\nallowed_dirs = ['repos']\n",
        [(3, "guard.allowed_dirs", "absolute")],
    ),
    BadCase(
        "several",
        "[guard]\nfoo = 1\ngit_timeout_s = 'x'\n",
        [(2, "guard.foo", "unknown key"), (3, "guard.git_timeout_s", "number")],
    ),
]


@pytest.mark.parametrize("case", BAD, ids=lambda c: c.test_id)
def test_load_config_reports_problems_with_lines(case: BadCase, tmp_path: Path) -> None:
    path = tmp_path / "paw.toml"
    path.write_text(case.text, encoding="utf-8")
    config, problems = load_config(path)
    assert config is None
    assert len(problems) == len(case.expect), problems
    for problem, (line, key, fragment) in zip(problems, case.expect, strict=True):
        assert problem.file == str(path)
        assert (problem.line, problem.key) == (line, key)
        assert fragment in problem.message


def test_load_config_reads_a_valid_file(tmp_path: Path) -> None:
    path = tmp_path / "paw.toml"
    path.write_text(
        "[guard]\nallowed_dirs = ['~/repos', '/srv']\n"
        "[guard.sensitive_files]\nextend = ['(?:^|/)vault\\.txt$']\n",
        encoding="utf-8",
    )
    config, problems = load_config(path)
    assert problems == []
    assert config is not None
    assert config.guard.allowed_dirs == ("~/repos", "/srv")
    assert config.guard.sensitive_files.extend == (r"(?:^|/)vault\.txt$",)


def test_load_config_missing_file(tmp_path: Path) -> None:
    config, problems = load_config(tmp_path / "paw.toml")
    assert config is None
    assert problems[0].message == "file not found"
    config, problems = load_config(tmp_path / "paw.toml", missing_ok=True)
    assert config == PawConfig()
    assert problems == []


def test_load_config_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "paw.toml"
    path.write_bytes(b"[guard]\n# \xff\n")
    _, problems = load_config(path)
    assert (problems[0].line, problems[0].message) == (2, "invalid TOML: not UTF-8")


def test_format_problem_shapes() -> None:
    assert (
        format_problem(Problem("paw.toml", 12, "guard.allowed_dirs", "must be absolute"))
        == "paw.toml:12: guard.allowed_dirs: must be absolute"
    )
    assert format_problem(Problem("paw.toml", None, None, "file not found")) == (
        "paw.toml: file not found"
    )
    assert format_problem(Problem("paw.toml", 3, None, "invalid TOML: x")) == (
        "paw.toml:3: invalid TOML: x"
    )


def test_scan_key_lines_handles_quoted_and_dotted_keys() -> None:
    text = '[ "guard" . sensitive_files ]\n"extend" = []\n[[list]]\na.b = 1\n'
    lines = scan_key_lines(text)
    assert lines[("guard", "sensitive_files", "extend")] == 2
    assert lines[("list", 0, "a", "b")] == 4
