"""Hand-written screens in the real layouts, for dialogs and widths the corpus does not hold."""

from __future__ import annotations

import re
from typing import NamedTuple

import pytest

from paw.core.detect import detect
from paw.core.detect.prompts import is_fold_row
from paw.core.models import Action, DetectionState, PromptKind
from paw.demo.agent import Step, render_box
from tests.detect.corpus import CORPUS, Case, load_cases, load_live_cases
from tests.detect.reflow import add_rail, hard_wrap, reflow
from tests.support.judging import judge, marked_incomplete

RULE80 = "─" * 80


def _screen(lines: list[str]) -> str:
    return "\n".join(lines)


DASH80 = "╌" * 80


class Variant(NamedTuple):
    """A screen and what the detector must report for it."""

    test_id: str
    agent: str
    screen: str
    state: DetectionState
    kind: PromptKind | None = None
    subject: str | None = None
    approve: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()
    always: tuple[str, ...] | None = None


AIDER_NO_GIT_80 = _screen(
    [
        "Analytics have been permanently disabled.",
        RULE80,
        "No git repo found, create one to track aider's changes (recommended)? (Y)es/(N)o",
        " [Yes]:",
    ]
)
AIDER_GROUP = _screen(
    [
        RULE80,
        "src/app.py",
        "diff> SCENARIO mention",
        "",
        "Please add src/util.py and src/extra.py to the chat.",
        "",
        "Tokens: 2.5k sent, 21 received.",
        "",
        "src/util.py",
        "Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]:",
    ]
)
QWEN_BUSY = _screen(
    [
        "  > SCENARIO slow",
        "",
        "  ⠋ Reticulating splines (3s · ↓ 120 tokens · esc to cancel)",
        "",
        "─" * 120,
        ">   Type your message or @path/to/file",
        "─" * 120,
        "  ➜ demo · git:(main) · paw-fake-model",
        "  ⏸ Ask permissions (shift + tab to cycle)",
    ]
)
CLAUDE_TRUST = _screen(
    [
        RULE80,
        " Accessing workspace:",
        "",
        " /home/u/src/demo-app",
        "",
        " Quick safety check: Is this a project you created or one you trust?",
        "",
        " ❯ 1. Yes, I trust this folder",
        "   2. No, exit",
        "",
        " Enter to confirm · Esc to cancel",
    ]
)
CLAUDE_EDIT_80 = _screen(
    [
        "● Update(README.md)",
        RULE80,
        " Edit file",
        " README.md",
        DASH80,
        "  1  # Demo",
        "  2 -Status: draft",
        "  2 +Status: reviewed",
        DASH80,
        " Do you want to make this edit to README.md?",
        " ❯ 1. Yes",
        "   2. Yes, allow all edits during this session (shift+tab)",
        "   3. No, and tell Claude what to do differently (esc)",
        "",
        " Esc to cancel · Tab to amend",
    ]
)
CODEX_HEREDOC = _screen(
    [
        "› SCENARIO tricky",
        "",
        "• Running cat <<'EOF' > notes.txt",
        "",
        "  Would you like to run the following command?",
        "",
        "  Reason: write the notes file",
        "",
        "  $ cat <<'EOF' > notes.txt",
        "  Would you like to make the following edits?",
        "  EOF",
        "",
        "› 1. Yes, proceed (y)",
        "  2. No, and tell Codex what to do differently (esc)",
        "",
        "  Press enter to confirm or esc to cancel",
    ]
)
GEMINI_WAITING = _screen(
    [
        "✦ PAW step 1 of shell.",
        "",
        "╭" + "─" * 78 + "╮",
        "│ ? Shell  ls -la" + " " * 62 + "│",
        "│ ╭" + "─" * 74 + "╮ │",
        "│ │ ls -la" + " " * 67 + "│ │",
        "│ ╰" + "─" * 74 + "╯ │",
        "│ Allow execution of [Shell]?" + " " * 50 + "│",
        "│" + " " * 78 + "│",
        "│ ● 1. Allow once" + " " * 62 + "│",
        "│   2. Allow for this session" + " " * 50 + "│",
        "│   3. No, suggest changes (esc)" + " " * 47 + "│",
        "╰" + "─" * 78 + "╯",
        "",
        " ⠏ Waiting for user confirmation...",
    ]
)
OPENCODE_EDIT = _screen(
    [
        "  ┃  SCENARIO edit",
        "",
        "     ← Edit src/app.py",
        "",
        "  ┃",
        "  ┃  △ Permission required",
        "  ┃    → Edit src/app.py",
        "  ┃",
        "  ┃  2 -     return 'Hello, ' + name",
        "  ┃  2 +     return 'Hello, ' + name + '!'",
        "  ┃",
        "  ┃   Allow once   Allow always   Reject     ctrl+f fullscreen  ⇆ select  enter confirm",
        "  ┃",
    ]
)

