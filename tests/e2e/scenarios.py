"""The stub model's script: what it answers to ``SCENARIO <name>``, independent of any wire format.

A scenario is at most one tool call (a shell command, an edit of an existing file or the write of
a new file) followed, once the tool result comes back, by a short final text. ``quote`` makes no
tool call: its final answer quotes prompt-looking text (a negative case for detection).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, NamedTuple

SCENARIO_RE = re.compile(r"SCENARIO ([a-z_]+)")

SHELL_FILE = "paw-shell.txt"
EDIT_FILE = "README.md"
EDIT_OLD = "hello from the demo"
EDIT_NEW = "hello from paw"
WRITE_FILE = "paw-new.txt"
WRITE_CONTENT = "written by the paw e2e stub\n"
SHELL_COMMAND = f"touch {SHELL_FILE}"
EDIT_OLD_B = "second line of the demo"
EDIT_NEW_B = "second line changed by paw"
README_TEXT = f"# Demo\n\n{EDIT_OLD}\n{EDIT_OLD_B}\n"

QUOTED_PROMPTS = """Here is what the prompts look like, quoted for the docs:

    Do you want to proceed?
    ❯ 1. Yes
      2. No
    Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]:
    △ Permission required
    Allow once   Allow always   Reject

Nothing to approve here: this is only an example."""


class Action(NamedTuple):
    """One scripted tool call."""

    kind: str  # shell | edit | write | mcp | fetch | question
    command: str = ""
    path: str = ""
    old: str = ""
    new: str = ""
    content: str = ""


# ``<kind>`` is approved in the tests, ``<kind>_deny`` denied: separate files, separate effects.
MCP_TOOL = "paw_probe"  # tests/e2e/mcp_server.py
MCP_MARKER = "paw-mcp.txt"
MULTILINE_COMMAND = "\n".join(
    [f"echo line-{n} >> paw-multiline.txt" for n in range(1, 7)] + ["touch paw-multiline-done.txt"]
)
# twenty lines, longer than some agents' dialogs are tall; and a command with an empty line
LONG_COMMAND = "\n".join(
    [f"echo line-{n} >> paw-long.txt" for n in range(1, 20)] + ["touch paw-long-done.txt"]
)
BLANK_COMMAND = "ls\n\ntouch paw-blank-done.txt"
PIPE_COMMAND = "printf '%s\\n' \"alpha beta\" 'gamma|delta' | grep -c \"a\" > paw-pipe.txt"
LONG_EDIT_FILE = "src/paw_heldout/deeply/nested/package/with_a_rather_long_module_name.md"
FETCH_URL = "https://example.invalid/paw/heldout/page.html"
ASK_QUESTION = "Which file should paw change next?"
ASK_CHOICES = ("README.md", "notes/drafts/paw-subdir-new.txt")
SLOW_SECONDS = 20.0
SCENARIOS: dict[str, Action | None] = {
    "shell": Action("shell", command=SHELL_COMMAND),
    "shell_deny": Action("shell", command="touch paw-shell-denied.txt"),
    "edit": Action("edit", path=EDIT_FILE, old=EDIT_OLD, new=EDIT_NEW),
    "edit_deny": Action("edit", path=EDIT_FILE, old=EDIT_OLD_B, new=EDIT_NEW_B),
    "write": Action("write", path=WRITE_FILE, content=WRITE_CONTENT),
    "write_deny": Action("write", path="paw-denied.txt", content=WRITE_CONTENT),
    "quote": None,
    # a command of seven lines: agents that show only its first lines must say so
    "shell_multiline": Action("shell", command=MULTILINE_COMMAND),
    # tests/e2e/test_cut_command_live.py: listed whole, or incomplete and never allowed
    "shell_long": Action("shell", command=LONG_COMMAND),
    "shell_blank": Action("shell", command=BLANK_COMMAND),
    # a call of the MCP tool of tests/e2e/mcp_server.py, where an agent is given that server
    "mcp": Action("mcp", path=MCP_MARKER, content="hello from paw"),
    # held-out turns (tests/e2e/heldout.py): quotes and a pipe, a new file in a subfolder, an
    # edit of a file with a long path, a fetch of a URL, and a slow turn (a busy screen)
    "shell_pipe": Action("shell", command=PIPE_COMMAND),
    "write_subdir": Action("write", path="notes/drafts/paw-subdir-new.txt", content=WRITE_CONTENT),
    "edit_long": Action("edit", path=LONG_EDIT_FILE, old=EDIT_OLD, new=EDIT_NEW),
    "fetch": Action("fetch", command=FETCH_URL),
    "ask": Action("question", command=ASK_QUESTION),
    "slow": None,
}


def effect_done(action: Action, repo: Path) -> bool:
    """Whether ``action`` took effect in ``repo``."""
    if action.kind == "shell":
        return (repo / action.command.split()[-1]).exists()
    target = repo / action.path
    if action.kind in ("fetch", "question"):
        return False
    if action.kind in ("write", "mcp"):
        return target.exists()
    text = target.read_text(encoding="utf-8") if target.exists() else ""
    return action.new in text and action.old not in text


def subject_of(action: Action) -> str:
    """What a detector should report as the prompt's subject."""
    if action.kind == "mcp":
        return MCP_TOOL
    if action.kind in ("fetch", "question"):
        return action.command
    return action.command if action.kind == "shell" else action.path


