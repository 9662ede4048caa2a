"""opencode's and Kilo Code's pending tool line: only the call right above the live box speaks
for it (issue 33).

The transcript's last element, right above the permission box (only blank rows and the turn's
footer between), is the call the box asks about: its ``← Write <path>`` says a new file, and
its ``$ <command>`` may show whole a command the box cut at its 15 rows. The same line further
up (an older call), indented under an answer (a quote), inside the user's bordered message, or
with its head above the pane is not that call; nor is a command that does not begin with all
the box shows, or one of two on screen that both do. Built from live captures
(tests/fixtures/corpus, heldout, heldout2, incomplete).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paw.core.detect import detect
from paw.core.detect.tall_box import FROM_TRANSCRIPT
from paw.core.models import Action, PromptKind
from tests.detect.corpus import FIXTURES
from tests.support.judging import judge, marked_incomplete

AGENTS = ("opencode", "kilocode")
WRITE = FIXTURES / "corpus" / "opencode" / "write" / "screen.txt"  # "← Write hello.py", 120x40
WRITES = {
    "opencode": (
        WRITE,
        FIXTURES / "heldout" / "opencode" / "write_subdir_72x22" / "screen.txt",
        FIXTURES / "heldout2" / "opencode" / "write_deep_90x28" / "screen.txt",
    ),
    "kilocode": (
        FIXTURES / "heldout" / "kilocode" / "write_subdir_100x30" / "screen.txt",
        FIXTURES / "heldout2" / "kilocode" / "write_deep_64x20" / "screen.txt",
    ),
}
PENDING_WRITE = "     ← Write hello.py\n"
FULL = {  # seven lines in a box at its full height; the transcript shows them all
    agent: FIXTURES / "incomplete" / agent / "shell_multiline_120x40" / "screen.txt"
    for agent in AGENTS
}
LINES = [f"echo line-{n} >> paw-multiline.txt" for n in range(1, 7)]
LAST = "touch paw-multiline-done.txt"
SHOWN = "\n".join([*LINES, LAST])
TAIL = f"       {LAST}\n"  # the transcript's last row of the command


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _kind(text: str, agent: str = "opencode") -> PromptKind:
    found = detect(text, agent)
    assert found.prompt is not None, found
    return found.prompt.kind


# A new file: the pending tool line, and nothing else on screen.


@pytest.mark.parametrize(
    ("agent", "path"),
    [(agent, path) for agent, paths in WRITES.items() for path in paths],
    ids=[f"{agent}-{path.parent.name}" for agent, paths in WRITES.items() for path in paths],
)
def test_the_pending_write_line_makes_a_new_file(agent: str, path: Path) -> None:
    assert _kind(_read(path), agent) is PromptKind.WRITE


def _edit_pending(text: str) -> str:
    """The write capture with its pending tool line saying ``← Edit`` (an existing file)."""
    assert text.count(PENDING_WRITE) == 1
    return text.replace(PENDING_WRITE, "     ← Edit hello.py\n")


def test_a_write_line_of_an_older_call_is_not_this_call() -> None:
    """``← Write hello.py`` higher in the transcript (an earlier turn); the pending line right
    above the box says ``← Edit``: an edit."""
    text = _edit_pending(_read(WRITE))
    older = "  ┃  SCENARIO write\n  ┃\n\n"
    assert older in text
    text = text.replace(older, older + PENDING_WRITE + "\n     Done.\n\n", 1)
    assert _kind(text) is PromptKind.EDIT


def test_a_quoted_write_line_right_above_the_box_is_not_this_call() -> None:
    """An answer quoting ``← Write hello.py`` (indented under it), the last rows above the box:
    not the transcript's pending tool line, and the box says ``Edit``."""
    text = _read(WRITE)
    text = text.replace(PENDING_WRITE, "     Here is what it shows:\n       ← Write hello.py\n")
    assert _kind(text) is PromptKind.EDIT


def test_a_write_line_in_the_users_message_is_not_this_call() -> None:
    text = _read(WRITE).replace(PENDING_WRITE, "")
    text = text.replace("  ┃  SCENARIO write\n", "  ┃  SCENARIO write\n  ┃  ← Write hello.py\n")
    assert _kind(text) is PromptKind.EDIT


def test_a_write_line_of_another_path_is_not_this_call() -> None:
    text = _read(WRITE).replace(PENDING_WRITE, "     ← Write hello.py.bak\n")
    assert _kind(text) is PromptKind.EDIT


# A command the box cut, read whole from the pending tool line.


def _longer(agent: str, *extra: str) -> str:
    """The capture with the transcript's command going on past the box's last row."""
    text = _read(FULL[agent])
    assert text.count(TAIL) == 1
    return text.replace(TAIL, TAIL + "".join(f"       {row}\n" for row in extra))


@pytest.mark.parametrize("agent", AGENTS)
def test_a_command_the_box_cut_is_read_whole_from_the_pending_line(agent: str) -> None:
    found = detect(_longer(agent, "rm -rf ~/hidden"), agent)
    assert found.prompt is not None
    assert found.prompt.subject == f"{SHOWN}\nrm -rf ~/hidden"
    assert FROM_TRANSCRIPT in found.notes
    assert not marked_incomplete(found)
    assert judge(found).action is not Action.ALLOW


@pytest.mark.parametrize("agent", AGENTS)
def test_an_empty_line_of_the_command_in_the_transcript_is_kept(agent: str) -> None:
    found = detect(_longer(agent, "", "touch paw-after-blank.txt"), agent)
    assert found.prompt is not None
    assert found.prompt.subject == f"{SHOWN}\n\ntouch paw-after-blank.txt"
    assert FROM_TRANSCRIPT in found.notes


