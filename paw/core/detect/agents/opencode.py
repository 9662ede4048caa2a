"""opencode (npm ``opencode-ai``; pin and launch in ``SPEC``).

A permission request replaces the input box at the bottom of the screen with a ``┃``-bordered
block: ``△ Permission required``, a kind line (``# Shell command``, ``→ Edit <file>``,
``⚙ Call tool <server>_<tool>``), the details (``$ <command>``, a diff), then the choices on one
line, ``Allow once   Allow always   Reject``, with ``enter confirm`` at its right. The highlight
is drawn in colour only: with a ``capture-pane -e`` capture paw reads it, otherwise it assumes
the fresh dialog's default (``Allow once``): approve ``Enter``, deny ``Right Right Enter``,
always ``Right Enter Enter`` ("Allow always" asks for a confirmation). Ask-the-user questions
end with ``enter submit  esc dismiss``; overlay dialogs (``Connect a provider``) have ``esc``
at the right of their title. ``esc interrupt`` in the status line means busy.

The permission box is at most 15 rows tall (tall_box.py, shared with Kilo Code): a longer
command loses its last rows without a mark (7 of 20 lines at 80x24), so a command in a box that
tall is ``subject incomplete`` unless the transcript shows the pending ``$ <command>`` whole: the
same as the box, or longer and beginning with all the box shows (then read from there, said in a
note). A command's empty line draws a blank row in the box; the rows under it are still the
command. Only that pending tool line (the transcript's last, right above the box) tells a new
file (``← Write <path>``) from an edit: the same line further up, or quoted, is not the call.

On a wide pane (140 columns) a session sidebar (context, LSP, the folder, the version) is drawn
to the right of the transcript and the input: its columns are cut off before anything is read
(``screen.without_side_panel``), the same for Kilo Code.
"""

from __future__ import annotations

import dataclasses
import re

from paw.core.agentspec import PROVIDER_KEYS, AgentSpec, Install, SignIn
from paw.core.detect.boxes import field_lines, join_wrapped, strip_border
from paw.core.detect.inputs import bordered
from paw.core.detect.options import ENTER, ESCAPE, LEFT, RIGHT
from paw.core.detect.pending_line import announced_write, pending_element
from paw.core.detect.prompts import (
    busy,
    find_url,
    idle,
    incomplete_note,
    interrupt_hint,
    make_prompt,
    prompt_found,
    side_panel_notes,
    unknown,
    wrap_notes,
)
from paw.core.detect.screen import Screen, parse_screen, without_side_panel
from paw.core.detect.styles import highlighted
from paw.core.detect.tall_box import box_command, box_top, may_be_cut, whole_subject
from paw.core.models import Detection, Prompt, PromptKind
from paw.core.typed_room import InputRoom

# The input box (a textarea in a bordered box): two columns of margin, "┃" and two of padding on
# the left, two of padding and two of margin on the right (the text wraps at width - 9 at 120
# columns; one more kept spare). It grows to max(6, pane height // 3) rows of text (opencode's
# `tui.prompt.max_height` default), then scrolls: text past that never reads back whole. paw's
# reader reads 12 rows of the box, two of them its padding: 10 rows of text.
INPUT_ROOM = InputRoom(rows=6, chrome=10, per_height=3, max_rows=10)

SPEC = AgentSpec(
    kind="opencode",
    command=("opencode",),
    executables=("opencode",),
    interpreters=("node",),
    scripts=("opencode-ai", "opencode"),
    task_flag="--prompt",
    install=Install("npm", "opencode-ai", "1.18.33", "opencode"),
    sign_in=SignIn(
        ("${XDG_DATA_HOME:-~/.local/share}/opencode/auth.json",),
        PROVIDER_KEYS,
        "opencode auth login",
    ),
    rank=6,
    usage_source="opencode's database",
    input_room=INPUT_ROOM,
)
AGENT = SPEC.kind
VERIFIED_VERSION = SPEC.version

