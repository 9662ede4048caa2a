"""gemini-cli (npm ``@google/gemini-cli``; pin and launch in ``SPEC``).

Gemini renders inline: answered prompts stay in the scrollback. A live confirmation is a rounded
box (``╭───╮`` … ``╰───╯``) at the bottom of the screen, with the input composer hidden: a
``? <Tool>  <summary>`` line, the command in a nested box, a question (``Allow execution of
[Shell]?``, ``Apply this change?``, ``Do you want to proceed?``) and a ``●``-marked numbered
list (``1. Allow once``, ``2. Allow for this session``, ``No, suggest changes (esc)``). The
digit acts at once; ``Escape`` denies. ``(esc to cancel, 5s)`` on the spinner line means busy.

Below a live box gemini draws only its own chrome (:func:`_is_chrome`): footer and status rows,
the exit and copy-mode hints, its startup-warning notices (``⚠`` at column 0, e.g. "True color
(24-bit) support not detected" when ``COLORTERM`` is unset) each wrapped at a hanging indent,
and its notification boxes ("Gemini CLI update available!", "Initialization Error:").
Transcript text never looks like that (answers start with ``✦``, tools draw boxes that start
with the tool's name), so any other line under a box means the box was answered and is not live.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from paw.core.agentspec import AgentSpec, Install, SignIn
from paw.core.detect.boxes import (
    dedent,
    field_lines,
    has_left_border,
    is_box_edge,
    join_wrapped,
    strip_border,
    unwrap,
    wrapped_lead,
)
from paw.core.detect.inputs import after_marker, screen_lines
from paw.core.detect.options import (
    ENTER,
    ESCAPE,
    Option,
    always_option,
    find_numbered,
    first_positive,
    labels,
    move_keys,
    negative_option,
    selected_label,
)
from paw.core.detect.prompts import (
    KeyHint,
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

SPEC = AgentSpec(
    kind="gemini-cli",
    command=("gemini",),
    executables=("gemini",),
    interpreters=("node",),
    scripts=("@google/gemini-cli", "gemini"),
    task_flag="--prompt-interactive",  # yargs: `-i --version` prints the version
    install=Install("npm", "@google/gemini-cli", "0.61.0", "gemini"),
    sign_in=SignIn(("~/.gemini/oauth_creds.json",), ("GEMINI_API_KEY", "GOOGLE_API_KEY"), "gemini"),
    rank=3,
    usage_source="Gemini CLI's chat files",
)
AGENT = SPEC.kind
VERIFIED_VERSION = SPEC.version

BUSY = KeyHint(r"to cancel, [^)]*\)", opening=r"\(")  # "(esc to cancel, 5s)", any key
FOOTER = re.compile(
    r"sandbox|/model|for shortcuts|workspace \(|Waiting for user confirmation", re.IGNORECASE
)
# A startup-warning notice: the glyph in a 3-wide column at column 0, then the message.
NOTICE = re.compile(r"^⚠\s+(?=\S)")
HINT = re.compile(r"^(?:Press Ctrl\+[CD] again to exit\.|In Copy Mode\.)")
# The notification boxes gemini-cli draws under the dialog area (update check, start-up error).
NOTICE_BOX = re.compile(r"^(?:Gemini CLI update available!|Initialization Error:)")
TOOL_LINE = re.compile(r"^\?\s+(?P<rest>.+)$")
# Tool name at the start of the ``? `` line -> kind.
TOOLS: tuple[tuple[re.Pattern[str], PromptKind], ...] = (
    (re.compile(r"^(?:Shell|run_shell_command)\b", re.IGNORECASE), PromptKind.SHELL),
    (re.compile(r"^(?:Edit|replace)\b", re.IGNORECASE), PromptKind.EDIT),
    (re.compile(r"^(?:WriteFile|Write ?File|write_file)\b", re.IGNORECASE), PromptKind.WRITE),
    (re.compile(r"^(?:WebFetch|web_fetch)\b", re.IGNORECASE), PromptKind.FETCH),
    (re.compile(r"^(?:Ask ?User|ask_user)\b", re.IGNORECASE), PromptKind.QUESTION),
    (re.compile(r"^\S+ \((?P<server>\S+) MCP Server\)", re.IGNORECASE), PromptKind.MCP),
    (re.compile(r"^(?:Enter|Exit) Plan Mode\b", re.IGNORECASE), PromptKind.OTHER),
)
MCP_QUESTION = re.compile(
    r'MCP tool "(?P<tool>[^"]+)" from server "(?P<server>[^"]+)"', re.IGNORECASE
)
# Tool names by the question their confirmation asks (longest first), for a title whose gap
# between name and summary a narrow pane squeezed out.
SQUEEZED: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile(r"^Apply this change\?", re.IGNORECASE), ("WriteFile", "Edit")),
    (re.compile(r"^Allow execution of\b", re.IGNORECASE), ("Shell",)),
)
# The ask_user dialog's footer ("Enter to select · ↑/↓ to navigate · Esc to cancel").
ASK_FOOTER = re.compile(r"Enter to (?:select|submit)\b.*Esc to cancel", re.IGNORECASE)
PLAN_SUBJECT = "plan mode switch"
QUESTION_OPTIONS = re.compile(r"type something|type your own|^other\b", re.IGNORECASE)
_MAX_FOOTER = 4  # footer, status and hint rows under a live box
_MAX_BELOW = 30  # lines scanned under a box for its chrome
_WRAP_ROWS = 2  # a chrome row wraps onto at most this many more rows
_BUSY_WINDOW = 15  # the spinner sits above the composer and its footer rows


@dataclass(frozen=True, slots=True)
class _Box:
    content: tuple[str, ...]
    options: tuple[Option, ...]
    width: int


def detect_screen(text: str) -> Detection:
    """Detect gemini-cli's state in one captured screen."""
    screen = parse_screen(text)
    if not screen.lines:
        return unknown(AGENT, "empty screen")
    if any(BUSY.search(line) for line in screen.tail(_BUSY_WINDOW)):
        return busy(AGENT)
    box = _find_box(screen)
    if box is None:
        return idle(AGENT)
    if isinstance(box, str):
        return unknown(AGENT, box)
    prompt = _build_prompt(box)
    body = box.content[: box.options[0].line]
    return prompt_found(AGENT, prompt, *wrap_notes(prompt, screen.lines), body=body)


