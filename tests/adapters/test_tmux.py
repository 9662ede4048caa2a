"""TmuxTerminal against a real tmux server on a private socket."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from libtmux.server import Server
from libtmux.test.retry import retry_until

from paw.adapters.tmux.terminal import TAG_KEYS, TmuxTerminal
from paw.errors import TmuxError
from tests.adapters.conftest import SESSION
from tests.support.budget import budget

pytestmark = pytest.mark.tmux

ENTER = "Enter"


def _printer(text: str) -> list[str]:
    """argv of a pane that prints ``text`` then waits."""
    return [sys.executable, "-c", f"import time; print({text!r}, flush=True); time.sleep(600)"]


def _wait_for(terminal: TmuxTerminal, pane_id: str, needle: str) -> str:
    seen: list[str] = []

    def shows() -> bool:
        seen[:] = [terminal.capture(pane_id) or ""]
        return needle in seen[0]

    retry_until(shows, budget(30))
    return seen[0]


def _spawn(terminal: TmuxTerminal, cwd: Path, argv: list[str], name: str) -> str:
    pane = terminal.new_pane(SESSION, str(cwd), argv, {}, {"paw_agent": name})
    return pane.pane_id


def test_tmux_new_pane_tags_env_and_cwd(terminal: TmuxTerminal, tmp_path: Path) -> None:
    tags = {
        "paw_agent": "a1",
        "paw_kind": "claude-code",
        "paw_repo": "x;#{pane_id} y",
        "paw_id": "u",
    }
    argv = ["sh", "-c", 'echo "env=$PAW_T"; pwd; echo "printed-all"; exec cat']
    pane = terminal.new_pane(SESSION, str(tmp_path), argv, {"PAW_T": "v;1"}, tags, size=(90, 30))
    assert (pane.session, pane.width, pane.height, dict(pane.tags)) == (SESSION, 90, 30, tags)
    screen = _wait_for(terminal, pane.pane_id, "printed-all")
    assert "env=v;1" in screen
    assert str(tmp_path) in screen
    listed = {p.pane_id: p for p in terminal.list_panes(SESSION)}
    assert dict(listed[pane.pane_id].tags) == tags
    assert listed[pane.pane_id].pane_pid == pane.pane_pid


def test_tmux_new_pane_rejects_unknown_tags(terminal: TmuxTerminal, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown pane tags"):
        terminal.new_pane(SESSION, str(tmp_path), ["cat"], {}, {"agent": "x"})
    assert set(TAG_KEYS) == {"paw_agent", "paw_kind", "paw_repo", "paw_id"}


def test_tmux_sweep_uses_one_process(
    terminal: TmuxTerminal, tmp_path: Path, proc_calls: list[tuple[str, ...]]
) -> None:
    panes = [_spawn(terminal, tmp_path, _printer(f"screen-of-{i}"), f"p{i}") for i in range(6)]
    for i, pane in enumerate(panes):
        _wait_for(terminal, pane, f"screen-of-{i}")
    proc_calls.clear()
    captures = terminal.sweep(panes)
    assert len(proc_calls) == 1
    assert [c.pane_id for c in captures] == panes
    for i, capture in enumerate(captures):
        assert capture.text is not None
        assert f"screen-of-{i}" in capture.text
        others = [f"screen-of-{j}" for j in range(6) if j != i]
        assert not any(other in capture.text for other in others)
        assert capture.pane_pid


def test_tmux_sweep_gone_pane_is_none_and_others_survive(
    terminal: TmuxTerminal, tmp_path: Path, proc_calls: list[tuple[str, ...]]
) -> None:
    panes = [_spawn(terminal, tmp_path, _printer(f"alive-{i}"), f"g{i}") for i in range(4)]
    for i, pane in enumerate(panes):
        _wait_for(terminal, pane, f"alive-{i}")
    terminal.kill_pane(panes[1])
    proc_calls.clear()
    captures = terminal.sweep([panes[0], panes[1], "%99999", panes[2], panes[3]])
    assert [c.text is None for c in captures] == [False, True, True, False, False]
    assert "alive-0" in (captures[0].text or "")
    assert "alive-3" in (captures[4].text or "")
    assert len(proc_calls) == 2  # the failed chain told which panes exist; one retry


def test_tmux_sweep_ansi_keeps_colours(terminal: TmuxTerminal, tmp_path: Path) -> None:
    pane = _spawn(terminal, tmp_path, _printer("\x1b[31mred\x1b[0m"), "c1")
    _wait_for(terminal, pane, "red")
    [plain] = terminal.sweep([pane])
    [coloured] = terminal.sweep([pane], ansi=True)
    assert "\x1b[" not in (plain.text or "")
    assert "\x1b[31m" in (coloured.text or "")


def test_tmux_sweep_marker_in_pane_text_is_not_a_boundary(
    terminal: TmuxTerminal, tmp_path: Path
) -> None:
    fake = "0123456789abcdef0123456789abcdefP %0 1"
    pane = _spawn(terminal, tmp_path, _printer(fake), "m1")
    _wait_for(terminal, pane, fake)
    [capture] = terminal.sweep([pane])
    assert capture.pane_id == pane
    assert fake in (capture.text or "")


class LiteralCase(NamedTuple):
    test_id: str
    text: str


LITERAL_CASES = [
    LiteralCase("key-name-enter", "Enter"),
    LiteralCase("key-name-ctrl-c", "C-c"),
    LiteralCase("trailing-semicolon", "echo hi;"),
    LiteralCase("lone-semicolon", ";"),
    LiteralCase("escaped-semicolon", "a\\;"),
    LiteralCase("leading-dash", "-x"),
    LiteralCase("braces-and-hash", "{x} #{pane_id} ~"),
]


@pytest.mark.parametrize("case", LITERAL_CASES, ids=[c.test_id for c in LITERAL_CASES])
def test_tmux_send_text_is_literal(
    terminal: TmuxTerminal, tmp_path: Path, case: LiteralCase
) -> None:
    pane = _spawn(terminal, tmp_path, [sys.executable, "-c", _ECHO_LINES], "lit")
    _wait_for(terminal, pane, "ready")
    terminal.send_text(pane, case.text)
    terminal.send_keys(pane, [ENTER])
    _wait_for(terminal, pane, f"got<{case.text}>")


_ECHO_LINES = """
import sys
print("ready", flush=True)
for line in sys.stdin:
    print("got<" + line.rstrip("\\n") + ">", flush=True)
