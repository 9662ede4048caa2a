"""aider (PyPI ``aider-chat``; pin and launch in ``SPEC``).

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

from paw.core.agentspec import PROVIDER_KEYS, AgentSpec, Install, SignIn
from paw.core.detect.boxes import is_rule
from paw.core.detect.inputs import MAX_INPUT_ROWS
from paw.core.detect.options import ENTER
from paw.core.detect.prompts import (
    busy,
    find_url,
    idle,
    incomplete_note,
    make_prompt,
    prompt_found,
    unknown,
    wrap_notes,
)
from paw.core.detect.screen import Screen, parse_screen
from paw.core.models import Detection, Prompt, PromptKind

SPEC = AgentSpec(
    kind="aider",
    command=("aider",),
    executables=("aider",),
    interpreters=("python",),
    scripts=("aider",),
    task_mode="stdin-typed",
    install=Install("pypi", "aider-chat", "0.86.2", "aider"),
    sign_in=SignIn((), (*PROVIDER_KEYS, "DEEPSEEK_API_KEY"), "export a provider key"),
    # the log paw names with --analytics-log when it starts aider (paw.core.usage_aider)
    usage_source="aider's analytics log",
    rank=4,
)
AGENT = SPEC.kind
VERIFIED_VERSION = SPEC.version

APPROVE = ("y", ENTER)
DENY = ("n", ENTER)
CONFIRM = re.compile(
    r"^(?P<question>.*?\?)\s*\(Y\)es/\(N\)o(?P<extra>(?:/\([A-Z]\)[^\[]*?)*)\s*"
    r"\[(?P<default>Yes|No)\]:\s*$"
)
DEFAULT_TAIL = re.compile(r"^\s*\[(?:Yes|No)\]:\s*$")
_MAX_QUESTION_ROWS = 8  # a question cut into rows on a 20-column pane
_RULE_WINDOW = 8  # the rule, then the chat files (they may wrap), then the input prompt
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


def _name(pattern: str) -> SubjectFinder:
    """The subject is a group of the question itself (``fname`` in "Fix lint errors in X?")."""
    compiled = re.compile(pattern, re.IGNORECASE)

    def find(_above: list[str], screen: Screen) -> str | None:
        match = compiled.search(_question_text(screen))
        return match.group(1) if match else None

    return find


# Aider's own questions (the confirm_ask calls of its source) -> kind and how to read the
# subject. Aider prints the subject (command lines, file, URL) on the lines just above.
_TABLE: tuple[tuple[str, PromptKind, SubjectFinder], ...] = (
    (r"^Run shell commands?\?", PromptKind.SHELL, _block),
    (r"^Run pip install\?", PromptKind.SHELL, _block),
    (r"^Create new file\?", PromptKind.WRITE, _first),
    (r"^No files matched .*Do you want to create", PromptKind.WRITE, _name(r"create (\S+?)\?")),
    (r"^Allow edits to file", PromptKind.EDIT, _first),
    (r"^Edit the files\?", PromptKind.EDIT, _label("proposed edits")),
    (r"^Add URL to the chat\?", PromptKind.FETCH, _url),
    (r"^Open (?:documentation )?URL for more info\?", PromptKind.OTHER, _url),
    (r"^Add .*command output to the chat\?", PromptKind.OTHER, _label("command output")),
    (r"^Attempt to fix lint errors\?", PromptKind.OTHER, _lint_file),
    (r"^Fix lint errors in ", PromptKind.OTHER, _name(r"errors in (\S+?)\?")),
    (r"^Attempt to fix test errors\?", PromptKind.OTHER, _label("test errors")),
    (r"^Allow collection of anonymous analytics", PromptKind.OTHER, _label("analytics opt-in")),
    (r"^Login to OpenRouter", PromptKind.OTHER, _label("OpenRouter login")),
    (r"^Install ([\w.-]+)\?", PromptKind.OTHER, _name(r"^Install ([\w.-]+)\?")),
    (r"^Add .* to \.gitignore", PromptKind.OTHER, _label(".gitignore")),
    (r"^No git repo found", PromptKind.OTHER, _label("git repo")),
    (r"^Add file to the chat\?", PromptKind.OTHER, _first),
    (r"^Try to proceed anyway\?", PromptKind.OTHER, _label("proceed anyway")),
)
QUESTIONS: tuple[tuple[re.Pattern[str], PromptKind, SubjectFinder], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), kind, finder) for pattern, kind, finder in _TABLE
)


def detect_screen(text: str) -> Detection:
    """Detect aider's state in one captured screen."""
    screen = parse_screen(text)
    if not screen.lines:
        return unknown(AGENT, "empty screen")
    last, start = _last_logical_line(screen)
    match = CONFIRM.match(last) if not last[:1].isspace() else None  # aider asks at column 0
    if match:
        if _subject_cut(screen, match, start):
            return unknown(AGENT, "the question's subject starts above the top of the pane")
        prompt = _build_prompt(screen, match, start)
        unbounded = prompt.kind is PromptKind.SHELL and not _command_rows(screen, start)[1]
        notes = (*wrap_notes(prompt, screen.lines), *((UNBOUNDED_NOTE,) if unbounded else ()))
        return prompt_found(AGENT, prompt, *notes)
    if INPUT.match(last.strip()) and _after_rule(screen, start):
        return idle(AGENT)
    return busy(AGENT, "aider is printing (no input prompt or question at the bottom)")


