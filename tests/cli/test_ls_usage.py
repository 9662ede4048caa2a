"""What each agent cost, where the user looks (issue 36): `paw ls --json` carries a `usage`
object per agent (tokens read from the agent's own records, real files on disk in the shapes
the pinned versions write; `null` with the reason otherwise) and the plain `paw ls` a TOKENS
column. The files read are kept by size and mtime: unchanged files are not parsed again."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from paw.cli import main
from paw.core.usage import claude_project_dir

if TYPE_CHECKING:
    from libtmux.server import Server


def _fake(folder: Path, name: str) -> Path:
    """An agent program ``name`` that runs paw's demo agent (its version: the verified one)."""
    from paw.core.detect.registry import spec_for

    folder.mkdir(parents=True, exist_ok=True)
    spec = spec_for("codex" if name == "codex" else "claude-code")
    assert spec is not None
    banner = f"codex-cli {spec.version}" if name == "codex" else f"{spec.version} (Claude Code)"
    script = folder / name
    script.write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = "--version" ]; then echo "{banner}"; exit 0; fi\n'
        f"exec {sys.executable} -m paw.demo.agent --script /dev/null\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return script


def _claude_line(cwd: str, ref: str) -> str:
    usage = {"input_tokens": 1200, "output_tokens": 300, "cache_creation_input_tokens": 0,
             "cache_read_input_tokens": 500}  # fmt: skip
    message = {"id": "msg_stub", "role": "assistant", "usage": usage}
    return json.dumps({"type": "assistant", "cwd": cwd, "requestRef": ref, "message": message})


