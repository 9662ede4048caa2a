"""The scripted demo agent: step parsing, harmless effects only, its box read by its detector."""

from __future__ import annotations

from pathlib import Path

import pytest

from paw.core.detect.agents.scripted import detect_screen
from paw.core.models import DetectionState, PromptKind
from paw.demo.agent import Step, effect, parse_step, render_box


def test_demo_parse_step_kinds_and_timeouts() -> None:
    assert parse_step("shell@1.5 git push origin main") == Step(
        "shell", "git push origin main", 1.5
    )
    assert parse_step("busy 2") == Step("busy", "2")
    with pytest.raises(ValueError, match="unknown step kind"):
        parse_step("launch missiles")


def test_demo_effect_writes_inside_cwd_only(tmp_path: Path) -> None:
    assert effect(Step("write", "notes/a.txt"), tmp_path) == "wrote notes/a.txt"
    assert (tmp_path / "notes" / "a.txt").exists()
    assert effect(Step("write", "../escape.txt"), tmp_path).startswith("refused")
    assert not (tmp_path.parent / "escape.txt").exists()


def test_demo_effect_runs_only_harmless_commands(tmp_path: Path) -> None:
    assert effect(Step("shell", "touch made.txt"), tmp_path).startswith("ran: touch")
    assert (tmp_path / "made.txt").exists()
    for dangerous in ("rm -rf made.txt", "touch x; rm made.txt", "echo $(rm made.txt)"):
        assert "not run" in effect(Step("shell", dangerous), tmp_path)
    assert (tmp_path / "made.txt").exists()


@pytest.mark.parametrize("kind", ["shell", "edit", "write", "fetch", "mcp"])
def test_demo_box_is_read_back_by_the_scripted_detector(kind: str) -> None:
    found = detect_screen("\n".join(["header", *render_box(Step(kind, "subject here"))]))
    assert found.state is DetectionState.PROMPT
    assert found.prompt is not None
    assert (found.prompt.kind, found.prompt.subject) == (PromptKind(kind), "subject here")
    assert (found.prompt.approve_keys, found.prompt.deny_keys) == (("y",), ("n",))


def test_demo_question_box_has_no_generic_approve() -> None:
    found = detect_screen("\n".join(render_box(Step("question", "which?"))))
    assert found.prompt is not None
    assert found.prompt.approve_keys == ()
