"""Mistral Vibe (PyPI ``mistral-vibe``, binary ``vibe``; pin and launch in ``SPEC``).

Vibe draws a full-screen TUI (its native ``vibe-rs`` binary) on the alternate screen. Its bottom
line is a status bar (``<folder> [PID n] … tokens``); above it sits the input (``>`` between
rules) or, while Vibe waits for the human, a square box (``┌`` … ``┘``) in its place:

- a permission request: ``Permission for the <tool> tool`` (with the rule it would store in
  brackets, e.g. ``(rm *)``), the command or ``File: <path>`` and a diff, the numbered choices
  ``1. Allow once`` … ``4. Deny`` and ``↑↓/jk navigate  Enter select  Esc reject``. The
  highlight is drawn in colour only, so paw approves with ``1`` (the number acts at once,
  wherever the highlight is) and denies with ``Escape``;
- a question from the agent (same box, ``Esc cancel`` footer): never approvable, ``Escape``
  dismisses it.

The ``Running command… (Esc/Ctrl+C to interrupt)`` line stays visible while a prompt waits, so
the box is read before busy markers. Start-up screens are full-screen: the first-run welcome
(``Enter continue``) and the workspace-trust dialog (``Trust this folder?``).
"""

from __future__ import annotations

import re

from paw.core.agentspec import AgentSpec, Install, SignIn
from paw.core.detect.boxes import box_above_status, dedent, is_box_edge, strip_border, unwrap
from paw.core.detect.inputs import between_rules, screen_lines
from paw.core.detect.options import ENTER, ESCAPE, RIGHT
from paw.core.detect.prompts import (
    busy,
    find_url,
    idle,
    incomplete_note,
    make_prompt,
    prompt_found,
    unknown,
    unless_narrow,
    wrap_notes,
)
from paw.core.detect.screen import Screen, parse_screen
from paw.core.models import Detection, Prompt, PromptKind

SPEC = AgentSpec(
    kind="mistral-vibe",
    command=("vibe",),
    # `vibe` execs its native TUI, `vibe-rs`, which starts a Python app server.
    executables=("vibe", "vibe-rs"),
    interpreters=("python",),
    scripts=("vibe",),
    operand_subcommands=True,  # `vibe mcp`, `vibe help`
    install=Install("pypi", "mistral-vibe", "3.0.2", "vibe", python="3.12"),
    sign_in=SignIn(("${VIBE_HOME:-~/.vibe}/.env",), ("MISTRAL_API_KEY",), "vibe --setup"),
    min_columns=60,  # verified live at 80 and 120 columns
    usage_source="Mistral Vibe's session snapshots",
    rank=10,
)
AGENT = SPEC.kind
VERIFIED_VERSION = SPEC.version

BUSY = re.compile(r"(?:Esc|Ctrl\+C)\S* to interrupt", re.IGNORECASE)
TITLE = re.compile(r"^Permission for the (?P<tool>\S+) tool\b(?:\s*\((?P<rule>.*)\))?")
FILE = re.compile(r"^File:\s*(?P<path>.*)$")
CHOICE = re.compile(r"^\d+\.\s+(?P<label>.+)$")
PERMISSION_FOOTER = re.compile(r"Enter select\s+Esc reject", re.IGNORECASE)
QUESTION_FOOTER = re.compile(r"Enter select\s+Esc cancel", re.IGNORECASE)
TRUST_QUESTION = re.compile(r"^\s*│?\s*Trust this folder\?")
TRUST_CHOICES = re.compile(r"1\.\s*Trust folder\s+2\.\s*Don't trust")
WELCOME = re.compile(r"Welcome to Mistral Vibe")
ENTER_CONTINUE = re.compile(r"^\s*Enter continue\s*$")
STATUS = re.compile(r"\[PID \d+\]|\btokens\b")
# A box whose content overflows draws a scrollbar thumb in its right-most column.
SCROLLBAR = re.compile(r"\s*[\u2580-\u2590]$")
USER_MESSAGE = re.compile(r"^> \S")
BOTTOM_BAR = re.compile(r"^\s*▁+\s*$")
KINDS: tuple[tuple[re.Pattern[str], PromptKind], ...] = (
    (re.compile(r"(?:^|\.)(?:bash|shell|run_command)$"), PromptKind.SHELL),
    (re.compile(r"(?:^|\.)(?:search_replace|edit|edit_file|replace)$"), PromptKind.EDIT),
    (re.compile(r"(?:^|\.)(?:write_file|write|create_file)$"), PromptKind.WRITE),
    (re.compile(r"(?:^|\.)(?:web_fetch|fetch|fetch_url)$"), PromptKind.FETCH),
    (re.compile(r"(?:^|\.)mcp|__"), PromptKind.MCP),
)