BUSY = interrupt_hint("interrupt")  # "esc interrupt", or the key the user bound
CHOICES = re.compile(r"^\s*Allow once\s+Allow always\s+Reject\b(?P<rest>.*)$")
# "Allow always" asks again in a box of its own: "△ Always allow", then "Confirm   Cancel".
CONFIRM_CHOICES = re.compile(r"^\s*Confirm\s+Cancel\b(?P<rest>.*)$")
CONFIRM_LABELS = ("Confirm", "Cancel")
ALWAYS_NOTE = re.compile(r"^This allows the command until \S+ restarts\.$")
ALWAYS_TITLE = re.compile(r"^\s*△\s*Always allow\b", re.IGNORECASE)
_CHOICE_ROWS = 8  # on a 20-column pane the choices and hints take seven rows
HINTS = re.compile(r"fullscreen|select|confirm")
CHOICE_LABELS = ("Allow once", "Allow always", "Reject")
PERMISSION_TITLE = re.compile(r"^\s*△\s*Permission required", re.IGNORECASE)
QUESTION_FOOTER = re.compile(r"enter submit.*esc dismiss", re.IGNORECASE)
OVERLAY_TITLE = re.compile(r"^\s{8,}(?P<title>\S.*?)\s{3,}esc$")
SHELL_PROMPT = re.compile(r"^\S*[$#%]$")
INTACT_EDGE = re.compile(r"^\s*╹▀+$")
COVERED_EDGE = re.compile(r"^\s*╹▀+\s+\S")
# The session's blocks (input box, permission request) hang on a border two columns in; a
# copy indented under an answer is further right.
LIVE_BORDER = re.compile(r"^ {2}┃")
_CHROME_MARGIN = 2
# The kind line names one path, spaces and all ("→ Edit docs/meeting notes/plan.md"): the rest
# of the line, up to an annotation the transcript adds (" · approved by you").
PATH_REST = r"(?P<path>\S.*?)(?:\s+·\s.*)?\s*$"
KINDS: tuple[tuple[re.Pattern[str], PromptKind], ...] = (
    (re.compile(r"^#\s*Shell command", re.IGNORECASE), PromptKind.SHELL),
    (re.compile(r"^[→←]\s*(?:Edit|Patch)\s+" + PATH_REST, re.IGNORECASE), PromptKind.EDIT),
    (re.compile(r"^[→←]\s*Write\s+" + PATH_REST, re.IGNORECASE), PromptKind.WRITE),
    (re.compile(r"^%\s*(?:WebFetch|Fetch)\b", re.IGNORECASE), PromptKind.FETCH),
    (re.compile(r"^⚙\s*Call tool\s+(?P<tool>\S+)", re.IGNORECASE), PromptKind.MCP),
)
_MAX_BLOCK = 45
CUT_NOTE = incomplete_note(
    "opencode's permission box is at its full height and cuts a longer command's last lines "
    "without a mark; the rest may be hidden"
)


def detect_screen(text: str) -> Detection:
    """Detect opencode's state in one captured screen (a side panel's text beside a subject's
    rows marks the subject incomplete)."""
    raw = parse_screen(text)
    screen = without_side_panel(raw)
    found = _detect(text, screen)
    if found.prompt is None:
        return found
    beside = side_panel_notes(found.prompt, raw, screen)
    return dataclasses.replace(found, notes=found.notes + beside) if beside else found


def _detect(text: str, screen: Screen) -> Detection:
    if not screen.lines:
        return unknown(AGENT, "empty screen")
    if any(BUSY.search(line) for line in screen.tail(2)):
        return busy(AGENT)
    block = bottom_block(screen)
    permission = _permission(screen, block, selected_choice(text))
    if isinstance(permission, tuple):
        asked, cut = permission
        return prompt_found(AGENT, asked, *wrap_notes(asked, screen.lines), *cut)
    prompt = permission or _question(screen, block) or _overlay(screen)
    if isinstance(prompt, str):
        return unknown(AGENT, prompt)
    if prompt is None:
        if _covered_input(screen):
            return unknown(AGENT, "an overlay covers the input box; its title is off screen")
        return idle(AGENT)
    return prompt_found(AGENT, prompt, *wrap_notes(prompt, screen.lines))