UNREADABLE = "a dialog box is open but its top is above the pane (a short pane)"


def _find_box(screen: Screen) -> _Box | str | None:
    lines = screen.lines
    bottom = _live_bottom(lines)
    if bottom < 0:
        return None
    top = _box_top(lines, bottom)
    if top < 0:
        # A box whose rows reach the pane's top: a short pane cut what it asks.
        return UNREADABLE if all(has_left_border(line) for line in lines[:bottom]) else None
    content = tuple(strip_border(line, depth=1) for line in lines[top + 1 : bottom])
    options = find_numbered(content, len(content))
    if not options:
        return None
    indent = len(lines[bottom]) - len(lines[bottom].lstrip())
    return _Box(content, tuple(options), len(lines[bottom]) - indent)


def _box_top(lines: Sequence[str], bottom: int) -> int:
    """Index of the top edge of the box closed at ``bottom`` (same indentation), or -1."""
    indent = len(lines[bottom]) - len(lines[bottom].lstrip())
    corner = " " * indent + "╭"
    for index in range(bottom - 1, -1, -1):
        if lines[index].startswith(corner) and is_box_edge(lines[index]):
            return index
    return -1


def _live_bottom(lines: Sequence[str]) -> int:
    """Index of the bottom edge of the last box that only gemini's chrome follows, else -1.

    Gemini's own notification boxes are chrome: the dialog is the box above them.
    """
    index = len(lines) - 1
    floor = max(-1, len(lines) - 2 - _MAX_BELOW)
    while index > floor:
        edge = lines[index].strip()
        if edge.startswith("╰") and edge.endswith("╯") and is_box_edge(edge):
            if not lines[index].startswith(("╰", " ╰")):
                # gemini draws its dialogs at the margin (the folder-trust dialog one column
                # in); the model's text is indented two: a box indented more is quoted
                return -1
            if not _is_chrome(lines[index + 1 :]):
                return -1
            top = _box_top(lines, index)
            if top < 0 or _notice_box_end(lines, top) != index:
                return index
            index = top
        index -= 1
    return -1


