"""codex (npm ``@openai/codex``; pin and launch in ``SPEC``).

Approval requests replace the input box at the bottom: a question (``Would you like to run the
following command?``, ``Would you like to make the following edits?``, ``Allow the X MCP server
to run tool "y"?``), details (``Reason:`` is the model's text, never trusted), the command after
``$ ``, a ``›``-marked numbered list whose options end with a letter shortcut (``(y)``, ``(p)``,
``(a)``, ``(esc)``), and the footer ``Press enter to confirm or esc to cancel``. The letter acts
at once; options without letters (MCP, folder trust) take the digit or arrows, then Enter.

Codex keeps its input box and ``? for shortcuts`` footer while it works: a turn is busy when the
status line says ``esc to interrupt``, or when the last user message has no ``Worked for``
summary after it.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from paw.core.agentspec import AgentSpec, Install, SignIn
from paw.core.detect.boxes import field_lines, join_wrapped, unwrap
from paw.core.detect.inputs import after_marker, screen_lines
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
    kind="codex",
    command=("codex",),
    executables=("codex",),
    interpreters=("node",),
    scripts=("@openai/codex",),
    install=Install("npm", "@openai/codex", "0.171.0", "codex"),
    sign_in=SignIn(
        ("${CODEX_HOME:-~/.codex}/auth.json",), ("OPENAI_API_KEY", "CODEX_API_KEY"), "codex login"
    ),
    rank=2,
    usage_source="Codex's session logs",
)
AGENT = SPEC.kind
VERIFIED_VERSION = SPEC.version

# The key hint, whole: "Press enter to confirm or esc to cancel", "enter continue · esc back".
FOOTER = re.compile(
    r"^(?:press\s+)?enter\s+(?:to\s+)?\w+\s*(?:or|\||·)?\s*esc\s+(?:to\s+)?\w+(?:\s\w+)?$",
    re.IGNORECASE,
)
# On a narrow pane codex cuts its key hint short ("Press enter to confirm or").
FULL_FOOTER = "Press enter to confirm or esc to cancel"
CUT_FOOTER_MIN = "Press enter"
BUSY = interrupt_hint("to interrupt")
TURN_END = re.compile(r"^\s*(?:─\s*)?Worked for\b|Conversation interrupted|^\s*■ ", re.IGNORECASE)
# Codex folds a long block on a short pane: "[… 10 lines] ^a view all".
FOLD = re.compile(r"^\s*\[…\s*\d+\s+lines?\]")
IDLE_FOOTER = re.compile(r"for shortcuts|context left|tab to queue", re.IGNORECASE)
# Question line -> kind; the first that matches wins.
QUESTIONS: tuple[tuple[re.Pattern[str], PromptKind], ...] = (
    (
        re.compile(r"^Would you like to run the following command\?", re.IGNORECASE),
        PromptKind.SHELL,
    ),
    (re.compile(r"^Would you like to make the following edits\?", re.IGNORECASE), PromptKind.EDIT),
    (
        re.compile(
            r"^Allow the (?P<server>\S+) MCP server to run tool \"(?P<tool>[^\"]+)\"\?",
            re.IGNORECASE,
        ),
        PromptKind.MCP,
    ),
    (
        re.compile(r"^(?:Would you like to grant|Allow .* network|Allow .*\?$)", re.IGNORECASE),
        PromptKind.OTHER,
    ),
    (re.compile(r"^(?:Trust this folder\?|Do you trust)", re.IGNORECASE), PromptKind.OTHER),
    (re.compile(r"^(?:Would you like to |Do you want to )", re.IGNORECASE), PromptKind.OTHER),
)
TRUST_SUBJECT = "trust folder"
_MAX_PROMPT = 40
_FOOTER_ROWS = 3
_OPTION_ROW = re.compile(r"^\s*(?:›\s*)?\d{1,2}[.)]\s")


@dataclass(frozen=True, slots=True)
class _Request:
    question_line: int
    question: str
    kind: PromptKind
    options: tuple[Option, ...]
    footer: str


def detect_screen(text: str) -> Detection:
    """Detect codex's state in one captured screen."""
    screen = parse_screen(text)
    if not screen.lines:
        return unknown(AGENT, "empty screen")
    if _is_busy(screen):
        return busy(AGENT)
    request = _find_request(screen)
    if isinstance(request, Detection):
        return request
    if request is not None:
        prompt = _build_prompt(screen, request)
        return prompt_found(AGENT, prompt, *wrap_notes(prompt, screen.lines))
    if _turn_running(screen):
        return busy(AGENT, "no end-of-turn summary after the last message")
    return idle(AGENT)


