"""qwen-code (npm ``@qwen-code/qwen-code``; pin and launch in ``SPEC``).

A live confirmation hides the input box: under the pending tool line (``? Shell <cmd> ←``) Qwen
shows the details, a question (``Allow execution of: 'git'?``, ``Apply this change?``), a
``›``-marked numbered list, and, as the last line on screen, the spinner ``Waiting for user
confirmation...`` (also shown for its ask-the-user questions). Start-up dialogs (folder trust)
are a ``╭───`` box at the bottom. Approve once: ``Enter`` on the preselected ``1. Yes, allow
once`` (or ``1``); deny: ``Escape`` (the number of the "No" option differs between kinds).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import NamedTuple

from paw.core.agentspec import AgentSpec, Install, SignIn
from paw.core.detect.boxes import (
    dedent,
    has_left_border,
    is_rule,
    join_wrapped,
    strip_border,
    unwrap,
    wrapped_lead,
)
from paw.core.detect.inputs import between_rules, raw_rows, screen_lines
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
    HIDDEN_LINES,
    KeyHint,
    busy,
    find_url,
    idle,
    interrupt_hint,
    make_prompt,
    prompt_found,
    unknown,
    wrap_notes,
)
from paw.core.detect.screen import Screen, parse_screen
from paw.core.models import Detection, Prompt, PromptKind

SPEC = AgentSpec(
    kind="qwen-code",
    command=("qwen",),
    executables=("qwen",),
    interpreters=("node",),
    scripts=("@qwen-code", "qwen"),
    task_flag="--prompt-interactive",
    install=Install("npm", "@qwen-code/qwen-code", "0.24.4", "qwen"),
    sign_in=SignIn(("~/.qwen/oauth_creds.json",), ("OPENAI_API_KEY", "DASHSCOPE_API_KEY"), "qwen"),
    rank=5,
    usage_source="Qwen Code's chat records",
)
AGENT = SPEC.kind
VERIFIED_VERSION = SPEC.version

WAITING = re.compile(r"Waiting for user confirmation", re.IGNORECASE)
# On a narrow pane Qwen cuts the spinner line: "Waiting for user confirmati…".
WAITING_CUT = re.compile(r"Waiting for user(?P<rest>[a-z ]*)(?:…|\.\.\.)?\s*$", re.IGNORECASE)
WAITING_REST = " confirmation"
# The loading line: "<phrase> (3s · ↓ 1.2k tokens · esc to cancel)"; absent while waiting.
BUSY_HINTS = (
    KeyHint(r"to cancel\)"),
    KeyHint(r"to cancel\b", opening=r"\("),
    interrupt_hint("to interrupt"),
)
DIALOG_FOOTER = re.compile(r"enter: select|esc: cancel|↑/↓", re.IGNORECASE)
# "? <Tool> <summary> ←" (the arrow is stripped from the summary; a lazy pattern before it
# backtracked over the whole of a long command line).
TOOL_LINE = re.compile(r"^\s*\?\s+(?P<tool>\S+)(?P<rest>.*)$")
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
_SPINNER_ROWS = 3
_STATUS_ROWS = 2
# The status row a release draws under its spinner line ("? for shortcuts … context used").
STATUS_BELOW = re.compile(r"^\s{0,3}\? for shortcuts\b")
_BUSY_WINDOW = 12  # the loading line sits above the input box and its two footer rows


@dataclass(frozen=True, slots=True)
class _Request:
    tool: str
    rest: str
    body: tuple[str, ...]
    options: tuple[Option, ...]
    question: str
    boxed: bool
    block_top: int = -1  # a shell command block's first row in ``body`` when proven so


def detect_screen(text: str) -> Detection:
    """Detect qwen-code's state in one captured screen."""
    screen = parse_screen(text)
    if not screen.lines:
        return unknown(AGENT, "empty screen")
    tail = screen.tail(_BUSY_WINDOW)
    if (
        any(hint.search(line) for line in tail for hint in BUSY_HINTS)
        and _spinner_start(screen.lines) < 0
    ):
        return busy(AGENT)
    request = _find_request(screen)
    if request is None:
        return idle(AGENT)
    if isinstance(request, str):
        return unknown(AGENT, request)
    prompt = _build_prompt(screen, request)
    return prompt_found(AGENT, prompt, *wrap_notes(prompt, screen.lines), body=request.body)