def _is_chrome(below: Sequence[str]) -> bool:
    """True if ``below`` holds only what gemini-cli draws under a live dialog.

    That is blank rows, notification boxes, at most ``_MAX_FOOTER`` footer/status/hint rows,
    and warning notices: a ``⚠`` line at column 0 and its continuation lines indented to the
    message's column.
    """
    notice_column = rows = index = 0
    while index < len(below):
        line = below[index]
        index += 1
        head = NOTICE.match(line)
        if head is not None:
            notice_column = head.end()
            continue
        if notice_column and line.strip() and len(line) - len(line.lstrip()) >= notice_column:
            continue
        notice_column = 0
        if line.startswith("╭"):
            index = _notice_box_end(below, index - 1) + 1
            if index == 0:
                return False
        elif line.strip():
            rows += 1
            if rows > _MAX_FOOTER:
                return False
            if not (HINT.match(line) or FOOTER.search(line)):
                wrapped = _wrapped_chrome(below, index - 1)
                if not wrapped:
                    return False
                index += wrapped
    return True


def _wrapped_chrome(below: Sequence[str], index: int) -> int:
    """How many rows after ``below[index]`` finish a chrome row that a narrow pane wrapped
    ("⠏ Waiting for user" / "confirmation..."), else 0. The chrome text must cross the row
    break: an answer row followed by a real footer row is not one wrapped row."""
    joined = below[index].strip()
    for extra in range(1, _WRAP_ROWS + 1):
        if index + extra >= len(below) or not below[index + extra].strip():
            return 0
        cut = len(joined)
        joined += " " + below[index + extra].strip()
        if any(m.start() < cut < m.end() for m in FOOTER.finditer(joined)):
            return extra
    return 0


def _notice_box_end(lines: Sequence[str], top: int) -> int:
    """Index of the bottom edge of the notification box opened at ``lines[top]``, else -1.

    Its first line inside the border is the notification (no padding rows).
    """
    if top + 1 >= len(lines) or not lines[top].startswith("╭") or not is_box_edge(lines[top]):
        return -1
    if not NOTICE_BOX.match(strip_border(lines[top + 1], depth=1).strip()):
        return -1
    for index in range(top + 1, len(lines)):
        if lines[index].startswith("╰"):
            return index if is_box_edge(lines[index]) else -1
        if not has_left_border(lines[index]):
            return -1
    return -1


def _build_prompt(box: _Box) -> Prompt:
    question = _question(box)
    tool = _unsqueeze(_tool(box), question)
    kind = _kind(tool, box)
    options = list(box.options)
    if kind is PromptKind.QUESTION:
        return make_prompt(
            kind, question, question, approve=(), deny=(ESCAPE,), options=labels(options)
        )
    subject = _subject(kind, tool, box)
    approve_at = first_positive(options)
    if _is_permission(options) and approve_at >= 0:
        always_at = always_option(options)
        always = (str(options[always_at].number),) if always_at >= 0 else None
        approve: tuple[str, ...] = (str(options[approve_at].number),)
        deny: tuple[str, ...] = (ESCAPE,)
    else:
        always = None
        approve = move_keys(options, approve_at) if approve_at >= 0 else (ENTER,)
        mentions_esc = any("esc" in line.lower() for line in box.content)
        deny_at = negative_option(options)
        deny = (ESCAPE,) if mentions_esc else move_keys(options, deny_at) if deny_at >= 0 else ()
    return make_prompt(
        kind,
        subject,
        question,
        approve=approve,
        deny=deny,
        always=always,
        options=labels(options),
        selected=selected_label(options),
    )


def _tool(box: _Box) -> str:
    """The ``? <Tool> <summary>`` line, with the rows it wrapped onto on a narrow pane."""
    body = box.content[: box.options[0].line]
    for index, line in enumerate(body):
        if TOOL_LINE.match(line.strip()):
            rows = _title_rows(field_lines(body, index, box.width - 4))
            match = TOOL_LINE.match(join_wrapped(rows, box.width - 4))
            return match["rest"].strip() if match else ""
    return ""


def _title_rows(rows: Sequence[str]) -> list[str]:
    """The rows of the ``?`` line: never the nested box under it (whose edge or border rows can
    look like a continuation when the title fills a narrow pane), and nothing after a row gemini
    cut short with ``…``."""
    out: list[str] = []
    for row in rows:
        if _is_nested_row(row):
            break
        out.append(row)
        if row.rstrip().endswith("…"):
            break
    return out