# Tool names by kind, in the order they are looked up in a request's tool list.
TOOL_NAMES: dict[str, tuple[str, ...]] = {
    "shell": ("Bash", "run_shell_command", "bash", "exec_command", "shell", "run_commands"),
    "edit": ("Edit", "replace", "edit", "editor"),
    "write": ("Write", "write_file", "write", "editor"),
    "mcp": (MCP_TOOL,),
    "fetch": ("WebFetch", "web_fetch", "webfetch", "fetch", "Fetch", "fetch_web_content"),
    "question": (
        "AskUserQuestion",
        "AskQuestion",
        "ask_user_question",
        "request_user_input",
        "question",
        "ask_followup_question",
        "ask_question",
    ),
}
PATH_KEYS = ("file_path", "filePath", "filepath", "absolute_path", "path")
OLD_KEYS = ("old_string", "oldString", "old_text")
NEW_KEYS = ("new_string", "newString", "new_text")
CONTENT_KEYS = ("content", "new_text")
COMMAND_KEYS = ("command", "cmd", "commands")


def final_text(name: str) -> str:
    """The final answer after the tool result (or instead of a tool call, for ``quote``)."""
    if name == "quote":
        return QUOTED_PROMPTS
    return f"Finished scenario {name}."


def find_scenario(text: str) -> str | None:
    """The scenario named in a user message, if any."""
    names = [n for n in SCENARIO_RE.findall(text) if n in SCENARIOS]
    return names[-1] if names else None


class ToolCall(NamedTuple):
    """A tool call ready to encode: tool name and its arguments."""

    name: str
    arguments: dict[str, Any]
    id: str = ""


