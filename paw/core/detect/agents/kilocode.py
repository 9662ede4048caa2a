"""Kilo Code (npm ``@kilocode/cli``, binary ``kilo``; pin and launch in ``SPEC``).

Kilo is a fork of opencode and draws its prompts the same way: a permission request replaces the
input box at the bottom of the screen with a ``┃``-bordered block: ``△ Permission required``, a
kind line (``# <what the command does>`` for a shell command, ``→ Edit <file>``, ``→ Write
<file>``, ``⚙ Call tool <server>_<tool>``), the details (``$ <command>``, a diff), then the
choices on one line, ``Allow once   Allow always   Reject``, with ``enter confirm`` at its right.
The highlight is drawn in colour only: with a ``capture-pane -e`` capture paw reads it, otherwise
it assumes the fresh dialog's default (``Allow once``): approve ``Enter``, deny ``Right Right
Enter Enter`` (Reject opens a feedback box, ``△ Reject permission``, whose ``Enter`` sends the
rejection), always ``Right Enter Enter``. A feedback box left open is itself a live prompt that
only offers the denial (``Enter``).

"Allow always" opens a second box, ``△ Always allow`` with ``Confirm   Cancel``: a live prompt
too, but one whose "yes" stores a permanent rule, so paw reports it as kind ``other`` with no
approve key (``Escape`` backs out of it). Ask-the-user questions end with ``enter submit  esc
dismiss``; overlay dialogs have ``esc`` at the right of their title. ``esc interrupt`` in the
status line means busy (the status line is hidden while a prompt waits).

The permission box is at most 15 rows tall (tall_box.py, shared with opencode): a longer command
loses its last rows without a mark, so a command in a box that tall is ``subject incomplete``
unless the transcript shows the pending ``$ <command>`` whole (the same as the box, or longer and
beginning with all the box shows: then read from there, said in a note). Only the pending tool
line right above the box (``← Write <path>``, read over the rows it wrapped onto) tells a new
file from an edit. A session sidebar at the right of a wide pane is cut off first, as opencode's.
"""

from __future__ import annotations

import dataclasses
import re

from paw.core.agentspec import PROVIDER_KEYS, AgentSpec, Install, SignIn
from paw.core.detect.agents.opencode import (
    INPUT_ROOM,
    Keys,
    bottom_block,
    permission_prompt,
    selected_choice,
)

# Kilo draws opencode's input box: the same reader (registry.py finds it by name).
from paw.core.detect.agents.opencode import input_text as input_text  # noqa: PLC0414
from paw.core.detect.options import ENTER, ESCAPE, LEFT, RIGHT
from paw.core.detect.prompts import (
    busy,
    idle,
    incomplete_note,
    make_prompt,
    prompt_found,
    side_panel_notes,
    unknown,
    unless_narrow,
    wrap_notes,
)
from paw.core.detect.screen import Screen, parse_screen, without_side_panel
from paw.core.models import Detection, Prompt, PromptKind

SPEC = AgentSpec(
    kind="kilocode",
    command=("kilo",),
    executables=("kilo", ".kilo"),
    interpreters=("node",),
    scripts=("@kilocode/cli", "kilo"),
    task_flag="--prompt",
    install=Install("npm", "@kilocode/cli", "7.7.7", "kilo"),
    sign_in=SignIn(
        ("${XDG_DATA_HOME:-~/.local/share}/kilo/auth.json",), PROVIDER_KEYS, "kilo auth login"
    ),
    min_columns=60,  # verified live at 80 and 120 columns
    fork_of="opencode",
    rank=7,
    usage_source="Kilo Code's database",
    input_room=INPUT_ROOM,  # opencode's input box, drawn the same
)
AGENT = SPEC.kind
VERIFIED_VERSION = SPEC.version

