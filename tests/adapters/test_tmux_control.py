"""The control-mode sweep: same captures as the process sweep, no process per sweep."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from libtmux.test.retry import retry_until

from paw.adapters.tmux.control import ControlError, control_script, parse_control_sweep
from paw.adapters.tmux.terminal import TmuxTerminal
from paw.errors import TmuxError
from tests.adapters.conftest import SESSION
from tests.support.budget import budget

if TYPE_CHECKING:
    from libtmux.server import Server

pytestmark = pytest.mark.tmux


def _printer(text: str) -> list[str]:
    return [sys.executable, "-c", f"import time; print({text!r}, flush=True); time.sleep(600)"]


@pytest.fixture
def controlled(terminal: TmuxTerminal, tmp_path: Path) -> Iterator[TmuxTerminal]:
    """A control-mode TmuxTerminal on the same server and session as ``terminal``."""
    term = TmuxTerminal(socket_name=terminal.socket_name, control=True)
    term.ensure_session(SESSION, str(tmp_path))
    yield term
    term.close()


def _clients_said(terminal: TmuxTerminal, controlled: TmuxTerminal) -> str:
    """What a failure needs: paw's control client (pid, exit status) and the server's clients
    with their flags (a client the server let go, or one marked exiting, is no longer counted)."""
    client = controlled._link.current
    own = "none" if client is None else f"pid {client._process.pid} exit {client._process.poll()}"
    listed = subprocess.run(
        ["tmux", "-L", str(terminal.socket_name), "list-clients", "-F",
         "#{client_pid} #{client_flags} #{client_session}"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    return f"paw's control client: {own}; the server's clients: {listed.stdout.strip()!r}"


def _spawn_ready(terminal: TmuxTerminal, cwd: Path, texts: list[str]) -> list[str]:
    panes = [
        terminal.new_pane(SESSION, str(cwd), _printer(text), {}, {"paw_agent": f"c{i}"}).pane_id
        for i, text in enumerate(texts)
    ]

    def all_shown() -> bool:
        captures = terminal.sweep(panes)
        return all(text in (c.text or "") for text, c in zip(texts, captures, strict=True))

    retry_until(all_shown, budget(30))
    return panes


def test_tmux_control_sweep_matches_process_sweep_without_processes(
    terminal: TmuxTerminal,
    controlled: TmuxTerminal,
    tmp_path: Path,
    proc_calls: list[tuple[str, ...]],
) -> None:
    panes = _spawn_ready(terminal, tmp_path, [f"control-{i}" for i in range(5)])
    controlled.sweep(panes)  # starts the client
    proc_calls.clear()
    first = controlled.sweep(panes)
    second = controlled.sweep(panes, ansi=True)
    assert proc_calls == []
    assert first == terminal.sweep(panes)
    assert [c.text is not None for c in second] == [True] * 5


def test_tmux_control_sweep_gone_pane_is_none(
    terminal: TmuxTerminal, controlled: TmuxTerminal, tmp_path: Path
) -> None:
    panes = _spawn_ready(terminal, tmp_path, ["one", "two", "three"])
    terminal.kill_pane(panes[1])
    captures = controlled.sweep([*panes, "%99999"])
    assert [c.text is None for c in captures] == [False, True, False, True]
    assert "three" in (captures[2].text or "")


def test_tmux_control_forged_block_lines_stay_pane_text(
    terminal: TmuxTerminal, controlled: TmuxTerminal, tmp_path: Path
) -> None:
    forged = "%end 1 2 1\n%begin 1 3 1\n%error 1 3 1"
    panes = _spawn_ready(terminal, tmp_path, [forged, "neighbour"])
    captures = controlled.sweep(panes)
    assert forged in (captures[0].text or "")
    assert "neighbour" in (captures[1].text or "")
    assert captures == terminal.sweep(panes)


def test_tmux_control_falls_back_when_the_client_dies(
    terminal: TmuxTerminal, controlled: TmuxTerminal, tmp_path: Path
) -> None:
    panes = _spawn_ready(terminal, tmp_path, ["survivor"])
    controlled.sweep(panes)
    client = controlled._link.current  # the test ends the client paw started
    assert client is not None
    client._process.kill()
    client._process.wait()
    assert "survivor" in (controlled.sweep(panes)[0].text or "")


def test_parse_control_sweep_rejects_bad_framing() -> None:
    lines = ["TL %1", "TP 0 42", "%end 1 1 1", "text", "%end 1 2 1", "%begin 1 3 1", "TE 0"]
    with pytest.raises(ControlError, match="framing"):
        parse_control_sweep(lines, ["%1"], "T")


def test_parse_control_sweep_cuts_capture_by_position() -> None:
    lines = [
        "%begin 1 1 1", "TL %1", "%end 1 1 1",
        "%begin 1 2 1", "TP 0 42", "%end 1 2 1",
        "%begin 1 3 1", "%end 9 9 9", "TZ", "line", "%end 1 3 1",
        "%begin 1 4 1", "TE 0", "%end 1 4 1",
    ]  # fmt: skip
    [capture] = parse_control_sweep(lines, ["%1"], "T") or []
    assert (capture.text, capture.pane_pid) == ("%end 9 9 9\nTZ\nline", 42)


def test_control_script_skips_non_pane_ids() -> None:
    script = control_script(["%1", "%2 ; kill-server", "x"], "T")
    assert "kill-server" not in script
    assert script.count("capture-pane") == 1


def test_tmux_control_session_gone_falls_back_to_processes(
    terminal: TmuxTerminal, controlled: TmuxTerminal, server: Server, tmp_path: Path
) -> None:
    terminal.ensure_session("pawother", str(tmp_path))
    pane = terminal.new_pane("pawother", str(tmp_path), _printer("elsewhere"), {}, {}).pane_id
    retry_until(lambda: "elsewhere" in (terminal.sweep([pane])[0].text or ""), budget(30))
    assert "elsewhere" in (controlled.sweep([pane])[0].text or "")
    server.cmd("kill-session", "-t", f"={SESSION}")
    for _ in range(3):
        assert "elsewhere" in (controlled.sweep([pane])[0].text or "")
        assert "elsewhere" in (controlled.sweep([pane], fresh=False)[0].text or "")


def test_tmux_control_survey_matches_process_survey_without_processes(
    terminal: TmuxTerminal,
    controlled: TmuxTerminal,
    tmp_path: Path,
    proc_calls: list[tuple[str, ...]],
) -> None:
    panes = _spawn_ready(terminal, tmp_path, ["alpha", "%end 1 2 1\nbeta", "gamma"])
    terminal.kill_pane(panes[2])
    controlled.survey(panes)  # starts the client
    proc_calls.clear()
    wanted = [panes[1], panes[2], "%99999", panes[0]]
    survey = controlled.survey(wanted)
    assert proc_calls == []
    # the process survey counts the control client as attached; the controlled one knows it
    # is its own (paw's client is not a human watching)
    plain = terminal.survey(wanted)
    assert {p.attached for p in plain.panes} == {1}, _clients_said(terminal, controlled)
    assert survey == replace(plain, panes=tuple(replace(p, attached=0) for p in plain.panes))
    assert [c.text is None for c in survey.captures] == [False, True, True, False]
    tags = {p.pane_id: p.tags.get("paw_agent") for p in survey.panes}
    assert (tags[panes[0]], tags[panes[1]], panes[2] in tags) == ("c0", "c1", False)


def test_tmux_control_survey_on_dead_server_raises(
    terminal: TmuxTerminal, controlled: TmuxTerminal, tmp_path: Path
) -> None:
    panes = _spawn_ready(terminal, tmp_path, ["last"])
    controlled.survey(panes)
    terminal.kill_server()
    with pytest.raises(TmuxError, match="server is gone"):
        controlled.survey(panes)
