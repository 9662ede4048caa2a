"""Continue's CLI (npm ``@continuedev/cli``, binary ``cn``; pin and launch in ``SPEC``).

``cn`` draws inline, not on the alternate screen: the transcript scrolls up and the bottom of the
screen is a rounded box followed by a status line (``<folder> ⊦<branch> … ◉ Continue CLI``).
The box is the input (``● ▋Ask anything…``) or, while Continue waits for the human, a dialog:

- a permission request: the tool (``Bash(<command>)``, ``Edit(<file>)``, ``Write(<file>)``…),
  ``⎿ Will run: <command>`` or the diff, ``Would you like to continue?``, then ``> Continue
  (tab)`` / ``Continue + don't ask again (shift+tab)`` / ``No, and tell Continue what to do
  differently (esc)``. ``>`` marks the highlighted choice: approve ``Enter`` on ``Continue``
  (``Tab`` from anywhere), deny ``Escape``, always ``BTab``;
- a question: ``? <question>``, its answers, ``↑/↓ navigate, Enter select`` (never approvable;
  ``Escape`` dismisses it).

Only the box at the bottom is live: answered prompts and quoted dialog text stay in the
transcript above it. The ``( 8s • esc to interrupt )`` timer keeps counting above the box while
a prompt waits, so the box is read before busy markers. Before a model is configured ``cn``
asks for an API key on a bare ``Enter your … API key:`` line.
"""

from __future__ import annotations

import re

from paw.core.agentspec import PROVIDER_KEYS, AgentSpec, Install, SignIn
from paw.core.detect.boxes import box_above_status, dedent, unwrap
from paw.core.detect.inputs import after_marker, screen_lines
from paw.core.detect.options import ENTER, ESCAPE
from paw.core.detect.prompts import (
    busy,
    find_url,
    idle,
    make_prompt,
    prompt_found,
    unknown,
    unless_narrow,
    wrap_notes,
)
from paw.core.detect.screen import Screen, parse_screen
from paw.core.models import Detection, Prompt, PromptKind

SPEC = AgentSpec(
    kind="continue-cli",
    command=("cn",),
    executables=("cn",),
    interpreters=("node",),
    scripts=("@continuedev/cli", "cn"),
    operand_subcommands=True,  # commander: `cn login`, `cn ls`, …
    install=Install("npm", "@continuedev/cli", "1.5.47", "cn"),
    sign_in=SignIn(
        ("${CONTINUE_GLOBAL_DIR:-~/.continue}/config.yaml", "~/.continue/auth.json"),
        PROVIDER_KEYS,
        "cn login",
    ),
    min_columns=60,  # verified live at 80 and 120 columns
    rank=9,
    usage_source="Continue's session files",
)
AGENT = SPEC.kind
VERIFIED_VERSION = SPEC.version

TAB = "Tab"
BUSY = re.compile(r"\S+ to interrupt\b", re.IGNORECASE)  # any key: users rebind it
CONTINUE_QUESTION = re.compile(r"^Would you like to continue\?$")
OPTION = re.compile(
    r"^(?P<mark>>\s+|\s*)"
    r"(?P<label>Continue \(tab\)|Continue \+ don't ask again.*|No, and tell Continue.*)$"
)
TOOL = re.compile(r"^(?P<name>[A-Za-z_][\w.-]*)\((?P<arg>.*)\)?$")
WILL_RUN = re.compile(r"^⎿\s*Will run:\s?(?P<command>.*)$")
# The preview Continue draws for a tool that has none of its own (every MCP tool).
WILL_CALL = re.compile(r"^⎿\s*Will call (?P<name>\S+)(?: with \d+ arguments?)?$")
QUESTION = re.compile(r"^\?\s+(?P<question>.+)$")
QUESTION_FOOTER = re.compile(r"Enter select", re.IGNORECASE)
API_KEY_LINE = re.compile(r"^Enter your .*API key:", re.IGNORECASE)
STATUS = re.compile(r"Continue CLI|⊦")
KINDS: dict[str, PromptKind] = {
    "Bash": PromptKind.SHELL,
    "Edit": PromptKind.EDIT,
    "MultiEdit": PromptKind.EDIT,
    "Write": PromptKind.WRITE,
    "Fetch": PromptKind.FETCH,
}
# Continue's own tools (its BUILT_IN_TOOL_NAMES, as drawn): any other tool is an MCP server's.
BUILT_INS = frozenset(
    {"AskQuestion", "Checklist", "Diff", "Exit", "List", "Read", "ReportFailure", "Search"}
    | {"Skills", "Status", "Subagent", "UploadArtifact", *KINDS}
)
CHOICE_LABELS = ("Continue", "Continue + don't ask again", "No, and tell Continue")


def detect_screen(text: str) -> Detection:
    """Detect Continue's state in one captured screen."""
    screen = parse_screen(text)
    if not screen.lines:
        return unknown(AGENT, "empty screen")
    box, top = box_above_status(screen.lines, STATUS)
    if top < 0 and box:
        return unknown(AGENT, "the dialog's top is cut off the pane")
    prompt = _permission(screen, box) or _question(box) or _api_key(screen)
    if prompt is not None:
        return prompt_found(AGENT, prompt, *wrap_notes(prompt, screen.lines))
    above = [line for line in screen.lines[max(0, top - 4) : max(0, top)] if line.strip()]
    if any(BUSY.search(line) for line in above[-2:]):
        return unless_narrow(SPEC, screen, busy(AGENT))
    return unless_narrow(SPEC, screen, idle(AGENT))


