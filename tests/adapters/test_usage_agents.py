"""Usage read from the records of the agents beyond Claude Code and Codex (issue 36), on files
the pinned CLIs really wrote (tests/fixtures/usage/: a turn of ``SCENARIO shell`` against the
stub model, which reports 12 tokens in and 8 out per response; the scratch paths replaced by
``/home/u/src``), laid out on disk where each CLI files them.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from paw.adapters import usage as usage_module
from paw.adapters.usage import read_usage
from paw.core.usage import (
    Usage,
    claude_project_dir,
    parse_gemini_chat,
    parse_qwen_chat,
    unknown_reason,
    usage_sources,
)
from paw.core.usage_aider import LOG_KINDS
from paw.core.usage_sessions import (
    count_cline_responses,
    count_vibe_completions,
    parse_cline_session,
    parse_continue_index,
    parse_continue_session,
    parse_vibe_meta,
    parse_vibe_projection,
    vibe_generation,
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
    assert reading.source == usage_sources()["gemini-cli"] == "Gemini CLI's chat files"
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


# kind -> (its dump, its data folder and database, the variable naming another database, a
# time between its two responses)
DATABASES = {
    "opencode": (
        FIXTURES / "opencode-1.18.33" / "opencode.json", "opencode/opencode.db", "OPENCODE_DB",
        1796495400.0,
    ),
    "kilocode": (
        FIXTURES / "kilocode-7.7.7" / "kilo.json", "kilo/kilo.db", "KILO_DB", 1796495850.0,
    ),
}  # fmt: skip


def _opencode_db(dump_file: Path, path: Path, worktree: str, cost: float | None = None) -> None:
    """A database with the tables and rows the CLI wrote (``session``'s directory moved to
    ``worktree``; each response's ``cost`` set to ``cost`` when given)."""
    dump = json.loads(_fixture_text(dump_file, worktree))
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.closing(sqlite3.connect(path)) as db:
        for create in dump["schema"]:
            db.execute(create)
        for table, content in dump["tables"].items():
            marks = ", ".join("?" for _ in content["columns"])
            for row in content["rows"]:
                values = dict(zip(content["columns"], row, strict=True))
                if table == "message" and cost is not None:
                    data = json.loads(values["data"])
                    if data["role"] == "assistant":
                        data["cost"] = cost
                    values["data"] = json.dumps(data)
                insert = f"INSERT INTO {table} VALUES ({marks})"  # noqa: S608 - the fixture's names
                db.execute(insert, list(values.values()))
        db.commit()


@pytest.mark.parametrize("kind", sorted(DATABASES))
def test_opencode_and_kilo_responses_of_its_worktree_with_the_cost_stated(
    tmp_path: Path, kind: str
) -> None:
    dump, name, variable, between = DATABASES[kind]
    wt = str(tmp_path / "repo" / ".paw-worktrees" / "night-a")
    home = tmp_path / "home"
    _opencode_db(dump, home / ".local" / "share" / name, wt)
    reading = read_usage(kind, wt, {"HOME": str(home)}, None)
    # the tool call and the final text; the CLI states $0 for a model it has no price for
    assert reading.usage == Usage(24, 16, 0, 0, requests=2, cost_usd=0.0)
    assert reading.source == usage_sources()[kind]
    assert read_usage(kind, wt + "-2", {"HOME": str(home)}, None).usage is None
    assert read_usage(kind, wt, {"HOME": str(home)}, between).usage == Usage(
        12, 8, 0, 0, requests=1, cost_usd=0.0
    )
    priced = tmp_path / "data" / name
    _opencode_db(dump, priced, wt, cost=0.0125)
    env = {"HOME": str(home), "XDG_DATA_HOME": str(tmp_path / "data")}
    got = read_usage(kind, wt, env, None)
    assert got.usage is not None
    assert got.usage.cost_usd == 0.025
    assert read_usage(kind, wt, {"HOME": str(home), variable: str(priced)}, None) == got


def test_opencode_database_not_its_shape_is_said_unreadable(tmp_path: Path) -> None:
    database = tmp_path / "home" / ".local" / "share" / "opencode" / "opencode.db"
    database.parent.mkdir(parents=True)
    database.write_bytes(b"not a database, but long enough to look like one" * 100)
    reading = read_usage("opencode", str(tmp_path / "wt"), {"HOME": str(tmp_path / "home")}, None)
    assert reading.usage is None
    assert reading.unknown is not None
    assert reading.unknown.startswith("opencode's database unreadable: opencode.db: ")


def test_every_agent_paw_names_a_source_for_is_read(tmp_path: Path) -> None:
    sources = usage_sources()
    assert {"claude-code", "codex"} <= set(sources)
    # a spec's source has a reader (of the agent's files, or of a log paw has it write), and back
    assert set(sources) == set(usage_module._READERS) | set(LOG_KINDS)
    assert not set(usage_module._READERS) & set(LOG_KINDS)
    log = tmp_path / "usage" / "wt" / "aider-analytics.jsonl"
    for kind, source in sources.items():
        reading = read_usage(kind, str(tmp_path / "wt"), {"HOME": str(tmp_path)}, None, log=log)
        if kind in LOG_KINDS:  # paw named no log, or the agent wrote none
            assert reading.unknown == f"no {source}: {LOG_KINDS[kind]}"
            continue
        assert (reading.source, reading.unknown) == (
            source,
            f"no usage in {source} for its worktree",
        )
    own = read_usage("my-agent", str(tmp_path / "wt"), {"HOME": str(tmp_path)}, None)
    assert own.unknown == "paw does not read my-agent's usage"  # a kind of the user's own


AIDER_LOG = FIXTURES / "aider-0.86.2" / "analytics-no-stream.jsonl"


def test_aider_is_read_from_the_analytics_log_paw_named(tmp_path: Path) -> None:
    from paw.adapters.usage_logs import aider_log, prepare_aider_log

    state = tmp_path / ".paw"
    named = prepare_aider_log(state, "a1")
    log = aider_log(state, "a1")
    assert log is not None
    assert named == str(log) == str(state / "usage" / "a1" / "aider-analytics.jsonl")
    assert (log.parent.stat().st_mode & 0o777) == 0o700  # paw's folder, private
    assert aider_log(state, "../a1") is None  # never a path outside paw's folder
    wt = str(tmp_path / "wt" / "a1")
    env = {"HOME": str(tmp_path)}
    missing = read_usage("aider", wt, env, None, log=log)  # aider has not written it (yet)
    assert missing.usage is None
    assert missing.unknown is not None
    assert "only when it starts the aider program" in missing.unknown
    log.write_text(AIDER_LOG.read_text(encoding="utf-8"), encoding="utf-8")
    reading = read_usage("aider", wt, env, None, log=log)
    assert reading.source == "aider's analytics log"
    assert reading.usage is not None
    assert (reading.usage.input_tokens, reading.usage.output_tokens) == (12, 8)
    assert reading.usage.cost_usd == pytest.approx(0.02)
    assert unknown_reason(reading) is None  # tokens and the dollars aider stated
    late = read_usage("aider", wt, env, 1796517921.0, log=log)  # an agent started after it
    assert late.unknown == "no usage in aider's analytics log for its worktree"
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    assert read_usage("aider", wt, env, None, log=fifo).usage is None  # never opened


def test_aider_with_the_users_own_analytics_log_reads_as_theirs(tmp_path: Path) -> None:
    """The user names aider's log (paw then names none): its usage is unknown, and says so."""
    from paw.adapters.usage_logs import user_aider_log
    from paw.core.usage_aider import OWN_LOG_UNKNOWN

    wt = tmp_path / "wt"
    wt.mkdir()
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home)}
    log = tmp_path / ".paw" / "usage" / "a1" / "aider-analytics.jsonl"
    assert not user_aider_log(str(wt), env)
    assert read_usage("aider", str(wt), env, None, log=log).unknown != OWN_LOG_UNKNOWN
    own = {**env, "AIDER_ANALYTICS_LOG": str(tmp_path / "mine.jsonl")}
    assert user_aider_log(str(wt), own)
    assert read_usage("aider", str(wt), own, None, log=log).unknown == OWN_LOG_UNKNOWN
    for folder, name, text in (
        (home, ".aider.conf.yml", "analytics-log: ~/mine.jsonl\n"),
        (wt, ".aider.conf.yml", "analytics-log: mine.jsonl\n"),
        (wt, ".env", "AIDER_ANALYTICS_LOG=mine.jsonl\n"),
        (home, ".env", "AIDER_ANALYTICS_LOG=mine.jsonl\n"),
    ):
        (folder / name).write_text(text, encoding="utf-8")
        assert user_aider_log(str(wt), env), name
        reading = read_usage("aider", str(wt), env, None, log=log)
        assert (reading.usage, reading.unknown) == (None, OWN_LOG_UNKNOWN)
        (folder / name).unlink()
    (wt / ".aider.conf.yml").mkdir()  # a settings file paw cannot read: left alone
    assert user_aider_log(str(wt), env)