def _find_request(screen: Screen) -> _Request | str | None:
    lines = screen.lines
    last = lines[-1]
    margin = len(last) - len(last.lstrip())
    if margin > _MARGIN:
        return None  # qwen draws its spinner and dialogs at its margin: this is a quote
    spinner = _spinner_start(lines)
    if spinner >= 0:
        return _waiting_request(lines, spinner)
    if last.lstrip().startswith("╰") and is_rule(last.strip()[1:], min_len=4):
        return _boxed_request(lines)
    return None


def _spinner_start(lines: tuple[str, ...]) -> int:
    """First row of the ``Waiting for user confirmation...`` spinner line at the bottom (it
    wraps over two or three rows on a narrow pane, its rows after the first starting at the
    pane's edge when the terminal broke it, and Qwen cuts it with ``…``), or -1."""
    width = max(map(len, lines), default=0)
    last = len(lines)
    while last > 1 and last > len(lines) - _STATUS_ROWS and STATUS_BELOW.match(lines[last - 1]):
        last -= 1  # a release that keeps its status row under the spinner line
    for index in range(last - 1, max(-1, last - 1 - _SPINNER_ROWS), -1):
        line = lines[index]
        if not line.strip():
            break
        indent = len(line) - len(line.lstrip())
        if indent == 0 and index == last - 1 and WAITING.search(line):
            return index  # a release that draws its spinner line at the pane's edge
        if indent != 2:
            # A row the spinner line wrapped onto: only where the terminal broke a full row.
            if index == 0 or len(lines[index - 1]) < width:
                break
            continue
        text = _join_rows(lines[index:last], width)
        broken = any(not row[:1].isspace() for row in lines[index + 1 : last])
        if _is_cut_waiting(text) if broken else _is_waiting(text):
            return index
    return -1


def _join_rows(rows: Sequence[str], width: int) -> str:
    """Rows of one wrapped line: a row that fills the pane and goes on at the pane's edge was
    broken by the terminal (joined as is), any other by the app at a space."""
    out = rows[0].strip()
    for previous, row in pairwise(rows):
        broken = len(previous) >= width and not row[:1].isspace()
        out += ("" if broken else " ") + row.strip()
    return out


def _is_waiting(text: str) -> bool:
    """``text`` holds the waiting spinner line, whole or cut short with an ellipsis."""
    return bool(WAITING.search(text)) or _is_cut_waiting(text)


def _is_cut_waiting(text: str) -> bool:
    """``text`` ends with the waiting spinner line, whole or cut short with an ellipsis (what
    the terminal broke onto the next rows holds nothing else)."""
    cut = WAITING_CUT.search(text)
    return cut is not None and WAITING_REST.startswith(cut["rest"].lower())


UNREADABLE = "a dialog is open but what it asks is off screen (a short pane)"


def _waiting_request(lines: tuple[str, ...], end: int) -> _Request | str | None:
    end = _above_fold_hint(lines, _above_footer(lines, end))
    lines, end = _unbox(lines, _below_notices(lines, end))
    start = max(0, end - _MAX_PROMPT)
    options = find_numbered(lines, end, start)
    if not options or any(
        line.strip() for line in lines[options[-1].line + options[-1].rows : end]
    ):
        return UNREADABLE  # the spinner says a dialog waits; its options are cut or unreadable
    title = next(
        (
            i
            for i in range(options[0].line - 1, start - 1, -1)
            if lines[i].lstrip().startswith("?") and TOOL_LINE.match(lines[i])
        ),
        -1,
    )
    width = max(map(len, lines))
    if title < 0:
        return _untitled_request(lines[start : options[0].line], tuple(options), width)
    # The tool line wraps on a narrow pane (a long path or command): read it as one line.
    rows = [lines[title]]
    for line in lines[title + 1 : options[0].line]:
        if not line.strip():
            break
        rows.append(line)
    match = TOOL_LINE.match(_join_tool_rows(rows, width))
    if match is None:
        return UNREADABLE
    body = lines[title + len(rows) : options[0].line]
    question = _question(body, width)
    rest = match["rest"].strip().removesuffix("←").rstrip()
    top: int | None = -1
    if TOOLS[0][0].match(match["tool"]):
        top = _proven_block_top(lines[title : title + len(rows)], body)
    if top is None:
        return UNREADABLE
    return _Request(match["tool"], rest, body, tuple(options), question, False, top)