def detect_screen(text: str) -> Detection:
    """Detect Mistral Vibe's state in one captured screen."""
    screen = parse_screen(text)
    if not screen.lines:
        return unknown(AGENT, "empty screen")
    box, top = box_above_status(screen.lines, STATUS, _unscroll)
    if top < 0 and box:
        return unknown(AGENT, "the dialog's top is cut off the pane")
    prompt = _permission(screen, box) or _question(box) or _start_up(screen)
    if prompt is not None:
        notes = wrap_notes(prompt, screen.lines) + _scrolled(screen, top, len(box), prompt)
        return prompt_found(AGENT, prompt, *notes)
    # The working line sits right above the box, or above the input (rule, ``>``, rule, status).
    above = [line for line in screen.lines[max(0, top - 10) : top] if line.strip()]
    if any(BUSY.search(line) for line in above[-3 if box else -8 :]):
        return unless_narrow(SPEC, screen, busy(AGENT))
    return unless_narrow(SPEC, screen, idle(AGENT))


def _unscroll(line: str) -> str:
    return SCROLLBAR.sub("", line)


def _scrolled(screen: Screen, top: int, rows: int, prompt: Prompt) -> tuple[str, ...]:
    """A note when Vibe's box draws a scrollbar (its content is taller than the box: lines of
    the subject are hidden) beside a prompt that has a subject to judge."""
    if prompt.subject is None or prompt.kind is PromptKind.OTHER:
        return ()
    drawn = screen.lines[max(0, top + 1) : max(0, top + 1) + rows]
    if any(SCROLLBAR.search(strip_border(line, depth=1)) for line in drawn):
        return (incomplete_note("it scrolls inside Vibe's box (a scrollbar): lines are hidden"),)
    return ()


def _permission(screen: Screen, box: list[str]) -> Prompt | None:
    content = list(dedent(box))
    filled = [line for line in content if line.strip()]
    if not filled or not PERMISSION_FOOTER.search(filled[-1]):
        return None
    matches = [(i, m) for i, line in enumerate(content) if (m := TITLE.match(line.strip()))]
    if not matches:
        return None
    title_row, title = matches[0]
    choices_start = next(
        (i for i in range(title_row + 1, len(content)) if CHOICE.match(content[i].strip())),
        len(content),
    )
    options = tuple(
        m["label"].strip() for line in content[choices_start:] if (m := CHOICE.match(line.strip()))
    )
    if not options or not any("allow once" in o.lower() for o in options):
        return None
    tool = title["tool"]
    kind = _kind(tool)
    heading, row = content[title_row].strip(), title_row
    while heading.count("(") > heading.count(")") and row + 1 < choices_start:
        row += 1  # the title wrapped inside its parenthesis: its rest is no part of the body
        heading = f"{heading} {content[row].strip()}"
    body = content[row + 1 : choices_start]
    subject = _subject(kind, tool, body, screen.pane_width)
    return make_prompt(
        kind,
        subject,
        heading,
        approve=("1",),
        deny=(ESCAPE,),
        options=options,
    )


