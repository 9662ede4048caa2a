"""The third held-out batch (issue 33): sizes and turns no earlier fixture has.

``tests/fixtures/heldout2/<agent>/<case>_<cols>x<rows>/`` was recorded live from the pinned
agents by ``python -m tests.e2e.heldout AGENT COLSxROWS … --batch=3 --out=…`` (no paw) at sizes
no other fixture uses (90x28, 130x36, 64x20) with turns the other sets lack: a heredoc and an
``&&`` chain over several lines, a new file in a deep new folder, an edit of a path with spaces
in it, and the fetch and question turns; each label was read off the screen. It was measured
before any detector change (docs/agents.md, "Measured on held-out screens"); the fixes it led
to are pinned here by their own small cases too.
"""

from __future__ import annotations

import pytest

from paw.core.detect import detect
from paw.core.detect.prompts import incomplete_notes, make_prompt
from paw.core.models import DetectionState, PromptKind
from tests.detect.corpus import FIXTURES, Case, load_cases
from tests.detect.test_heldout import OTHER_SIZES, wrong_reading

CASES = load_cases(FIXTURES / "heldout2", "heldout2/")
EARLIER = {(100, 30), (72, 22), (150, 45)}


def test_third_batch_spans_agents_and_new_sizes() -> None:
    assert len({c.agent for c in CASES}) >= 6
    assert all((c.meta["cols"], c.meta["rows"]) not in OTHER_SIZES | EARLIER for c in CASES)
    assert {"permission_prompt", "dialog", "idle", "done", "busy"} <= {
        c.meta["state"] for c in CASES
    }
    turns = {c.name.rsplit("_", 1)[0] for c in CASES}
    assert {"shell_chain", "write_deep", "edit_space", "fetch", "ask"} <= turns


# Findings of this batch left open, each read safely (a human is asked) but not as labelled;
# strict: a fix that makes one pass must take it off this list.
# (qwen-code's shell_chain_64x20, unknown until its fold hint between the options and the
# spinner line and its cut question were read: tests/detect/test_qwen_fold_hint.py.)
OPEN: dict[str, str] = {}


def _marks(case: Case) -> list[pytest.MarkDecorator]:
    reason = OPEN.get(case.test_id)
    return [pytest.mark.xfail(reason=reason, strict=True)] if reason else []


@pytest.mark.parametrize("case", [pytest.param(c, id=c.test_id, marks=_marks(c)) for c in CASES])
@pytest.mark.parametrize("variant", ["txt", "ansi"])
def test_third_batch_screen_is_read_as_labelled(case: Case, variant: str) -> None:
    assert wrong_reading(case, variant) == []


def _opencode_edit(path_line: str) -> str:
    rows = [
        "  ┃",
        "  ┃  △ Permission required",
        f"  ┃    → Edit {path_line}",
        "  ┃",
        "  ┃  1 - a",
        "  ┃  1 + b",
        "  ┃",
        "  ┃   Allow once   Allow always   Reject   ctrl+f fullscreen  ⇆ select  enter confirm",
        "  ┃",
    ]
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize("agent", ["opencode", "kilocode"])
def test_opencode_path_with_spaces_is_read_whole(agent: str) -> None:
    found = detect(_opencode_edit("docs/my notes/plan for q3.md"), agent)
    assert found.state is DetectionState.PROMPT, found
    assert found.prompt is not None
    assert found.prompt.subject == "docs/my notes/plan for q3.md"


@pytest.mark.parametrize("subject", ["docs/.../plan for q3.md", "src/…/deep-new.txt"])
def test_path_with_folders_left_out_in_its_middle_is_incomplete(subject: str) -> None:
    write = make_prompt(PromptKind.WRITE, subject, "Apply this change?", approve=("1",), deny=())
    assert incomplete_notes(write)


def test_file_name_with_dots_is_not_marked() -> None:
    edit = make_prompt(PromptKind.EDIT, "docs/notes...md", "Edit?", approve=("y",), deny=())
    assert incomplete_notes(edit) == ()


def test_gemini_path_with_spaces_is_read_whole() -> None:
    case = next(c for c in CASES if c.test_id == "heldout2/gemini-cli/edit_space_130x36")
    shown, whole = "docs/.../paw plan for q3.md", "docs/a b/paw plan for q3.md"  # same width
    assert len(shown) == len(whole)
    found = detect(case.text().replace(shown, whole), "gemini-cli")
    assert found.prompt is not None, found
    assert found.prompt.subject == whole
