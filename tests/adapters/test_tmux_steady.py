"""The steady survey (``survey(fresh=False)``): the listing is current every time, quiet panes
reuse their capture without any capture being issued, and every change a fresh capture sees
(a prompt appears, is answered, the pane's program is replaced) the steady survey sees too."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from libtmux.test.retry import retry_until

from paw.adapters import proc
from paw.adapters.tmux.control import ControlClient
from paw.adapters.tmux.terminal import TmuxTerminal
from tests.adapters.conftest import SESSION
from tests.support.budget import budget

if TYPE_CHECKING:
    from libtmux.server import Server

pytestmark = pytest.mark.tmux

PROMPT = "Do you want to proceed?"

# A stand-in agent: "ask" shows a permission prompt, "y" answers it (the screen is redrawn).
_AGENT = """
import sys
def show(text):
    sys.stdout.write("\\x1b[2J\\x1b[H" + text + "\\n")
    sys.stdout.flush()
show("idle " + sys.argv[1])
for line in sys.stdin:
    if line.strip() == "ask":
        show("Bash command\\n  rm -rf build\\n" + "Do you want to proceed?" + "\\n 1. Yes\\n 2. No")
    elif line.strip() == "y":
        show("answered " + sys.argv[1])
"""


class CaptureCounter:
    """Counts the ``capture-pane`` commands paw sends to tmux (processes and control client)."""

    def __init__(self) -> None:
        self.count = 0


@pytest.fixture
def captures_issued(monkeypatch: pytest.MonkeyPatch) -> CaptureCounter:
    """Every ``capture-pane`` paw issues from now on, by a tmux process or the control client."""
    counter = CaptureCounter()
    real_run, real_exchange = proc.run, ControlClient._exchange  # control-mode seam

    def counting_run(argv: Any, **kwargs: Any) -> proc.Completed:
        counter.count += sum(arg == "capture-pane" for arg in argv)
        return real_run(argv, **kwargs)

    def counting_exchange(self: ControlClient, payload: bytes, last: str) -> list[str]:
        counter.count += payload.count(b"capture-pane")
        return real_exchange(self, payload, last)

    monkeypatch.setattr(proc, "run", counting_run)
    monkeypatch.setattr(ControlClient, "_exchange", counting_exchange)
    return counter


@pytest.fixture(params=[False, True], ids=["processes", "control-mode"])
def steady_term(
    request: pytest.FixtureRequest, server: Server, tmp_path: Path
) -> Iterator[TmuxTerminal]:
    """A TmuxTerminal (one process per call, or the control-mode client) with the session."""
    term = TmuxTerminal(socket_name=server.socket_name, control=bool(request.param))
    term.ensure_session(SESSION, str(tmp_path))
    yield term
    term.close()


def _agents(term: TmuxTerminal, cwd: Path, count: int) -> list[str]:
    argv = [sys.executable, "-c", _AGENT]
    panes = [
        term.new_pane(SESSION, str(cwd), [*argv, f"a{i}"], {}, {"paw_agent": f"a{i}"}).pane_id
        for i in range(count)
    ]
    retry_until(lambda: all("idle" in (c.text or "") for c in term.sweep(panes)), budget(30))
    return panes


def _settle(term: TmuxTerminal, panes: list[str], counter: CaptureCounter) -> None:
    """Steady-survey until a survey issues no capture at all (every pane quiet for ~2 s)."""

    def quiet() -> bool:
        before = counter.count
        term.survey(panes, fresh=False)
        return counter.count == before and term.last_captured == 0

    retry_until(quiet, budget(45))


def _type(term: TmuxTerminal, pane: str, line: str) -> None:
    term.send_text(pane, line)
    term.send_keys(pane, ["Enter"])


def _fresh_shows(term: TmuxTerminal, pane: str, check: Any) -> None:
    retry_until(lambda: bool(check(term.sweep([pane])[0].text or "")), budget(30))


def test_tmux_steady_survey_quiet_panes_issue_no_capture(
    steady_term: TmuxTerminal, tmp_path: Path, captures_issued: CaptureCounter
) -> None:
    panes = _agents(steady_term, tmp_path, 3)
    _settle(steady_term, panes, captures_issued)
    before = captures_issued.count
    steady = steady_term.survey(panes, fresh=False)
    assert captures_issued.count == before
    fresh = steady_term.survey(panes)
    assert captures_issued.count == before + len(panes)
    assert steady == fresh  # same listing, same screens


def test_tmux_steady_survey_sees_prompt_appear_and_get_answered(
    steady_term: TmuxTerminal, tmp_path: Path, captures_issued: CaptureCounter
) -> None:
    panes = _agents(steady_term, tmp_path, 3)
    _settle(steady_term, panes, captures_issued)
    _type(steady_term, panes[1], "ask")
    _fresh_shows(steady_term, panes[1], lambda text: PROMPT in text)
    before = captures_issued.count
    shown = steady_term.survey(panes, fresh=False)
    assert PROMPT in (shown.captures[1].text or "")
    assert captures_issued.count - before == 1  # only the pane that printed
    assert shown == steady_term.survey(panes)

    _settle(steady_term, panes, captures_issued)  # the prompt's capture is reused now
    _type(steady_term, panes[1], "y")
    _fresh_shows(steady_term, panes[1], lambda text: "answered" in text)
    answered = steady_term.survey(panes, fresh=False)
    assert PROMPT not in (answered.captures[1].text or "")
    assert "answered a1" in (answered.captures[1].text or "")


def test_tmux_steady_survey_sees_program_replaced_without_output(
    steady_term: TmuxTerminal, server: Server, tmp_path: Path, captures_issued: CaptureCounter
) -> None:
    panes = _agents(steady_term, tmp_path, 2)
    _type(steady_term, panes[0], "ask")
    _fresh_shows(steady_term, panes[0], lambda text: PROMPT in text)
    _settle(steady_term, panes, captures_issued)
    old_pid = next(
        p.pane_pid for p in steady_term.survey(panes, fresh=False).panes if p.pane_id == panes[0]
    )
    # respawn clears the screen and starts a program that prints nothing: no output at all
    server.cmd("respawn-pane", "-k", "-t", panes[0], "cat", "-u")  # two args: exec'd, no shell
    _fresh_shows(steady_term, panes[0], lambda text: PROMPT not in text)
    replaced = steady_term.survey(panes, fresh=False)
    listed = {p.pane_id: p for p in replaced.panes}
    assert listed[panes[0]].pane_pid != old_pid
    assert listed[panes[0]].current_command == ""  # not listed by surveys
    assert PROMPT not in (replaced.captures[0].text or "")
    assert replaced == steady_term.survey(panes)


def test_tmux_steady_survey_killed_pane_is_gone_at_once(
    steady_term: TmuxTerminal, tmp_path: Path, captures_issued: CaptureCounter
) -> None:
    panes = _agents(steady_term, tmp_path, 2)
    _type(steady_term, panes[0], "ask")
    _fresh_shows(steady_term, panes[0], lambda text: PROMPT in text)
    _settle(steady_term, panes, captures_issued)
    steady_term.kill_pane(panes[0])
    gone = steady_term.survey(panes, fresh=False)
    assert panes[0] not in {p.pane_id for p in gone.panes}
    assert gone.captures[0].text is None
    assert "idle a1" in (gone.captures[1].text or "")