def bottom_block(screen: Screen) -> list[str]:
    """The ``┃``-bordered block at the bottom, borders removed, trailing empty rows dropped."""
    lines = screen.lines
    index = len(lines) - 1
    block: list[str] = []
    while index >= 0 and len(block) < _MAX_BLOCK and LIVE_BORDER.match(lines[index]):
        block.insert(0, strip_border(lines[index], depth=1))
        index -= 1
    while block and not block[-1].strip():
        block.pop()
    return block


def selected_choice(text: str) -> int:
    """Index of the highlighted choice, read from colours; 0 (the default) without them."""
    if "\x1b[" not in text:
        return 0
    for raw in reversed(text.split("\n")[-_MAX_BLOCK:]):
        if "Reject" in raw and "Allow once" in raw:
            found = highlighted(raw, CHOICE_LABELS)
            return 0 if found is None else found
    return 0


def _choice_keys(selected: int) -> Keys:
    """Approve, deny and always keys from the highlighted choice (0 once, 1 always, 2 reject)."""

    def move(target: int) -> tuple[str, ...]:
        step = RIGHT if target > selected else LEFT
        return (step,) * abs(target - selected)

    return (*move(0), ENTER), (*move(2), ENTER), (*move(1), ENTER, ENTER)


def _choice_rows(block: list[str], choices: re.Pattern[str]) -> int:
    """Index of the first row of the choices at the block's end, or -1.

    The choices and their key hints share the last row; on a narrow pane they wrap over a
    few rows ("Allow once   Allow always   Reject" / "ctrl+f fullscreen  ⇆ select  enter" /
    "confirm"), read as one line.
    """
    end = len(block)
    # On a narrow pane the key hints get rows of their own under the choices, a blank row
    # between: "Allow once   Allow always   Reject" / "" / "ctrl+f fullscreen  ⇆ select  enter".
    hints = end
    while (
        hints > 0
        and end - hints < _CHOICE_ROWS
        and HINTS.search(block[hints - 1])
        and not choices.match(block[hints - 1])
    ):
        hints -= 1
    if 1 < hints < end and not block[hints - 1].strip():
        end = hints - 1
    for start in range(end - 1, max(-1, end - 1 - _CHOICE_ROWS), -1):
        if not block[start].strip():
            return -1
        match = choices.match(" ".join(row.strip() for row in block[start:end]))
        if match and (not match["rest"].strip() or HINTS.search(match["rest"])):
            return start
    return -1


UNREADABLE = "a permission request is open but its title is above the pane (a short pane)"


def _reaches_top(screen: Screen, block: list[str]) -> bool:
    """The bordered block starts at the pane's first row: a short pane may have cut its top."""
    return len(block) >= len(screen.lines) - 1 or all(
        LIVE_BORDER.match(line) for line in screen.lines[: len(screen.lines) - len(block)]
    )


def _permission(
    screen: Screen, block: list[str], selected: int
) -> tuple[Prompt, tuple[str, ...]] | str | None:
    """The permission box (or the "Always allow" box) with the notes on its subject (a command
    the box may have cut); or why a box is open but unreadable."""
    row = _choice_rows(block, CHOICES)
    if row < 0:
        return _always_confirmation(screen, block)
    block = block[: row + 1]
    title = next((i for i in range(len(block) - 1, -1, -1) if PERMISSION_TITLE.match(block[i])), -1)
    if title < 0:
        return UNREADABLE if _reaches_top(screen, block) else None
    body = block[title + 1 : row]
    return permission_prompt(screen, body, KINDS, (_choice_keys(selected), selected), CUT_NOTE)


Keys = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]  # approve, deny, always