def _proven_block_top(title: Sequence[str], body: Sequence[str]) -> int | None:
    """Where a shell command block of several paragraphs starts (an empty line in the command,
    or a paragraph of the tool line whose rows are all indented): at the paragraph from which
    down the block is the command the tool line shows (``title``: its first rows), all the
    rows between them the tool line's; -1 for a block of one paragraph; None when no paragraph
    gives that (which rows are the command's is not known)."""
    block = _command_block(body)
    if block.paragraphs < 2:
        return -1
    tops = [i for i in range(block.top, block.bottom) if _starts_paragraph(body, i, block.top)]
    for top in reversed(tops):  # the fewest paragraphs first
        command = "\n".join(dedent(list(body[top : block.bottom])))
        tool_rows = [*title, *body[:top]]
        while tool_rows and not tool_rows[-1].strip():
            tool_rows.pop()
        if _same_call(tool_rows, command):
            return top
    return None


def _starts_paragraph(rows: Sequence[str], index: int, first: int) -> bool:
    return bool(rows[index].strip()) and (index == first or not rows[index - 1].strip())


def _join_tool_rows(rows: Sequence[str], width: int) -> str:
    """The tool line from its rows. Qwen draws its ``←`` at the end of the first row even when
    the line goes on: that row was cut at the arrow, inside a word as often as not (a long path
    cut as ``…long_mo ←`` / ``dule_name.md``), so the next row continues it without a space."""
    first = rows[0].rstrip()
    if len(rows) < 2 or not first.endswith("←"):
        return join_wrapped(rows, width)
    return first[:-1].rstrip() + join_wrapped(rows[1:], width).strip()


_NOTICE_ROWS = 8
_FOLD_HINT_ROWS = 3  # the hint's row and the blank rows around it
_OPTION_ROW = re.compile(r"^\s*[›❯>]?\s*\d+\.\s")


def _below_notices(lines: tuple[str, ...], end: int) -> int:
    """The end of the framed dialog above ``end`` when only notices lie between them (a hint
    such as "Press ctrl-s to show more lines", an update notice, boxed or not: at most
    ``_NOTICE_ROWS`` rows, none an option, no box among them that holds options); ``end``
    itself when no such dialog box is there (an unframed dialog ends at ``end``)."""
    index, skipped = end, 0
    while index > 0 and skipped <= _NOTICE_ROWS:
        row = lines[index - 1]
        if _box_edge(row, "╰", "╯"):
            top = _box_top(lines, index - 1)
            if top < 0:
                return end
            content = [strip_border(line, depth=1) for line in lines[top + 1 : index - 1]]
            if find_numbered(content, len(content)):
                return index
            skipped, index = skipped + index - top, top
            continue
        if _OPTION_ROW.match(row) or has_left_border(row) or row.lstrip().startswith("╭"):
            return end
        skipped += bool(row.strip())
        index -= 1
    return end


def _box_top(lines: tuple[str, ...], bottom: int) -> int:
    """The top edge (``╭…╮``) of the box whose bottom edge is row ``bottom``, or -1."""
    for index in range(bottom - 1, max(-1, bottom - _MAX_PROMPT), -1):
        if lines[index].strip() and not has_left_border(lines[index]):
            return index if _box_edge(lines[index], "╭", "╮") else -1
    return -1


def _unbox(lines: tuple[str, ...], end: int) -> tuple[tuple[str, ...], int]:
    """The rows above ``end`` with the rounded box that ends there opened: its content without
    its borders in place of the box (a release that frames its dialog draws it so above the
    spinner line). Unchanged when no whole box at Qwen's margin ends at ``end``."""
    bottom = end - 1
    if bottom < 1 or not _box_edge(lines[bottom], "╰", "╯"):
        return lines, end
    top = _box_top(lines, bottom)
    if top < 0:
        return lines, end
    content = tuple(strip_border(line, depth=1) for line in lines[top + 1 : bottom])
    while content and not content[-1].strip():
        content = content[:-1]
    return lines[:top] + content, top + len(content)


