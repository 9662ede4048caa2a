"""Usage read from the records of the agents beyond Claude Code and Codex (issue 36), on files
the pinned CLIs really wrote (tests/fixtures/usage/: a turn of ``SCENARIO shell`` against the
stub model, which reports 12 tokens in and 8 out per response; the scratch paths replaced by
``/home/u/src``), laid out on disk where each CLI files them.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from paw.adapters.usage import read_usage
from paw.core.usage import (
    SOURCES,
    Usage,
    claude_project_dir,
    parse_gemini_chat,
    parse_qwen_chat,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "usage"
GEMINI = FIXTURES / "gemini-cli-0.61.0" / "session-2026-12-05T18-17-dedde0e9.jsonl"
QWEN = FIXTURES / "qwen-code-0.24.4" / "chat.jsonl"
RECORDED_WT = "/home/u/src/wt/e2e"  # the worktree the fixtures were recorded in
# Gemini CLI: the two responses of the turn, the tool call then the final text (12 in, 8 out
# each); Qwen Code: the tool call, its prompt left open
TWO_RESPONSES = Usage(24, 16, 0, 0, requests=2)
ONE_RESPONSE = Usage(12, 8, 0, 0, requests=1)


def _epoch(stamp: str) -> float:
    return dt.datetime.fromisoformat(stamp).timestamp()


def _fixture_text(path: Path, worktree: str) -> str:
    return path.read_text(encoding="utf-8").replace(RECORDED_WT, worktree)


def test_gemini_each_response_counts_once_though_written_again() -> None:
    # 0.61.0 writes the tool-call response twice (its tokens, then its tool calls), same id
    lines = GEMINI.read_text(encoding="utf-8").splitlines()
    assert parse_gemini_chat(lines) == TWO_RESPONSES
    # since the first response: only the second (the final text) is this agent's
    assert parse_gemini_chat(lines, _epoch("2026-12-05T18:17:14Z")) == ONE_RESPONSE
    assert parse_gemini_chat(lines, _epoch("2026-12-05T18:19:00Z")) is None


def test_gemini_token_fields_as_the_api_names_them() -> None:
    tokens = {"input": 100, "output": 7, "cached": 40, "thoughts": 5, "tool": 3, "total": 115}
    line = f'{{"id": "m1", "type": "gemini", "tokens": {tokens}}}'.replace("'", '"')
    # fresh input: prompt less the cached, plus the tool-use prompt; thoughts are output
    assert parse_gemini_chat([line]) == Usage(63, 12, 40, 0, requests=1)


def _gemini_home(tmp_path: Path, worktree: str, folder: str = "e2e") -> Path:
    home = tmp_path / "home"
    project = home / ".gemini" / "tmp" / folder
    (project / "chats").mkdir(parents=True)
    (project / ".project_root").write_text(worktree, encoding="utf-8")
    chat = project / "chats" / GEMINI.name
    chat.write_text(_fixture_text(GEMINI, worktree), encoding="utf-8")
    return home


def test_gemini_chats_are_found_by_the_project_root_of_their_folder(tmp_path: Path) -> None:
    wt = str(tmp_path / "repo" / ".paw-worktrees" / "night-a")
    home = _gemini_home(tmp_path, wt)
    # the agent beside it (night-a-2: same leading characters) is not this one
    other = home / ".gemini" / "tmp" / "night-a-2"
    shutil.copytree(home / ".gemini" / "tmp" / "e2e", other)
    (other / ".project_root").write_text(wt + "-2", encoding="utf-8")
    reading = read_usage("gemini-cli", wt, {"HOME": str(home)}, None)
    assert reading.usage == TWO_RESPONSES
    assert reading.source == SOURCES["gemini-cli"] == "Gemini CLI's chat files"
    # GEMINI_CLI_HOME moves its folder as it moves the CLI's
    moved = tmp_path / "moved"
    shutil.move(str(home / ".gemini"), str(moved / ".gemini"))
    env = {"HOME": str(home), "GEMINI_CLI_HOME": str(moved)}
    assert read_usage("gemini-cli", wt, env, None).usage == TWO_RESPONSES
    assert read_usage("gemini-cli", wt, {"HOME": str(home)}, None).usage is None


def test_gemini_chats_of_an_earlier_agent_in_the_same_worktree_do_not_count(
    tmp_path: Path,
) -> None:
    wt = str(tmp_path / "wt")
    home = _gemini_home(tmp_path, wt)
    later = _epoch("2026-12-05T18:30:00Z")  # a new agent started after the recorded turn
    reading = read_usage("gemini-cli", wt, {"HOME": str(home)}, later)
    assert reading.usage is None
    assert reading.unknown == "no usage in Gemini CLI's chat files for its worktree"


def test_qwen_counts_the_assistant_records_of_its_worktree() -> None:
    text = QWEN.read_text(encoding="utf-8")
    assert parse_qwen_chat(text.splitlines(), RECORDED_WT) == ONE_RESPONSE
    assert parse_qwen_chat(text.splitlines(), RECORDED_WT + "-2") is None
    assert parse_qwen_chat(text.splitlines(), "/home/u/src/wt") == ONE_RESPONSE
    assert parse_qwen_chat(text.splitlines(), RECORDED_WT, _epoch("2026-12-05T18:21:34Z")) is None


def test_qwen_token_fields_as_the_api_names_them() -> None:
    usage = {"promptTokenCount": 100, "candidatesTokenCount": 7, "thoughtsTokenCount": 5,
             "totalTokenCount": 112, "cachedContentTokenCount": 40}  # fmt: skip
    line = (
        f'{{"uuid": "a", "type": "assistant", "cwd": "{RECORDED_WT}", "usageMetadata": {usage}}}'
    ).replace("'", '"')
    assert parse_qwen_chat([line, line], RECORDED_WT) == Usage(60, 12, 40, 0, requests=1)


def test_qwen_chats_are_found_under_the_worktree_project_folder(tmp_path: Path) -> None:
    wt = str(tmp_path / "repo" / ".paw-worktrees" / "night-a")
    home = tmp_path / "home"
    chats = home / ".qwen" / "projects" / claude_project_dir(wt) / "chats"
    chats.mkdir(parents=True)
    (chats / "s.jsonl").write_text(_fixture_text(QWEN, wt), encoding="utf-8")
    beside = home / ".qwen" / "projects" / claude_project_dir(wt + "-2") / "chats"
    beside.mkdir(parents=True)
    (beside / "s.jsonl").write_text(_fixture_text(QWEN, wt + "-2"), encoding="utf-8")
    reading = read_usage("qwen-code", wt, {"HOME": str(home)}, None)
    assert reading.usage == ONE_RESPONSE
    assert reading.source == "Qwen Code's chat records"
    later = _epoch("2026-12-05T19:00:00Z")
    assert read_usage("qwen-code", wt, {"HOME": str(home)}, later).usage is None
    # QWEN_HOME (or QWEN_RUNTIME_DIR) moves its folder as it moves the CLI's
    moved = tmp_path / "moved"
    shutil.move(str(home / ".qwen"), str(moved))
    assert read_usage("qwen-code", wt, {"HOME": str(home), "QWEN_HOME": str(moved)}, None).usage
    env = {"HOME": str(home), "QWEN_RUNTIME_DIR": str(moved), "QWEN_HOME": "/nowhere"}
    assert read_usage("qwen-code", wt, env, None).usage == ONE_RESPONSE