CONTINUE = FIXTURES / "continue-cli-1.5.47"
CONTINUE_SESSION = "1bfb6f68-304f-43cf-b38f-b038923ebc3b"
CONTINUE_CREATED = 1796507829.831  # the session's dateCreated in sessions.json


def _continue_dir(root: Path, worktree: str) -> Path:
    """Continue's global dir as ``cn`` left it after a turn of ``SCENARIO shell`` (the tool
    call, then the final text), moved to ``worktree``."""
    sessions = root / "sessions"
    sessions.mkdir(parents=True)
    for name in ("sessions.json", f"{CONTINUE_SESSION}.json"):
        (sessions / name).write_text(_fixture_text(CONTINUE / name, worktree), encoding="utf-8")
    return root


def test_continue_counts_each_response_of_its_history_and_states_no_price() -> None:
    text = (CONTINUE / f"{CONTINUE_SESSION}.json").read_text(encoding="utf-8")
    # the session's own `usage` says $0.000056: Continue's made-up fallback price, not read
    assert json.loads(text)["usage"]["totalCost"] == 0.000056
    assert parse_continue_session(text) == TWO_RESPONSES
    index = parse_continue_index((CONTINUE / "sessions.json").read_text(encoding="utf-8"))
    assert index == [(CONTINUE_SESSION, RECORDED_WT, CONTINUE_CREATED)]


