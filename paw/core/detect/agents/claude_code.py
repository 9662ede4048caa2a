"""claude-code (npm ``@anthropic-ai/claude-code``; pin and launch in ``SPEC``).

Dialogs replace the input box at the bottom of the screen: a full-width ``───`` rule, a title
(``Bash command``, ``Create file``, ``Fetch``, ``Tool use``…), a body (the command between
``╌╌╌`` rules), a question and a ``❯``-marked option list, then a footer such as
``Esc to cancel · Tab to amend``. Permission options act on their digit (``1``); ``Escape``
denies. A prompt counts only when its options are the last thing on the screen (before the
footer); the idle input box and status line below a transcript mean no live dialog.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paw.core.agentspec import AgentSpec, Install, SignIn
from paw.core.detect.boxes import (
    dedent,
    field_lines,
    is_rule,
    join_wrapped,
    last_rule,
    strip_border,
    unwrap,
    wrapped_lead,
)
from paw.core.detect.inputs import between_rules, screen_lines
from paw.core.detect.options import (
    ENTER,
    ESCAPE,
    Option,
    always_option,
    find_marked,
    find_numbered,
    first_positive,
    labels,
    move_keys,
    negative_option,
    selected_index,
    selected_label,
)
from paw.core.detect.prompts import (
    busy,
    find_url,
    idle,
    incomplete_note,
    interrupt_hint,
    make_prompt,
    prompt_found,
    unknown,
    wrap_notes,
)
from paw.core.detect.screen import Screen, parse_screen
from paw.core.models import Detection, Prompt, PromptKind

SPEC = AgentSpec(
    kind="claude-code",
    command=("claude",),
    executables=("claude",),
    interpreters=("node",),
    scripts=("@anthropic-ai/claude-code", "claude"),
    operand_subcommands=True,  # commander: `claude -- doctor` runs `claude doctor`
    install=Install("npm", "@anthropic-ai/claude-code", "2.1.332", "claude"),
    sign_in=SignIn(
        ("~/.claude/.credentials.json",),
        ("ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_AUTH_TOKEN"),
        "claude, then /login",
    ),
    rank=1,
    usage_source="Claude Code's session files",
)
AGENT = SPEC.kind
VERIFIED_VERSION = SPEC.version

BUSY = interrupt_hint("to interrupt")  # any key: users rebind it ("ctrl+q to interrupt")
FOOTER = re.compile(
    r"esc to (cancel|exit|go back)|enter to (confirm|select|continue)|tab to amend"
    r"|press enter to continue|↑/↓ to navigate",
    re.IGNORECASE,
)
# One "·"-separated part of a key hint: "Esc to cancel", "↑/↓ to navigate", "Press Enter to …".
HINT = re.compile(r"^(?:press\s+)?\S+(?:\s\S+)?\s+to\s+\w+(?:\s\w+)?$", re.IGNORECASE)
# Title line of a permission dialog -> kind.
TITLES: dict[str, PromptKind] = {
    "bash command": PromptKind.SHELL,
    "create file": PromptKind.WRITE,
    "write file": PromptKind.WRITE,
    "edit file": PromptKind.EDIT,
    "update file": PromptKind.EDIT,
    "edit notebook": PromptKind.EDIT,
    "fetch": PromptKind.FETCH,
    "web fetch": PromptKind.FETCH,
    "tool use": PromptKind.OTHER,
    "read file": PromptKind.OTHER,
    "web search": PromptKind.OTHER,
    "use skill": PromptKind.OTHER,
}
"""Title line of a permission dialog -> kind (permission dialogs approve with the digit)."""
# Permission questions whose wording names the kind (used when the title is off screen).
QUESTION_KINDS: tuple[tuple[re.Pattern[str], PromptKind], ...] = (
    (re.compile(r"^Do you want to create \S+\?$"), PromptKind.WRITE),
    (re.compile(r"^Do you want to make this edit to \S+\?$"), PromptKind.EDIT),
    (re.compile(r"^Do you want to allow Claude to fetch"), PromptKind.FETCH),
)
PLAN_SUBJECT = "plan mode switch"
QUESTION_MARKERS = ("☐", "☒", "☑", "✔ submit", "type something", "chat about this")
TRANSCRIPT_MARKERS = ("●", "⏺", "⎿", "✻", "✽")
_RULE = "─━▔"
_DASHED = "╌┄"
_MAX_DIALOG = 60
_MAX_PREVIEW = 12
_BUSY_WINDOW = 6  # status line, input box, and the spinner line above it
_FOOTER_ROWS = 3
_MAX_NOTES = 4  # rows of notes under a preview: two lines, each may wrap once on a narrow pane


@dataclass(frozen=True, slots=True)
class _Dialog:
    body: tuple[str, ...]
    options: tuple[Option, ...]
    numbered: bool
    footer: str
    whole: bool  # the dialog's top rule is on screen (a short pane may hide it and the title)
    width: int


def detect_screen(text: str) -> Detection:
    """Detect claude-code's state in one captured screen."""
    screen = parse_screen(text)
    if not screen.lines:
        return unknown(AGENT, "empty screen")
    if _is_busy(screen):
        return busy(AGENT)
    dialog = _find_dialog(screen)
    if dialog is None:
        return idle(AGENT)
    if isinstance(dialog, str):
        return unknown(AGENT, "a dialog is open but cannot be read (a short or narrow pane)")
    if dialog.numbered and not dialog.whole and _kind(dialog, "") is PromptKind.OTHER:
        # The title that names the dialog scrolled off a short pane, and its question does
        # not say what it asks: a command dialog must not be read as a start-up dialog.
        return unknown(AGENT, "a dialog is open but its title is off screen")
    if _trusts_a_folder(dialog) and _folder(dialog.body) is None:
        # The folder-trust dialog with its head (the folder) scrolled off a short pane: which
        # folder it asks about cannot be read from what is left of it.
        return unknown(AGENT, "a folder-trust dialog is open but its folder is off screen")
    prompt = _build_prompt(dialog, screen.pane_width or screen.width)
    notes = wrap_notes(prompt, screen.lines)
    if prompt.kind is PromptKind.SHELL and prompt.subject and _dashed_block(dialog.body) is None:
        notes += _plain_command_notes(dialog.body, dialog.width)
    return prompt_found(AGENT, prompt, *notes)


