"""`paw approve` at a terminal: a confirm verdict is asked about (the confirmation, then
`approve? [y/N]`) by the one renderer, and only a typed yes sends; on a real tmux server with
the scripted agent, paw run in-process so its input can be a terminal."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import pytest

from paw.cli import main
from tests.adversarial.ident_support import (
    Env,
    answers,
    configure,
    make_env,
    paw,
    wait_for,
    wait_prompt,
)

if TYPE_CHECKING:
    from pathlib import Path

    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git]


class Typed(io.StringIO):
    """A stdin that is a terminal, where a person types what it holds."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def env(git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Env:
    return make_env(git_repo, server, tmp_path, monkeypatch)


@pytest.mark.parametrize(
    ("typed", "code", "sent"), [("n\n", 3, False), ("y\n", 0, True)], ids=["no", "yes"]
)
def test_approve_asks_at_a_terminal_and_sends_only_on_yes(
    env: Env,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    typed: str,
    code: int,
    sent: bool,
) -> None:
    configure(env, "shell git commit -m wip")
    assert paw("spawn", "alice", "--agent", "scripted").returncode in (0, 5)
    prompt = wait_prompt(env, "git commit -m wip")
    assert prompt.verdict.action.value == "confirm"
    monkeypatch.setattr("sys.stdin", Typed(typed))
    assert main(["approve", prompt.id]) == code
    out, err = capsys.readouterr()
    assert "approve? [y/N] " in out
    assert out.index("git commit") < out.index("approve? [y/N] ")  # the confirmation first
    if sent:
        assert f"to prompt {prompt.id}" in out.split("approve? [y/N] ", 1)[1]
        assert wait_for(lambda: bool(answers(env)))  # the agent received the keys
    else:
        assert "needs confirmation" in err
        assert answers(env) == []
