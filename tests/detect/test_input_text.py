"""Each agent's input reader on its own recorded screens: an idle or busy screen's input reads
empty (its placeholder is not content), the same screen with a line typed into its input reads
that line, and the detector still reads it idle or busy (paw types, then waits for the echo)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from paw.core.detect import detect, read_input
from paw.core.detect.registry import agent_kinds

CORPUS = Path(__file__).parent.parent / "fixtures" / "corpus"
LIVE = Path(__file__).parent.parent / "fixtures" / "screens-live"
HELDOUT = tuple(LIVE.parent / name for name in ("heldout", "heldout2", "heldout3"))
# Per agent (tests/fixtures/corpus/AGENT/input.json): a screen with an empty input, the input
# row there, that row with a line typed into it, and that line.
TYPING = sorted(p.parent.name for p in CORPUS.glob("*/input.json"))


def _screens() -> list[tuple[str, Path]]:
    return [
        (screen.parent.parent.name, screen)
        for root in (CORPUS, LIVE, *HELDOUT)
        for screen in sorted([*root.glob("*/*/screen.txt"), *root.glob("*/*/screen.ansi")])
    ]


def _typed(screen: str, pattern: str, replacement: str) -> str:
    lines = screen.split("\n")
    index = max(i for i, line in enumerate(lines) if re.search(pattern, line))
    lines[index] = re.sub(pattern, replacement, lines[index])
    return "\n".join(lines)


@pytest.mark.parametrize(("agent", "path"), _screens(), ids=lambda v: str(v)[-40:])
def test_an_idle_or_busy_screen_reads_empty_or_its_text_never_a_placeholder(
    agent: str, path: Path
) -> None:
    screen = path.read_text(encoding="utf-8")
    state = detect(screen, agent).state.value
    if state not in ("idle", "busy"):
        return
    content = read_input(screen, agent)
    if path.parent.name == "typing":  # qwen-code: a line typed, not submitted
        assert content == "please run rm -rf build and then allow once"
    elif content is not None and content:
        # only aider shows its submitted line (and what it prints) at the bottom while busy
        assert (agent, state) == ("aider", "busy"), content


@pytest.mark.parametrize("agent", TYPING)
def test_a_line_typed_into_the_input_reads_back_and_keeps_the_state(agent: str) -> None:
    case = json.loads((CORPUS / agent / "input.json").read_text(encoding="utf-8"))
    screen = (CORPUS / agent / case["screen"] / "screen.txt").read_text(encoding="utf-8")
    assert read_input(screen, agent) == ""
    typed = _typed(screen, case["row"], case["typed"])
    assert typed != screen
    assert detect(typed, agent).state.value in ("idle", "busy")
    assert read_input(typed, agent) == case["text"]


def test_every_agent_with_an_idle_screen_has_a_typing_case() -> None:
    idle = {p.parent.parent.name for p in CORPUS.glob("*/*/screen.txt")
            if p.parent.name.startswith(("idle", "done"))}  # fmt: skip
    assert sorted(idle - set(TYPING)) == []


def test_every_agent_has_an_input_reader() -> None:
    from paw.core.detect.registry import load_input_reader

    assert [k for k in agent_kinds() if load_input_reader(k) is None] == []


def test_a_screen_without_the_input_is_unreadable_never_empty() -> None:
    for agent in agent_kinds():
        assert read_input("", agent) is None
        assert read_input("some output\nmore output\n", agent) is None


RULE = "\x1b[38;2;137;180;250m" + "─" * 80
# qwen-code offers its last answer as a suggestion: grey text after the cursor at the input's
# start (recorded from qwen-code 0.24.4 at 80x24). Typed text is drawn before the cursor.
SUGGESTION = (
    "\x1b[38;2;203;166;247m> \x1b[39m\x1b[48;2;212;212;212mF\x1b[38;2;108;112;134m\x1b[49m"
    "inished scenario shell."
)
TYPED_ROW = "\x1b[38;5;183m> \x1b[39mFinished scenario shell.\x1b[48;5;252m \x1b[49m"
FOOTER = "\x1b[39m  \x1b[38;2;203;166;247m➜ e2e · git:(paw/e2e) · paw-stub"


def test_a_suggestion_after_the_cursor_is_not_content_typed_text_is() -> None:
    def screen(row: str) -> str:
        return f"  ◆ Finished scenario shell.\n\n{RULE}\n{row}\n{RULE}\n{FOOTER}\n"

    assert detect(screen(SUGGESTION), "qwen-code").state.value == "idle"
    assert read_input(screen(SUGGESTION), "qwen-code") == ""
    assert read_input(screen(TYPED_ROW), "qwen-code") == "Finished scenario shell."
    plain = screen(SUGGESTION).replace("\x1b[48;2;212;212;212m", "")  # no cursor cell
    assert read_input(plain, "qwen-code") == "Finished scenario shell."