def _unsqueeze(tool: str, question: str) -> str:
    """On a narrow pane gemini drops the gap between the tool's name and its summary
    (``EditREADME.md: hello f…``): put it back where the question names the same family
    (``Apply this change?`` for a file tool, ``Allow execution`` for a shell command)."""
    if any(pattern.search(tool) for pattern, _kind in TOOLS):
        return tool
    for family, names in SQUEEZED:
        if not family.search(question):
            continue
        for name in names:
            if tool.startswith(name) and len(tool) > len(name):
                return f"{name} {tool[len(name) :]}"
    return tool


def _is_permission(options: list[Option]) -> bool:
    return any(o.text.lower().startswith("allow once") for o in options)


def _kind(tool: str, box: _Box) -> PromptKind:
    for pattern, kind in TOOLS:
        if pattern.search(tool):
            return kind
    if _is_permission(list(box.options)):
        return PromptKind.OTHER
    picker = any(QUESTION_OPTIONS.search(o.text) for o in box.options)
    if picker or any(ASK_FOOTER.search(line) for line in box.content):
        return PromptKind.QUESTION
    return PromptKind.OTHER


def _question(box: _Box) -> str:
    """The last line ending with ``?`` (with the rows it wrapped from), else the first line."""
    body = box.content[: box.options[0].line]
    for index in range(len(body) - 1, -1, -1):
        if body[index].strip().endswith("?"):
            start = wrapped_lead(body, index, box.width - 4)
            # A nested box right above a narrow pane's question fills the width too: not a lead.
            boxed = [i for i in range(start, index) if _is_nested_row(body[i])]
            start = boxed[-1] + 1 if boxed else start
            return join_wrapped(body[start : index + 1], box.width - 4)
    return next((line.strip() for line in body if line.strip()), "")


def _is_nested_row(row: str) -> bool:
    return is_box_edge(row) or has_left_border(row)


def _subject(kind: PromptKind, tool: str, box: _Box) -> str | None:
    if kind is PromptKind.SHELL:
        return _nested_block(box) or tool.split(None, 1)[-1].strip()
    if kind in (PromptKind.EDIT, PromptKind.WRITE):
        return _path(tool)
    if kind is PromptKind.FETCH:
        return _listed_url(box) or find_url(tool)
    if kind is PromptKind.MCP:
        match = MCP_QUESTION.search(" ".join(box.content))
        return f"{match['server']} {match['tool']}" if match else tool.split(" (", 1)[0]
    if "plan mode" in tool.lower():
        return PLAN_SUBJECT
    if "trust" in _question(box).lower():  # folder trust: "1. Trust folder (<name>)"
        named = (re.search(r"\(([^)]+)\)\s*$", o.text) for o in box.options if o.is_positive)
        return next((m.group(1) for m in named if m), None)
    return None


def _nested_block(box: _Box) -> str | None:
    content = box.content
    top = next((i for i, line in enumerate(content) if is_box_edge(line)), -1)
    if top < 0:
        return None
    bottom = next((i for i in range(top + 1, len(content)) if is_box_edge(content[i])), -1)
    if bottom < 0:
        return None
    inner = dedent([strip_border(line, depth=1) for line in content[top + 1 : bottom]])
    return unwrap(inner, box.width - 8) or None


def _path(tool: str) -> str | None:
    """The one path a tool line names, spaces and all (``Edit docs/my notes/a.md: old => new``,
    ``WriteFile Writing to a b.txt``), without a trailing ``←`` mark."""
    rest = tool.split(None, 1)[1] if " " in tool else ""
    rest = re.sub(r"^(?:Writing to|to)\s+", "", rest.strip(), flags=re.IGNORECASE)
    path = rest.split(": ", 1)[0].strip().removesuffix("←").strip()
    return path or None


def _listed_url(box: _Box) -> str | None:
    for index, line in enumerate(box.content):
        if line.strip().lower().startswith("urls to fetch"):
            return find_url(" ".join(box.content[index + 1 : index + 3]))
    return None


_PLACEHOLDERS = (re.compile(r"Type your message or @path/to/file"),)


def input_text(text: str) -> str | None:
    """What the composer near the bottom holds (the last ``>`` row and the rows it wraps
    onto): "" when empty or showing its placeholder; None when no composer is drawn."""
    return after_marker(screen_lines(text), (">",), _PLACEHOLDERS, window=8)
