"""TmuxTerminal.survey: the pane listing and the captures from one tmux process."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest
from libtmux.test.retry import retry_until

from paw.adapters.tmux.terminal import TmuxTerminal
from paw.errors import TmuxError
from tests.adapters.conftest import SESSION
from tests.support.budget import budget

pytestmark = pytest.mark.tmux


def _printer(text: str) -> list[str]:
    return [sys.executable, "-c", f"import time; print({text!r}, flush=True); time.sleep(600)"]


def _spawn_shown(terminal: TmuxTerminal, cwd: Path, count: int, stem: str) -> list[str]:
    panes = [
        terminal.new_pane(
            SESSION, str(cwd), _printer(f"{stem}-{i}"), {}, {"paw_agent": f"{stem}{i}"}
        )
        for i in range(count)
    ]
    ids = [p.pane_id for p in panes]

    def shown() -> bool:
        return all(f"{stem}-{i}" in (c.text or "") for i, c in enumerate(terminal.sweep(ids)))

    retry_until(shown, budget(30))
    return ids


def test_tmux_survey_lists_tags_and_captures_in_one_process(
    terminal: TmuxTerminal, tmp_path: Path, proc_calls: list[tuple[str, ...]]
) -> None:
    panes = _spawn_shown(terminal, tmp_path, 5, "survey")
    proc_calls.clear()
    survey = terminal.survey([panes[3], panes[0]])
    assert len(proc_calls) == 1
    listed = {p.pane_id: p for p in survey.panes}
    assert set(panes) <= set(listed)
    assert [listed[p].tags.get("paw_agent") for p in panes] == [f"survey{i}" for i in range(5)]
    unnamed = {p.pane_id: replace(p, current_command="") for p in terminal.list_panes()}
    assert listed == unnamed  # surveys leave the command out (costly for tmux, unused)
    assert [c.pane_id for c in survey.captures] == [panes[3], panes[0]]
    assert "survey-3" in (survey.captures[0].text or "")
    assert "survey-0" in (survey.captures[1].text or "")
    assert "survey-0" not in (survey.captures[0].text or "")


def test_tmux_survey_gone_pane_is_none_and_listing_omits_it(
    terminal: TmuxTerminal, tmp_path: Path, proc_calls: list[tuple[str, ...]]
) -> None:
    panes = _spawn_shown(terminal, tmp_path, 3, "gone")
    terminal.kill_pane(panes[1])
    proc_calls.clear()
    survey = terminal.survey([panes[0], panes[1], "%99999", panes[2]])
    assert [c.text is None for c in survey.captures] == [False, True, True, False]
    assert "gone-2" in (survey.captures[3].text or "")
    assert panes[1] not in {p.pane_id for p in survey.panes}
    assert len(proc_calls) == 2  # the failed chain's listing said which panes exist; one retry


def test_tmux_survey_without_panes_requested_still_lists(
    terminal: TmuxTerminal, tmp_path: Path, proc_calls: list[tuple[str, ...]]
) -> None:
    [pane] = _spawn_shown(terminal, tmp_path, 1, "only")
    proc_calls.clear()
    survey = terminal.survey([])
    assert (len(proc_calls), survey.captures) == (1, ())
    assert pane in {p.pane_id for p in survey.panes}


def test_tmux_survey_on_dead_server_raises(terminal: TmuxTerminal, tmp_path: Path) -> None:
    [pane] = _spawn_shown(terminal, tmp_path, 1, "dying")
    terminal.kill_server()
    with pytest.raises(TmuxError, match="server is gone"):
        terminal.survey([pane])


def test_tmux_survey_without_server_raises(server: object) -> None:
    term = TmuxTerminal(socket_name=f"paw-absent-{id(server)}")
    with pytest.raises(TmuxError, match="server is gone"):
        term.survey(["%1"])
    assert term.list_panes() == []  # list_panes keeps its "no server, no panes" answer


def test_a_listing_line_parsed_before_gives_the_same_pane_and_a_changed_one_a_new_one() -> None:
    """Sweeps list every pane with a new separator each time; a pane whose fields did not change
    is the very object of the last listing (a sweep then sees at once that nothing changed), and
    any field that changed gives a new pane with the new value."""
    from paw.adapters.tmux import format as tmux_format

    def listing(sep: str, dead: str = "0", tag: str = "ann") -> str:
        return sep.join(["%3", "7", "s", "80", "24", dead, "sh", "9.1", "1", tag, ""])

    (first,) = tmux_format.parse_pane_list(listing("|"), "|", ["a", "b"])
    (again,) = tmux_format.parse_pane_list(listing("#x#"), "#x#", ["a", "b"])
    assert again is first
    (died,) = tmux_format.parse_pane_list(listing("|", dead="1"), "|", ["a", "b"])
    assert died is not first
    assert died.dead
    assert not first.dead
    (retagged,) = tmux_format.parse_pane_list(listing("|", tag="bob"), "|", ["a", "b"])
    assert retagged.tags == {"a": "bob"}
    (other_keys,) = tmux_format.parse_pane_list(listing("|"), "|", ["x", "y"])
    assert other_keys.tags == {"x": "ann"}
    for n in range(tmux_format.PARSED_LINES + 10):  # bounded
        tmux_format.parse_pane_list(listing("|", tag=f"t{n}"), "|", ["a", "b"])
    assert len(tmux_format._PARSED) <= tmux_format.PARSED_LINES + 1