def _is_busy(screen: Screen) -> bool:
    return any(BUSY.search(line) for line in screen.tail(8))


def _input_box(screen: Screen) -> int:
    """Line index of the input box (``› `` above the ``? for shortcuts`` footer), or -1."""
    lines = screen.lines
    # The status rows under the box wrap on a narrow pane (a long worktree path).
    for index in range(len(lines) - 1, max(-1, len(lines) - 12), -1):
        if IDLE_FOOTER.search(lines[index]):
            for box in range(index - 1, max(-1, index - 10), -1):
                if lines[box].startswith("› ") or lines[box] == "›":
                    return box
    return -1


def _turn_running(screen: Screen) -> bool:
    box = _input_box(screen)
    if box < 0:
        return False
    transcript = screen.lines[:box]
    last_user = max((i for i, line in enumerate(transcript) if line.startswith("› ")), default=-1)
    if last_user < 0:
        return False
    return not any(TURN_END.search(line) for line in transcript[last_user + 1 :])


def _find_request(screen: Screen) -> _Request | Detection | None:
    """The live approval request, ``unknown`` when its proof is off screen, else None."""
    lines = screen.lines
    footer, end = _footer(lines)
    if not footer:
        return None  # codex always draws its key hint under an approval request
    start = max(0, end - _MAX_PROMPT)
    options = find_numbered(lines, end, start)
    if not options or not _only_continuation_after(lines, options[-1], end):
        return _unproven("the key hint is on screen, its options are not")
    # The question heads the request; the command and `Reason:` below it are model text, so
    # keep the highest match before the transcript (bullets) begins. On a narrow pane the
    # question wraps: each paragraph is read as one line.
    found: _Request | None = None
    for index in range(options[0].line - 1, start - 1, -1):
        if lines[index].startswith(_TRANSCRIPT):
            break
        if lines[index].lstrip().startswith(("$ ", "Reason:")):
            # The command and the model's reason come after the question: a question read
            # below their start is their text (on a short pane the real one may be gone).
            found = None
            continue
        body = _paragraph(lines, index, options[0].line)
        kind = next((kind for pattern, kind in QUESTIONS if pattern.search(body)), None)
        if kind is not None and not body.endswith("?") and "trust" not in body.lower():
            kind = None  # codex's question stands alone; text runs on after a quoted one
        if kind is not None:
            found = _Request(index, body, kind, tuple(options), footer)
    return (
        found
        or _picker(lines, options, start, footer)
        or _unproven("options and key hint on screen, no question above them")
    )


_TRANSCRIPT = ("• ", "› ", "✔ ", "└ ")
_ENTER_VERB = re.compile(r"\benter\s+(?:to\s+)?(?P<verb>\w+)", re.IGNORECASE)


def _picker(
    lines: tuple[str, ...], options: list[Option], start: int, footer: str
) -> Detection | None:
    """A picker codex opens on a slash command (``/permissions``, ``/model``): a title over
    options, with a key hint of its own (``enter select · esc back``), neither the hint nor
    the letter shortcuts (``(y)``, ``(a)``) of an approval request, options that say yes only
    under a hint to select (an MCP tool's "Allow" over ``enter to submit`` answers a request),
    and no command or reason (those belong to a request whose question is off screen). A
    dialog: a human answers it in the pane, so it has no approve keys, whatever its options
    say ("Approve for me" is a mode, not a yes)."""
    if _answers_a_request(options, footer):
        return None
    top = _title(lines, start, options[0].line)
    if top is None:
        return None
    picker = make_prompt(
        PromptKind.OTHER,
        None,
        _paragraph(lines, top, options[0].line),
        approve=(),
        deny=(ESCAPE,) if "esc" in footer.lower() else (),
        options=labels(options),
        selected=selected_label(options),
    )
    return prompt_found(AGENT, dataclasses.replace(picker, dialog=True))


