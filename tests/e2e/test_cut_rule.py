"""The rule the live suite holds a command a dialog may cut to (tests/e2e/cut_rule.py), fed
listings made the way ``paw prompts --json`` makes them from a real capture: opencode at 80x24
shows 7 of the 20 lines of ``shell_long`` in its full box, without a mark."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from paw.core.approval import INCOMPLETE_NOTE_PREFIX, evaluate_subject
from paw.core.config import GuardConfig
from paw.core.detect import detect
from paw.core.guard.shell import evaluate_command
from tests.detect.corpus import FIXTURES
from tests.e2e import cut_rule, paw_run
from tests.e2e.cut_rule import listing_problem, nothing_ran, settled_listing, written_files
from tests.e2e.scenarios import LONG_COMMAND, SCENARIOS

OPENCODE_LONG = FIXTURES / "incomplete" / "opencode" / "shell_long_80x24"


def _listing(notes_kept: bool) -> dict[str, Any]:
    """The capture's listing as ``paw prompts --json`` gives it (kind, subject, verdict, rules);
    without the detector's incomplete note when ``notes_kept`` is false (a detector that took
    the box's lines for the whole command)."""
    found = detect((OPENCODE_LONG / "screen.txt").read_text(encoding="utf-8"), "opencode")
    assert found.prompt is not None, found
    notes = tuple(n for n in found.notes if notes_kept or not n.startswith(INCOMPLETE_NOTE_PREFIX))
    verdict = evaluate_subject(
        found.prompt,
        worktree="/w",
        config=GuardConfig(),
        mcp_allowed=(),
        shell=evaluate_command,
        notes=notes,
    )
    return {
        "prompt_kind": found.prompt.kind.value,
        "subject": found.prompt.subject,
        **verdict.to_dict(),
    }


def test_the_cut_box_marked_incomplete_passes() -> None:
    listing = _listing(notes_kept=True)
    assert listing["subject"] != LONG_COMMAND
    assert listing["verdict"] != "allow"
    assert listing_problem(listing, LONG_COMMAND) is None


def test_the_cut_box_read_as_the_whole_command_fails() -> None:
    listing = _listing(notes_kept=False)
    assert listing["subject"] != LONG_COMMAND
    problem = listing_problem(listing, LONG_COMMAND)
    assert problem is not None
    assert "as the whole command" in problem


def test_marked_incomplete_but_judged_allow_fails() -> None:
    listing = {**_listing(notes_kept=True), "verdict": "allow"}
    problem = listing_problem(listing, LONG_COMMAND)
    assert problem is not None
    assert "judged allow" in problem


@pytest.mark.parametrize(
    ("listing", "passes"),
    [
        ({"prompt_kind": "shell", "subject": LONG_COMMAND, "verdict": "allow", "rules": []}, True),
        ({"prompt_kind": "other", "subject": LONG_COMMAND, "verdict": "confirm"}, False),
        ({"prompt_kind": "shell", "subject": "", "verdict": "confirm", "rules": []}, False),
    ],
)
def test_the_whole_command_passes_and_another_kind_or_no_subject_fails(
    listing: dict[str, Any], passes: bool
) -> None:
    assert (listing_problem(listing, LONG_COMMAND) is None) is passes


def test_any_line_that_ran_counts(tmp_path: Path) -> None:
    action = SCENARIOS["shell_long"]
    assert action is not None
    assert written_files(action.command) == ["paw-long.txt", "paw-long-done.txt"]
    assert nothing_ran(action, tmp_path)
    (tmp_path / "paw-long.txt").write_text("line-1\n", encoding="utf-8")  # the first line ran
    assert not nothing_ran(action, tmp_path)


class _AnimatedPane:
    """A pane whose screen never stops changing (a spinner): only the listings can settle."""

    def __init__(self) -> None:
        self.frames = 0

    def capture(self) -> str:
        self.frames += 1
        return f"frame {self.frames}"


class _Run:
    def __init__(self) -> None:
        self.pane = _AnimatedPane()


def test_the_settled_listing_is_the_later_of_two_that_agree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A dialog still drawing lists a part first; the settled listing is the one two
    listings agreed on, never the part, nor a listing taken after they agreed."""
    part = [{"id": "p1", "subject": "echo line-1", "rules": [], "verdict": "allow"}]
    whole = [{"id": "p1", "subject": LONG_COMMAND, "rules": [], "verdict": "allow"}]
    later = [{"id": "p2", "subject": "touch later.txt", "rules": [], "verdict": "allow"}]
    listings = iter([part, whole, whole, later])
    monkeypatch.setattr(paw_run, "prompts", lambda run: next(listings))
    monkeypatch.setattr(cut_rule, "POLL", 0.01)
    monkeypatch.setattr(cut_rule, "LISTING_QUIET", 0.05)
    assert settled_listing(_Run()) == whole  # type: ignore[arg-type]
    assert next(listings) == later  # no listing taken after the two agreed
