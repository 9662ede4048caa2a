"""Hypothesis over paw.toml: valid TOML with wrong types, out-of-range numbers and unknown
keys. `paw config check` exits 0 or 2 with one `paw.toml:LINE: KEY: message` line per problem,
and every command's loader raises one usage error (exit 2, one line); never a traceback."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paw.cli import UsageError, main
from paw.cli.compose import load_config

pytestmark = pytest.mark.git

SCHEMA: dict[str, tuple[str, ...]] = {
    "guard": (
        "allowed_dirs", "blocked_patterns", "sensitive_files", "agent_instruction_files",
        "protected_branches", "git_timeout_s", "diff_preview_lines", "content_scan",
    ),
    "tmux": ("session", "socket_name"),
    "worktrees": ("root", "branch_prefix", "base", "disposable"),
}  # fmt: skip
AGENT_KEYS = ("command", "env", "task_mode", "task_flag", "match", "detector")
PROBLEM_LINE = re.compile(r"^paw\.toml(:\d+)?: ")

scalars = st.one_of(
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["HEAD", "main", ".git", "--detach", "../x", "a..b/", "{repo}", "", "-"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)  # fmt: skip
keys = st.sampled_from([k for ks in SCHEMA.values() for k in ks] + ["unknown", "extend"])


def _table(section_keys: tuple[str, ...]) -> st.SearchStrategy[dict[str, Any]]:
    return st.dictionaries(st.sampled_from([*section_keys, "nope"]) | keys, values, max_size=4)


documents = st.fixed_dictionaries(
    {},
    optional={
        "guard": _table(SCHEMA["guard"]),
        "tmux": _table(SCHEMA["tmux"]),
        "worktrees": _table(SCHEMA["worktrees"]),
        "agents": st.dictionaries(
            st.sampled_from(["claude-code", "codex", "scripted", "mine"]),
            st.dictionaries(st.sampled_from([*AGENT_KEYS, "bogus"]), values, max_size=3),
            max_size=2,
        ),
        "mcp_allowed": values,
        "stray": values,
    },
)


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(doc=documents)
def test_any_valid_toml_is_ok_or_exit_2_with_one_line_per_problem(
    git_repo: Path, doc: dict[str, Any]
) -> None:
    path = git_repo / "paw.toml"
    path.write_text(tomli_w.dumps(doc), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["config", "check", "-C", str(git_repo)])
    assert code in (0, 2), err.getvalue()
    assert err.getvalue() == ""
    lines = out.getvalue().splitlines()
    if code == 2:
        assert lines
        assert all(PROBLEM_LINE.match(line) for line in lines), lines
    else:
        assert lines == ["paw.toml: ok"]
    if code == 0:
        load_config(path, str(git_repo))
        return
    with pytest.raises(UsageError) as usage:  # what every command does with this file
        load_config(path, str(git_repo))
    assert "\n" not in usage.value.message
    assert PROBLEM_LINE.match(usage.value.message)
