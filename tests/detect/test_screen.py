"""Screen normalisation, unwrapping and the prompt fingerprint."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from paw.core.detect import detect
from paw.core.detect.boxes import strip_border, unwrap
from paw.core.detect.screen import fingerprint, parse_screen, strip_ansi
from tests.detect.corpus import CORPUS


class AnsiCase(NamedTuple):
    test_id: str
    raw: str
    plain: str


ANSI_CASES = [
    AnsiCase("sgr", "\x1b[1;38;5;40mRun\x1b[0m it", "Run it"),
    AnsiCase("osc-title", "\x1b]0;title\x07text", "text"),
    AnsiCase("osc8-link", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"),
    AnsiCase("cursor", "a\x1b[2Kb\x1b[10;4Hc", "abc"),
    AnsiCase("plain", "no escapes", "no escapes"),
]


@pytest.mark.parametrize("case", ANSI_CASES, ids=[c.test_id for c in ANSI_CASES])
def test_screen_strip_ansi_removes_sequences(case: AnsiCase) -> None:
    assert strip_ansi(case.raw) == case.plain


def test_screen_parse_drops_trailing_blanks_and_nbsp() -> None:
    screen = parse_screen("a  \n❯\u00a0\n\tx\n\n   \n")
    assert screen.lines == ("a", "❯", "        x")
    assert screen.width == 9


def test_screen_fingerprint_ignores_whitespace_but_not_the_command() -> None:
    one = fingerprint("shell", "git push\n  origin main", "Proceed?", ("Yes", "No"))
    same = fingerprint("shell", "git push origin main", "Proceed?", ("Yes", "No"))
    other = fingerprint("shell", "git push --force origin main", "Proceed?", ("Yes", "No"))
    assert one == same
    assert one != other
    assert len(one) == 16


def test_screen_fingerprint_is_stable_when_elsewhere_changes() -> None:
    text = (CORPUS / "claude-code" / "shell_short_120x40" / "screen.txt").read_text("utf-8")
    changed = text.replace("PAW step 1 of shell_short.", "PAW step 1 of shell_short. (12s)")
    a, b = detect(text, "claude-code").prompt, detect(changed, "claude-code").prompt
    assert a is not None
    assert b is not None
    assert a.fingerprint == b.fingerprint
    other = detect(text.replace("touch paw-short.txt", "rm -rf paw-short"), "claude-code").prompt
    assert other is not None
    assert other.fingerprint != a.fingerprint


class UnwrapCase(NamedTuple):
    test_id: str
    lines: tuple[str, ...]
    width: int
    joined: str


UNWRAP_CASES = [
    UnwrapCase(
        "real-newlines",
        ("for i in 1 2; do", "  echo $i", "done"),
        40,
        "for i in 1 2; do\n  echo $i\ndone",
    ),
    UnwrapCase("word-wrapped", ("echo aaaa bbbb", "cccc"), 16, "echo aaaa bbbb cccc"),
    UnwrapCase("hard-wrapped", ("echo abcdefgh", "ijk"), 13, "echo abcdefghijk"),
]


@pytest.mark.parametrize("case", UNWRAP_CASES, ids=[c.test_id for c in UNWRAP_CASES])
def test_boxes_unwrap_joins_only_wrapped_lines(case: UnwrapCase) -> None:
    assert unwrap(case.lines, case.width) == case.joined


def test_boxes_strip_border_removes_nested_borders() -> None:
    assert strip_border("│ │ git push origin main   │ │") == "git push origin main"
    assert strip_border("  ┃  $ ls") == " $ ls"
