"""The usage read keeps each session file's parse while the file's size and mtime stay (issue
36: `paw ls` at 200 agents must not reread every agent's records): real files on disk, the
parses counted."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import paw.adapters.usage as reader
from paw.adapters.state import StateStore
from paw.adapters.usage import read_usage
from paw.adapters.usage_cache import UsageCache
from paw.core.usage import claude_project_dir


def _line(cwd: str, ref: str) -> str:
    usage = {"input_tokens": 10, "output_tokens": 5}
    message = {"id": "m", "role": "assistant", "usage": usage}
    return json.dumps({"type": "assistant", "cwd": cwd, "requestRef": ref, "message": message})


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The Claude Code session parses done (the real parser, counted)."""
    done: list[str] = []
    from paw.core.usage import parse_claude_session as real

    def counted(lines: object, worktree: str, since: float | None = None) -> object:
        done.append(worktree)
        return real(lines, worktree, since)  # type: ignore[arg-type]

    monkeypatch.setattr(reader, "parse_claude_session", counted)
    return done


def test_unchanged_files_are_not_parsed_again_even_in_another_process(
    tmp_path: Path, parses: list[str]
) -> None:
    config = tmp_path / "claude"
    env = {"CLAUDE_CONFIG_DIR": str(config)}
    worktrees = [str(tmp_path / "wt" / f"a{i}") for i in range(3)]
    for wt in worktrees:
        folder = config / "projects" / claude_project_dir(wt)
        folder.mkdir(parents=True)
        (folder / "s.jsonl").write_text(_line(wt, "r1") + "\n", encoding="utf-8")
    store = StateStore(tmp_path / "state")

    cache = UsageCache(store)
    first = [read_usage("claude-code", wt, env, None, cache) for wt in worktrees]
    cache.save()
    assert [r.usage.total_tokens if r.usage else None for r in first] == [15, 15, 15]
    assert len(parses) == 3

    again = UsageCache(store)  # the next `paw ls`: read from .paw/usage-cache.json
    second = [read_usage("claude-code", wt, env, None, again) for wt in worktrees]
    assert second == first
    assert len(parses) == 3  # nothing parsed again

    # one file grows: that one alone is parsed again, and counted anew
    grown = config / "projects" / claude_project_dir(worktrees[1]) / "s.jsonl"
    with grown.open("a", encoding="utf-8") as handle:
        handle.write(_line(worktrees[1], "r2") + "\n")
    again.new_look()
    third = [read_usage("claude-code", wt, env, None, again) for wt in worktrees]
    assert [r.usage.total_tokens if r.usage else None for r in third] == [15, 30, 15]
    assert parses[3:] == [worktrees[1]]

    # a file rewritten to the same size: its new mtime says it changed
    stat = grown.stat()
    grown.write_text(grown.read_text(encoding="utf-8").replace('"r2"', '"r1"'), "utf-8")
    os.utime(grown, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert grown.stat().st_size == stat.st_size
    again.new_look()
    assert read_usage("claude-code", worktrees[1], env, None, again).usage.total_tokens == 15  # type: ignore[union-attr]
    assert len(parses) == 5


def test_a_corrupt_or_foreign_cache_is_read_past(tmp_path: Path, parses: list[str]) -> None:
    config = tmp_path / "claude"
    wt = str(tmp_path / "wt")
    folder = config / "projects" / claude_project_dir(wt)
    folder.mkdir(parents=True)
    path = folder / "s.jsonl"
    path.write_text(_line(wt, "r1") + "\n", encoding="utf-8")
    store = StateStore(tmp_path / "state")
    store.ensure()
    (tmp_path / "state" / "usage-cache.json").write_text("{not json", encoding="utf-8")
    env = {"CLAUDE_CONFIG_DIR": str(config)}
    assert read_usage("claude-code", wt, env, None, UsageCache(store)).usage is not None
    # an entry of another shape (another paw version) for the same file, size and mtime
    info = path.stat()
    key = f"claude\0{wt}\0None\0{path}"  # read since ever (None)
    for foreign in ({"x": 1}, {"input_tokens": "10"}, 7):
        store.write("usage-cache", {"files": {key: [info.st_size, info.st_mtime_ns, foreign]}})
        reading = read_usage("claude-code", wt, env, None, UsageCache(store))
        assert reading.usage is not None
        assert reading.usage.total_tokens == 15


def test_a_fifo_named_like_a_session_file_is_never_opened(tmp_path: Path) -> None:
    """Opening a FIFO would block `paw ls` for ever: only regular files are read."""
    config = tmp_path / "claude"
    wt = str(tmp_path / "wt")
    folder = config / "projects" / claude_project_dir(wt)
    folder.mkdir(parents=True)
    (folder / "a.jsonl").write_text(_line(wt, "r1") + "\n", encoding="utf-8")
    os.mkfifo(folder / "b.jsonl")
    codex = tmp_path / "codex" / "sessions" / "2026" / "01" / "02"
    codex.mkdir(parents=True)
    os.mkfifo(codex / "rollout-1.jsonl")
    env = {"CLAUDE_CONFIG_DIR": str(config), "CODEX_HOME": str(tmp_path / "codex")}
    found = read_usage("claude-code", wt, env, None, UsageCache())
    assert found.usage is not None
    assert found.usage.total_tokens == 15
    assert read_usage("codex", wt, env, None, UsageCache()).usage is None