def _pick(props: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    return next((k for k in keys if k in props), None)


def _fill_required(args: dict[str, Any], schema: dict[str, Any]) -> None:
    props = schema.get("properties") or {}
    for key in schema.get("required") or ():
        if key in args:
            continue
        kind = (props.get(key) or {}).get("type", "string")
        args[key] = {"boolean": False, "integer": 1, "number": 1}.get(
            str(kind).lower(), "paw e2e step"
        )


def codex_call(name: str, action: Action, workdir: str, schema: dict[str, Any]) -> ToolCall:
    """Codex has no edit tool: edits are an ``apply_patch`` heredoc run by ``exec_command``."""
    if action.kind == "shell":
        cmd = action.command
    elif action.kind == "edit":
        body = f"*** Update File: {action.path}\n@@\n-{action.old}\n+{action.new}"
    else:
        lines = "".join(f"+{line}\n" for line in action.content.splitlines())
        body = f"*** Add File: {action.path}\n{lines}".rstrip("\n")
    if action.kind != "shell":
        cmd = f"apply_patch <<'EOF'\n*** Begin Patch\n{body}\n*** End Patch\nEOF"
    props = schema.get("properties") or {}
    args: dict[str, Any] = {}
    key = _pick(props, COMMAND_KEYS) or "cmd"
    if (props.get(key) or {}).get("type") == "array":
        args[key] = ["bash", "-lc", cmd]
    else:
        args[key] = cmd
    if "workdir" in props:
        args["workdir"] = workdir
    if action.kind == "shell" and "sandbox_permissions" in props:
        args["sandbox_permissions"] = "require_escalated"
        args["justification"] = "paw e2e: create a marker file"
    return ToolCall(name, args)


def _ask_or_fetch_args(action: Action, props: dict[str, Any]) -> dict[str, Any]:
    """Arguments of a question tool (one question, two choices) or of a fetch of a URL."""
    args: dict[str, Any] = {}
    if action.kind == "fetch":
        wanted = {"url": action.command, "prompt": f"Summarise {action.command}", "format": "text"}
        return {k: v for k, v in wanted.items() if k in props}
    options = [{"label": c, "description": f"change {c}"} for c in ASK_CHOICES]
    if "questions" in props:
        one = {"question": action.command, "header": "File", "multiSelect": False}
        args["questions"] = [{**one, "options": options}]
    if "question" in props:
        args["question"] = action.command
    for key in ("options", "choices"):
        if key in props:
            args[key] = list(ASK_CHOICES)
    return args


def tool_call(action: Action, workdir: str, tools: dict[str, dict[str, Any]]) -> ToolCall:
    """Build the tool call for ``action`` against the tools this request offers."""
    name = next((n for n in TOOL_NAMES[action.kind] if n in tools), None)
    if name is None and "exec_command" in tools and action.kind not in ("mcp", "fetch", "question"):
        return codex_call("exec_command", action, workdir, tools["exec_command"])
    if name is None:
        raise LookupError(f"no {action.kind} tool among {sorted(tools)}")
    if name in ("exec_command", "shell"):
        return codex_call(name, action, workdir, tools[name])
    schema = tools[name]
    props = schema.get("properties") or {}
    args: dict[str, Any] = {}
    if action.kind == "mcp":
        args["note"] = action.content
    elif action.kind in ("question", "fetch"):
        args.update(_ask_or_fetch_args(action, props))
    elif action.kind == "shell":
        key = _pick(props, COMMAND_KEYS) or "command"
        array = (props.get(key) or {}).get("type") == "array"
        args[key] = [action.command] if array else action.command
        if "description" in props:
            args["description"] = "Create a marker file"
    else:
        args[_pick(props, PATH_KEYS) or "file_path"] = f"{workdir.rstrip('/')}/{action.path}"
        if action.kind == "edit":
            args[_pick(props, OLD_KEYS) or "old_string"] = action.old
            args[_pick(props, NEW_KEYS) or "new_string"] = action.new
        else:
            args[_pick(props, CONTENT_KEYS) or "content"] = action.content
    _fill_required(args, schema)
    return ToolCall(name, args)


READ_NAMES = ("Read", "read_file", "read")


def plan(action: Action, workdir: str, tools: dict[str, dict[str, Any]]) -> list[ToolCall]:
    """The tool calls of one scenario: an edit reads its file first where a read tool exists
    (some agents refuse to edit a file they have not read)."""
    steps: list[ToolCall] = []
    read = next((n for n in READ_NAMES if n in tools), None)
    if action.kind == "edit" and read is not None:
        props = tools[read].get("properties") or {}
        args: dict[str, Any] = {
            _pick(props, PATH_KEYS) or "file_path": f"{workdir.rstrip('/')}/{action.path}"
        }
        _fill_required(args, tools[read])
        steps.append(ToolCall(read, args))
    steps.append(tool_call(action, workdir, tools))
    return steps


def text_reply(name: str) -> str:
    """For agents without tools (aider): the scenario as a fenced command or an edit block."""
    action = SCENARIOS[name]
    if action is None:
        return final_text(name)
    if action.kind == "shell":
        return f"Run this:\n\n```bash\n{action.command}\n```\n"
    search = "" if action.kind == "write" else action.old + "\n"
    replace = action.content if action.kind == "write" else action.new + "\n"
    block = f"<<<<<<< SEARCH\n{search}=======\n{replace}>>>>>>> REPLACE"
    return f"I will change the file.\n\n{action.path}\n```\n{block}\n```\n"


def dumps(args: dict[str, Any]) -> str:
    """Tool arguments as the JSON string the wire formats carry."""
    return json.dumps(args, ensure_ascii=False)