def _trusts_a_folder(dialog: _Dialog) -> bool:
    return any("trust this folder" in o.label.lower() for o in dialog.options)


def _is_busy(screen: Screen) -> bool:
    return any(BUSY.search(line) for line in screen.tail(_BUSY_WINDOW))


def _find_dialog(screen: Screen) -> _Dialog | str | None:
    lines = screen.lines
    footer, end = _footer(lines)
    above_preview = _strip_preview(lines, end)
    preview, end = above_preview != end, above_preview
    start = max(0, end - _MAX_DIALOG)
    options = find_numbered(lines, end, start)
    numbered = bool(options)
    if not options:
        options = find_marked(lines, end, start, screen.pane_width or screen.width)
    if not options or not _only_filler_after(lines, options[-1], end):
        # claude's key hint at the bottom, its options not readable (a short pane cut them)
        return UNREADABLE if footer or preview else None
    top = last_rule(lines, _RULE, before=options[0].line)
    if top >= 0 and lines[top][0] == " " and not _framed(lines, top):
        return None  # claude's dialog rule spans the pane from column 0: this one is quoted
    if top < 0 and numbered and ("·" not in footer or _indent(lines[end]) > 1):
        # claude draws numbered dialogs under a rule or with a `·`-joined footer; a short
        # pane may have cut both, so options at the very bottom cannot be proven either way
        return UNREADABLE if end == len(lines) and options[0].selected else None
    body_start = top + 1 if top >= 0 else max(0, options[0].line - 12)
    body = lines[body_start : options[0].line]
    if any(line.startswith(TRANSCRIPT_MARKERS) for line in body):
        return None  # options inside the transcript (a quoted dialog), not a live one
    return _Dialog(
        tuple(body), tuple(options), numbered, footer, top >= 0, screen.pane_width or screen.width
    )


UNREADABLE = "unreadable"


def _framed(lines: tuple[str, ...], rule: int) -> bool:
    """The indented ``rule`` sits inside a dialog whose own top bar starts at column 0."""
    above = next((i for i in range(rule - 1, -1, -1) if lines[i].strip()), -1)
    return above >= 0 and lines[above][0] != " " and is_rule(lines[above], _RULE)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _footer(lines: tuple[str, ...]) -> tuple[str, int]:
    """The key hint under a dialog and the index of its first row.

    On a narrow pane the hint wraps ("Esc to cancel ·" over "Tab to amend"): up to three rows
    at the dialog's margin are read as one line.
    """
    for index in range(len(lines) - 1, max(-1, len(lines) - 1 - _FOOTER_ROWS), -1):
        line = lines[index]
        if not line.strip() or len(line) - len(line.lstrip()) > 2 or _parse_option_line(line):
            break
        if is_rule(line):
            break
        text = " ".join(row.strip() for row in lines[index:])
        if FOOTER.search(text) and all(HINT.match(part.strip()) for part in text.split("·")):
            return text, index
    return "", len(lines)