def test_continue_usage_fields_as_openai_and_anthropic_answers_write_them() -> None:
    def session(usage: dict[str, object]) -> str:
        message = {"role": "assistant", "content": "x", "usage": usage}
        return json.dumps({"history": [{"message": {"role": "user"}}, {"message": message}]})

    openai = {"prompt_tokens": 100, "completion_tokens": 7, "cost_cents": 0,
              "prompt_tokens_details": {"cached_tokens": 40}}  # fmt: skip
    assert parse_continue_session(session(openai)) == Usage(60, 7, 40, 0, requests=1)
    anthropic = {"prompt_tokens": 10, "completion_tokens": 7, "prompt_tokens_details": {
        "cached_tokens": 40, "cache_read_tokens": 40, "cache_write_tokens": 5}}  # fmt: skip
    assert parse_continue_session(session(anthropic)) == Usage(10, 7, 40, 5, requests=1)


def test_continue_index_never_names_a_path_outside_its_sessions() -> None:
    listed = [
        {"sessionId": "../../x", "workspaceDirectory": "/w", "dateCreated": "1"},
        {"sessionId": "a/b", "workspaceDirectory": "/w", "dateCreated": "1"},
        {"sessionId": "ok", "workspaceDirectory": "/w", "dateCreated": "soon"},
    ]
    assert parse_continue_index(json.dumps(listed)) == [("ok", "/w", None)]


def test_continue_sessions_of_its_worktree_since_its_start(tmp_path: Path) -> None:
    wt = str(tmp_path / "repo" / ".paw-worktrees" / "night-a")
    home = tmp_path / "home"
    _continue_dir(home / ".continue", wt)
    reading = read_usage("continue-cli", wt, {"HOME": str(home)}, None)
    assert reading.usage == TWO_RESPONSES
    assert reading.source == usage_sources()["continue-cli"] == "Continue's session files"
    assert unknown_reason(reading) == ("Continue's session files count tokens but state no price")
    assert read_usage("continue-cli", wt + "-2", {"HOME": str(home)}, None).usage is None
    assert read_usage("continue-cli", wt + "/..", {"HOME": str(home)}, None).usage is None
    # a session begun before the agent started is an earlier agent's
    assert read_usage("continue-cli", wt, {"HOME": str(home)}, CONTINUE_CREATED - 1).usage
    later = read_usage("continue-cli", wt, {"HOME": str(home)}, CONTINUE_CREATED + 1)
    assert later.usage is None
    # CONTINUE_GLOBAL_DIR moves it as it moves the CLI's (relative: to the agent's directory)
    moved = _continue_dir(tmp_path / "elsewhere", wt)
    env = {"HOME": str(tmp_path / "nobody"), "CONTINUE_GLOBAL_DIR": str(moved)}
    assert read_usage("continue-cli", wt, env, None).usage == TWO_RESPONSES
    _continue_dir(Path(wt) / "cfg", wt)
    env = {"HOME": str(tmp_path / "nobody"), "CONTINUE_GLOBAL_DIR": "cfg"}
    assert read_usage("continue-cli", wt, env, None).usage == TWO_RESPONSES