BUSY = re.compile(r"\S+ (?:to )?interrupt\b", re.IGNORECASE)  # any key: users rebind it
CHOICES = re.compile(r"^\s*Allow once\s+Allow always\s+Reject\b")
CONFIRM_CHOICES = re.compile(r"^\s*Confirm\s+Cancel\b")
ALWAYS_TITLE = re.compile(r"^\s*△\s*Always allow\b", re.IGNORECASE)
REJECT_TITLE = re.compile(r"^\s*△\s*Reject permission\b", re.IGNORECASE)
REJECT_FOOTER = re.compile(r"enter confirm\s+esc cancel", re.IGNORECASE)
HINTS = re.compile(r"fullscreen|select|confirm")
CHOICE_LABELS = ("Allow once", "Allow always", "Reject")
PERMISSION_TITLE = re.compile(r"^\s*△\s*Permission required", re.IGNORECASE)
QUESTION_FOOTER = re.compile(r"enter submit.*esc dismiss", re.IGNORECASE)
OVERLAY_TITLE = re.compile(r"^\s{8,}(?P<title>\S.*?)\s{3,}esc$")
SHELL_PROMPT = re.compile(r"^\S*[$#%]$")
INTACT_EDGE = re.compile(r"^\s*╹▀+$")
# The kind line names one path, spaces and all ("→ Edit docs/meeting notes/plan.md"): the rest
# of the line, up to an annotation the transcript adds (" · approved by you").
PATH_REST = r"(?P<path>\S.*?)(?:\s+·\s.*)?\s*$"
KINDS: tuple[tuple[re.Pattern[str], PromptKind], ...] = (
    (re.compile(r"^#\s"), PromptKind.SHELL),
    (re.compile(r"^[→←]\s*(?:Edit|Patch)\s+" + PATH_REST, re.IGNORECASE), PromptKind.EDIT),
    (re.compile(r"^[→←]\s*Write\s+" + PATH_REST, re.IGNORECASE), PromptKind.WRITE),
    (re.compile(r"^%\s*(?:WebFetch|Fetch)\b", re.IGNORECASE), PromptKind.FETCH),
    (re.compile(r"^⚙\s*Call tool\s+(?P<tool>\S+)", re.IGNORECASE), PromptKind.MCP),
)
CUT_NOTE = incomplete_note(
    "Kilo Code's permission box is at its full height and cuts a longer command's last lines "
    "without a mark; the rest may be hidden"
)