def _answers_a_request(options: list[Option], footer: str) -> bool:
    """The key hint or the options are those of an approval request (its question is off
    screen): the approval hint, a letter shortcut, or a yes over a hint to submit."""
    if footer.lower().startswith(CUT_FOOTER_MIN.lower()):
        return True
    if any(option.shortcut not in (None, "esc", "enter") for option in options):
        return True
    verb = _ENTER_VERB.search(footer)
    selects = verb is not None and verb["verb"].lower() == "select"
    return not selects and any(option.is_positive for option in options)


def _title(lines: tuple[str, ...], start: int, end: int) -> int | None:
    """The first row of the paragraph right above ``end`` (a picker's title), or None when
    the transcript, a command or the model's reason comes first."""
    for index in range(end - 1, start - 1, -1):
        line = lines[index]
        if line.startswith(_TRANSCRIPT) or line.lstrip().startswith(("$ ", "Reason:")):
            return None
        if not line.strip():
            continue
        top = index
        while top > start and lines[top - 1].strip() and not lines[top - 1].startswith(_TRANSCRIPT):
            top -= 1
        return None if lines[top].lstrip().startswith(("$ ", "Reason:")) else top
    return None


def _unproven(why: str) -> Detection:
    """A dialog's key hint at the bottom whose request cannot be read (e.g. a short pane)."""
    return unknown(AGENT, f"a dialog is open but cannot be read: {why}")


def _footer(lines: tuple[str, ...]) -> tuple[str, int]:
    """The key hint under a request (wrapped over up to 3 rows, or cut short) and its start."""
    for index in range(len(lines) - 1, max(-1, len(lines) - 1 - _FOOTER_ROWS), -1):
        line = lines[index]
        if not line.strip() or len(line) - len(line.lstrip()) > 2 or _OPTION_ROW.match(line):
            break
        text = " ".join(row.strip() for row in lines[index:])
        if FOOTER.match(text) or (
            len(text) >= len(CUT_FOOTER_MIN) and FULL_FOOTER.startswith(text)
        ):
            return text, index
    return "", len(lines)


def _paragraph(lines: tuple[str, ...], index: int, end: int) -> str:
    """The rows from ``index`` to the next blank row (before ``end``), read as one line."""
    rows = []
    for line in lines[index:end]:
        if not line.strip():
            break
        rows.append(line.strip())
    return " ".join(rows)


def _only_continuation_after(lines: tuple[str, ...], last: Option, end: int) -> bool:
    """Between the last option and the footer: blank rows or the option's wrapped tail."""
    indent = len(lines[last.line]) - len(lines[last.line].lstrip()) + 2
    return all(
        not line.strip() or len(line) - len(line.lstrip()) > indent
        for line in lines[last.line + 1 : end]
    )


def _build_prompt(screen: Screen, request: _Request) -> Prompt:
    options = list(request.options)
    subject = _subject(screen, request)
    kind = request.kind
    if kind is PromptKind.EDIT and _is_new_file(screen, request, subject):
        kind = PromptKind.WRITE
    approve, always = _approve_keys(options)
    deny = (
        (ESCAPE,) if "esc" in (request.footer + " ".join(o.label for o in options)).lower() else ()
    )
    question = request.question
    if kind is PromptKind.OTHER and _is_trust(request):
        question = " ".join(
            line.strip() for line in screen.lines[request.question_line - 2 : options[0].line]
        )
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