VARIANTS = [
    Variant(
        "aider-wrapped-question-80",
        "aider",
        AIDER_NO_GIT_80,
        DetectionState.PROMPT,
        PromptKind.OTHER,
        "git repo",
        ("y", "Enter"),
        ("n", "Enter"),
    ),
    Variant(
        "aider-group-question",
        "aider",
        AIDER_GROUP,
        DetectionState.PROMPT,
        PromptKind.OTHER,
        "src/util.py",
        ("y", "Enter"),
        ("n", "Enter"),
    ),
    Variant("qwen-loading-line-is-busy", "qwen-code", QWEN_BUSY, DetectionState.BUSY),
    Variant(
        "claude-folder-trust",
        "claude-code",
        CLAUDE_TRUST,
        DetectionState.PROMPT,
        PromptKind.OTHER,
        "/home/u/src/demo-app",
        ("Enter",),
        ("Escape",),
    ),
    Variant(
        "claude-edit-file-80",
        "claude-code",
        CLAUDE_EDIT_80,
        DetectionState.PROMPT,
        PromptKind.EDIT,
        "README.md",
        ("1",),
        ("Escape",),
        ("2",),
    ),
    Variant(
        "codex-command-quoting-a-question",
        "codex",
        CODEX_HEREDOC,
        DetectionState.PROMPT,
        PromptKind.SHELL,
        "cat <<'EOF' > notes.txt\nWould you like to make the following edits?\nEOF",
        ("y",),
        ("Escape",),
    ),
    Variant(
        "gemini-box-above-waiting-spinner",
        "gemini-cli",
        GEMINI_WAITING,
        DetectionState.PROMPT,
        PromptKind.SHELL,
        "ls -la",
        ("1",),
        ("Escape",),
        ("2",),
    ),
    Variant(
        "opencode-edit",
        "opencode",
        OPENCODE_EDIT,
        DetectionState.PROMPT,
        PromptKind.EDIT,
        "src/app.py",
        ("Enter",),
        ("Right", "Right", "Enter"),
        ("Right", "Enter", "Enter"),
    ),
]


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.test_id for v in VARIANTS])
def test_detect_hand_written_variant(variant: Variant) -> None:
    found = detect(variant.screen, variant.agent)
    assert found.state is variant.state
    if variant.state is not DetectionState.PROMPT:
        assert found.prompt is None
        return
    prompt = found.prompt
    assert prompt is not None
    assert (prompt.kind, prompt.subject) == (variant.kind, variant.subject)
    assert (prompt.approve_keys, prompt.deny_keys) == (variant.approve, variant.deny)
    assert prompt.always_keys == variant.always


def test_detect_aider_group_question_never_offers_dont_ask_as_always() -> None:
    prompt = detect(AIDER_GROUP, "aider").prompt
    assert prompt is not None
    assert prompt.options == ("Yes", "No", "All", "Skip all", "Don't ask again")
    assert prompt.always_keys is None


def _recolour_choices(ansi: str, highlight: str) -> str:
    """The opencode dialog with ``highlight`` drawn as the selected choice instead."""
    plain_bg, selected_bg = "\x1b[48;5;234m", "\x1b[48;5;215m"
    lines = ansi.split("\n")
    for index, line in enumerate(lines):
        if "Allow once" in line and "Reject" in line:
            line = line.replace(selected_bg + " \x1b[38;5;232mAllow once", plain_bg + " Allow once")
            lines[index] = line.replace(
                f"\x1b[38;5;8m{highlight}", f"{selected_bg}\x1b[38;5;232m{highlight}{plain_bg}"
            )
    return "\n".join(lines)