def detect_screen(text: str) -> Detection:
    """Detect Kilo Code's state in one captured screen (a side panel's text beside a subject's
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
        return unless_narrow(SPEC, screen, busy(AGENT))
    block = bottom_block(screen)
    permission = _permission(screen, block, selected_choice(text))
    if permission is not None:
        asked, cut = permission
        return prompt_found(AGENT, asked, *wrap_notes(asked, screen.lines), *cut)
    other = (
        _always_confirm(block) or _reject_feedback(block) or _question(block) or _overlay(screen)
    )
    if other is None:
        return unless_narrow(SPEC, screen, idle(AGENT))
    return prompt_found(AGENT, other, *wrap_notes(other, screen.lines))


def _choice_keys(selected: int) -> Keys:
    """Approve, deny and always keys from the highlighted choice (0 once, 1 always, 2 reject)."""

    def move(target: int) -> tuple[str, ...]:
        step = RIGHT if target > selected else LEFT
        return (step,) * abs(target - selected)

    # Reject opens a feedback box (``△ Reject permission``): the second Enter sends the
    # rejection without feedback.
    return (*move(0), ENTER), (*move(2), ENTER, ENTER), (*move(1), ENTER, ENTER)


def _permission(
    screen: Screen, block: list[str], selected: int
) -> tuple[Prompt, tuple[str, ...]] | None:
    """The permission box and the notes on its subject (a command the box may have cut)."""
    # The choices row is the block's last line; at narrow widths its key hints may wrap below.
    row = next(
        (
            i
            for i in range(len(block) - 1, len(block) - 4, -1)
            if i >= 0 and CHOICES.match(block[i])
        ),
        -1,
    )
    if row < 0 or not _hints_below(block, row):
        return None
    block = block[: row + 1]
    title = next((i for i in range(len(block) - 1, -1, -1) if PERMISSION_TITLE.match(block[i])), -1)
    if title < 0:
        return None
    body = block[title + 1 : -1]
    return permission_prompt(screen, body, KINDS, (_choice_keys(selected), selected), CUT_NOTE)


def _always_confirm(block: list[str]) -> Prompt | None:
    """The second box "Allow always" opens: ``△ Always allow`` … ``Confirm   Cancel``."""
    row = next(
        (
            i
            for i in range(len(block) - 1, len(block) - 4, -1)
            if i >= 0 and CONFIRM_CHOICES.match(block[i])
        ),
        -1,
    )
    if row < 0 or not _hints_below(block, row):
        return None
    title = next((i for i in range(row - 1, -1, -1) if ALWAYS_TITLE.match(block[i])), -1)
    if title < 0:
        return None
    body = " ".join(line.strip() for line in block[title + 1 : row] if line.strip())
    question = f"Always allow: {body}" if body else "Always allow"
    return make_prompt(
        PromptKind.OTHER,
        None,
        question,
        approve=(),
        deny=(ESCAPE,),
        options=("Confirm", "Cancel"),
    )


def _reject_feedback(block: list[str]) -> Prompt | None:
    """The box Reject opens: ``△ Reject permission`` / ``Tell Kilo what to do differently``.

    The tool call is still pending: ``Enter`` sends the rejection (with what was typed as
    feedback), ``Escape`` goes back to the permission box. Only a denial is offered.
    """
    # At narrow widths the key hints wrap, one word a row, below the prompt text.
    if not block or not REJECT_FOOTER.search(" ".join(line.strip() for line in block[-4:])):
        return None
    title = next((i for i in range(len(block) - 1, -1, -1) if REJECT_TITLE.match(block[i])), -1)
    if title < 0:
        return None
    body = " ".join(line.strip() for line in block[title + 1 : -1] if line.strip())
    question = f"Reject permission: {body}" if body else "Reject permission"
    return make_prompt(PromptKind.OTHER, None, question, approve=(), deny=(ENTER,))


def _hints_below(block: list[str], row: int) -> bool:
    """Only key hints under the choices row: on a narrow pane they wrap onto rows of their
    own, a blank row between (``ctrl+f fullscreen  ⇆ select  enter confirm``)."""
    below = [line for line in block[row + 1 :] if line.strip()]
    return all(HINTS.search(line) for line in below)


def _question(block: list[str]) -> Prompt | None:
    if not block or not QUESTION_FOOTER.search(block[-1]):
        return None
    question = next((line.strip() for line in block if line.strip()), "")
    options = tuple(
        re.sub(r"^\d+\.\s+", "", line.strip()) for line in block if re.match(r"^\s*\d+\.\s", line)
    )
    return make_prompt(
        PromptKind.QUESTION, question, question, approve=(), deny=(ESCAPE,), options=options
    )


def _overlay(screen: Screen) -> Prompt | None:
    """A modal overlay (title with ``esc`` at its right) drawn over the session.

    A live overlay covers the input box, whose bottom edge (``╹▀▀▀``) then shows overlay text
    through it; quoted or printed copies have the intact input box, or a shell prompt, below.
    """
    lines = screen.lines
    if SHELL_PROMPT.match(lines[-1]):
        return None
    for index, line in enumerate(lines):
        match = OVERLAY_TITLE.match(line)
        if match:
            if any(INTACT_EDGE.match(rest) for rest in lines[index + 1 :]):
                return None
            title = match["title"].strip()
            return make_prompt(PromptKind.OTHER, None, title, approve=(), deny=(ESCAPE,))
    return None