"""


def test_tmux_send_keys_sends_key_names(terminal: TmuxTerminal, tmp_path: Path) -> None:
    pane = _spawn(terminal, tmp_path, [sys.executable, "-c", _ECHO_LINES], "keys")
    _wait_for(terminal, pane, "ready")
    terminal.send_keys(pane, ["h", "i", "Space", "x", ENTER])
    _wait_for(terminal, pane, "got<hi x>")


def test_tmux_exited_program_leaves_a_dead_pane(terminal: TmuxTerminal, tmp_path: Path) -> None:
    # tmux scrolls the screen one line to print "Pane is dead": the first line leaves the screen.
    # The program exits only once its last words are on screen (Linux drops what is left in a pty
    # when its last writer closes, so a program that exits at once can lose them under load).
    program = ["sh", "-c", "echo scrolled-off; echo last-words; read _"]
    pane = _spawn(terminal, tmp_path, program, "dead")
    _wait_for(terminal, pane, "last-words")
    terminal.send_keys(pane, [ENTER])

    def is_dead() -> bool:
        return any(p.pane_id == pane and p.dead for p in terminal.list_panes(SESSION))

    retry_until(is_dead, budget(30))
    assert "last-words" in (terminal.capture(pane) or "")


def test_tmux_kill_pane_twice_is_not_an_error(terminal: TmuxTerminal, tmp_path: Path) -> None:
    pane = _spawn(terminal, tmp_path, ["cat"], "k")
    terminal.kill_pane(pane)
    terminal.kill_pane(pane)
    assert pane not in {p.pane_id for p in terminal.list_panes()}


def test_tmux_list_panes_without_server_is_empty(server: object) -> None:
    term = TmuxTerminal(socket_name=f"paw-absent-{id(server)}")
    assert term.list_panes() == []
    assert not term.server_alive()


def test_tmux_sweep_on_dead_server_raises(terminal: TmuxTerminal, tmp_path: Path) -> None:
    pane = _spawn(terminal, tmp_path, ["cat"], "d")
    terminal.kill_server()
    with pytest.raises(TmuxError, match="server is gone"):
        terminal.sweep([pane])


def test_tmux_ensure_session_is_idempotent(terminal: TmuxTerminal, tmp_path: Path) -> None:
    terminal.ensure_session(SESSION, str(tmp_path))
    assert terminal.has_session(SESSION)
    assert not terminal.has_session(SESSION[:-1])  # exact match, not tmux's prefix match


def test_tmux_kill_server_refuses_default_server() -> None:
    with pytest.raises(TmuxError, match="default"):
        TmuxTerminal().kill_server()


class AttachCase(NamedTuple):
    test_id: str
    tmux_env: str | None
    expected_head: list[str]


def test_tmux_attach_argv_depends_on_where_the_user_is(
    terminal: TmuxTerminal, monkeypatch: pytest.MonkeyPatch
) -> None:
    ours = terminal.socket_file()
    cases = [
        AttachCase("outside-tmux", None, ["tmux", "-L"]),
        AttachCase("inside-other-server", "/tmp/elsewhere,1,0", ["env", "-u", "TMUX", "tmux"]),
        AttachCase("inside-this-server", f"{ours},1,0", ["tmux", "-L"]),
    ]
    for case in cases:
        if case.tmux_env is None:
            monkeypatch.delenv("TMUX", raising=False)
        else:
            monkeypatch.setenv("TMUX", case.tmux_env)
        argv = terminal.attach_argv("%3")
        assert argv[: len(case.expected_head)] == case.expected_head, case.test_id
        verb = "switch-client" if case.test_id == "inside-this-server" else "attach-session"
        assert argv[-3:] == [verb, "-t", "%3"], case.test_id


@pytest.mark.parametrize("target", ["", "%1;", "pawtest:0", "%", " %1"])
def test_tmux_refuses_targets_that_are_not_pane_ids(terminal: TmuxTerminal, target: str) -> None:
    with pytest.raises(TmuxError, match="not a tmux pane id"):
        terminal.send_keys(target, [ENTER])
    with pytest.raises(TmuxError, match="not a tmux pane id"):
        terminal.send_text(target, "y")
    assert terminal.sweep([target])[0].text is None


def test_tmux_new_pane_runs_argv_without_a_shell(terminal: TmuxTerminal, tmp_path: Path) -> None:
    tricky = ["it's", '"quoted"', "$HOME", "a;", "*", "-n"]
    code = "import sys, time; print(sys.argv[1:], flush=True); time.sleep(600)"
    pane = terminal.new_pane(
        SESSION, str(tmp_path), [sys.executable, "-c", code, *tricky], {}, {"paw_agent": "argv"}
    )
    _wait_for(terminal, pane.pane_id, repr(tricky))
    [listed] = [p for p in terminal.list_panes(SESSION) if p.pane_id == pane.pane_id]
    assert listed.current_command.startswith("python")  # env exec'd in place: no shell between


def test_tmux_agent_pane_is_not_told_it_runs_in_ci(
    terminal: TmuxTerminal, server: Server, tmp_path: Path
) -> None:
    """paw run from a CI job passes CI=true to its server; an agent in a pane has a terminal,
    so it must not inherit it (gemini-cli takes CI=true for headless and exits at start-up).
    An agent whose own ``env`` sets a marker keeps it."""
    for var in ("CI", "GITHUB_ACTIONS", "CONTINUOUS_INTEGRATION"):
        server.cmd("set-environment", "-g", var, "true")
    show = 'echo "ci=${CI-unset} gha=${GITHUB_ACTIONS-unset} ci2=${CONTINUOUS_INTEGRATION-unset}"'
    # the control: a plain tmux window does inherit the markers
    plain = server.cmd("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", f"={SESSION}:",
                       "sh", "-c", f"{show}; exec cat").stdout[0]  # fmt: skip
    assert "ci=true gha=true ci2=true" in _wait_for(terminal, plain, "ci=")
    argv = ["sh", "-c", f"{show}; exec cat"]
    agent = terminal.new_pane(SESSION, str(tmp_path), argv, {}, {"paw_agent": "a"}).pane_id
    assert "ci=unset gha=unset ci2=unset" in _wait_for(terminal, agent, "ci=")
    kept = terminal.new_pane(SESSION, str(tmp_path), argv, {"CI": "1"}, {"paw_agent": "b"})
    assert "ci=1 gha=unset ci2=unset" in _wait_for(terminal, kept.pane_id, "ci=")
