"""qwen-code (npm ``@qwen-code/qwen-code``), verified against 0.24.4.

A live confirmation hides the input box: under the pending tool line (``? Shell <cmd> ←``) Qwen
shows the details, a question (``Allow execution of: 'git'?``, ``Apply this change?``), a
``›``-marked numbered list, and, as the last line on screen, the spinner ``Waiting for user
confirmation...`` (also shown for its ask-the-user questions). Start-up dialogs (folder trust)
are a ``╭───`` box at the bottom. Approve once: ``Enter`` on the preselected ``1. Yes, allow
once`` (or ``1``); deny: ``Escape`` (the number of the "No" option differs between kinds).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paw.core.detect.boxes import dedent, is_rule, strip_border, unwrap
from paw.core.detect.options import (
    ENTER,
    ESCAPE,
    Option,
    always_option,
    find_numbered,
    first_positive,
    labels,
    selected_index,
    selected_label,
)
from paw.core.detect.prompts import (
    busy,
    find_url,
    idle,
    make_prompt,
    prompt_found,
    unknown,
    wrap_notes,
)
from paw.core.detect.screen import Screen, parse_screen
from paw.core.models import Detection, Prompt, PromptKind
from paw.core.verified import VERIFIED_VERSIONS

AGENT = "qwen-code"
VERIFIED_VERSION = VERIFIED_VERSIONS[AGENT]

WAITING = re.compile(r"Waiting for user confirmation", re.IGNORECASE)
# The loading line: "<phrase> (3s · ↓ 1.2k tokens · esc to cancel)"; absent while waiting.
BUSY = re.compile(r"esc to cancel\)|\(esc to cancel|esc to interrupt", re.IGNORECASE)
DIALOG_FOOTER = re.compile(r"enter: select|esc: cancel|↑/↓", re.IGNORECASE)
TOOL_LINE = re.compile(r"^\s*\?\s+(?P<tool>\S+)(?P<rest>.*?)\s*←?\s*$")
TOOLS: tuple[tuple[re.Pattern[str], PromptKind], ...] = (
    (re.compile(r"^(?:Shell|run_shell_command)$", re.IGNORECASE), PromptKind.SHELL),
    (re.compile(r"^(?:Edit|replace)$", re.IGNORECASE), PromptKind.EDIT),
    (re.compile(r"^(?:WriteFile|write_file)$", re.IGNORECASE), PromptKind.WRITE),
    (re.compile(r"^(?:WebFetch|web_fetch)$", re.IGNORECASE), PromptKind.FETCH),
    (
        re.compile(r"^(?:AskUserQuestion|ask_user_question|AskUser)$", re.IGNORECASE),
        PromptKind.QUESTION,
    ),
    (re.compile(r"^(?:ExitPlanMode|exit_plan_mode)$", re.IGNORECASE), PromptKind.OTHER),
)
# When the tool line is off screen, the question still names the tool family.
QUESTION_TOOLS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^Allow execution of MCP tool", re.IGNORECASE), "mcp"),
    (re.compile(r"^Allow execution of:", re.IGNORECASE), "Shell"),
    (re.compile(r"^Apply this change\?", re.IGNORECASE), "Edit"),
)
MCP_QUESTION = re.compile(
    r'MCP tool "(?P<tool>[^"]+)" from server "(?P<server>[^"]+)"', re.IGNORECASE
)
PLAN_SUBJECT = "exit plan mode (plan approval)"
BANNER_FOLDER = re.compile(r"│\s+(?P<folder>~?/[^\s│]*)\s*(?:│|$)")
_MAX_PROMPT = 45
_MARGIN = 3  # the spinner line sits 2 columns in, dialog boxes 3
_BUSY_WINDOW = 12  # the loading line sits above the input box and its two footer rows


@dataclass(frozen=True, slots=True)
class _Request:
    tool: str
    rest: str
    body: tuple[str, ...]
    options: tuple[Option, ...]
    question: str
    boxed: bool


def detect_screen(text: str) -> Detection:
    """Detect qwen-code's state in one captured screen."""
    screen = parse_screen(text)
    if not screen.lines:
        return unknown(AGENT, "empty screen")
    tail = screen.tail(_BUSY_WINDOW)
    if any(BUSY.search(line) for line in tail) and not WAITING.search(screen.lines[-1]):
        return busy(AGENT)
    request = _find_request(screen)
    if request is None:
        return idle(AGENT)
    prompt = _build_prompt(screen, request)
    return prompt_found(AGENT, prompt, *wrap_notes(prompt, screen.lines))


def _find_request(screen: Screen) -> _Request | None:
    lines = screen.lines
    last = lines[-1]
    margin = len(last) - len(last.lstrip())
    if margin > _MARGIN:
        return None  # qwen draws its spinner and dialogs at its margin: this is a quote
    if WAITING.search(last):
        return _waiting_request(lines, len(lines) - 1)
    if last.lstrip().startswith("╰") and is_rule(last.strip()[1:], min_len=4):
        return _boxed_request(lines)
    return None


