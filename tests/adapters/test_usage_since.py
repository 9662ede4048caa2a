"""Only what an agent used since paw started it counts (issue 36): a wave run again under the same
name gets the same worktree paths, and the agents of the run before left their sessions there.
Counting them would charge the new task for old tokens and could park it on its budget.

Real files on disk, written as the pinned versions write them (every line dated): Claude Code's
session files under the worktree's project folder, Codex's session logs in today's folder.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from pathlib import Path

from paw.adapters.usage import read_usage
from paw.adapters.usage_cache import UsageCache
from paw.core.usage import claude_project_dir

NOW = time.time()
STARTED = NOW - 60  # when paw started the agent of this run
OLD = NOW - 1800  # the run before, in the same worktree path


def _stamp(at: float) -> str:
    """A timestamp as both CLIs write it: ISO 8601, UTC, milliseconds, ``Z``."""
    when = dt.datetime.fromtimestamp(at, dt.UTC)
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


def _claude(cwd: str, ref: str, at: float, tokens: int) -> str:
    """An assistant line as Claude Code 2.1.332 writes it (trimmed to what paw reads)."""
    usage = {"input_tokens": tokens, "output_tokens": tokens // 10,
             "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}  # fmt: skip
    return json.dumps({
        "type": "assistant", "cwd": cwd, "requestRef": ref, "uuid": f"u-{ref}",
        "timestamp": _stamp(at), "sessionId": "s", "version": "2.1.332",
        "message": {"id": f"msg-{ref}", "role": "assistant", "usage": usage},
    })  # fmt: skip


def _codex(cwd: str, totals: list[tuple[float, int]], started: float) -> str:
    """A Codex 0.171.0 session log: its ``session_meta``, then a running total per response."""
    meta = {"id": "s", "cwd": cwd, "cli_version": "0.171.0", "timestamp": _stamp(started)}
    lines = [{"timestamp": _stamp(started), "type": "session_meta", "payload": meta}]
    for at, total in totals:
        usage = {"input_tokens": total, "cached_input_tokens": 0, "output_tokens": total // 10,
                 "total_tokens": total + total // 10}  # fmt: skip
        info = {"total_token_usage": usage, "last_token_usage": usage}
        lines.append({"timestamp": _stamp(at), "type": "event_msg",
                      "payload": {"type": "token_count", "info": info}})  # fmt: skip
    return "".join(json.dumps(line) + "\n" for line in lines)


def test_claude_code_sessions_of_an_earlier_agent_in_the_same_worktree_do_not_count(
    tmp_path: Path,
) -> None:
    config = tmp_path / "claude"
    wt = str(tmp_path / "repo" / ".paw-worktrees" / "night-a")
    folder = config / "projects" / claude_project_dir(wt)
    folder.mkdir(parents=True)
    # the run before: a whole session, 5000 tokens in
    (folder / "old.jsonl").write_text(
        "".join(_claude(wt, f"o{i}", OLD + i, 1000) + "\n" for i in range(5)), encoding="utf-8"
    )
    # this run's agent: two responses, 100 tokens in each
    (folder / "new.jsonl").write_text(
        "".join(_claude(wt, f"n{i}", STARTED + 5 + i, 100) + "\n" for i in range(2)),
        encoding="utf-8",
    )
    # a session resumed from the old one: its old lines copied, one new response
    (folder / "resumed.jsonl").write_text(
        _claude(wt, "r0", OLD, 1000) + "\n" + _claude(wt, "r1", STARTED + 10, 100) + "\n",
        encoding="utf-8",
    )
    env = {"CLAUDE_CONFIG_DIR": str(config)}
    cache = UsageCache()

    mine = read_usage("claude-code", wt, env, STARTED, cache).usage

    assert mine is not None
    assert (mine.input_tokens, mine.output_tokens, mine.requests) == (300, 30, 3)
    # ever (no start known): everything in the folder, from the same cache
    ever = read_usage("claude-code", wt, env, None, cache).usage
    assert ever is not None
    assert (ever.input_tokens, ever.requests) == (6300, 9)
    # an agent started after every response: none of them is its
    later = read_usage("claude-code", wt, env, NOW + 60, cache)
    assert later.usage is None
    assert later.unknown == "no usage in Claude Code's session files for its worktree"


def test_codex_logs_of_an_earlier_agent_in_the_same_worktree_do_not_count(
    tmp_path: Path,
) -> None:
    home = tmp_path / "codex"
    wt = str(tmp_path / "repo" / ".paw-worktrees" / "night-a")
    day = home / "sessions" / time.strftime("%Y/%m/%d", time.localtime(NOW))
    day.mkdir(parents=True)
    # the run before, the same day: 4000 tokens in
    (day / "rollout-old.jsonl").write_text(
        _codex(wt, [(OLD + 5, 1000), (OLD + 9, 4000)], OLD), encoding="utf-8"
    )
    # this run's agent: 250 tokens in over two responses
    (day / "rollout-new.jsonl").write_text(
        _codex(wt, [(STARTED + 5, 100), (STARTED + 9, 250)], STARTED + 1), encoding="utf-8"
    )
    # a session resumed from before the start: only its total's growth since counts
    (day / "rollout-resumed.jsonl").write_text(
        _codex(wt, [(OLD + 5, 2000), (STARTED + 20, 2300)], OLD), encoding="utf-8"
    )
    env = {"CODEX_HOME": str(home)}
    cache = UsageCache()

    mine = read_usage("codex", wt, env, STARTED, cache).usage

    assert mine is not None
    assert (mine.input_tokens, mine.output_tokens, mine.requests) == (550, 55, 3)
    ever = read_usage("codex", wt, env, None, cache).usage
    assert ever is not None
    assert (ever.input_tokens, ever.requests) == (6550, 6)
    assert read_usage("codex", wt, env, NOW + 60, cache).usage is None