class Highlight(NamedTuple):
    test_id: str
    label: str
    approve: tuple[str, ...]
    deny: tuple[str, ...]
    always: tuple[str, ...]


HIGHLIGHTS = [
    Highlight(
        "on-reject", "Reject", ("Left", "Left", "Enter"), ("Enter",), ("Left", "Enter", "Enter")
    ),
    Highlight(
        "on-always", "Allow always", ("Left", "Enter"), ("Right", "Enter"), ("Enter", "Enter")
    ),
]


@pytest.mark.parametrize("case", HIGHLIGHTS, ids=[h.test_id for h in HIGHLIGHTS])
def test_detect_opencode_keys_follow_highlighted_choice(case: Highlight) -> None:
    ansi = (CORPUS / "opencode" / "git_push" / "screen.ansi").read_text(encoding="utf-8")
    fresh = detect(ansi, "opencode").prompt
    moved = detect(_recolour_choices(ansi, case.label), "opencode").prompt
    assert fresh is not None
    assert moved is not None
    assert (moved.approve_keys, moved.deny_keys, moved.always_keys) == (
        case.approve,
        case.deny,
        case.always,
    )
    assert moved.fingerprint != fresh.fingerprint  # a moved highlight fails re-verification


def test_detect_moved_selection_changes_fingerprint() -> None:
    text = (CORPUS / "qwen-code" / "shell_short" / "screen.txt").read_text(encoding="utf-8")
    moved = text.replace("   › 1. Yes, allow once", "     1. Yes, allow once").replace(
        "     4. No, suggest changes (esc)", "   › 4. No, suggest changes (esc)"
    )
    fresh, after = detect(text, "qwen-code").prompt, detect(moved, "qwen-code").prompt
    assert fresh is not None
    assert after is not None
    assert after.approve_keys == ("1",)
    assert after.fingerprint != fresh.fingerprint


GEMINI_TRUST = _screen(
    [
        "╭" + "─" * 78 + "╮",
        "│ Do you trust the files in this folder?" + " " * 39 + "│",
        "│" + " " * 78 + "│",
        "│ Trusting a folder allows Gemini CLI to load its local configurations." + " " * 8 + "│",
        "│" + " " * 78 + "│",
        "│ ● 1. Trust folder (demo-app)" + " " * 49 + "│",
        "│   2. Trust parent folder (src)" + " " * 47 + "│",
        "│   3. Don't trust" + " " * 61 + "│",
        "╰" + "─" * 78 + "╯",
    ]
)


def test_detect_gemini_folder_trust_denies_with_the_option_not_escape() -> None:
    """Escape quits gemini-cli at its trust dialog; "Don't trust" is the deny."""
    prompt = detect(GEMINI_TRUST, "gemini-cli").prompt
    assert prompt is not None
    assert (prompt.kind, prompt.subject) == (PromptKind.OTHER, "demo-app")
    assert (prompt.approve_keys, prompt.deny_keys) == (("Enter",), ("Down", "Down", "Enter"))


def test_detect_claude_write_with_title_scrolled_off() -> None:
    """On a short pane the dialog's top (rule and title) may be gone; the question remains."""
    text = (CORPUS / "claude-code" / "write_120x40" / "screen.txt").read_text(encoding="utf-8")
    lines = text.rstrip("\n").split("\n")
    short = "\n".join(lines[lines.index(" paw-new.txt") + 1 :])
    prompt = detect(short, "claude-code").prompt
    assert prompt is not None
    assert (prompt.kind, prompt.subject) == (PromptKind.WRITE, "paw-new.txt")
    assert (prompt.approve_keys, prompt.deny_keys) == (("1",), ("Escape",))


CODEX_LONGEST_LINE_IS_COMMAND = _screen(
    [
        "  Would you like to run the following command?",
        "",
        "  $ echo 'a long first line of the command that is the widest text on screen'",
        "  rm -rf build",
        "",
        "› 1. Yes, proceed (y)",
        "  2. No, and tell Codex what to do differently (esc)",
        "",
        "  Press enter to confirm or esc to cancel",
    ]
)
AIDER_RULE_SCROLLED_OFF = _screen(
    [
        "Tokens: 2.5k sent, 54 received.",
        "",
        "echo 'a long first line of the command that is the widest text on screen'",
        "rm -rf build",
        "Run shell commands? (Y)es/(N)o/(D)on't ask again [Yes]:",
    ]
)