def _kind(tool: str) -> PromptKind:
    for pattern, kind in KINDS:
        if pattern.search(tool):
            return kind
    return PromptKind.OTHER


def _subject(kind: PromptKind, tool: str, body: list[str], width: int) -> str | None:
    if kind is PromptKind.SHELL:
        # Down to the choices: a command's empty line is a blank row among its rows (``ls``,
        # an empty line, ``touch …`` was read as ``ls``, live); only padding surrounds it.
        block = list(body)
        while block and not block[0].strip():
            block.pop(0)
        while block and not block[-1].strip():
            block.pop()
        return unwrap(block, width - 4 if width else 0) or None
    if kind in (PromptKind.EDIT, PromptKind.WRITE):
        return _file_path(body)
    if kind is PromptKind.FETCH:
        return find_url("\n".join(body))
    if kind is PromptKind.MCP:
        return tool
    return None


def _file_path(body: list[str]) -> str | None:
    """The path after ``File:``; a long one continues on the next rows.

    Vibe moves a word that does not fit to a row of its own and cuts a word longer than a row
    at the box edge (``File:`` then stands alone, the path under it): a row cut inside a word
    holds no blank and joins the next with nothing. A row with a blank in it ended where the
    next word did not fit, on a blank that the wrap dropped (``… paw plan for`` / ``q3.md``):
    the blank is put back.
    """
    start = next((i for i, line in enumerate(body) if FILE.match(line.strip())), -1)
    if start < 0:
        return None
    head = FILE.match(body[start].strip())
    path = row = head["path"].strip() if head else ""
    for line in body[start + 1 :]:
        if not line.strip():
            break
        path += (" " if " " in row else "") + line.strip()
        row = line.strip()
    return path or None


def _question(box: list[str]) -> Prompt | None:
    content = [line.strip() for line in box if line.strip()]
    if not content or not QUESTION_FOOTER.search(content[-1]):
        return None
    question = content[0]
    options = tuple(m["label"] for line in content[1:-1] if (m := CHOICE.match(line)))
    return make_prompt(
        PromptKind.QUESTION, question, question, approve=(), deny=(ESCAPE,), options=options
    )


def _box_at_end(lines: tuple[str, ...]) -> bool:
    """The dialog's box closes and only blank rows or the bottom bar (``▁▁▁``) follow it."""
    edge = next(
        (i for i in range(len(lines) - 1, -1, -1) if is_box_edge(lines[i])),
        -1,
    )
    if edge < 0:
        return False
    return all(not line.strip() or BOTTOM_BAR.match(line) for line in lines[edge + 1 :])


def _start_up(screen: Screen) -> Prompt | None:
    """The full-screen start-up dialogs: workspace trust and the first-run welcome.

    They come before any conversation: a screen with a user message (``> <text>``) is not one.
    """
    lines = screen.lines
    if any(USER_MESSAGE.match(line) for line in lines):
        return None
    trust = next((i for i, line in enumerate(lines) if TRUST_QUESTION.search(line)), -1)
    if (
        trust >= 0
        and any(TRUST_CHOICES.search(line) for line in lines[trust:])
        and _box_at_end(lines[trust:])
    ):
        return make_prompt(
            PromptKind.OTHER,
            None,
            "Trust this folder?",
            approve=(ENTER,),
            deny=(RIGHT, ENTER),
            options=("Trust folder", "Don't trust"),
        )
    if ENTER_CONTINUE.match(lines[-1]) and any(WELCOME.search(line) for line in lines):
        return make_prompt(PromptKind.OTHER, None, "Welcome to Mistral Vibe", approve=(), deny=())
    return None


def input_text(text: str) -> str | None:
    """What the input between the rules above the footer holds (``>`` first): "" when empty;
    None when no such input is drawn."""
    return between_rules(screen_lines(text), (">",))