def _permission(screen: Screen, box: list[str]) -> Prompt | None:
    content = dedent(box)
    ask = next((i for i, line in enumerate(content) if CONTINUE_QUESTION.match(line.strip())), -1)
    if ask < 0:
        return None
    options = [OPTION.match(line.strip("\n").rstrip()) for line in content[ask + 1 :]]
    found = [m for m in options if m]
    if len(found) != len(CHOICE_LABELS):
        return None
    selected = next((i for i, m in enumerate(found) if m["mark"].startswith(">")), 0)
    body = content[:ask]
    tool_row = next((i for i, line in enumerate(body) if line.strip()), -1)
    name, arg = "", ""
    if tool_row >= 0:
        match = TOOL.match(body[tool_row].strip())
        if match:
            name, arg = match["name"], match["arg"].rstrip(")")
    kind = _kind(name, body[tool_row + 1 :])
    subject = name if kind is PromptKind.MCP else None
    subject = subject or _subject(kind, arg, body[tool_row + 1 :], screen.pane_width)
    approve = (ENTER,) if selected == 0 else (TAB,)
    return make_prompt(
        kind,
        subject,
        f"Would you like to continue? {name}".strip(),
        approve=approve,
        deny=(ESCAPE,),
        always=("BTab",),
        options=CHOICE_LABELS,
        selected=CHOICE_LABELS[selected],
    )


def _kind(name: str, body: list[str]) -> PromptKind:
    """The kind of the tool ``name``: Continue's own by name; a tool that is not one of its own
    and whose preview is the generic ``⎿ Will call <name>`` is an MCP server's (Continue draws
    an MCP tool by its bare name, no server)."""
    if name in KINDS:
        return KINDS[name]
    if not name:
        return PromptKind.OTHER
    preview = next((WILL_CALL.match(line.strip()) for line in body if line.strip()), None)
    if name not in BUILT_INS and preview is not None and preview["name"] == name:
        return PromptKind.MCP
    return PromptKind.MCP if "__" in name or "mcp" in name.lower() else PromptKind.OTHER


def _subject(kind: PromptKind, arg: str, body: list[str], width: int) -> str | None:
    if kind is PromptKind.SHELL:
        start = next((i for i, line in enumerate(body) if WILL_RUN.match(line.strip())), -1)
        if start < 0:
            return arg or None
        # Down to the question: a command's empty line is a blank row among its rows (``ls``,
        # an empty line, ``touch …`` was read as ``ls``); only the box's padding follows it.
        # The rows under the first hang two columns right of its ``⎿``.
        hang = len(body[start]) - len(body[start].lstrip()) + 2
        rest = [row[hang:] if not row[:hang].strip() else row.strip() for row in body[start + 1 :]]
        block = [WILL_RUN.sub(r"\g<command>", body[start].strip()), *rest]
        while block and not block[-1].strip():
            block.pop()
        return unwrap(block, width - 15 if width else 0) or None
    if kind is PromptKind.FETCH:
        return find_url(arg) or arg or None
    return arg or None


def _question(box: list[str]) -> Prompt | None:
    content = [line.strip() for line in box if line.strip()]
    if not content or not QUESTION_FOOTER.search(content[-1]):
        return None
    match = QUESTION.match(content[0])
    if match is None:
        return None
    question = match["question"]
    options = tuple(re.sub(r"^❯\s*", "", line) for line in content[1:-1])
    return make_prompt(
        PromptKind.QUESTION, question, question, approve=(), deny=(ESCAPE,), options=options
    )


def _api_key(screen: Screen) -> Prompt | None:
    if API_KEY_LINE.match(screen.lines[-1]):  # at the left margin: a quoted copy is indented
        return make_prompt(PromptKind.OTHER, None, screen.lines[-1].strip(), approve=(), deny=())
    return None


_PLACEHOLDERS = (
    re.compile(r"Ask anything, @ for context, / for slash commands, ! for shell mode"),
)
_BOX_BELOW = 4  # footer rows under the input box


def input_text(text: str) -> str | None:
    """What the input box at the bottom (``╭``…``╰``, first row ``●``) holds: "" when empty
    or showing its placeholder; None when no such box is drawn."""
    lines = screen_lines(text)
    ends = [i for i in range(max(0, len(lines) - 1 - _BOX_BELOW), len(lines))
            if lines[i].lstrip().startswith("╰")]  # fmt: skip
    if not ends:
        return None
    index, rows = ends[-1] - 1, list[str]()
    while index >= 0 and lines[index].lstrip().startswith("│"):
        rows.insert(0, lines[index].strip().strip("│"))
        index -= 1
    if index < 0 or not lines[index].lstrip().startswith("╭") or not rows:
        return None
    return after_marker(rows, ("●",), _PLACEHOLDERS, window=len(rows))
