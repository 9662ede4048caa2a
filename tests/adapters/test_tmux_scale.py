"""Sweeps at 300 panes: tmux refuses a command longer than 16 KiB (about 146 chained
captures), so sweeps and surveys go in chunks, a few tmux processes however many panes; and a
chunk that fails is an error the caller sees, never panes reported gone."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from libtmux.test.retry import retry_until

from paw.adapters.tmux import format as tmux_format
from paw.adapters.tmux.format import argv_bytes
from paw.adapters.tmux.terminal import TmuxTerminal
from paw.errors import TmuxError
from tests.adapters.conftest import SESSION
from tests.support.budget import budget
from tests.support.panes import open_panes, tag_panes

if TYPE_CHECKING:
    from libtmux.server import Server

pytestmark = pytest.mark.tmux

PANES = 300
TMUX_LIMIT = 16_364  # bytes of packed arguments tmux 3.3a accepts in one command


@pytest.fixture
def many(terminal: TmuxTerminal, tmp_path: Path) -> list[str]:
    """:data:`PANES` cheap panes, each showing ``pane-<i>`` and tagged ``paw_agent=a<i>``."""
    assert terminal.socket_name is not None
    screens = []
    for i in range(PANES):
        screen = tmp_path / f"screen{i}.txt"
        screen.write_text(f"pane-{i}\n", encoding="utf-8")
        screens.append(screen)
    names = [f"a{i}" for i in range(PANES)]
    panes = open_panes(terminal.socket_name, SESSION, screens, names)
    tag_panes(
        terminal.socket_name, {p: {"paw_agent": n} for p, n in zip(panes, names, strict=True)}
    )
    return panes


def _shows_all(texts: list[str | None]) -> bool:
    return all(f"pane-{i}\n" in (text or "") for i, text in enumerate(texts))


def _tmux_calls(calls: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    return [argv for argv in calls if argv[0] == "tmux"]


def test_survey_of_300_panes_is_a_few_tmux_processes(
    terminal: TmuxTerminal, many: list[str], proc_calls: list[tuple[str, ...]]
) -> None:
    assert retry_until(
        lambda: _shows_all([c.text for c in terminal.survey(many).captures]),
        budget(30),
        raises=False,
    ), "a 300-pane survey did not capture every pane"
    proc_calls.clear()
    survey = terminal.survey(many)
    calls = _tmux_calls(proc_calls)
    assert 2 <= len(calls) <= 4, len(calls)  # chunked, never a process per pane
    assert all(argv_bytes(argv[3:]) < TMUX_LIMIT * 0.8 for argv in calls)  # after tmux -L name
    assert [c.pane_id for c in survey.captures] == many
    assert _shows_all([c.text for c in survey.captures])
    tagged = {p.pane_id: p.tags.get("paw_agent") for p in survey.panes}
    assert [tagged.get(pane) for pane in many] == [f"a{i}" for i in range(PANES)]


def test_sweeps_of_300_panes_fresh_and_steady(
    terminal: TmuxTerminal, many: list[str], proc_calls: list[tuple[str, ...]]
) -> None:
    assert retry_until(
        lambda: _shows_all([c.text for c in terminal.sweep(many)]), budget(30), raises=False
    ), "a 300-pane sweep did not capture every pane"
    proc_calls.clear()
    assert _shows_all([c.text for c in terminal.sweep(many)])
    assert 2 <= len(_tmux_calls(proc_calls)) <= 4
    for _ in range(2):  # the steady survey and sweep: first captured, then reused or not
        assert _shows_all([c.text for c in terminal.survey(many, fresh=False).captures])
        assert _shows_all([c.text for c in terminal.sweep(many, fresh=False)])


def test_control_mode_survey_of_300_panes(server: Server, many: list[str]) -> None:
    term = TmuxTerminal(socket_name=server.socket_name, control=True)
    term.watch_session(SESSION)
    try:
        assert retry_until(
            lambda: _shows_all([c.text for c in term.survey(many).captures]),
            budget(30),
            raises=False,
        ), "a 300-pane control-mode survey did not capture every pane"
        assert term._link.current is not None  # the answer came through the control client
        assert _shows_all([c.text for c in term.survey(many, fresh=False).captures])
    finally:
        term.close()


def test_a_refused_chunk_is_an_error_not_panes_gone(
    terminal: TmuxTerminal, many: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a budget above tmux's limit every chain is refused ("command too long"): the
    sweep must raise, not come back with every pane gone (read as every agent exited)."""
    assert retry_until(
        lambda: _shows_all([c.text for c in terminal.survey(many).captures]),
        budget(30),
        raises=False,
    )
    monkeypatch.setattr(tmux_format, "COMMAND_BUDGET", 4 * TMUX_LIMIT)
    with pytest.raises(TmuxError, match="command too long"):
        terminal.survey(many)
    with pytest.raises(TmuxError, match="command too long"):
        terminal.sweep(many)
    with pytest.raises(TmuxError, match="command too long"):
        terminal.survey(many, fresh=False)
    with pytest.raises(TmuxError, match="command too long"):
        terminal.sweep(many, fresh=False)
