"""Older releases of the agents, captured live: their prompts are read, the general way.

``tests/fixtures/versions/<agent>/<tag>-<scenario>_<cols>x<rows>/`` holds permission prompts
of releases about one and three months older than the pins (``agent_version`` in each meta),
recorded by ``python -m tests.e2e.record`` against the stub model and proven live (their
approve keys took effect). Nothing here names a version: the layouts they differ by (a command
drawn without the ``╌╌╌`` rules around it, a notice drawn below the live dialog, a boxed
dialog) are read by structure. Each screen is read as its meta says, or its subject is marked
incomplete (and the guard's verdict is then never better than ``confirm``); never idle or busy,
never without a subject.
"""

from __future__ import annotations

import pytest

from paw.core.approval import INCOMPLETE_NOTE_PREFIX
from paw.core.detect import detect
from paw.core.detect.prompts import FOLDED as FOLD_NOTE
from paw.core.detect.prompts import incomplete_note
from paw.core.models import Action, DetectionState
from paw.core.verified import verified_versions
from tests.detect.corpus import FIXTURES, Case, load_cases, problems
from tests.support.judging import judge, marked_incomplete

CASES = load_cases(FIXTURES / "versions", "versions/")


def test_older_releases_are_present_at_both_sizes() -> None:
    for agent in ("claude-code", "qwen-code"):
        mine = [c for c in CASES if c.agent == agent]
        versions = {c.meta["agent_version"] for c in mine}
        assert len(versions) >= 2, (agent, versions)
        assert verified_versions()[agent] not in versions
        assert {(c.meta["cols"], c.meta["rows"]) for c in mine} == {(120, 40), (80, 24)}


FOLDED = [c for c in CASES if c.meta.get("folded")]
READ = [c for c in CASES if not c.meta.get("folded")]


@pytest.mark.parametrize("case", FOLDED, ids=[c.test_id for c in FOLDED])
def test_older_release_folded_diff_is_listed_marked_incomplete(case: Case) -> None:
    """The diff folded at 80x24, a key hint drawn between the dialog's box and the spinner:
    listed (never idle, busy or "off screen"), its path read, marked incomplete because of the
    fold, so the guard confirms at best."""
    found = detect(case.text(), case.agent)
    assert found.state is DetectionState.PROMPT, found
    assert found.prompt is not None
    assert found.prompt.subject == case.meta["subject"]
    assert found.notes == (incomplete_note(FOLD_NOTE),)
    assert judge(found, worktree="/home/u/src").action is not Action.ALLOW


@pytest.mark.parametrize("case", READ, ids=[c.test_id for c in READ])
@pytest.mark.parametrize("variant", ["txt", "ansi"])
def test_older_release_prompt_is_read(case: Case, variant: str) -> None:
    found = detect(case.text(variant), case.agent)
    assert found.state is DetectionState.PROMPT, found
    assert found.prompt is not None
    assert found.prompt.subject, found  # never listed blind
    incomplete = [n for n in found.notes if n.startswith(INCOMPLETE_NOTE_PREFIX)]
    wrong = problems(case, found)
    if incomplete:  # what is shown is a part of the subject: the guard confirms at best
        subject = str(case.meta["subject"])
        assert all(line.strip() in subject for line in found.prompt.subject.split("\n"))
        wrong = [p for p in wrong if not p.startswith("subject ")]
        assert judge(found, worktree="/home/u/src").action is not Action.ALLOW
    assert wrong == [], found


def _case(name: str) -> Case:
    return next(c for c in CASES if c.name == name)


# --- a command drawn without the ``╌╌╌`` rules (claude-code three months older) -------------

CLAUDE_PLAIN = "claude-3m-shell_120x40"
BLOCK = "   touch paw-shell.txt\n   Create a marker file\n"


def _plain(block: str, *, gap: bool = True) -> str:
    text = _case(CLAUDE_PLAIN).text()
    assert BLOCK + "\n Do you want" in text
    return text.replace(BLOCK + "\n Do you want", block + ("\n" if gap else "") + " Do you want")


def test_plain_command_with_its_description_is_read_and_confirms() -> None:
    found = detect(_plain(BLOCK), "claude-code")
    assert found.prompt is not None
    assert found.prompt.subject == "touch paw-shell.txt"
    assert marked_incomplete(found)
    assert judge(found, worktree="/home/u/src").action is Action.CONFIRM


def test_plain_command_without_a_blank_row_before_the_question() -> None:
    found = detect(_plain(BLOCK, gap=False), "claude-code")
    assert found.prompt is not None
    assert found.prompt.subject == "touch paw-shell.txt"


def test_plain_command_alone_is_whole() -> None:
    found = detect(_plain("   touch paw-shell.txt\n"), "claude-code")
    assert found.prompt is not None
    assert found.prompt.subject == "touch paw-shell.txt"
    assert not marked_incomplete(found)
    assert judge(found, worktree="/home/u/src").action is Action.ALLOW


def test_plain_multiline_command_never_passes_for_whole() -> None:
    """Three command lines and a description: the description cannot be told from a fourth
    command line on a plain capture, so the subject is marked incomplete (confirm)."""
    block = "   touch a.txt\n   rm -rf ~/x\n   touch b.txt\n   Create files\n"
    found = detect(_plain(block), "claude-code")
    assert found.prompt is not None
    assert found.prompt.subject == "touch a.txt\nrm -rf ~/x\ntouch b.txt"
    assert marked_incomplete(found)
    assert judge(found, worktree="/home/u/src").action is not Action.ALLOW


# --- a notice drawn between the framed dialog and the spinner (qwen-code older releases) -----

QWEN_BOXED = "qwen-1m-shell_80x24"
SPINNER = "  ⠏ Waiting for user confirmation..."
NOTICES = {
    "key-hint": ["Press ctrl-s to show more lines", ""],
    "update-notice": ["  Qwen Code update available! 0.15.6 → 0.24.4", ""],
    "boxed-notice": [
        "  ╭" + "─" * 46 + "╮",
        "  │ Qwen Code update available! 0.15.6 → 0.24.4 │",
        "  ╰" + "─" * 46 + "╯",
    ],
}


@pytest.mark.parametrize("notice", sorted(NOTICES))
def test_notice_between_the_dialog_box_and_the_spinner_keeps_it_live(notice: str) -> None:
    text = _case(QWEN_BOXED).text()
    assert SPINNER in text
    found = detect(text.replace(SPINNER, "\n".join([*NOTICES[notice], SPINNER])), "qwen-code")
    assert found.state is DetectionState.PROMPT, found
    assert found.prompt is not None
    assert found.prompt.subject == "touch paw-shell.txt"


def test_options_among_the_rows_under_the_box_are_not_a_notice() -> None:
    """Rows under the box that hold an option list are another dialog, not a notice."""
    text = _case(QWEN_BOXED).text()
    rows = ["  1. Yes", "  2. No", ""]
    found = detect(text.replace(SPINNER, "\n".join([*rows, SPINNER])), "qwen-code")
    assert not (found.prompt is not None and found.prompt.subject == "touch paw-shell.txt")


def test_spinner_at_the_pane_edge_with_a_status_row_under_it_is_live() -> None:
    """qwen-code about four months older draws its spinner line at column 0 and its status
    row under it: a live dialog (it was read as idle)."""
    found = detect(_case("qwen-3m-shell_120x40").text(), "qwen-code")
    assert found.state is DetectionState.PROMPT, found
