"""`paw wave report` says what each task's agent cost: tokens read from the files where Claude
Code and Codex record them (real files on disk, in the shapes the pinned versions write), the
time busy and waiting for a human, and "unknown" where paw cannot know."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from paw.adapters.state import StateStore
from paw.cli import main
from paw.core.usage import claude_project_dir
from paw.core.wave import Phase, PromptState, TaskState, WaveState


def _claude_line(cwd: str, ref: str) -> str:
    usage = {"input_tokens": 12, "output_tokens": 8, "cache_creation_input_tokens": 0,
             "cache_read_input_tokens": 30}  # fmt: skip
    message = {"id": "msg_stub", "role": "assistant", "usage": usage}
    return json.dumps({"type": "assistant", "cwd": cwd, "requestRef": ref, "message": message})


def _codex_log(cwd: str, total: int) -> str:
    meta = {"type": "session_meta", "payload": {"id": "s", "cwd": cwd, "cli_version": "0.171.0"}}
    usage = {"input_tokens": total, "cached_input_tokens": 0, "output_tokens": total,
             "total_tokens": 2 * total}  # fmt: skip
    count = {"type": "event_msg",
             "payload": {"type": "token_count", "info": {"total_token_usage": usage}}}  # fmt: skip
    return json.dumps(meta) + "\n" + json.dumps(count) + "\n"


def _task(name: str, kind: str, start: float, **extra: object) -> TaskState:
    return TaskState(
        name=name, agent=f"w-{name}", kind=kind, phase=Phase.DONE, started_at=start,
        ended_at=start + 100, **extra,
    )  # fmt: skip


def test_wave_report_cost_from_the_agents_own_files(
    git_repo: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(git_repo)
    codex_home = tmp_path / "codex-home"
    (git_repo / "paw.toml").write_text(
        f'[agents.codex]\nenv = {{ CODEX_HOME = "{codex_home}" }}\n', encoding="utf-8"
    )
    worktrees = git_repo.parent / f"{git_repo.name}-paw"
    now = 1_800_000_000.0
    start = now - 500
    wait = PromptState(
        id="p1", kind="shell", subject="ls", question="?", verdict="confirm",
        first_seen=start + 10, route="human", why="", answered_at=start + 35, live=False,
    )  # fmt: skip
    tasks = [
        _task("a", "claude-code", start, prompts=[wait]),
        _task("b", "codex", start),
        _task("c", "aider", start),
        TaskState(name="d", agent="w-d", kind="claude-code"),
    ]
    state = WaveState(name="w", file="w.toml", sha256="0" * 64, started_at=start, tasks=tasks)
    StateStore(git_repo / ".paw" / "waves").write("w", state.model_dump(mode="json"))
    # Claude Code's session file of task a's worktree (two responses), and one of another
    # worktree whose path starts the same (not counted)
    wt_a = os.path.normpath(worktrees / "w-a")
    projects = Path(os.environ["HOME"]) / ".claude" / "projects"
    for cwd, refs in ((wt_a, ("r1", "r2")), (wt_a + "x", ("r9",))):
        folder = projects / claude_project_dir(cwd)
        folder.mkdir(parents=True)
        (folder / "s.jsonl").write_text(
            "".join(_claude_line(cwd, r) + "\n" for r in refs), encoding="utf-8"
        )
    # Codex's session log of task b's worktree, under the day it started
    wt_b = os.path.normpath(worktrees / "w-b")
    day = codex_home / "sessions" / time_path(start)
    day.mkdir(parents=True)
    (day / "rollout-1.jsonl").write_text(_codex_log(wt_b, 40), encoding="utf-8")
    (day / "rollout-2.jsonl").write_text(_codex_log("/elsewhere", 999), encoding="utf-8")
    # the analytics log paw named to task c's aider (in its state dir): a reply of an earlier
    # agent of the same name (not counted), then the task's
    log = git_repo / ".paw" / "usage" / "w-c" / "aider-analytics.jsonl"
    log.parent.mkdir(parents=True)
    log.write_text(
        "".join(
            _aider_reply(at, tokens) + "\n" for at, tokens in ((start - 60, 99), (start + 5, 12))
        ),
        encoding="utf-8",
    )

    assert main(["wave", "report", "w", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    cost = {t["task"]: t["cost"] for t in data["tasks"]}
    assert cost["a"]["tokens"]["total"] == 100  # 2 x (12 + 8 + 30)
    assert cost["a"]["source"] == "Claude Code's session files"
    assert (cost["a"]["waiting_human_s"], cost["a"]["busy_s"]) == (25.0, 75.0)
    assert cost["b"]["tokens"]["total"] == 80
    assert cost["c"]["tokens"]["total"] == 20  # the reply since its start only
    assert cost["c"]["source"] == "aider's analytics log"
    assert cost["d"]["unknown"] == "the task's agent never started"
    assert {t: c["usd"] for t, c in cost.items()} == {**dict.fromkeys("abcd"), "c": 0.02}
    assert data["cost"] == {"tokens": 200, "tasks_unknown": 1}

    assert main(["wave", "report", "w"]) == 0
    text = capsys.readouterr().out
    assert "## Cost" in text
    assert "| a | 100 (24 in, 16 out, 60 cache) | unknown | 75s | 25s |" in text
    assert "| c | 20 (12 in, 8 out) | $0.0200 | 100s | 0s |" in text  # the dollars aider stated


def _aider_reply(at: float, prompt: int) -> str:
    """A reply as aider 0.86.2 logs it (tests/fixtures/usage/aider-0.86.2/)."""
    properties = {"main_model": "openai/paw-stub", "edit_format": "diff", "prompt_tokens": prompt,
                  "completion_tokens": 8, "total_tokens": prompt + 8, "cost": 0.02,
                  "total_cost": 0.02}  # fmt: skip
    return json.dumps({"event": "message_send", "properties": properties, "user_id": "u",
                       "time": int(at)})  # fmt: skip


def time_path(at: float) -> str:
    """Codex's folder of the day ``at`` falls on (local time, as Codex names it)."""
    import datetime as dt

    day = dt.datetime.fromtimestamp(at)  # local time, as Codex names them
    return f"{day:%Y/%m/%d}"