def _last_logical_line(screen: Screen) -> tuple[str, int]:
    """The last line, joined with the rows the terminal wrapped it from; and its first index.

    aider prints a question unwrapped: on a pane narrower than it, the terminal cuts it at the
    pane's width (a row ends at the width, or one short where the cut fell on a blank that the
    capture drops). The longest such join that reads as one of aider's questions wins; else
    the longest that reads as any question; else the last row.
    """
    lines = screen.lines
    width = screen.pane_width or screen.width
    last = len(lines) - 1
    top = last
    if last > 0 and DEFAULT_TAIL.match(lines[last]) and lines[last - 1].strip():
        top = last - 1  # the default answer went to a row of its own: it follows any row
    while (
        top > 0
        and last - top < _MAX_QUESTION_ROWS - 1
        and len(lines[top - 1]) >= width - 1
        and not is_rule(lines[top - 1])
    ):
        top -= 1
    fallback: tuple[str, int] | None = None
    for start in range(top, last + 1):
        text = lines[start]
        for row in range(start + 1, last + 1):
            cut = len(lines[row - 1]) >= width and not DEFAULT_TAIL.match(lines[row])
            text += ("" if cut else " ") + lines[row]
        match = CONFIRM.match(text)
        if match is None:
            continue
        if any(pattern.match(match["question"]) for pattern, _kind, _find in QUESTIONS):
            return text, start
        fallback = fallback or (text, start)
    return fallback or (lines[last], last)


def _after_rule(screen: Screen, start: int) -> bool:
    """The input prompt sits under aider's full-width rule (and the chat-files line)."""
    window = screen.lines[max(0, start - _RULE_WINDOW) : start]
    return any(is_rule(line) for line in window)


def _build_prompt(screen: Screen, match: re.Match[str], start: int) -> Prompt:
    question = match["question"].strip()
    above = _lines_above(screen, start)
    kind, subject = PromptKind.OTHER, None
    for pattern, pattern_kind, finder in QUESTIONS:
        found = pattern.match(question)
        if found:
            kind = pattern_kind
            if kind is PromptKind.SHELL:
                above = _command_rows(screen, start)[0]
            subject = finder(above, screen)
            break
    else:
        subject = _block(above, screen)
    extras = re.findall(r"\(([A-Z])\)([^/]*)", match["extra"] or "")
    options = ("Yes", "No", *(f"{key}{rest}".strip() for key, rest in extras))
    return make_prompt(
        kind,
        subject,
        f"{question} [{match['default']}]",
        approve=APPROVE,
        deny=DENY,
        options=options,
    )


