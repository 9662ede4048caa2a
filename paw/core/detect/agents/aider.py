"""aider (PyPI ``aider-chat``), verified against 0.86.2.

Every aider confirmation is one line at the very bottom of the screen:
``<Question>? (Y)es/(N)o[/(D)on't ask again] [Yes]:``; its subject (command lines, file name,
URL) is printed on the lines just above it. Answered questions stay in the scrollback with the
answer after the colon (``[Yes]: y``) and never count. Approve: ``y Enter``; deny: ``n Enter``.
``(D)on't ask again`` is a permanent *deny*, so paw never offers it as "always".
The input prompt (``diff>``, ``architect>``, ``>``) as the last line means idle; anything else
at the bottom (streamed answer, spinner, command output) means aider is working.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from paw.core.detect.boxes import is_rule
from paw.core.detect.options import ENTER
from paw.core.detect.prompts import busy, find_url, idle, make_prompt, prompt_found, unknown
from paw.core.detect.screen import Screen, parse_screen
from paw.core.models import Detection, Prompt, PromptKind

AGENT = "aider"
VERIFIED_VERSION = "0.86.2"

APPROVE = ("y", ENTER)
DENY = ("n", ENTER)
CONFIRM = re.compile(
    r"^(?P<question>.*?\?)\s*\(Y\)es/\(N\)o(?P<extra>(?:/\([A-Z]\)[^\[]*?)*)\s*"
    r"\[(?P<default>Yes|No)\]:\s*$"
)
INPUT = re.compile(r"^(?:[\w-]+ ?)?>(?: .*)?$")
SubjectFinder = Callable[[list[str], Screen], "str | None"]


def _block(above: list[str], _screen: Screen) -> str | None:
    return "\n".join(above) or None


def _first(above: list[str], _screen: Screen) -> str | None:
    return above[-1].strip() if above else None


def _url(above: list[str], _screen: Screen) -> str | None:
    return find_url("\n".join(above))


def _lint_file(_above: list[str], screen: Screen) -> str | None:
    for line in reversed(screen.lines):
        match = re.match(r"^(\S+\.\w+):$", line.strip())
        if match:
            return match.group(1)
    return None


def _label(text: str) -> SubjectFinder:
    return lambda _above, _screen: text


# Aider's own questions (its source's confirm_ask calls) -> kind and how to read the subject.
QUESTIONS: tuple[tuple[re.Pattern[str], PromptKind, SubjectFinder], ...] = (
    (re.compile(r"^Run shell commands?\?", re.IGNORECASE), PromptKind.SHELL, _block),
    (re.compile(r"^Create new file\?", re.IGNORECASE), PromptKind.WRITE, _first),
    (re.compile(r"^Allow edits to file", re.IGNORECASE), PromptKind.EDIT, _first),
    (re.compile(r"^Edit the files\?", re.IGNORECASE), PromptKind.EDIT, _label("proposed edits")),
    (re.compile(r"^Add URL to the chat\?", re.IGNORECASE), PromptKind.FETCH, _url),
    (
        re.compile(r"^Add command output to the chat\?", re.IGNORECASE),
        PromptKind.OTHER,
        _label("command output"),
    ),
    (re.compile(r"^Attempt to fix lint errors\?", re.IGNORECASE), PromptKind.OTHER, _lint_file),
    (
        re.compile(r"^Attempt to fix test errors\?", re.IGNORECASE),
        PromptKind.OTHER,
        _label("test errors"),
    ),
    (
        re.compile(r"^Allow collection of anonymous analytics", re.IGNORECASE),
        PromptKind.OTHER,
        _label("analytics opt-in"),
    ),
    (
        re.compile(r"^Login to OpenRouter", re.IGNORECASE),
        PromptKind.OTHER,
        _label("OpenRouter login"),
    ),
    (re.compile(r"^Install (?P<what>[\w.-]+)\?", re.IGNORECASE), PromptKind.OTHER, _label("")),
    (re.compile(r"^Add .* to \.gitignore", re.IGNORECASE), PromptKind.OTHER, _label(".gitignore")),
    (re.compile(r"^No git repo found", re.IGNORECASE), PromptKind.OTHER, _label("git repo")),
    (re.compile(r"^Add file to the chat\?", re.IGNORECASE), PromptKind.OTHER, _first),
)


def detect_screen(text: str) -> Detection:
    """Detect aider's state in one captured screen."""
    screen = parse_screen(text)
    if not screen.lines:
        return unknown(AGENT, "empty screen")
    last, start = _last_logical_line(screen)
    match = CONFIRM.match(last)
    if match:
        return prompt_found(AGENT, _build_prompt(screen, match, start))
    if INPUT.match(last.strip()) and _after_rule(screen, start):
        return idle(AGENT)
    return busy(AGENT, "aider is printing (no input prompt or question at the bottom)")


def _last_logical_line(screen: Screen) -> tuple[str, int]:
    """The last line, joined with the lines the terminal wrapped it from; and its first index."""
    lines = screen.lines
    start = len(lines) - 1
    text = lines[start]
    while start > 0 and len(lines[start - 1]) >= screen.width - 1 and not is_rule(lines[start - 1]):
        start -= 1
        joiner = "" if len(lines[start]) >= screen.width else " "
        text = lines[start] + joiner + text
    return text, start


def _after_rule(screen: Screen, start: int) -> bool:
    """The input prompt sits under aider's full-width rule (and the chat-files line)."""
    window = screen.lines[max(0, start - 4) : start]
    return any(is_rule(line) for line in window)


def _build_prompt(screen: Screen, match: re.Match[str], start: int) -> Prompt:
    question = match["question"].strip()
    above = _lines_above(screen, start)
    kind, subject = PromptKind.OTHER, None
    for pattern, pattern_kind, finder in QUESTIONS:
        found = pattern.match(question)
        if found:
            kind = pattern_kind
            subject = finder(above, screen) or found.groupdict().get("what")
            break
    else:
        subject = _block(above, screen)
    options = ("Yes", "No") + (("Don't ask again",) if match["extra"] else ())
    return make_prompt(
        kind,
        subject,
        f"{question} [{match['default']}]",
        approve=APPROVE,
        deny=DENY,
        options=options,
    )


def _lines_above(screen: Screen, start: int) -> list[str]:
    """The contiguous non-blank lines printed just above the question (its subject)."""
    lines = screen.lines
    index = start - 1
    block: list[str] = []
    while index >= 0 and lines[index].strip() and not CONFIRM.match(lines[index]):
        if is_rule(lines[index]) or re.search(r"\]:\s*\S+\s*$", lines[index]):
            break
        block.insert(0, lines[index])
        index -= 1
    return _unwrap_terminal(block, screen.width)


def _unwrap_terminal(block: list[str], width: int) -> list[str]:
    """Join lines the terminal cut at ``width`` (aider prints commands unwrapped)."""
    joined: list[str] = []
    carry = False
    for line in block:
        if carry and joined:
            joined[-1] += line
        else:
            joined.append(line)
        carry = len(line) >= width
    return joined