def test_continue_session_named_like_a_fifo_is_never_opened(tmp_path: Path) -> None:
    wt = str(tmp_path / "wt")
    root = _continue_dir(tmp_path / "c", wt)
    session = root / "sessions" / f"{CONTINUE_SESSION}.json"
    session.unlink()
    os.mkfifo(session)  # opening it would block paw ls for ever
    env = {"CONTINUE_GLOBAL_DIR": str(root)}
    assert read_usage("continue-cli", wt, env, None).usage is None
    (root / "sessions" / "sessions.json").unlink()
    os.mkfifo(root / "sessions" / "sessions.json")
    assert read_usage("continue-cli", wt, env, None).usage is None


CLINE = FIXTURES / "cline-3.0.65"
CLINE_SESSION = "1796508356309_u38ah"
CLINE_STARTED = _epoch("2026-12-05T22:05:56.311Z")  # the session's started_at


def _cline_sessions(sessions: Path, worktree: str, name: str = CLINE_SESSION) -> Path:
    """A Cline session as 3.0.65 left it after a turn of ``SCENARIO shell`` (the tool call,
    then the final text), moved to ``worktree`` and filed as ``name``."""
    folder = sessions / name
    folder.mkdir(parents=True)
    for suffix in (".json", ".messages.json"):
        text = _fixture_text(CLINE / f"{CLINE_SESSION}{suffix}", worktree)
        (folder / f"{name}{suffix}").write_text(text, encoding="utf-8")
    return folder


def test_cline_session_states_its_cwd_start_totals_and_cost() -> None:
    text = (CLINE / f"{CLINE_SESSION}.json").read_text(encoding="utf-8")
    # the CLI states $0 for a model it has no price for (its status line: `$0.00`)
    totals = Usage(24, 16, 0, 0, requests=0, cost_usd=0.0)
    assert parse_cline_session(text) == (RECORDED_WT, CLINE_STARTED, totals)
    messages = (CLINE / f"{CLINE_SESSION}.messages.json").read_text(encoding="utf-8")
    assert count_cline_responses(messages) == 2
    assert parse_cline_session('{"cwd": "/w"}') is None  # no usage stated
    assert count_cline_responses("not json") == 0


def test_cline_sessions_of_its_worktree_since_its_start(tmp_path: Path) -> None:
    wt = str(tmp_path / "repo" / ".paw-worktrees" / "night-a")
    home = tmp_path / "home"
    sessions = home / ".cline" / "data" / "sessions"
    _cline_sessions(sessions, wt)
    _cline_sessions(sessions, wt + "-2", "1796508356309_other")  # the agent beside it
    stated = Usage(24, 16, 0, 0, requests=2, cost_usd=0.0)
    reading = read_usage("cline", wt, {"HOME": str(home)}, None)
    assert reading.usage == stated
    assert reading.source == usage_sources()["cline"] == "Cline's session files"
    assert read_usage("cline", wt, {"HOME": str(home)}, CLINE_STARTED - 1).usage == stated
    later = read_usage("cline", wt, {"HOME": str(home)}, CLINE_STARTED + 1)
    assert later.usage is None  # an earlier agent's session in the same worktree path
    assert read_usage("cline", wt + "-2", {"HOME": str(home)}, None).usage == stated
    assert read_usage("cline", str(tmp_path / "repo"), {"HOME": str(home)}, None).usage == (
        stated + stated  # both worktrees are below the repository
    )