def _waiting_request(lines: tuple[str, ...], end: int) -> _Request | None:
    while end > 0 and (not lines[end - 1].strip() or DIALOG_FOOTER.search(lines[end - 1])):
        end -= 1
    start = max(0, end - _MAX_PROMPT)
    options = find_numbered(lines, end, start)
    if not options or any(line.strip() for line in lines[options[-1].line + 1 : end]):
        return None
    title = next(
        (i for i in range(options[0].line - 1, start - 1, -1) if TOOL_LINE.match(lines[i])), -1
    )
    match = TOOL_LINE.match(lines[title]) if title >= 0 else None
    body = lines[title + 1 : options[0].line] if title >= 0 else lines[start : options[0].line]
    question = _question(body)
    if match is None:  # the tool line scrolled off a short pane: name the tool by its question
        tool = next((name for pattern, name in QUESTION_TOOLS if pattern.search(question)), "")
        return _Request(tool, "", body, tuple(options), question, False)
    return _Request(match["tool"], match["rest"].strip(), body, tuple(options), question, False)


def _boxed_request(lines: tuple[str, ...]) -> _Request | None:
    bottom = len(lines) - 1
    top = next(
        (
            i
            for i in range(bottom - 1, max(-1, bottom - _MAX_PROMPT), -1)
            if lines[i].lstrip().startswith("╭")
        ),
        -1,
    )
    if top < 0:
        return None
    content = tuple(strip_border(line, depth=1) for line in lines[top + 1 : bottom])
    options = find_numbered(content, len(content))
    if not options:
        return None
    body = content[: options[0].line]
    return _Request("", "", body, tuple(options), _question(body), True)


def _question(body: tuple[str, ...]) -> str:
    for line in reversed(body):
        if line.strip().endswith("?"):
            return line.strip()
    return next((line.strip() for line in body if line.strip()), "")


def _kind(request: _Request) -> PromptKind:
    for pattern, kind in TOOLS:
        if pattern.match(request.tool):
            return kind
    if MCP_QUESTION.search(request.question) or "MCP Server)" in request.rest:
        return PromptKind.MCP
    return PromptKind.OTHER


def _build_prompt(screen: Screen, request: _Request) -> Prompt:
    kind = _kind(request)
    options = list(request.options)
    question = request.question
    if kind is PromptKind.QUESTION:
        return make_prompt(
            kind, question, question, approve=(), deny=(ESCAPE,), options=labels(options)
        )
    approve_at = first_positive(options)
    if approve_at < 0:
        approve: tuple[str, ...] = ()
    elif selected_index(options) == approve_at:
        approve = (ENTER,)
    else:
        approve = (str(options[approve_at].number),)
    always_at = always_option(options)
    always = (str(options[always_at].number),) if always_at >= 0 else None
    subject = _subject(screen, request, kind)
    return make_prompt(
        kind,
        subject,
        question,
        approve=approve,
        deny=(ESCAPE,),
        always=always,
        options=labels(options),
        selected=selected_label(options),
    )


def _subject(screen: Screen, request: _Request, kind: PromptKind) -> str | None:
    if kind is PromptKind.SHELL:
        return _command(request.body, screen.pane_width)
    if kind in (PromptKind.EDIT, PromptKind.WRITE):
        rest = re.sub(r"^(?:Writing to|to)\s+", "", request.rest, flags=re.IGNORECASE)
        return rest.split()[0] if rest else None
    if kind is PromptKind.FETCH:
        return _listed_url(request.body) or find_url(request.rest)
    if kind is PromptKind.MCP:
        match = MCP_QUESTION.search(request.question)
        return f"{match['server']} {match['tool']}" if match else request.tool
    if re.match(r"exit_?plan_?mode", request.tool, re.IGNORECASE):
        return PLAN_SUBJECT
    if request.boxed and "trust" in request.question.lower():
        return _folder(screen, request)
    return None


def _command(body: tuple[str, ...], width: int) -> str | None:
    """The command block: the last paragraph above the question (the tool line repeats it)."""
    block = _trim(list(body))
    if block and block[-1].strip().endswith("?"):
        block = _trim(block[:-1])
    blank = max((i for i, line in enumerate(block) if not line.strip()), default=-1)
    block = block[blank + 1 :]
    if not block:
        return None
    indent = min(len(line) - len(line.lstrip()) for line in block if line.strip())
    return unwrap(dedent(block), width - indent) or None


def _trim(block: list[str]) -> list[str]:
    start = next((i for i, line in enumerate(block) if line.strip()), len(block))
    end = len(block)
    while end > start and not block[end - 1].strip():
        end -= 1
    return block[start:end]


def _listed_url(body: tuple[str, ...]) -> str | None:
    for index, line in enumerate(body):
        if line.strip().lower().startswith("urls to fetch"):
            return find_url(" ".join(body[index + 1 : index + 3]))
    return None


def _folder(screen: Screen, request: _Request) -> str | None:
    for line in screen.lines[:12]:
        match = BANNER_FOLDER.search(line)
        if match:
            return match["folder"]
    for option in request.options:
        match = re.search(r"\((?P<name>[^)]+)\)$", option.text)
        if option.is_positive and match:
            return match["name"]
    return None