def _codex_log(cwd: str, totals: tuple[int, ...]) -> str:
    meta = {"type": "session_meta", "payload": {"id": "s", "cwd": cwd, "cli_version": "0.171.0"}}
    lines = [json.dumps(meta)]
    for total in totals:
        usage = {"input_tokens": total, "cached_input_tokens": 0, "output_tokens": total // 2,
                 "total_tokens": total + total // 2}  # fmt: skip
        info = {"total_token_usage": usage}
        lines.append(json.dumps({"type": "event_msg",
                                 "payload": {"type": "token_count", "info": info}}))  # fmt: skip
    return "\n".join(lines) + "\n"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _world(
    capsys: pytest.CaptureFixture[str],
    git_repo: Path,
    server: Server,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[dict[str, str], Path, Path]:
    """Agents cx and cy (Codex), cc (Claude Code), spawned for real (paw's demo agent behind
    the agents' names); Codex's log for cx (two running totals: the last counts) and one of
    another folder, Claude Code's session file for cc (two responses), nothing for cy.
    Returns the worktrees by agent, Codex's log folder and cc's session file."""
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    bin_dir = tmp_path / "bin"
    codex, claude = _fake(bin_dir, "codex"), _fake(bin_dir, "claude")
    codex_home, claude_dir = tmp_path / "codex-home", tmp_path / "claude-config"
    (git_repo / "paw.toml").write_text(
        f"[agents.codex]\ncommand = {json.dumps([str(codex)])}\n"
        f'env = {{ CODEX_HOME = "{codex_home}" }}\n'
        f"[agents.claude-code]\ncommand = {json.dumps([str(claude)])}\n"
        f'env = {{ CLAUDE_CONFIG_DIR = "{claude_dir}" }}\n',
        encoding="utf-8",
    )
    repo = str(git_repo)
    for name, kind in (("cx", "codex"), ("cc", "claude-code"), ("cy", "codex")):
        code, _out, err = _run(capsys, "-C", repo, "spawn", name, "--agent", kind,
                               "--startup-timeout", "5")  # fmt: skip
        assert code in (0, 5), err
    _code, out, _err = _run(capsys, "-C", repo, "ls", "--json")
    worktree = {a["name"]: a["worktree"] for a in json.loads(out)["agents"]}
    day = codex_home / "sessions" / time.strftime("%Y/%m/%d")
    day.mkdir(parents=True)
    (day / "rollout-1.jsonl").write_text(_codex_log(worktree["cx"], (400, 1000)), "utf-8")
    (day / "rollout-2.jsonl").write_text(_codex_log("/elsewhere", (99999,)), "utf-8")
    folder = claude_dir / "projects" / claude_project_dir(worktree["cc"])
    folder.mkdir(parents=True)
    session = folder / "s.jsonl"
    session.write_text("".join(_claude_line(worktree["cc"], r) + "\n" for r in "ab"), "utf-8")
    return worktree, day, session


@pytest.mark.tmux
def test_ls_says_each_agents_tokens_from_its_own_records(
    capsys: pytest.CaptureFixture[str],
    git_repo: Path,
    server: Server,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    worktree, _day, session = _world(capsys, git_repo, server, tmp_path, monkeypatch)
    repo = str(git_repo)

    code, out, _err = _run(capsys, "-C", repo, "ls", "--json")
    agents = {a["name"]: a for a in json.loads(out)["agents"]}
    cx, cc, cy = agents["cx"], agents["cc"], agents["cy"]
    assert cx["usage"] == {"input": 1000, "output": 500, "cache_read": 0, "cache_write": 0,
                           "total": 1500, "requests": 2, "usd": None,
                           "source": "Codex's session logs"}  # fmt: skip
    assert cx["usage_unknown"] == "Codex's session logs count tokens but state no price"
    assert cc["usage"]["total"] == 4000  # 2 x (1200 + 300 + 500)
    assert (cc["usage"]["input"], cc["usage"]["output"]) == (2400, 600)
    assert cy["usage"] is None
    assert cy["usage_unknown"] == "no usage in Codex's session logs for its worktree"

    # the plain listing: a TOKENS column (? where paw reads the records but found none)
    _code, out, _err = _run(capsys, "-C", repo, "ls")
    header, *rows = out.splitlines()
    assert header.split()[-1] == "TOKENS"
    cells = {r.split()[0]: r.split()[-1] for r in rows if r.split()[0] in agents}
    assert cells == {"cx": "1.5k", "cc": "4.0k", "cy": "?"}

    # a session file that grows is read again (the cache follows size and mtime)
    with session.open("a", encoding="utf-8") as handle:
        handle.write(_claude_line(worktree["cc"], "c") + "\n")
    _code, out, _err = _run(capsys, "-C", repo, "ls", "--json")
    agents = {a["name"]: a for a in json.loads(out)["agents"]}
    assert agents["cc"]["usage"]["total"] == 6000
    assert (git_repo / ".paw" / "usage-cache.json").is_file()

    # a corrupt cache is read past, never an error
    (git_repo / ".paw" / "usage-cache.json").write_text("{not json", encoding="utf-8")
    code, out, _err = _run(capsys, "-C", repo, "ls", "--json")
    assert code == 0
    agents = {a["name"]: a for a in json.loads(out)["agents"]}
    assert agents["cc"]["usage"]["total"] == 6000
    assert agents["cx"]["usage"]["total"] == 1500


@pytest.mark.tmux
def test_the_tui_card_gets_the_usage_line_through_the_feed(
    capsys: pytest.CaptureFixture[str],
    git_repo: Path,
    server: Server,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from paw.cli.compose import build_fleet
    from paw.cli.cost import usage_line
    from paw.supervisor.details import AgentDetails
    from paw.supervisor.feed import Feed, FeedEvent

    worktree, _day, session = _world(capsys, git_repo, server, tmp_path, monkeypatch)
    supervisor = build_fleet(str(git_repo), server.socket_name)
    try:
        feed = Feed(supervisor, run=lambda job, _name: job())
        events: list[FeedEvent] = []
        feed.subscribe(events.append)
        feed.use(supervisor, usage=usage_line(supervisor))
        for agent in ("cc", "cx", "cy"):
            feed.request_details(agent)
        lines = {e.agent: e.usage for e in events if isinstance(e, AgentDetails)}
        assert lines == {
            "cc": "tokens 2.4k in, 600 out, 1.0k cache (2 responses)",
            "cx": "tokens 1.0k in, 500 out (2 responses)",
            "cy": "tokens unknown: no usage in Codex's session logs for its worktree",
        }
        with session.open("a", encoding="utf-8") as handle:  # cc answers once more
            handle.write(_claude_line(worktree["cc"], "c") + "\n")
        feed.request_details("cc")  # another agent than the last read: read at once
        last = [e for e in events if isinstance(e, AgentDetails)][-1]
        assert last.usage == "tokens 3.6k in, 900 out, 1.5k cache (3 responses)"
    finally:
        supervisor.close()
