"""aider's usage, read from the analytics log paw has it write (issue 36), on logs aider 0.86.2
really wrote (tests/fixtures/usage/aider-0.86.2/: a turn of ``SCENARIO quote`` against the stub
model, which reports 12 tokens in and 8 out, with a price of $0.001 a token in aider's model
list): ``analytics-no-stream.jsonl`` with ``--no-stream`` (the API's usage), and
``analytics-streamed.jsonl`` as aider runs by default (it streams, and counts the tokens itself
with the model's tokenizer: it printed ``Tokens: 2.5k sent, 82 received. Cost: $2.60 message``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paw.core.usage import Usage
from paw.core.usage_aider import parse_aider_log, user_names_log, with_usage_log

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "usage" / "aider-0.86.2"
NO_STREAM = FIXTURES / "analytics-no-stream.jsonl"
STREAMED = FIXTURES / "analytics-streamed.jsonl"
SECOND_LAUNCH = 1796517673  # the `launched` event of the no-stream run (the later one)


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_the_api_usage_and_the_dollars_aider_stated_without_streaming() -> None:
    usage = parse_aider_log(_lines(NO_STREAM))
    assert usage is not None
    assert (usage.input_tokens, usage.output_tokens, usage.requests) == (12, 8, 1)
    assert usage.cost_usd == pytest.approx(0.02)  # 20 tokens at $0.001


def test_a_streamed_reply_is_aiders_own_count() -> None:
    # aider streams by default: it counts what it sent and received with the model's tokenizer
    usage = parse_aider_log(_lines(STREAMED))
    assert usage == Usage(2516, 82, 0, 0, requests=1, cost_usd=2.598)


def test_only_the_replies_since_the_agents_start_count() -> None:
    # the same agent name spawned again appends to the same log: the first run's reply is not
    # the second agent's
    both = _lines(STREAMED) + _lines(NO_STREAM)
    whole = parse_aider_log(both)
    assert whole is not None
    assert (whole.input_tokens, whole.output_tokens, whole.requests) == (2528, 90, 2)
    assert whole.cost_usd == pytest.approx(2.618)
    later = parse_aider_log(both, SECOND_LAUNCH + 0.9)
    assert later is not None
    assert (later.input_tokens, later.output_tokens, later.requests) == (12, 8, 1)
    assert parse_aider_log(both, 1796517921.0) is None  # after the last reply


def test_a_reply_in_the_second_the_agent_started_counts() -> None:
    # aider writes whole seconds: a reply at 100.7 is logged as 100, and counts from 100.2
    line = json.dumps(
        {"event": "message_send", "time": 100,
         "properties": {"prompt_tokens": 5, "completion_tokens": 2, "cost": 0.0}}
    )  # fmt: skip
    assert parse_aider_log([line], 100.2) == Usage(5, 2, 0, 0, requests=1, cost_usd=0.0)
    assert parse_aider_log([line], 101.0) is None


@pytest.mark.parametrize("cost", [None, "None", True, -1.0, float("nan"), float("inf")])
def test_a_cost_not_stated_as_dollars_is_unknown(cost: object) -> None:
    stated = {"event": "message_send", "time": 1, "properties": {"prompt_tokens": 5, "cost": 0.5}}
    odd = {"event": "message_send", "time": 2, "properties": {"prompt_tokens": 7, "cost": cost}}
    if cost is None:
        del odd["properties"]["cost"]  # type: ignore[attr-defined]
    usage = parse_aider_log([json.dumps(stated), json.dumps(odd)])
    assert usage is not None
    assert (usage.input_tokens, usage.requests, usage.cost_usd) == (12, 2, None)


def test_other_events_and_broken_lines_are_not_replies() -> None:
    lines = [
        '{"event": "message_send_starting", "properties": {}, "time": 5}',
        '{"event": "message_send_exception", "properties": {"exception": "x"}, "time": 5}',
        '{"event": "message_send", "properties": "not a dict", "time": 5}',
        '{"event": "message_send", "properties": {"prompt_tokens": 3',  # being written
        "not json",
    ]
    assert parse_aider_log(lines) is None
    assert parse_aider_log(_lines(NO_STREAM)[:-1]) is None  # the run before its reply


def test_the_log_is_named_to_aider_itself_only() -> None:
    log = "/repo/.paw/usage/a1/aider-analytics.jsonl"
    assert with_usage_log("aider", ["aider", "--model", "m"], log) == (
        "aider", "--analytics-log", log, "--model", "m",
    )  # fmt: skip
    assert with_usage_log("aider", ["/opt/venv/bin/aider"], log) == (
        "/opt/venv/bin/aider", "--analytics-log", log,
    )  # fmt: skip
    # a wrapper, an interpreter, another agent: paw cannot tell where a flag would go
    assert with_usage_log("aider", ["my-aider", "--model", "m"], log) is None
    assert with_usage_log("aider", ["python3", "-m", "aider"], log) is None
    assert with_usage_log("aider", ["sh", "-c", "aider"], log) is None
    assert with_usage_log("codex", ["aider"], log) is None
    assert with_usage_log("aider", [], log) is None


def test_a_command_naming_its_own_analytics_log_gets_no_flag_of_paws() -> None:
    # the user's own log: paw's flag first would lose to it anyway, and adds nothing
    log = "/repo/.paw/usage/a1/aider-analytics.jsonl"
    assert with_usage_log("aider", ["aider", "--analytics-log", "mine.jsonl"], log) is None
    assert with_usage_log("aider", ["aider", "--analytics-log=mine.jsonl"], log) is None
    assert with_usage_log("aider", ["aider", "--analytics-logs"], log) is not None


def test_the_users_own_analytics_log_is_seen_where_aider_reads_it() -> None:
    assert not user_names_log({}, [], [])
    assert not user_names_log({"AIDER_MODEL": "m"}, ["model: m\n"], ["AIDER_MODEL=m\n"])
    assert user_names_log({"AIDER_ANALYTICS_LOG": "/home/u/a.jsonl"}, [], [])
    assert user_names_log({"AIDER_ANALYTICS_LOG": ""}, [], [])  # set, if empty: left alone
    assert user_names_log({}, ["model: m\nanalytics-log: a.jsonl\n"], [])
    assert user_names_log({}, ["'analytics-log': a.jsonl\n"], [])
    assert user_names_log({}, ["analytics_log: a.jsonl\n"], [])
    assert not user_names_log({}, ["#analytics-log: xxx\n"], [])  # aider's sample, commented
    assert user_names_log({}, [], ["AIDER_ANALYTICS_LOG=a.jsonl\n"])
    assert user_names_log({}, [], ["export AIDER_ANALYTICS_LOG=a.jsonl\n"])
    assert not user_names_log({}, [], ["# AIDER_ANALYTICS_LOG=a.jsonl\n"])
