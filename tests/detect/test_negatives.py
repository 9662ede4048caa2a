"""Look-alike screens built from real prompts are never an approvable prompt.

Three families (issue 4): the prompt quoted in the model's final answer above the idle input
box; a plain shell pane that ``cat``s a saved prompt screen; a prompt screen with more
transcript lines below it (the prompt was answered and the agent moved on).
"""

from __future__ import annotations

import json
from typing import NamedTuple

import pytest

from paw.core.detect import detect, is_unrecognised_dialog
from paw.core.detect.registry import all_specs
from paw.core.models import Detection, DetectionState
from tests.detect.corpus import CORPUS, Case, load_cases, load_live_cases
from tests.detect.reflow import hard_wrap, reflow


class IdleFrame(NamedTuple):
    """Where an agent's answer goes: its idle screen, the input-area size and answer marker."""

    test_id: str
    case: str
    input_lines: int
    marker: str
    replace: tuple[str, str] = ("", "")


def _frames() -> dict[str, IdleFrame]:
    """Each agent's idle frame, from its fixture folder (``<agent>/agent.json``)."""
    found = {}
    for path in sorted(CORPUS.glob("*/agent.json")):
        frame = json.loads(path.read_text(encoding="utf-8"))["idle_frame"]
        agent = path.parent.name
        found[agent] = IdleFrame(
            agent,
            frame["case"],
            frame["input_lines"],
            frame["marker"],
            tuple(frame.get("replace", ("", ""))),
        )
    return found


FRAMES = _frames()
# Forks that draw the very same dialogs: each one's detector reads the other's prompts.
SAME_UI = {frozenset((s.kind, s.fork_of)) for s in all_specs() if s.fork_of is not None}
CASES = load_cases()
CORPUS_PROMPTS = [c for c in CASES if c.meta["state"] in ("permission_prompt", "dialog")]
# Prompts of both corpora: the hand-picked captures and the e2e suite's live screens.
PROMPTS = CORPUS_PROMPTS + [
    c for c in load_live_cases() if c.meta["state"] in ("permission_prompt", "dialog")
]
BY_NAME = {(c.agent, c.name): c for c in CASES}


def _approvable(found: Detection) -> bool:
    return found.state is DetectionState.PROMPT and bool(
        found.prompt is not None and found.prompt.approve_keys
    )


def _lines(case: Case) -> list[str]:
    lines = case.text().split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _dialog(case: Case, count: int = 18) -> list[str]:
    return [line for line in _lines(case) if line.strip()][-count:]


def _answer_screen(case: Case, indent: str, *, input_below: bool = True) -> str:
    frame = FRAMES[case.agent]
    idle = [line.replace(*frame.replace) for line in _lines(BY_NAME[(case.agent, frame.case)])]
    filled = [i for i, line in enumerate(idle) if line.strip()]
    cut = filled[-frame.input_lines]
    head = idle[:cut]
    while head and not head[-1].strip():
        head.pop()
    quoted = [f"{frame.marker}I was shown this dialog earlier:", ""]
    quoted += [indent + line for line in _dialog(case)]
    if not input_below:  # the transcript's last lines, e.g. while the answer streams
        return "\n".join([*head, "", *quoted])
    return "\n".join([*head, "", *quoted, "", *idle[cut:]])


@pytest.mark.parametrize("indent", ["  ", ""], ids=["indented", "verbatim"])
@pytest.mark.parametrize("case", PROMPTS, ids=[c.test_id for c in PROMPTS])
def test_detect_prompt_quoted_in_answer_is_not_approvable(case: Case, indent: str) -> None:
    screen = _answer_screen(case, indent)
    found = detect(screen, case.agent)
    assert not _approvable(found), found
    assert found.state is not DetectionState.PROMPT


@pytest.mark.parametrize("indent", ["  ", "    "], ids=["indent2", "indent4"])
@pytest.mark.parametrize("case", PROMPTS, ids=[c.test_id for c in PROMPTS])
def test_detect_indented_quote_at_the_bottom_is_not_a_prompt(case: Case, indent: str) -> None:
    """A dialog quoted in an answer, indented, as the transcript's last lines is not live:
    every agent draws its live dialog at its own margin, never indented under an answer."""
    found = detect(_answer_screen(case, indent, input_below=False), case.agent)
    assert found.state is not DetectionState.PROMPT, found


@pytest.mark.parametrize("case", PROMPTS, ids=[c.test_id for c in PROMPTS])
def test_detect_shell_pane_catting_prompt_is_not_a_prompt(case: Case) -> None:
    screen = "\n".join(["$ cat saved-prompt.txt", *_lines(case), "$ "])
    for agent in FRAMES:
        found = detect(screen, agent)
        assert found.state is not DetectionState.PROMPT, (agent, found)


@pytest.mark.parametrize("case", PROMPTS, ids=[c.test_id for c in PROMPTS])
def test_detect_prompt_with_transcript_below_is_not_approvable(case: Case) -> None:
    marker = FRAMES[case.agent].marker or ""
    below = ["", f"{marker}Ran the command; it printed nothing.", "  └ (no output)", ""]
    found = detect("\n".join([*_lines(case), *below]), case.agent)
    assert not _approvable(found), found


@pytest.mark.parametrize("case", PROMPTS, ids=[c.test_id for c in PROMPTS])
def test_detect_quoted_frame_still_detects_real_prompt(case: Case) -> None:
    """Control: the same construction keeps the real prompt when it stays at the tail."""
    found = detect(case.text(), case.agent)
    assert found.state is DetectionState.PROMPT


@pytest.mark.parametrize("case", PROMPTS, ids=[c.test_id for c in PROMPTS])
def test_detect_other_agents_detectors_do_not_claim_the_prompt(case: Case) -> None:
    """Each agent's dialogs are its own: `paw detect` without --agent can pick the right one."""
    claimed = [
        agent
        for agent in FRAMES
        if agent != case.agent
        and frozenset((agent, case.agent)) not in SAME_UI
        and (found := detect(case.text(), agent)).state is DetectionState.PROMPT
        and not is_unrecognised_dialog(found)  # a dialog to that detector, never its own
    ]
    assert claimed == []


def _narrow(case: Case) -> list[str]:
    text = case.text()
    drawn = hard_wrap(text, 80) if case.agent == "aider" else reflow(text, 80)
    lines = drawn.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


# Centred full-screen dialogs are laid out anew by the app at another width; cutting their rows
# (what ``reflow`` does) draws a screen no agent shows. Their meta says ``"reflows": false``.
REFLOWABLE = [c for c in CORPUS_PROMPTS if c.meta.get("reflows", True)]


@pytest.mark.parametrize("case", REFLOWABLE, ids=[c.test_id for c in REFLOWABLE])
def test_detect_narrow_look_alikes_are_not_approvable(case: Case) -> None:
    """The same look-alikes built from the prompt redrawn at 80 columns.

    Corpus prompts only: the live screens were captured at 80 columns by the real agents.
    """
    lines = _narrow(case)
    assert detect("\n".join(lines), case.agent).state is DetectionState.PROMPT  # control
    catted = "\n".join(["$ cat saved-prompt.txt", *lines, "$ "])
    assert detect(catted, case.agent).state is not DetectionState.PROMPT
    marker = FRAMES[case.agent].marker
    below = [*lines, "", f"{marker}Ran the command; it printed nothing.", "  └ (no output)"]
    assert not _approvable(detect("\n".join(below), case.agent))