def _box_edge(line: str, left: str, right: str) -> bool:
    """``line`` is a box's top or bottom edge at Qwen's margin, corners ``left`` and ``right``."""
    edge = line.strip()
    return (
        len(line) - len(line.lstrip()) <= _MARGIN
        and edge.startswith(left)
        and edge.endswith(right)
        and is_rule(edge[1:-1], min_len=4)
    )


def _above_fold_hint(lines: tuple[str, ...], end: int) -> int:
    """Index after the dialog's last row when Qwen's hint that it folded part of what it shows
    ("Press ctrl-s to show more lines", on a row of its own) sits between the dialog and the
    spinner line, where no model text is drawn; ``end`` otherwise. The fold itself is read in
    the command or diff it cut (``... last 2 lines hidden ...``)."""
    index = end
    while index > 0 and end - index < _FOLD_HINT_ROWS:
        row = lines[index - 1]
        if row.strip() and HIDDEN_LINES.search(row) is None:
            break
        index -= 1
    hint = any(row.strip() for row in lines[index:end])
    return _above_footer(lines, index) if hint else end


def _above_footer(lines: tuple[str, ...], end: int) -> int:
    """Index after the dialog's last row: above blank rows and the key hint (which wraps over
    a few rows on a narrow pane: "↑/↓: Navigate | Enter: Select | Esc:" / "Cancel")."""
    while end > 0:
        if not lines[end - 1].strip():
            end -= 1
            continue
        top = end - 1
        while top > 0 and end - top < _SPINNER_ROWS and lines[top - 1].strip():
            top -= 1
        hint = next(
            (
                i
                for i in range(end - 1, top - 1, -1)
                if DIALOG_FOOTER.search(" ".join(lines[i:end]))
            ),
            -1,
        )
        if hint < 0:
            return end
        end = hint
    return end


def _untitled_request(
    body: tuple[str, ...], options: tuple[Option, ...], width: int
) -> _Request | str:
    """A request whose tool line scrolled off a short pane: only its question may tell.

    An MCP question names the tool; ``Allow execution of:`` is a shell command, readable only
    when its whole block (a blank row above it) is on screen. Anything else is unknown: an
    edit and a new file ask the same question.
    """
    question = _question(body, width)
    if not question.endswith("?"):  # a narrow pane cuts the question ("… delta, E…")
        question = _last_paragraph(body, width)
    tool = next((name for pattern, name in QUESTION_TOOLS if pattern.search(question)), "")
    request = _Request(tool, "", body, options, question, False)
    if tool == "mcp" and MCP_QUESTION.search(question):
        return request
    if tool == "Shell" and _command_is_whole(body):
        return request
    return UNREADABLE


def _command_is_whole(body: tuple[str, ...]) -> bool:
    """The command block (above the question) is on screen from its first row, a row of the
    tool line above it, and it has no empty line (which only the tool line, off screen, could
    tell from a paragraph of the tool line whose rows are all indented)."""
    block = _command_block(body)
    return block.bounded and block.paragraphs == 1


class _Block(NamedTuple):
    """The command block above the question: rows ``[top, bottom)``, the paragraphs it holds
    (more than one: the command has an empty line), and whether a row left of its margin (the
    tool line's) is on screen above it."""

    top: int
    bottom: int
    paragraphs: int
    bounded: bool