def _strip_preview(lines: tuple[str, ...], end: int) -> int:
    """End of the dialog above a trailing preview block (the theme picker's code sample).

    The block is ``╌╌╌`` rules around sample lines, then a few indented note rows.
    """
    index = end - 1
    notes = 0
    while index >= 0 and not is_rule(lines[index], _DASHED):
        line = lines[index]
        if line.strip() and (not line.startswith(" ") or line.lstrip().startswith(("$", "❯", ">"))):
            return end
        notes += bool(line.strip())
        index -= 1
    if index < 0 or notes > _MAX_NOTES:
        return end
    opening = last_rule(lines, _DASHED, before=index)
    if opening < 0 or index - opening > _MAX_PREVIEW:
        return end
    return opening


def _parse_option_line(line: str) -> bool:
    return bool(re.match(r"^\s*[❯›]?\s*\d+\.\s", line))


def _only_filler_after(lines: tuple[str, ...], last: Option, end: int) -> bool:
    indent = len(lines[last.line]) - len(lines[last.line].lstrip())
    for line in lines[last.line + last.rows : end]:
        if line.strip() and (len(line) - len(line.lstrip()) <= indent + 1) and not is_rule(line):
            return False
    return True


def _build_prompt(dialog: _Dialog, width: int) -> Prompt:
    body = [line for line in dialog.body if line.strip()]
    title = body[0].strip() if body else ""
    question = _question(body, width) or _last_paragraph_head(dialog.body) or title
    kind = _kind(dialog, title)
    options = list(dialog.options)
    subject = _subject(kind, dialog.body, title, question, width)
    if kind is PromptKind.QUESTION:
        return make_prompt(
            kind, question, question, approve=(), deny=(ESCAPE,), options=labels(options)
        )
    permission = (
        title.lower().rstrip(":") in TITLES
        or subject == PLAN_SUBJECT
        or any(pattern.search(question) for pattern, _kind in QUESTION_KINDS)
    )
    approve, deny, always = _keys(dialog, options, permission=permission)
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


def _question(body: list[str], width: int) -> str:
    """The last line ending with ``?``, with the rows it wrapped from on a narrow pane; else
    the last sentence ending with ``?`` inside a paragraph (the trust dialog's "Is this a
    project you created or one you trust? (Like your own code…")."""
    for index in range(len(body) - 1, -1, -1):
        if body[index].rstrip().endswith("?"):
            start = wrapped_lead(body, index, width)
            return join_wrapped(body[start : index + 1], width)
    for index in range(len(body) - 1, -1, -1):
        cut = body[index].find("? ")
        if cut >= 0:
            start = wrapped_lead(body, index, width)
            return join_wrapped([*body[start:index], body[index][: cut + 1]], width)
    return ""


def _last_paragraph_head(lines: tuple[str, ...]) -> str:
    """First line of the last blank-line separated paragraph (a picker's heading)."""
    head = ""
    for line in reversed(lines):
        if not line.strip():
            if head:
                return head
            continue
        head = line.strip()
    return head


def _kind(dialog: _Dialog, title: str) -> PromptKind:
    lowered = " ".join([*dialog.body, *(o.label for o in dialog.options), dialog.footer]).lower()
    if any(marker in lowered for marker in QUESTION_MARKERS) or "enter to select" in lowered:
        return PromptKind.QUESTION
    kind = TITLES.get(title.lower().rstrip(":"))
    if kind is PromptKind.OTHER and "(mcp)" in lowered:
        return PromptKind.MCP
    if kind is None:  # the title scrolled off a short pane: the question still tells
        question = _question(list(dialog.body), dialog.width)
        kind = next((k for pattern, k in QUESTION_KINDS if pattern.search(question)), None)
    return kind if kind is not None else PromptKind.OTHER


def _keys(
    dialog: _Dialog, options: list[Option], *, permission: bool
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...] | None]:
    approve_at = first_positive(options)
    deny_at = negative_option(options)
    if dialog.numbered and approve_at >= 0 and permission:
        # Permission dialogs act on the digit at once.
        number = options[approve_at].number
        always_at = always_option(options)
        always = (str(options[always_at].number),) if always_at >= 0 else None
        return (str(number),), (ESCAPE,), always
    if dialog.numbered and approve_at >= 0:
        # Start-up dialogs (folder trust…): confirm the highlighted choice, or pick its digit.
        selected = selected_index(options) == approve_at
        approve = (ENTER,) if selected else (str(options[approve_at].number),)
        escape = "esc" in (dialog.footer + " ".join(o.label for o in options)).lower()
        deny = (ESCAPE,) if escape or deny_at < 0 else move_keys(options, deny_at)
        return approve, deny, None
    if approve_at >= 0 and deny_at >= 0:
        return move_keys(options, approve_at), move_keys(options, deny_at), None
    deny = (ESCAPE,) if "esc" in dialog.footer.lower() else ()
    return (ENTER,), deny, None