@pytest.mark.parametrize("agent", AGENTS)
def test_a_transcript_command_that_does_not_begin_as_the_box_is_not_taken(agent: str) -> None:
    text = _longer(agent, "echo more >> paw-multiline.txt")
    row = "       echo line-2 >> paw-multiline.txt\n"
    assert text.count(row) == 1
    found = detect(text.replace(row, "       echo other >> paw-multiline.txt\n"), agent)
    assert found.prompt is not None
    assert found.prompt.subject == SHOWN
    assert marked_incomplete(found)
    assert FROM_TRANSCRIPT not in found.notes


@pytest.mark.parametrize("agent", AGENTS)
def test_a_whole_command_above_another_element_is_not_taken(agent: str) -> None:
    """The transcript's last element is not the command (a read after it): the command above
    it is not shown to be this call."""
    text = _longer(agent, "rm -rf ~/hidden")
    text = text.replace("       rm -rf ~/hidden\n", "       rm -rf ~/hidden\n     → Read x.txt\n")
    found = detect(text, agent)
    assert found.prompt is not None
    assert found.prompt.subject == SHOWN
    assert marked_incomplete(found)
    assert judge(found).action is not Action.ALLOW


@pytest.mark.parametrize("agent", AGENTS)
def test_a_command_quoted_under_an_answer_is_not_taken(agent: str) -> None:
    """The whole command indented under an answer's first row: not an element at the
    transcript's margin."""
    text = _longer(agent, "echo quoted-tail")
    head = "     $ echo line-1 >> paw-multiline.txt\n"
    assert text.count(head) == 1
    text = text.replace(head, "     The command:\n       $ echo line-1 >> paw-multiline.txt\n")
    found = detect(text, agent)
    assert found.prompt is not None
    assert found.prompt.subject == SHOWN
    assert marked_incomplete(found)


@pytest.mark.parametrize("agent", AGENTS)
def test_a_command_in_the_users_message_is_not_taken(agent: str) -> None:
    """The whole command in the user's bordered message right above the box."""
    lines = _read(FULL[agent]).split("\n")
    box = next(i for i, line in enumerate(lines) if "Permission required" in line) - 1
    rows = [f"  ┃  {'$ ' if n == 0 else ''}{line}" for n, line in enumerate([*LINES, LAST])]
    message = ["", "  ┃", *rows, "  ┃  rm -rf ~/hidden", "  ┃", ""]
    found = detect("\n".join(message + lines[box:]), agent)
    assert found.prompt is not None
    assert found.prompt.subject == SHOWN
    assert marked_incomplete(found)


@pytest.mark.parametrize("agent", AGENTS)
def test_two_commands_that_begin_as_the_box_leave_it_incomplete(agent: str) -> None:
    """Two calls on screen of one beginning (parallel calls): which one the box asks about is
    not known, and each says another end."""
    text = _longer(agent, "echo benign")
    head = "     $ echo line-1 >> paw-multiline.txt\n"
    earlier = head + "".join(f"       {line}\n" for line in [*LINES[1:], LAST, "rm -rf ~/x"])
    text = text.replace(head, earlier + "\n" + head, 1)
    found = detect(text, agent)
    assert found.prompt is not None
    assert found.prompt.subject == SHOWN
    assert marked_incomplete(found)


@pytest.mark.parametrize("agent", AGENTS)
def test_a_row_the_transcript_may_have_wrapped_leaves_it_incomplete(agent: str) -> None:
    """A row reaching near the transcript's edge may be a wrap or a line break: which one is
    not known, so the command is not taken from there."""
    found = detect(_longer(agent, "echo " + "x" * 104, "touch paw-x.txt"), agent)
    assert found.prompt is not None
    assert found.prompt.subject == SHOWN
    assert marked_incomplete(found)
    found = detect(_longer(agent, "echo " + "x" * 60, "touch paw-x.txt"), agent)
    assert found.prompt is not None
    assert found.prompt.subject == f"{SHOWN}\necho {'x' * 60}\ntouch paw-x.txt"


def test_a_live_capture_whose_transcript_starts_above_the_pane_stays_incomplete() -> None:
    """opencode at 80x24, a 20-line command: the box shows 7 lines, the transcript its last
    rows only (the head above the pane)."""
    text = _read(FIXTURES / "incomplete" / "opencode" / "shell_long_80x24" / "screen.txt")
    found = detect(text, "opencode")
    assert found.prompt is not None
    assert marked_incomplete(found)
    assert FROM_TRANSCRIPT not in found.notes
    assert judge(found).action is not Action.ALLOW


@pytest.mark.parametrize("variant", ["txt", "ansi"])
def test_a_live_capture_of_a_command_the_box_cut_is_read_whole(variant: str) -> None:
    """opencode at 120x40, a 20-line command: the box shows 7 lines, the transcript's pending
    ``$ <command>`` all 20 from its first row (proven live: approving ran all 20)."""
    case = FIXTURES / "incomplete" / "opencode" / "shell_long_120x40"
    found = detect(_read(case / f"screen.{variant}"), "opencode")
    assert found.prompt is not None
    assert found.prompt.subject == "\n".join(
        [*(f"echo line-{n} >> paw-long.txt" for n in range(1, 20)), "touch paw-long-done.txt"]
    )
    assert FROM_TRANSCRIPT in found.notes
    assert not marked_incomplete(found)
