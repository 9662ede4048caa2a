"""Build detector answers: prompts with their fingerprint, and non-prompt states."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from paw.core.detect.screen import Screen, collapse_whitespace, fingerprint
from paw.core.models import Detection, DetectionState, Prompt, PromptKind

if TYPE_CHECKING:
    from paw.core.agentspec import AgentSpec

_URL = re.compile(r"https?://[^\s\"'<>`)\]]+")
_READ_SUBJECTS = (PromptKind.SHELL, PromptKind.EDIT, PromptKind.WRITE, PromptKind.FETCH)
# What an agent prints in place of lines it folded away: "… +12 lines (ctrl+r to expand)",
# "... 3 more lines", "12 lines hidden", "show more lines", codex's "[… 26 lines] ^a view all".
HIDDEN_LINES = re.compile(
    r"(?:^|[\s…⋯.(])(?:\+\s?\d+\s+(?:more\s+)?lines?\b|\d+\s+more\s+lines?\b"
    r"|\d+\s+lines?\s+(?:hidden|not\s+shown)\b|show\s+(?:\d+\s+)?more\s+lines?\b)"
    r"|\[[…⋯]\s?\d+\s+lines?\]",
    re.IGNORECASE,
)

# A key as agents print it in their hints: the default ``esc`` or a rebound one.
HINT_KEY = r"(?:esc|escape|(?:ctrl|control|alt|option|meta|shift|cmd)[+-]\w+|[⌃^]\w|⌥\w)"


class KeyHint:
    r"""A key hint such as ``esc to interrupt``, for any key (users rebind it: ``ctrl+q``).

    ``verb`` is a pattern for what follows the key (``to interrupt``, ``to cancel\)``);
    ``opening`` what may stand right before the key (``\(`` for ``(esc to cancel, 5s)``). The
    verb is searched first and the key checked just before it: a scan for every possible key
    at every column would cost more than the rest of the detector.
    """

    __slots__ = ("_key", "_verb")

    def __init__(self, verb: str, opening: str = r"(?:^|[^\w+-])") -> None:
        self._verb = re.compile(verb, re.IGNORECASE)
        self._key = re.compile(rf"{opening}{HINT_KEY}\s+$", re.IGNORECASE)

    def search(self, line: str) -> bool:
        """True if ``line`` holds the hint."""
        verbs = self._verb.finditer(line)
        return any(self._key.search(line, 0, match.start()) for match in verbs)


def interrupt_hint(verb: str) -> KeyHint:
    """The busy hint ``<key> <verb>`` (``esc to interrupt``); ``to`` in ``verb`` is optional."""
    words = [re.escape(word) for word in verb.split() if word != "to"]
    return KeyHint(r"(?<!\S)(?:to\s+)?" + r"\s+".join(words) + r"\b")


def make_prompt(
    kind: PromptKind,
    subject: str | None,
    question: str,
    *,
    approve: Sequence[str],
    deny: Sequence[str],
    always: Sequence[str] | None = None,
    options: Sequence[str] = (),
    selected: str | None = None,
) -> Prompt:
    """A :class:`Prompt` with its fingerprint (kind + subject + question + options + the
    highlighted option, when the dialog has one)."""
    question = collapse_whitespace(question)
    subject = subject.strip("\n") if subject else None
    return Prompt(
        kind=kind,
        subject=subject or None,
        question=question,
        approve_keys=tuple(approve),
        deny_keys=tuple(deny),
        fingerprint=fingerprint(kind.value, subject, question, tuple(options), selected),
        always_keys=tuple(always) if always else None,
        options=tuple(options),
    )


def prompt_found(agent: str, prompt: Prompt, *notes: str, body: Sequence[str] = ()) -> Detection:
    """A detection of a live prompt, ``subject incomplete`` when the agent folded part of it.

    On a short pane agents fold a long command or diff ("… +12 lines", "first 12 lines
    hidden", "show more lines"): what is left is not the whole subject. The prompt is still
    listed (a human must be told an agent waits), without the fold's own row in its subject
    and with a note that says so: the guard's verdict on it is never better than ``confirm``.
    ``body`` is the dialog's text around the subject, where some agents print that hint.
    """
    if prompt.kind in _READ_SUBJECTS:
        rows = (prompt.subject or "").split("\n")
        kept = [row for row in rows if not is_fold_row(row)]
        folded = any(HIDDEN_LINES.search(row) for row in rows)
        if folded or any(HIDDEN_LINES.search(s) for s in body):
            subject = "\n".join(kept).strip("\n") or None
            prompt = dataclasses.replace(prompt, subject=subject)
            notes = (*notes, incomplete_note(FOLDED))
    return Detection(state=DetectionState.PROMPT, agent=agent, prompt=prompt, notes=notes)


FOLDED = "the agent folded part of it away on screen (its own mark of hidden lines)"
# What may stand beside a fold's mark on its own row: "first", "(ctrl+r to expand)", "^a view
# all", "Press ctrl-s to", ellipses and brackets.
_FOLD_WORDS = re.compile(
    r"\b(?:first|last|press|to|expand|view|all|ctrl[+-]\w|lines?|hidden)\b|\^\w|[…⋯.()\[\]\s]",
    re.IGNORECASE,
)


def is_fold_row(row: str) -> bool:
    """``row`` is an agent's fold mark alone ("[… 26 lines] ^a view all", "... first 4 lines
    hidden ...", "… +3 lines (ctrl+r to expand)"). A row that holds anything else beside the
    mark is kept in the subject: a model's command that prints "… +3 lines" after an ``rm``
    must not have its ``rm`` row dropped from what the guard judges."""
    match = HIDDEN_LINES.search(row)
    if match is None:
        return False
    rest = row[: match.start()] + row[match.end() :]
    return not _FOLD_WORDS.sub("", rest)


def busy(agent: str, *notes: str) -> Detection:
    """A detection of a working agent."""
    return Detection(state=DetectionState.BUSY, agent=agent, notes=notes)


def idle(agent: str, *notes: str) -> Detection:
    """A detection of an agent waiting for a new message (or showing nothing live)."""
    return Detection(state=DetectionState.IDLE, agent=agent, notes=notes)


def unknown(agent: str, *notes: str) -> Detection:
    """A detection that could not read the screen (e.g. it is empty)."""
    return Detection(state=DetectionState.UNKNOWN, agent=agent, notes=notes)


def unless_narrow(spec: AgentSpec, screen: Screen, found: Detection) -> Detection:
    """``found`` (idle or busy), or unknown when ``screen`` is narrower than ``spec.min_columns``:
    a narrower pane cuts and wraps the agent's dialogs in ways not verified, and a prompt paw
    cannot read there must not be reported as finished."""
    if max(screen.width, screen.pane_width) < spec.min_columns:
        return unknown(spec.kind, spec.narrow_note)
    return found


def find_url(text: str) -> str | None:
    """The first http(s) URL in ``text``, without trailing punctuation."""
    match = _URL.search(text)
    return match.group(0).rstrip(".,;:…") if match else None


WRAP_NOTE = (
    "command unwrapped: line breaks on screen were read as wrapping; its line structure is "
    "uncertain"
)


def wrap_notes(prompt: Prompt, lines: Sequence[str]) -> tuple[str, ...]:
    """A note when a subject (command, path, URL) joins lines the screen shows apart.

    A pane cannot tell a wrapped line from a real newline: joining them is right for a long
    command or path, but a crafted command could hide its second line that way. The note lets
    the guard treat the command's structure as uncertain.
    """
    if prompt.kind not in _READ_SUBJECTS or not prompt.subject:
        return ()
    haystack = "\n".join(lines)
    if all(part.strip() in haystack for part in prompt.subject.split("\n")):
        return ()
    return (WRAP_NOTE,)


INCOMPLETE_NOTE_PREFIX = "subject incomplete"
"""The start of a detector's note that the prompt's subject is not whole on screen."""
# An agent's own mark of a shortened text at the end of a line: "…" or "...".
_ELLIPSIS_END = re.compile(r"(?:…|\.\.\.)\s*$", re.MULTILINE)
# A path of which an agent left a part out, at its head or in its middle:
# ".../deeply/nested/file.md", "…/src/file.md", "…c/deeply/file.md", "docs/.../file.md".
_ELLIPSIS_START = re.compile(r"^\s*(?:…|\.\.\.)|/(?:…|\.\.\.)/")
_INCOMPLETE_KINDS = (*_READ_SUBJECTS, PromptKind.MCP)


def incomplete_note(what: str) -> str:
    """The note that a prompt's subject is not whole: ``what`` says what is missing."""
    return f"{INCOMPLETE_NOTE_PREFIX}: {what}"


def incomplete_notes(prompt: Prompt) -> tuple[str, ...]:
    """A note when the subject ends a line with an ellipsis (an agent shortened it: Continue
    cuts long commands with "…"): what is on screen is not all the agent will run, and the
    guard must not judge it as the whole (never better than ``confirm``)."""
    if prompt.kind not in _INCOMPLETE_KINDS or not prompt.subject:
        return ()
    if _ELLIPSIS_END.search(prompt.subject) is not None:
        return (incomplete_note("the agent shortened it on screen (an ellipsis ends a line)"),)
    if prompt.kind in (PromptKind.EDIT, PromptKind.WRITE) and _ELLIPSIS_START.search(
        prompt.subject
    ):
        return (incomplete_note("the agent shortened the path on screen (folders left out as …)"),)
    return ()


PANEL_NOTE = incomplete_note(
    "a side panel drawn beside it was cut off before reading: text beside its rows is not read "
    "as part of it"
)
_BORDERS = " ┃│║"


def side_panel_notes(prompt: Prompt, raw: Screen, shown: Screen) -> tuple[str, ...]:
    """The note that a subject may be cut, when ``shown`` is ``raw`` without a side panel
    (:func:`~paw.core.detect.screen.without_side_panel`) and a row of the subject had text at
    the panel's columns: a sidebar's, or a model's command padded with blanks to put its tail
    there, which must not vanish from what the guard judges (so ``confirm`` at best)."""
    if shown is raw or prompt.kind not in _READ_SUBJECTS or not prompt.subject:
        return ()
    parts = [part.strip() for part in prompt.subject.split("\n") if part.strip()]
    for whole, kept in zip(raw.lines, shown.lines, strict=False):
        core = kept.strip(_BORDERS)
        if len(core) < 3 or not whole[len(kept) :].strip():
            continue
        if any(core in part or part in core for part in parts):
            return (PANEL_NOTE,)
    return ()