def _approve_keys(options: list[Option]) -> tuple[tuple[str, ...], tuple[str, ...] | None]:
    approve_at = first_positive(options)
    always_at = always_option(options)
    if approve_at < 0:
        return (), None
    approve_option = options[approve_at]
    remember = options[always_at] if always_at >= 0 else None
    if approve_option.shortcut and approve_option.shortcut not in ("esc", "enter"):
        letter = remember.shortcut if remember else None
        return (approve_option.shortcut,), ((letter,) if letter else None)
    if selected_index(options) == approve_at:
        approve: tuple[str, ...] = (ENTER,)
    else:
        approve = (str(approve_option.number), ENTER)
    return approve, ((str(remember.number), ENTER) if remember else None)


def _is_trust(request: _Request) -> bool:
    return "trust" in request.question.lower()


def _subject(screen: Screen, request: _Request) -> str | None:
    lines = screen.lines[request.question_line + 1 : request.options[0].line]
    if request.kind is PromptKind.SHELL:
        return _command(list(lines), screen.pane_width)
    if request.kind is PromptKind.EDIT:
        return _destination(screen, list(lines))
    if request.kind is PromptKind.MCP:
        match = QUESTIONS[2][0].search(request.question)
        return f"{match['server']}.{match['tool']}" if match else None
    if _is_trust(request):
        return TRUST_SUBJECT
    return None


def _command(lines: list[str], width: int) -> str | None:
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("$ ")), -1)
    if start < 0:
        return None
    block = lines[start:]
    while block and not block[-1].strip():
        block.pop()
    margin = len(block[0]) - len(block[0].lstrip())
    first = block[0].lstrip()[2:]
    rest = [line[margin:] if line[:margin].isspace() else line.lstrip() for line in block[1:]]
    return unwrap([first, *rest], width - margin) or None


def _destination(screen: Screen, lines: list[str]) -> str | None:
    """The ``Destination:`` path; a long one continues on the next lines (or starts there)."""
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped.lower().startswith(("destination:", "path:", "file:")):
            width = screen.pane_width or screen.width
            rows = field_lines(lines, index, width)
            folded = next((i for i, row in enumerate(rows) if FOLD.match(row)), -1)
            if folded >= 0:
                rows = rows[:folded]  # a short pane folds the rest away: the path is cut
            label = len(rows[0]) - len(rows[0].lstrip()) + stripped.index(":") + 1
            pieces = [" " * label + rows[0][label:], *rows[1:]]
            # Codex keeps two columns free at the right: a path cut there fills its row.
            path = join_wrapped(pieces, width - 2)
            if folded >= 0:
                return f"{path}…" if path else None
            return _relative(screen, path) if path else None
    return None


def _relative(screen: Screen, path: str) -> str:
    """``path`` relative to the session's folder when the banner or footer shows it."""
    for line in screen.lines[:6]:
        folder = line.strip()
        if folder.startswith(("/", "~")) and path.startswith(folder.rstrip("/") + "/"):
            return path[len(folder.rstrip("/")) + 1 :]
    for line in screen.lines[: max(0, len(screen.lines) - 1)]:
        match = re.match(r"^\s*• (?:Edited|Added|Deleted) (\S+)", line)
        if match and path.endswith("/" + match.group(1)):
            return match.group(1)
    return path


def _is_new_file(screen: Screen, request: _Request, subject: str | None) -> bool:
    for line in reversed(screen.lines[: request.question_line]):
        match = re.match(r"^\s*• (Edited|Added|Deleted) (\S+)", line)
        if match:
            return match.group(1) == "Added" and (subject is None or subject.endswith(match[2]))
    return False


# The composer's placeholder: the fixed one, and the examples it rotates through.
_PLACEHOLDERS = tuple(
    re.compile(p)
    for p in (
        r"Ask Codex to do anything",
        r"Explain this codebase",
        r"Summarize recent commits",
        r"Implement \{feature\}",
        r"Find and fix a bug in @filename",
        r"Write tests for @filename",
        r"Improve documentation in @filename",
        r"Run /review on my current changes",
        r"Use /skills to list available skills",
    )
)


def input_text(text: str) -> str | None:
    """What the composer (the ``›`` row near the bottom, and the rows it wraps onto) holds:
    "" when empty or showing a placeholder; None when no composer is drawn."""
    return after_marker(screen_lines(text), ("›",), _PLACEHOLDERS)
