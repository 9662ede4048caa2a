"""aider's usage in `paw ls` (issue 36): paw starts aider with ``--analytics-log`` naming a file
in its own state directory (never the worktree), and reads the ``message_send`` events aider
appends there. A command that is not aider itself (a wrapper) gets no flag, and its usage is
unknown. The agent here is paw's demo agent behind a program named ``aider`` that writes into
the log it was given a line aider 0.86.2 wrote (tests/fixtures/usage/aider-0.86.2/), dated now.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from paw.cli import main

if TYPE_CHECKING:
    from libtmux.server import Server

FIXTURE = (
    Path(__file__).resolve().parent.parent
    / "fixtures" / "usage" / "aider-0.86.2" / "analytics-no-stream.jsonl"
)  # fmt: skip


def _reply_line() -> str:
    """The reply aider logged (12 in, 8 out, $0.02), its time left for the program to set."""
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()
    event = json.loads(next(line for line in lines if '"message_send"' in line))
    del event["time"]
    return json.dumps(event)


def _fake_aider(path: Path, argv_file: Path) -> Path:
    """A program ``path`` (its name: aider, or a wrapper's) that keeps its arguments in
    ``argv_file``, appends the logged reply to the file ``--analytics-log`` names (as aider
    does), and runs paw's demo agent."""
    path.parent.mkdir(parents=True, exist_ok=True)
    reply = shlex.quote(_reply_line()[:-1])  # without the closing brace: the time goes there
    path.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = "--version" ]; then echo "aider 0.86.2"; exit 0; fi\n'
        f'printf "%s\\n" "$@" > {shlex.quote(str(argv_file))}\n'
        'if [ "$1" = "--analytics-log" ]; then\n'
        f'  printf \'%s, "time": %s}}\\n\' {reply} "$(date +%s)" >> "$2"\n'
        "fi\n"
        f"exec {sys.executable} -m paw.demo.agent --script /dev/null\n",
        encoding="utf-8",
    )
    path.chmod(0o755)
    return path


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _wait_for(path: Path) -> list[str]:
    from libtmux.test.retry import retry_until

    from tests.support.budget import budget

    retry_until(lambda: path.is_file() and path.read_text("utf-8").endswith("\n"), budget(20))
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.tmux
def test_paw_names_aider_a_log_in_its_state_dir_and_reads_its_usage(
    capsys: pytest.CaptureFixture[str],
    git_repo: Path,
    server: Server,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    aider = _fake_aider(tmp_path / "bin" / "aider", tmp_path / "aider-argv")
    wrapper = _fake_aider(tmp_path / "bin" / "my-aider", tmp_path / "wrapper-argv")
    own = _fake_aider(tmp_path / "own" / "aider", tmp_path / "own-argv")
    (git_repo / "paw.toml").write_text(
        f'[agents.aider]\ncommand = [{json.dumps(str(aider))}, "--model", "m"]\n'
        f'[agents.wrapped]\ncommand = [{json.dumps(str(wrapper))}, "--model", "m"]\n'
        'detector = "aider"\n'
        f'[agents.own]\ncommand = [{json.dumps(str(own))}, "--model", "m"]\n'
        'detector = "aider"\n'
        f"env = {{ AIDER_ANALYTICS_LOG = {json.dumps(str(tmp_path / 'mine.jsonl'))} }}\n",
        encoding="utf-8",
    )
    repo = str(git_repo)
    for name, kind in (("a1", "aider"), ("w1", "wrapped"), ("u1", "own")):
        code, _out, err = _run(capsys, "-C", repo, "spawn", name, "--agent", kind,
                               "--startup-timeout", "5")  # fmt: skip
        assert code in (0, 5), err

    log = git_repo / ".paw" / "usage" / "a1" / "aider-analytics.jsonl"
    assert _wait_for(tmp_path / "aider-argv") == ["--analytics-log", str(log), "--model", "m"]
    assert _wait_for(tmp_path / "wrapper-argv") == ["--model", "m"]  # a wrapper: nothing added
    # the user's own AIDER_ANALYTICS_LOG (the agent's env): paw's flag would silence it
    assert _wait_for(tmp_path / "own-argv") == ["--model", "m"]
    _code, out, _err = _run(capsys, "-C", repo, "ls", "--json")
    agents = {a["name"]: a for a in json.loads(out)["agents"]}
    assert not Path(agents["a1"]["worktree"], ".paw").exists()  # nothing in the worktree
    assert agents["a1"]["usage"] == {
        "input": 12, "output": 8, "cache_read": 0, "cache_write": 0, "total": 20,
        "requests": 1, "usd": 0.02, "source": "aider's analytics log",
    }  # fmt: skip
    assert agents["a1"]["usage_unknown"] is None
    assert agents["w1"]["usage"] is None
    assert agents["w1"]["usage_unknown"] == (
        "no aider's analytics log: paw names one only when it starts the aider program itself "
        "(not a wrapper) and the user names no analytics log of their own (an --analytics-log "
        "in the command, AIDER_ANALYTICS_LOG, or analytics-log: in .aider.conf.yml)"
    )
    assert agents["u1"]["usage"] is None
    assert agents["u1"]["usage_unknown"] == (
        "aider's analytics log is the user's own (AIDER_ANALYTICS_LOG or analytics-log: in "
        ".aider.conf.yml); paw adds none and does not read it"
    )