def _command_block(body: Sequence[str]) -> _Block:
    """The command block: the paragraphs above the question at the block's margin (two columns
    right of the question's; the tool line's rows above it are one column right of the
    question's), blank rows between them kept (a command's empty line draws one)."""
    index = len(body) - 1
    while index >= 0 and not body[index].strip():
        index -= 1
    question = index
    for blank in (False, True):  # the question (it may wrap), the gap above it
        while index >= 0 and (not body[index].strip()) == blank:
            index -= 1
    margin = _indent(body[question]) + 2 if question >= 0 else 0
    bottom = top = index + 1
    paragraphs = 0
    while index >= 0:
        end = index
        while index >= 0 and body[index].strip():
            index -= 1
        if any(_indent(row) < margin for row in body[index + 1 : end + 1]):
            return _Block(top, bottom, paragraphs, bounded=True)
        top, paragraphs = index + 1, paragraphs + 1
        while index >= 0 and not body[index].strip():
            index -= 1
    return _Block(top, bottom, paragraphs, bounded=False)


def _indent(row: str) -> int:
    return len(row) - len(row.lstrip())


def _boxed_request(lines: tuple[str, ...]) -> _Request | str | None:
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
        return UNREADABLE  # a box at qwen's margin whose top a short pane cut
    content = tuple(strip_border(line, depth=1) for line in lines[top + 1 : bottom])
    options = find_numbered(content, len(content))
    if not options:
        return None
    body = content[: options[0].line]
    width = max(map(len, content), default=0)
    return _Request("", "", body, tuple(options), _question(body, width), True)


def _question(body: tuple[str, ...], width: int) -> str:
    """The last line ending with ``?`` (with the rows it wrapped from), else the first line."""
    for index in range(len(body) - 1, -1, -1):
        if body[index].strip().endswith("?"):
            start = wrapped_lead(body, index, width)
            return join_wrapped(body[start : index + 1], width)
    return next((line.strip() for line in body if line.strip()), "")


def _last_paragraph(body: tuple[str, ...], width: int) -> str:
    """The rows of the last paragraph of ``body``, read as one line."""
    end = len(body)
    while end > 0 and not body[end - 1].strip():
        end -= 1
    start = end
    while start > 0 and body[start - 1].strip():
        start -= 1
    return join_wrapped(body[start:end], width) if end else ""


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
        return _command(request.body, screen.pane_width, request.block_top)
    if kind in (PromptKind.EDIT, PromptKind.WRITE):
        # The tool line names one path, spaces and all: up to "path: old => new" (a release
        # that shows the change) or to the line's end.
        rest = re.sub(r"^(?:Writing to|to)\s+", "", request.rest.strip(), flags=re.IGNORECASE)
        return rest.split(": ", 1)[0].strip() or None
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


def _command(body: tuple[str, ...], width: int, top: int = -1) -> str | None:
    """The command block above the question (the tool line repeats it), its empty lines kept;
    from row ``top`` when the tool line proved where it starts."""
    block = _command_block(body)
    rows = list(body[top if top >= 0 else block.top : block.bottom])
    if not rows:
        return None
    indent = min(_indent(line) for line in rows if line.strip())
    return unwrap(dedent(rows), width - indent) or None


def _tool_text(rows: Sequence[str]) -> str | None:
    """The command the tool line shows (its first row after ``? Shell``, the rows under it one
    column right of the question's, blank rows kept), or None when its rows do not read so."""
    match = TOOL_LINE.match(rows[0]) if rows else None
    if match is None:
        return None
    lines = [match["rest"].strip().removesuffix("←").strip()]
    margin = _indent(rows[0]) + 2  # "  ? Shell …": its later rows hang four columns in
    for row in rows[1:]:
        if row.strip() and _indent(row) < margin:
            return None
        lines.append(row[margin:].rstrip())
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def _same_call(tool_rows: Sequence[str], command: str) -> bool:
    """The tool line shows ``command``, with at most its description after it (``(<what it
    does>)``): the command block holds no row of the tool line."""
    shown = _tool_text(tool_rows)
    if shown is None:
        return False
    return shown == command or (shown.startswith(command + " (") and shown.endswith(")"))


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


_PLACEHOLDERS = (re.compile(r"Type your message or @path/to/file"),)


def input_text(text: str) -> str | None:
    """What the input between the rules above the footer holds (``>`` first): "" when empty,
    showing its placeholder or a suggestion (grey text after the cursor at the input's start:
    the last answer, offered to resend); None when no such input is drawn."""
    return between_rules(screen_lines(text), (">",), _PLACEHOLDERS, raw=raw_rows(text))