def permission_prompt(
    screen: Screen,
    body: list[str],
    kinds: tuple[tuple[re.Pattern[str], PromptKind], ...],
    choice: tuple[Keys, int],
    cut_note: str,
) -> tuple[Prompt, tuple[str, ...]]:
    """The permission box's prompt from its ``body`` (the rows between its title and its
    choices) and the notes on its subject (a command the box may have cut: ``cut_note``);
    ``choice``: the keys for the highlighted choice, and its index. opencode's and Kilo Code's
    boxes alike (``kinds``: how each names a kind)."""
    keys, selected = choice
    kind, detail = kind_line(body, screen.pane_width or screen.width, kinds)
    subject = subject_of(kind, detail, body, screen.pane_width)
    top = box_top(screen.lines)
    if (
        kind is PromptKind.EDIT
        and subject
        and announced_write(pending_element(screen.lines, top), subject)
    ):
        kind = PromptKind.WRITE
    # A fetch's kind line names the URL too, and the kind line is never cut.
    rest = None if detail is None else detail.string[detail.end() :]
    subject, cut = whole_subject(screen.lines, top, (kind, subject, rest), cut_note)
    first = next((line.strip() for line in body if line.strip()), "Permission required")
    approve, deny, always = keys
    prompt = make_prompt(
        kind,
        subject,
        f"Permission required: {first}",
        approve=approve,
        deny=deny,
        always=always,
        options=CHOICE_LABELS,
        selected=CHOICE_LABELS[selected],
    )
    return prompt, cut


def _kind(body: list[str], width: int = 0) -> tuple[PromptKind, re.Match[str] | None]:
    """The kind line (the block's first), with the rows it wrapped onto on a narrow pane."""
    return kind_line(body, width, KINDS)


def kind_line(
    body: list[str], width: int, kinds: tuple[tuple[re.Pattern[str], PromptKind], ...]
) -> tuple[PromptKind, re.Match[str] | None]:
    """The kind of the body's first line (with the rows it wrapped onto) by the first of
    ``kinds`` that matches it, and that match; opencode's and Kilo Code's dialogs alike."""
    first = next((i for i, line in enumerate(body) if line.strip()), -1)
    if first < 0:
        return PromptKind.OTHER, None
    line = join_kind_line(field_lines(body, first), width)
    for pattern, kind in kinds:
        match = pattern.match(line)
        if match:
            return kind, match
    return PromptKind.OTHER, None


def join_kind_line(rows: list[str], width: int) -> str:
    """The kind line from its rows. It names one path, URL or tool, never a command: a row
    that ends with ``/`` broke the path at its separator (opencode wraps a long path there,
    the rest on the next row) and joins the next row without a space."""
    line = ""
    for index, row in enumerate(rows):
        part = row.strip()
        if not part:
            continue
        above = rows[index - 1] if index else ""
        at_separator = above.rstrip().endswith("/") and " " not in part
        cut = join_wrapped([above, row], width) == above.strip() + part
        line += part if not line or at_separator or cut else " " + part
    return line


def subject_of(
    kind: PromptKind,
    detail: re.Match[str] | None,
    body: list[str],
    width: int,
    note: re.Pattern[str] | None = None,
) -> str | None:
    """The subject of a permission block's kind line and body (kilocode, a fork, draws the
    same); ``note``: the box's own sentence under a command, not part of it."""
    if kind is PromptKind.SHELL:
        return box_command(body, width, note)
    if kind in (PromptKind.EDIT, PromptKind.WRITE) and detail is not None:
        return detail["path"]
    if kind is PromptKind.MCP and detail is not None:
        server, _, tool = detail["tool"].partition("_")
        return f"{server} {tool}" if tool else server
    if kind is PromptKind.FETCH:  # the "URL:" field, whole; the kind line may wrap inside it
        field = [line.strip()[4:] for line in body if line.strip().startswith("URL:")]
        return find_url("\n".join(field or body))
    return None


