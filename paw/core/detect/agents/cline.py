"""Cline (npm ``cline``; pin and launch in ``SPEC``).

Cline's TUI (alternate screen) ends with a status footer: the model line (``… ○ Plan ● Act
(Tab)``), the folder and branch, and ``Auto-approve … (Shift+Tab)``. Above it sits either the
input box (``❯ Ask anything...`` between two rules) or, while Cline waits for the human, a
dialog in its place:

- a permission request: ``Cline needs permission`` / ``Approve tool call?`` / the tool
  (``run_commands``, ``editor``, …) / its details (``$ <command>``, a file name) / ``[y] Approve
  [n] Deny``. Approve ``y``, deny ``n``; there is no "always" choice;
- a question: ``Cline is asking a question`` / the question / its answers (never approvable;
  ``Escape`` dismisses it);
- full-screen start-up screens (sign-in choices, a promotional notice).

The ``Thinking... (esc to cancel)`` spinner stays on screen while a permission request waits, so
the dialog is looked for before busy markers. Only a dialog with nothing but the footer below it
is live: a quoted dialog in the transcript has the input box below it.
"""

from __future__ import annotations

import re

from paw.core.agentspec import AgentSpec, Install, SignIn
from paw.core.detect.boxes import dedent, is_rule, unwrap
from paw.core.detect.inputs import between_rules, screen_lines
from paw.core.detect.options import ESCAPE
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
    kind="cline",
    # Without `--auto-approve false` Cline starts with every tool auto-approved.
    command=("cline", "-i", "--auto-approve", "false"),
    executables=("cline",),
    interpreters=("node",),
    scripts=("cline",),
    operand_subcommands=True,  # commander: `cline auth`, `cline mcp`, …
    install=Install("npm", "cline", "3.0.65", "cline"),
    sign_in=SignIn(("~/.cline/data/settings/providers.json",), (), "cline auth"),
    min_columns=60,  # verified live at 80 and 120 columns
    rank=8,
    usage_source="Cline's session files",
)
AGENT = SPEC.kind
VERIFIED_VERSION = SPEC.version

CHOICES = re.compile(r"^\s*\[y\]\s*Approve\s+\[n\]\s*Deny\s*$")
PERMISSION_TITLE = re.compile(r"^\s*Cline needs permission\s*$")
APPROVE_QUESTION = re.compile(r"^\s*Approve tool call\?\s*$")
QUESTION_TITLE = re.compile(r"^\s*Cline is asking a question\s*$")
MARGIN = re.compile(r"^ \S")
TRANSCRIPT = re.compile(r"^ [❯*] \S")
INPUT_LINE = re.compile(r"^\s*❯")
FOOTER = re.compile(r"\(Shift\+Tab\)|\(Tab\)\s*$|\(\d+\)\s+\$\d|^\s*\S+ \([^()]+\)(?:\s*\|.*)?$")
BUSY = re.compile(r"esc to (?:cancel|interrupt)", re.IGNORECASE)
SPINNER = re.compile(r"^\s*[\u2800-\u28ff]+\s")
SIGN_IN_FOOTER = re.compile(r"navigate, Enter to select", re.IGNORECASE)
NOTICE_FOOTER = re.compile(r"Press Enter to .*any other key to close", re.IGNORECASE)
TOOL_KINDS: dict[str, PromptKind] = {
    "run_commands": PromptKind.SHELL,
    "execute_command": PromptKind.SHELL,
    "editor": PromptKind.EDIT,
    "replace_in_file": PromptKind.EDIT,
    "write_to_file": PromptKind.WRITE,
    "fetch_web_content": PromptKind.FETCH,
    "use_mcp_tool": PromptKind.MCP,
}
_MAX_FOOTER = 6
_MAX_DIALOG = 40


def detect_screen(text: str) -> Detection:
    """Detect Cline's state in one captured screen."""
    screen = parse_screen(text)
    if not screen.lines:
        return unknown(AGENT, "empty screen")
    live = _live_region(screen)
    prompt = _permission(screen, live) or _question(live) or _start_up(screen)
    if prompt is not None:
        notes = wrap_notes(prompt, screen.lines) + _omitted_lines(prompt)
        return prompt_found(AGENT, prompt, *notes)
    if any(BUSY.search(line) or SPINNER.match(line) for line in _above_input(screen)):
        return unless_narrow(SPEC, screen, busy(AGENT))
    return unless_narrow(SPEC, screen, idle(AGENT))


def _omitted_lines(prompt: Prompt) -> tuple[str, ...]:
    """Cline shows the first rows of a command and leaves out the rest without a mark (seen
    live: 2 of 7 lines at 80x24, 5 at 120x40), and draws nothing for an empty line among the
    rows it shows: ``ls``, an empty line, ``touch …`` showed ``$ ls`` alone at 80x24, the
    same screen as a one-line ``ls``. So no command it draws is known to be whole."""
    if prompt.kind is PromptKind.SHELL and prompt.subject:
        return (incomplete_note("Cline may leave out further lines of a command"),)
    return ()