@pytest.mark.parametrize(
    ("agent", "screen"),
    [("codex", CODEX_LONGEST_LINE_IS_COMMAND), ("aider", AIDER_RULE_SCROLLED_OFF)],
    ids=["codex", "aider"],
)
def test_detect_never_joins_command_lines_without_a_proven_width(agent: str, screen: str) -> None:
    """A line is treated as wrapped only if a full-width rule or box edge proves the pane width:
    joining two real lines would hide the second command from the guard."""
    prompt = detect(screen, agent).prompt
    assert prompt is not None
    assert prompt.subject is not None
    assert prompt.subject.endswith("\nrm -rf build")


def _box(rows: list[str], width: int = 80) -> list[str]:
    inner = width - 4
    return [
        "╭" + "─" * (width - 2) + "╮",
        *(f"│ {row:<{inner}} │" for row in rows),
        "╰" + "─" * (width - 2) + "╯",
    ]


GEMINI_ASK_USER = _screen(
    [
        "✦ I need one decision before I start.",
        "",
        *_box(
            [
                "Test runner",
                "",
                "Which test runner should I set up for this project?",
                "",
                "● 1. pytest",
                "     Plain asserts, fixtures, most common choice",
                "  2. unittest",
                "     Standard library only, no new dependency",
                "  3. Other...",
                "",
                "Enter to select · ↑/↓ to navigate · Esc to cancel",
            ]
        ),
    ]
)


def test_detect_gemini_ask_user_is_a_question() -> None:
    prompt = detect(GEMINI_ASK_USER, "gemini-cli").prompt
    assert prompt is not None
    assert prompt.kind is PromptKind.QUESTION
    assert prompt.subject == "Which test runner should I set up for this project?"
    assert (prompt.approve_keys, prompt.deny_keys) == ((), ("Escape",))


BUSY_CASES = [c for c in load_cases() + load_live_cases() if c.meta["state"] == "busy"]
_HINT_KEY = re.compile(r"\besc(?= (?:to )?(?:interrupt|cancel))")


@pytest.mark.parametrize("key", ["ctrl+q", "ctrl-c", "^G"])
@pytest.mark.parametrize(
    "case",
    [c for c in BUSY_CASES if _HINT_KEY.search(c.text())],
    ids=[c.test_id for c in BUSY_CASES if _HINT_KEY.search(c.text())],
)
def test_detect_busy_hint_with_a_rebound_key_is_busy(case: Case, key: str) -> None:
    """Users rebind the interrupt key: "ctrl+q to interrupt" is as busy as "esc to interrupt"."""
    rebound = _HINT_KEY.sub(key, case.text())
    assert rebound != case.text()
    assert detect(rebound, case.agent).state is DetectionState.BUSY


def _opencode_always_box(rows: list[str]) -> str:
    """The corpus ``git_push`` screen with its request replaced by the "Always allow" step."""
    text = (CORPUS / "opencode" / "git_push" / "screen.txt").read_text(encoding="utf-8")
    lines = text.rstrip("\n").split("\n")
    title = next(i for i, line in enumerate(lines) if "△ Permission required" in line)
    return "\n".join([*lines[: title - 1], *rows])


OPENCODE_ALWAYS_ROWS = [
    "  ┃",
    "  ┃  △ Always allow",
    "  ┃    # Shell command",
    "  ┃",
    "  ┃  $ git push origin main",
    "  ┃",
    "  ┃  This allows the command until opencode restarts.",
    "  ┃",
    "  ┃   Confirm   Cancel" + " " * 50 + "⇆ select  enter confirm",
    "  ┃",
]


