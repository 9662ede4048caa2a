"""Reading an agent's usage from its own records (the shapes the pinned CLIs write)."""

from __future__ import annotations

import json

from paw.core.usage import (
    Usage,
    claude_project_dir,
    codex_session_cwd,
    parse_claude_session,
    parse_codex_rollout,
)

WT = "/repo/.paw-worktrees/w-a"


def _claude(ref: str, cwd: str = WT, **extra: object) -> str:
    """An assistant line as Claude Code 2.1.332 writes it (trimmed to what paw reads)."""
    usage = {
        "input_tokens": 12, "cache_creation_input_tokens": 100, "cache_read_input_tokens": 50,
        "output_tokens": 8, "output_tokens_details": {"thinking_tokens": 0},
        "service_tier": "standard",
    }  # fmt: skip
    line = {
        "type": "assistant", "cwd": cwd, "requestRef": ref, "apiBlockIndex": 0,
        "sessionId": "e2c4a02e", "uuid": f"u-{ref}", "version": "2.1.332",
        "message": {"id": "msg_stub", "model": "m", "role": "assistant", "usage": usage},
        **extra,
    }  # fmt: skip
    return json.dumps(line)


def test_usage_claude_counts_each_response_once_in_the_worktree_only() -> None:
    lines = [
        json.dumps({"type": "user", "cwd": WT, "message": {"role": "user"}}),
        _claude("r1"),
        _claude("r1"),  # a second block of the same response
        _claude("r2", cwd=WT + "/sub"),
        _claude("r3", cwd=WT + "-other"),  # another agent's worktree beside it
        "not json {",
        "[1, 2]",
    ]
    got = parse_claude_session(lines, WT)
    assert got == Usage(24, 16, 100, 200, requests=2, cost_usd=None)
    assert got is not None
    assert got.total_tokens == 340


def test_usage_claude_cost_only_where_every_response_states_it() -> None:
    stated = [_claude("r1", costUSD=0.25), _claude("r2", costUSD=0.5)]
    got = parse_claude_session(stated, WT)
    assert got is not None
    assert got.cost_usd == 0.75
    partly = parse_claude_session([_claude("r1", costUSD=0.25), _claude("r2")], WT)
    assert partly is not None
    assert partly.cost_usd is None


def test_usage_claude_none_without_a_response_of_the_worktree() -> None:
    assert parse_claude_session([_claude("r1", cwd="/elsewhere")], WT) is None
    assert parse_claude_session([], WT) is None


def test_usage_claude_project_dir_as_claude_names_it() -> None:
    # seen on Claude Code 2.1.332: every character but letters and digits becomes '-'
    assert claude_project_dir("/root/.cache/paw-agents/x_y/wt/e2e") == (
        "-root--cache-paw-agents-x-y-wt-e2e"
    )


def _codex_total(n: int) -> str:
    info = {
        "total_token_usage": {
            "input_tokens": 12 * n, "cached_input_tokens": 2 * n, "cache_write_input_tokens": 0,
            "output_tokens": 8 * n, "reasoning_output_tokens": 0, "total_tokens": 20 * n,
        },
        "last_token_usage": {"input_tokens": 12, "output_tokens": 8, "total_tokens": 20},
        "model_context_window": 258400,
    }  # fmt: skip
    return json.dumps({"type": "event_msg", "payload": {"type": "token_count", "info": info}})


def test_usage_codex_takes_the_last_running_total() -> None:
    meta = json.dumps(
        {"type": "session_meta", "payload": {"id": "x", "cwd": WT, "cli_version": "0.171.0"}}
    )
    lines = [
        meta,
        json.dumps({"type": "event_msg", "payload": {"type": "task_started"}}),
        _codex_total(1),
        json.dumps({"type": "event_msg", "payload": {"type": "token_count", "info": None}}),
        _codex_total(3),
        _codex_total(3),  # the same total told again (a turn's end): no new response
        "garbage",
    ]
    assert codex_session_cwd(meta) == WT
    assert codex_session_cwd(lines[1]) is None
    assert parse_codex_rollout(lines) == Usage(30, 24, 6, 0, requests=2)
    assert parse_codex_rollout([meta]) is None