def _live_region(screen: Screen) -> list[str]:
    """The lines between the transcript and the footer when no input box is drawn, else [].

    The footer is the last few non-blank lines; a dialog must end right above it (blank lines
    between are allowed), and no rule or input line may stand between the dialog and it.
    """
    lines = screen.lines
    end = len(lines)
    footer = 0
    while (
        end > 0
        and footer < _MAX_FOOTER
        and (not lines[end - 1].strip() or _is_footer(lines[end - 1]))
    ):
        if lines[end - 1].strip():
            footer += 1
        end -= 1
    # Cline draws its footer one column in; a copy indented under an answer is further right.
    if (
        footer == 0
        or not MARGIN.match(lines[-1])
        or any(is_rule(line) or INPUT_LINE.match(line) for line in lines[end:])
    ):
        return []
    region = list(lines[max(0, end - _MAX_DIALOG) : end])
    while region and not region[-1].strip():
        region.pop()
    if not region or is_rule(region[-1]) or INPUT_LINE.match(region[-1]):
        return []  # the input box is drawn: nothing waits
    return region


def _is_footer(line: str) -> bool:
    return bool(FOOTER.search(line))


def _above_input(screen: Screen) -> tuple[str, ...]:
    """The transcript's last lines above the input box (or above the footer)."""
    lines = screen.lines
    top = next((i for i in range(len(lines) - 1, -1, -1) if INPUT_LINE.match(lines[i])), len(lines))
    if top < len(lines) and top > 0 and is_rule(lines[top - 1]):
        top -= 1
    content = [line for line in lines[:top] if line.strip()]
    return tuple(content[-4:])


def _permission(screen: Screen, live: list[str]) -> Prompt | None:
    row = next((i for i in range(len(live) - 1, -1, -1) if live[i].strip()), -1)
    if row < 0 or not CHOICES.match(live[row]):
        return None
    title = next((i for i in range(row - 1, -1, -1) if PERMISSION_TITLE.match(live[i])), -1)
    if title < 0:
        return None
    body = [line for line in live[title + 1 : row] if not APPROVE_QUESTION.match(line)]
    tool_index = next((i for i, line in enumerate(body) if line.strip()), -1)
    if tool_index < 0:
        return None
    tool = body[tool_index].strip()
    details = body[tool_index + 1 :]
    kind = _kind(tool)
    subject = _subject(kind, tool, details, screen.pane_width)
    return make_prompt(
        kind,
        subject,
        f"Approve tool call? {tool}",
        approve=("y",),
        deny=("n",),
        options=("Approve", "Deny"),
    )


def _kind(tool: str) -> PromptKind:
    name = tool.split()[0] if tool.split() else ""
    if name in TOOL_KINDS:
        return TOOL_KINDS[name]
    if "mcp" in name.lower() or "__" in name:
        return PromptKind.MCP
    return PromptKind.OTHER


def _subject(kind: PromptKind, tool: str, details: list[str], width: int) -> str | None:
    content = dedent(details)
    while content and not content[0].strip():
        content.pop(0)
    while content and not content[-1].strip():
        content.pop()
    if kind is PromptKind.SHELL:
        commands: list[str] = []
        block: list[str] = []
        for line in content:
            if line.lstrip().startswith("$ "):  # Cline draws the rest at its margin
                if block:
                    commands.append(unwrap(block, width - 4 if width else 0))
                block = [line.lstrip()[2:]]
            elif block and line.strip():
                block.append(line.strip())
        if block:
            commands.append(unwrap(block, width - 4 if width else 0))
        return "\n".join(commands) or None
    if kind in (PromptKind.EDIT, PromptKind.WRITE):
        first = next((line.strip() for line in content if line.strip()), "")
        return first or None
    if kind is PromptKind.FETCH:
        return find_url("\n".join(content))
    if kind is PromptKind.MCP:
        return tool
    first = next((line.strip() for line in content if line.strip()), "")
    return f"{tool} {first}".strip()


def _question(live: list[str]) -> Prompt | None:
    title = next((i for i in range(len(live) - 1, -1, -1) if QUESTION_TITLE.match(live[i])), -1)
    if title < 0:
        return None
    body = live[title + 1 :]
    while body and not body[0].strip():
        body.pop(0)
    # The question may wrap over several rows; a blank row separates it from the answers.
    end = next((i for i, line in enumerate(body) if not line.strip()), len(body))
    question = " ".join(line.strip() for line in body[:end])
    if not question:
        return None
    rest = [line.strip() for line in body[end:] if line.strip()]
    options = tuple(re.sub(r"^>\s*", "", line) for line in rest)
    return make_prompt(
        PromptKind.QUESTION, question, question, approve=(), deny=(ESCAPE,), options=options
    )


def _start_up(screen: Screen) -> Prompt | None:
    """Full-screen start-up dialogs: the sign-in choices and promotional notices.

    They come before any conversation: a screen with transcript lines (`` ❯ <message>``,
    `` * <answer>``) is not one, whatever it quotes at its bottom.
    """
    if any(TRANSCRIPT.match(line) for line in screen.lines):
        return None
    if SIGN_IN_FOOTER.search(screen.lines[-1]):
        return make_prompt(PromptKind.OTHER, None, "Sign in to Cline", approve=(), deny=())
    notice = [i for i, line in enumerate(screen.lines[-8:]) if NOTICE_FOOTER.search(line)]
    if notice and _is_footer(screen.lines[-1]):
        title = next(
            (
                line.strip()
                for line in screen.lines
                if line.strip() and not set(line.strip()) <= set("@*. ")
            ),
            "Notice",
        )
        return make_prompt(PromptKind.OTHER, None, title, approve=(), deny=(ESCAPE,))
    return None


_PLACEHOLDERS = (re.compile(r"Ask anything\.\.\."), re.compile(r"What can I do for you\?"))


def input_text(text: str) -> str | None:
    """What the input between the rules above the footer holds (``❯`` first): "" when empty
    or showing its placeholder; None when no such input is drawn."""
    return between_rules(screen_lines(text), ("❯",), _PLACEHOLDERS)