def _subject(
    kind: PromptKind, body: tuple[str, ...], title: str, question: str, width: int
) -> str | None:
    if kind is PromptKind.SHELL:
        return _command(body, width)
    if kind in (PromptKind.WRITE, PromptKind.EDIT):
        return _path(body, title, question)
    if kind is PromptKind.FETCH:
        return _fetch_url(body, width)
    if kind is PromptKind.MCP:
        return _mcp_tool(body, title)
    text = " ".join([title, question, *body]).lower()
    if "plan mode" in text or "claude's plan" in text:
        return PLAN_SUBJECT
    return _folder(body)


def _dashed_block(body: tuple[str, ...]) -> list[str] | None:
    marks = [i for i, line in enumerate(body) if is_rule(line, _DASHED)]
    if len(marks) < 2:
        return None
    return [strip_border(line, depth=1) for line in body[marks[0] + 1 : marks[1]]]


def _command(body: tuple[str, ...], width: int) -> str | None:
    block = _dashed_block(body)
    if block is None:
        lines = _plain_command(body, width)
        return "\n".join(lines[:-1] if len(lines) > 1 else lines) or None
    # A command's empty line is a blank row inside the block (``│`` alone): kept; only the
    # block's own blank rows above and below the command are not the command's.
    while block and not block[-1].strip():
        block.pop()
    while block and not block[0].strip():
        block.pop(0)
    return unwrap(dedent(block), width - 3) or None


def _plain_command(body: tuple[str, ...], width: int) -> list[str]:
    """The lines of the block under the title where the command is drawn without ``╌╌╌`` rules
    (older releases): the rows indented under the title up to a blank row or a row back at the
    title's margin (the question may follow with no blank row between). Claude draws the
    command's description as the block's last line, in a colour a plain capture loses."""
    rows = [(i, line) for i, line in enumerate(body) if line.strip()]
    if not rows:
        return []
    title_row, title = rows[0]
    block: list[str] = []
    for line in body[title_row + 1 :]:
        if not line.strip():
            if block:
                break
            continue
        if _indent(line) <= _indent(title):
            break
        block.append(line)
    text = unwrap(dedent(block), width - _indent(block[0])) if block else ""
    return [line for line in text.split("\n") if line.strip()]


def _plain_command_notes(body: tuple[str, ...], width: int) -> tuple[str, ...]:
    """A command read from a block that also holds its description is never known whole: the
    block's last line is taken for the description, but a plain capture cannot prove it."""
    if len(_plain_command(body, width)) > 1:
        return (
            incomplete_note(
                "the command's last line cannot be told from its description on this layout"
            ),
        )
    return ()


def _path(body: tuple[str, ...], title: str, question: str) -> str | None:
    """The path under the title (``Create file`` / ``src/a/b.md``); the question names the
    file alone (``Do you want to create b.md?``), so it stands for the path only when no line
    under the title ends with that name."""
    lines = [line.strip() for line in body if line.strip()]
    shown = lines[1] if title and len(lines) > 1 else None
    match = re.search(r"\b(?:create|edit to|edits to|write to|update)\s+(.+?)\??$", question)
    if match is None:
        return shown
    name = match.group(1)
    if shown is not None and (shown == name or shown.endswith("/" + name)):
        return shown
    return name


def _fetch_url(body: tuple[str, ...], width: int) -> str | None:
    for index, line in enumerate(body):
        stripped = line.strip()
        if stripped.lower().startswith("url:"):
            rows = field_lines(body, index, width)
            cut = len(rows[0]) - len(stripped) + 4
            return join_wrapped([" " * cut + rows[0][cut:], *rows[1:]], width) or None
    return find_url("\n".join(body))


def _mcp_tool(body: tuple[str, ...], title: str) -> str | None:
    lines = [line.strip() for line in body if line.strip()]
    if len(lines) < 2:
        return None
    name = re.sub(r"\s*\(MCP\)\s*$", "", lines[1]).rstrip(":").strip()
    server, sep, tool = name.partition(" — ")
    if not sep:
        server, sep, tool = name.partition(" - ")
    if not sep:
        return name
    return f"{tool.strip().rstrip(':')} (MCP server {server.strip()})"


def _folder(body: tuple[str, ...]) -> str | None:
    """The path on a line of its own, with the rows a long one was cut onto (the rest of its
    paragraph: rows of one word each)."""
    for index, line in enumerate(body):
        if re.match(r"^(~|/)[^\s]*$", line.strip()):
            end = index + 1
            while end < len(body) and re.fullmatch(r"\S+", body[end].strip()):
                end += 1
            return "".join(row.strip() for row in body[index:end])
    return None


_PLACEHOLDERS = (re.compile(r'Try ".*"'),)


def input_text(text: str) -> str | None:
    """What the input between the two rules above the footer holds (``❯`` first): "" when
    empty or showing a suggestion (``Try "…"``); None when no such input is drawn."""
    return between_rules(screen_lines(text), ("❯", ">"), _PLACEHOLDERS)