def _always_confirmation(screen: Screen, block: list[str]) -> tuple[Prompt, tuple[str, ...]] | None:
    """The second step of "Allow always": a live prompt that only remembers or backs out.

    Confirm (highlighted when the box opens) grants the permission for good, so it is offered
    as the "always" keys only; no key approves once here, and Cancel is not a deny. Its box has
    the permission box's height limit: a command it may have cut is marked as there.
    """
    row = _choice_rows(block, CONFIRM_CHOICES)
    if row < 0:
        return None
    title = next((i for i in range(row - 1, -1, -1) if ALWAYS_TITLE.match(block[i])), -1)
    if title < 0:
        return None
    body = block[title + 1 : row]
    kind, detail = _kind(body)
    subject = subject_of(kind, detail, body, screen.pane_width, ALWAYS_NOTE)
    text = " ".join(line.strip() for line in body if line.strip())
    prompt = make_prompt(
        kind,
        subject,
        f"Always allow: {text}" if text else "Always allow",
        approve=(),
        deny=(),
        always=(ENTER,),
        options=CONFIRM_LABELS,
        selected=CONFIRM_LABELS[0],
    )
    rest = None if detail is None else detail.string[detail.end() :]
    cut = may_be_cut(screen.lines, box_top(screen.lines), kind, subject, rest)
    return prompt, (CUT_NOTE,) if cut else ()


def _question(screen: Screen, block: list[str]) -> Prompt | str | None:
    hint = _trailing_paragraph(block)
    if not block or not QUESTION_FOOTER.search(hint):
        return None
    if _reaches_top(screen, block):
        return "a question is open but its first lines are above the pane (a short pane)"
    first = next((i for i, line in enumerate(block) if line.strip()), 0)
    question = _trailing_paragraph(block[: first + _CHOICE_ROWS], first)
    options = tuple(
        re.sub(r"^\d+\.\s+", "", line.strip()) for line in block if re.match(r"^\s*\d+\.\s", line)
    )
    return make_prompt(
        PromptKind.QUESTION, question, question, approve=(), deny=(ESCAPE,), options=options
    )


def _trailing_paragraph(block: list[str], first: int | None = None) -> str:
    """The block's last rows after its last blank row (up to a few), read as one line; or,
    from row ``first``, the rows down to the next blank row (a question wrapped on a narrow
    pane)."""
    rows: list[str] = []
    if first is not None:
        for line in block[first:]:
            if not line.strip():
                break
            rows.append(line.strip())
        return " ".join(rows)
    for line in reversed(block[-_CHOICE_ROWS:]):
        if not line.strip():
            break
        rows.insert(0, line.strip())
    return " ".join(rows)


def _covered_input(screen: Screen) -> bool:
    """The input box's bottom edge shows overlay text through it (``╹▀▀  Providers  ▀▀``)."""
    return any(COVERED_EDGE.match(line) for line in screen.tail(_MAX_BLOCK))


def _overlay(screen: Screen) -> Prompt | None:
    """A modal overlay (title with ``esc`` at its right) drawn over the session.

    A live overlay covers the input box, whose bottom edge (``╹▀▀▀``) then shows overlay text
    through it; quoted or printed copies have the intact input box, or a shell prompt, below.
    """
    lines = screen.lines
    if SHELL_PROMPT.match(lines[-1]) or len(lines[-1]) - len(lines[-1].lstrip()) > _CHROME_MARGIN:
        return None
    for index, line in enumerate(lines):
        match = OVERLAY_TITLE.match(line)
        if match:
            if any(INTACT_EDGE.match(rest) for rest in lines[index + 1 :]):
                return None
            title = match["title"].strip()
            return make_prompt(PromptKind.OTHER, None, title, approve=(), deny=(ESCAPE,))
    return None


_PLACEHOLDERS = (re.compile(r'Ask anything(?:\.\.\.|…)(?: ".*")?'),)  # three dots or an ellipsis
_INPUT_EDGE = re.compile(r"^\s*╹▀")
_BOX_BELOW = 200  # the last such edge anywhere: only the input box draws one


def input_text(text: str) -> str | None:
    """What the ``┃`` input box above its ``╹▀▀`` edge holds (its last row is the agent and
    model line): "" when empty or showing its placeholder; None when no box is drawn."""
    # (the home screen draws the box mid-screen, with a tip and the footer far under it; a wide
    # pane draws the session sidebar beside the box: its rows are not the input)
    lines = without_side_panel(parse_screen(text)).lines
    return bordered(lines, "┃", _INPUT_EDGE, _PLACEHOLDERS, below=_BOX_BELOW)