def test_detect_opencode_always_allow_confirmation_is_a_live_prompt() -> None:
    """ "Allow always" opens a second box, Confirm / Cancel: it waits for the human too. Its
    Confirm remembers the permission, so it is offered as "always" only; nothing approves once
    and Cancel is not a deny."""
    prompt = detect(_opencode_always_box(OPENCODE_ALWAYS_ROWS), "opencode").prompt
    assert prompt is not None
    assert (prompt.kind, prompt.subject) == (PromptKind.SHELL, "git push origin main")
    assert (prompt.approve_keys, prompt.deny_keys, prompt.always_keys) == ((), (), ("Enter",))
    assert prompt.options == ("Confirm", "Cancel")


@pytest.mark.parametrize("width", [40, 30])
def test_detect_opencode_always_allow_confirmation_on_a_narrow_pane(width: int) -> None:
    narrow = reflow(_opencode_always_box(OPENCODE_ALWAYS_ROWS), width)
    prompt = detect(narrow, "opencode").prompt
    assert prompt is not None
    assert prompt.always_keys == ("Enter",)
    assert prompt.approve_keys == ()


def test_detect_opencode_always_allow_confirmation_quoted_is_not_live() -> None:
    quoted = ["     Earlier opencode asked:", *("  " + row for row in OPENCODE_ALWAYS_ROWS)]
    found = detect(_opencode_always_box(quoted), "opencode")
    assert found.state is not DetectionState.PROMPT


SCRIPTED_SUBJECT = "git push origin main --force-with-lease " + "x" * 40


@pytest.mark.parametrize("cols", [80, 40, 30, 20])
@pytest.mark.parametrize("kind", ["shell", "write"])
def test_detect_scripted_box_cut_by_a_narrow_pane(kind: str, cols: int) -> None:
    """The demo agent prints its box unwrapped; a narrow pane cuts every box line into rows
    (a long subject too): they are joined again, and a joined subject carries the wrap note."""
    box = render_box(Step(kind, SCRIPTED_SUBJECT))
    screen = hard_wrap("\n".join(["⠿ working… done", *box]), cols)
    prompt = detect(screen, "scripted").prompt
    assert prompt is not None
    assert (prompt.kind.value, prompt.subject) == (kind, SCRIPTED_SUBJECT)
    assert (prompt.approve_keys, prompt.deny_keys, prompt.always_keys) == (("y",), ("n",), ("a",))
    wide = detect("\n".join(box), "scripted").prompt
    assert wide is not None
    assert prompt.fingerprint == wide.fingerprint


def test_detect_scripted_box_with_a_scrollbar_column() -> None:
    box = render_box(Step("shell", "ls -la"))
    railed = add_rail("\n".join(box), len(box[0]) + 3)
    prompt = detect(railed, "scripted").prompt
    assert prompt is not None
    assert prompt.subject == "ls -la"


@pytest.mark.parametrize("indent", ["  ", "    "])
def test_detect_scripted_box_quoted_indented_is_not_live(indent: str) -> None:
    box = render_box(Step("shell", "rm -rf build"))
    screen = "\n".join(["demo> what did you ask?", *(indent + line for line in box)])
    assert detect(screen, "scripted").state is not DetectionState.PROMPT


SHELL_CASES = [
    c
    for c in load_cases() + load_live_cases()
    if c.meta.get("prompt_kind") == "shell" and c.meta["state"] == "permission_prompt"
]
FOLDS = ["… +3 lines (ctrl+r to expand)", "... 12 more lines", "show more lines"]


def _fold_command(text: str, agent: str) -> str | None:
    """``text`` with a fold hint drawn under the command's first row, as a short pane shows."""
    prompt = detect(text, agent).prompt
    if prompt is None or not prompt.subject:
        return None
    first = prompt.subject.split("\n")[0].strip()
    lines = text.rstrip("\n").split("\n")
    for index in range(len(lines) - 2, -1, -1):  # the dialog's copy, the last on screen
        line = lines[index]
        at = line.find(first[:20])
        if at >= 0:
            hint = line[:at] + FOLDS[index % len(FOLDS)]
            closing = line[at + len(first) :]
            return "\n".join([*lines[: index + 1], hint + closing, *lines[index + 1 :]])
    return None