def _question_text(screen: Screen) -> str:
    last, _start = _last_logical_line(screen)
    match = CONFIRM.match(last)
    return match["question"] if match else ""


_BLOCK_FINDERS = (_block, _first, _url)


def _subject_cut(screen: Screen, match: re.Match[str], start: int) -> bool:
    """The lines printed above the question (its subject) reach the pane's top: on a short
    pane the first command lines may have scrolled away, so what is left is not the subject."""
    question = match["question"].strip()
    finder = next((f for pattern, _kind, f in QUESTIONS if pattern.match(question)), _block)
    if finder not in _BLOCK_FINDERS:
        return False
    index = start - 1
    while index >= 0 and screen.lines[index].strip():
        if is_rule(screen.lines[index]) or CONFIRM.match(screen.lines[index]):
            return False
        index -= 1
    return index < 0


USAGE = re.compile(r"^Tokens:\s")  # aider's usage report, printed before a command's block
UNBOUNDED_NOTE = incomplete_note(
    "aider's usage report is not right above the command: an empty line of the command cannot "
    "be told from the gap above it, so lines may precede what is shown"
)


def _command_rows(screen: Screen, start: int) -> tuple[list[str], bool]:
    """The command block above the question: its paragraphs up to aider's usage report
    (``Tokens: …``, printed before the block, one blank row between), the blank rows between
    them kept (a command's empty line prints one); and whether that report bounds it. Without
    it, the paragraph right above the question, as for any question."""
    lines = screen.lines
    fallback = (_lines_above(screen, start), False)
    paragraphs: list[list[str]] = []
    gaps: list[int] = []  # blank rows above each paragraph
    end = start
    while True:
        top = end
        while top > 0 and lines[top - 1].strip():
            top -= 1
        raw = list(lines[top:end])
        if not raw:
            return fallback
        if USAGE.match(raw[0]):
            break
        if any(_ends_block(row) for row in raw):
            return fallback
        above = top
        while above > 0 and not lines[above - 1].strip():
            above -= 1
        if above == 0:
            return fallback
        paragraphs.append(_unwrap_terminal(raw, screen.pane_width))
        gaps.append(top - above)
        end = above
    if not paragraphs:
        return fallback
    rows: list[str] = []
    for index in range(len(paragraphs) - 1, -1, -1):  # top down
        rows += paragraphs[index]
        if index:
            rows += [""] * gaps[index - 1]
    return rows, True


def _ends_block(row: str) -> bool:
    """A row no command block holds: a rule, a question, an answered question."""
    return is_rule(row) or bool(CONFIRM.match(row) or re.search(r"\]:\s*\S+\s*$", row))


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
    return _unwrap_terminal(block, screen.pane_width)


def _unwrap_terminal(block: list[str], width: int) -> list[str]:
    """Join lines the terminal cut at ``width`` (aider prints commands unwrapped)."""
    joined: list[str] = []
    carry = False
    for line in block:
        if carry and joined:
            joined[-1] += line
        else:
            joined.append(line)
        carry = width > 0 and len(line) >= width
    return joined


def input_text(text: str) -> str | None:
    """What aider's input (``diff>``, ``architect>``, ``>`` under its rule and chat-files
    line) holds, with the rows a long line wraps onto: "" when empty; None when the input is
    not drawn at the bottom (aider is printing, or asks something)."""
    screen = parse_screen(text)
    lines = screen.lines
    for start in range(len(lines) - 1, max(-1, len(lines) - 1 - MAX_INPUT_ROWS), -1):
        head = lines[start]
        if INPUT.match(head.strip()) and not head[:1].isspace() and _after_rule(screen, start):
            rows = [head.split(">", 1)[1], *lines[start + 1 :]]
            return "".join(rows).strip() if len(rows) > 1 else rows[0].strip()
    return None