@pytest.mark.parametrize(
    ("variable", "below"),
    [("CLINE_DIR", "data/sessions"), ("CLINE_DATA_DIR", "sessions"),
     ("CLINE_SESSION_DATA_DIR", "")],
)  # fmt: skip
def test_cline_folders_follow_its_variables(tmp_path: Path, variable: str, below: str) -> None:
    wt = str(tmp_path / "wt")
    moved = tmp_path / "moved"
    _cline_sessions(moved / below if below else moved, wt)
    env = {"HOME": str(tmp_path / "nobody"), variable: str(moved)}
    assert read_usage("cline", wt, env, None).usage == Usage(24, 16, 0, 0, 2, 0.0)
    assert read_usage("cline", wt, {"HOME": str(tmp_path / "nobody")}, None).usage is None


def test_cline_session_named_like_a_fifo_is_never_opened(tmp_path: Path) -> None:
    wt = str(tmp_path / "wt")
    sessions = tmp_path / "s"
    folder = _cline_sessions(sessions, wt)
    messages = folder / f"{CLINE_SESSION}.messages.json"
    messages.unlink()
    os.mkfifo(messages)  # opening it would block paw ls for ever: the responses uncounted
    env = {"CLINE_SESSION_DATA_DIR": str(sessions)}
    assert read_usage("cline", wt, env, None).usage == Usage(24, 16, 0, 0, 0, 0.0)
    (folder / f"{CLINE_SESSION}.json").unlink()
    os.mkfifo(folder / f"{CLINE_SESSION}.json")
    assert read_usage("cline", wt, env, None).usage is None


VIBE = FIXTURES / "mistral-vibe-3.0.2"
VIBE_SESSION = "aa97d44f-4f89-58c5-7a7e-3cb20ea2eac4"
VIBE_STARTED = _epoch("2026-12-06T01:26:51.068000+00:00")  # meta.json's start_time


def _vibe_home(root: Path, worktree: str) -> Path:
    """Vibe's home as 3.0.2 left it after two turns of ``SCENARIO quote`` (the files paw reads:
    meta.json, CURRENT, the latest generation's snapshot), moved to ``worktree``."""
    home = root / "vibe-home"
    unified = home / "logs" / "session" / "unified"
    shutil.copytree(VIBE, unified)
    for path in (unified / VIBE_SESSION).rglob("*.json"):
        path.write_text(_fixture_text(path, worktree), encoding="utf-8")
    return home


def test_vibe_session_snapshot_as_3_0_2_writes_it() -> None:
    folder = VIBE / VIBE_SESSION
    meta = parse_vibe_meta((folder / "meta.json").read_text(encoding="utf-8"))
    assert meta == (RECORDED_WT, VIBE_STARTED)
    generation = vibe_generation((folder / "CURRENT").read_text(encoding="utf-8"))
    assert generation == "0000000000000017"
    snapshot = folder / "generations" / generation
    # the session's running total: two responses of 12 in and 8 out
    usage = parse_vibe_projection((snapshot / "projection-state.json").read_text("utf-8"))
    assert usage == Usage(24, 16, 0, 0, requests=0)
    assert count_vibe_completions((snapshot / "runtime-state.json").read_text("utf-8")) == 2
    assert vibe_generation('{"generation": "../../elsewhere"}') is None  # never a path
    assert parse_vibe_meta('{"start_time": "2026-12-06T01:26:51Z"}') is None


def test_vibe_sessions_of_the_worktree_since_the_agents_start_count_whole(
    tmp_path: Path,
) -> None:
    worktree = str(tmp_path / "wt" / "e2e")
    env = {"HOME": str(tmp_path), "VIBE_HOME": str(_vibe_home(tmp_path, worktree))}
    reading = read_usage("mistral-vibe", worktree, env, VIBE_STARTED - 5)
    assert reading.source == "Mistral Vibe's session snapshots"
    assert reading.usage == Usage(24, 16, 0, 0, requests=2)
    assert (
        unknown_reason(reading)
        == "Mistral Vibe's session snapshots count tokens but state no price"
    )
    # begun before the agent started: an earlier agent's session in the same worktree path
    assert read_usage("mistral-vibe", worktree, env, VIBE_STARTED + 1).usage is None
    assert read_usage("mistral-vibe", worktree + "x", env, None).usage is None  # another folder
    # ~/.vibe when VIBE_HOME is not set
    (tmp_path / ".vibe").symlink_to(env["VIBE_HOME"])
    assert read_usage("mistral-vibe", worktree, {"HOME": str(tmp_path)}, None).usage is not None