@pytest.mark.parametrize("case", SHELL_CASES, ids=[c.test_id for c in SHELL_CASES])
def test_detect_folded_command_is_never_the_whole(case: Case) -> None:
    """A command the agent folded ("… +3 lines") is not the whole subject: the prompt is listed
    (a human must hear that the agent waits) without the fold's row, marked incomplete, and the
    guard never allows it. (A row that holds the mark beside other text, here the layout's own
    prefix, stays in the subject: see the hostile fold below.)"""
    folded = _fold_command(case.text(), case.agent)
    if folded is None:
        pytest.fail(f"the command of {case.test_id} is not on its screen")
    found = detect(folded, case.agent)
    if found.state is not DetectionState.PROMPT:  # unknown is safe too (a human looks)
        assert found.state is DetectionState.UNKNOWN, found
        return
    assert found.prompt is not None
    rows = (found.prompt.subject or "").split("\n")
    assert not any(is_fold_row(row) for row in rows)  # a row beside other text is kept
    assert marked_incomplete(found), found
    assert judge(found).action is not Action.ALLOW


GEMINI_FOLDED = _screen(
    [
        "✦ PAW step 1 of shell.",
        "",
        *_box(
            [
                "? Shell  for f in a b c; do echo $f; done",
                "╭" + "─" * 74 + "╮",
                "│ ... first 4 lines hidden ..." + " " * 45 + "│",
                "│ rm -rf build" + " " * 61 + "│",
                "╰" + "─" * 74 + "╯",
                "Press ctrl-s to show more lines",
                "Allow execution of [Shell]?",
                "",
                "● 1. Allow once",
                "  2. Allow for this session",
                "  3. No, suggest changes (esc)",
            ]
        ),
    ]
)


def test_detect_gemini_folded_command_is_marked_incomplete() -> None:
    """gemini-cli folds a command taller than the pane ("first 4 lines hidden", "show more
    lines"): the rows left are not the command, so the prompt is listed marked incomplete."""
    found = detect(GEMINI_FOLDED, "gemini-cli")
    assert found.prompt is not None, found
    assert found.prompt.subject == "rm -rf build"
    assert marked_incomplete(found)
    assert judge(found).action is not Action.ALLOW
    unfolded = GEMINI_FOLDED.replace("... first 4 lines hidden ...", "echo one             ")
    unfolded = unfolded.replace(
        "Press ctrl-s to show more lines", "                               "
    )
    prompt = detect(unfolded, "gemini-cli").prompt
    assert prompt is not None  # control: the same box without the fold is a prompt
    assert prompt.subject == "echo one\nrm -rf build"


HOSTILE = "rm -rf ~ # … +3 lines"


def _hostile_fold(text: str, agent: str) -> str | None:
    """``text`` with every copy of the command's first row (the dialog's, the transcript's, an
    option's) replaced by a dangerous line that ends with a fold mark (None when that row is
    too short to hold it)."""
    prompt = detect(text, agent).prompt
    first = prompt.subject.split("\n")[0].strip() if prompt and prompt.subject else ""
    if len(first) < len(HOSTILE) or first not in text:
        return None
    return text.replace(first, HOSTILE.ljust(len(first)))


HOSTILE_CASES = [c for c in SHELL_CASES if _hostile_fold(c.text(), c.agent) is not None]


def test_there_are_commands_long_enough_for_the_hostile_fold() -> None:
    assert len({c.agent for c in HOSTILE_CASES}) >= 6


@pytest.mark.parametrize("case", HOSTILE_CASES, ids=[c.test_id for c in HOSTILE_CASES])
def test_detect_a_fold_mark_beside_a_command_never_hides_it(case: Case) -> None:
    """A model's command that prints a fold mark after a dangerous line ("rm -rf ~ # … +3
    lines") keeps that line in the subject: only a row that is the mark alone is dropped, so
    the guard still blocks what it would block, marked incomplete."""
    text = _hostile_fold(case.text(), case.agent)
    assert text is not None
    found = detect(text, case.agent)
    if found.state is not DetectionState.PROMPT:
        assert found.state is DetectionState.UNKNOWN, found
        return
    assert found.prompt is not None
    assert "rm -rf ~" in (found.prompt.subject or ""), found.prompt
    assert marked_incomplete(found)
    assert judge(found).action is Action.BLOCK
