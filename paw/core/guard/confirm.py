"""Confirmation details for git writes, their human-readable prompt, and shell escaping.

Pure: :class:`ConfirmationDetails` is built by :mod:`paw.guard.git_actions` from git output and
rendered here in English or Spanish, as Markdown or plain text. Every string that came from the
repository or the agent (message, file names, diff, PR body) is treated as untrusted: terminal
control characters are made visible and Markdown is fenced, so it cannot fake a warning or hide
one. When agent-instruction files changed, the warning is the very first thing shown.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Literal

Language = Literal["en", "es"]
Format = Literal["markdown", "plain"]

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def shell_escape(s: str) -> str:
    """Quote ``s`` as one single-quoted ``/bin/sh`` word (``'`` becomes ``'\\''``).

    The result round-trips through any POSIX shell, whatever ``s`` holds (``$``, backticks,
    newlines, quotes). A NUL byte cannot be passed in an argv and raises ``ValueError``.

    >>> shell_escape("it's $HOME")
    "'it'\\\\''s $HOME'"
    """
    if "\0" in s:
        raise ValueError("a shell argument cannot contain a NUL byte")
    return "'" + s.replace("'", "'\\''") + "'"


@dataclass(frozen=True, slots=True)
class ConfirmationDetails:
    """What a human must see before a commit, push or PR (git-guardrails' confirmationDetails).

    ``files`` lists what a commit will include; ``agent_instruction_files_changed`` the files
    among them (or, for a push, in the pending commits) that steer an agent; ``sensitive_files``
    secret-bearing paths that are being removed (a commit) or that the pending commits touch (a
    push): a commit that *adds* one never gets this far. ``protected_branch`` marks a push to
    one of the configured protected branches. ``notes`` are extra free-text remarks.
    """

    action: str
    repo_path: str
    branch: str | None = None
    message: str | None = None
    diff_preview: str | None = None
    pending_commits: str | None = None
    files: tuple[str, ...] = ()
    agent_instruction_files_changed: tuple[str, ...] = ()
    sensitive_files: tuple[str, ...] = ()
    remote: str | None = None
    title: str | None = None
    body: str | None = None
    base: str | None = None
    protected_branch: bool = False
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready mapping (tuples become lists)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}


_STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "commit": "Confirm commit in {repo}?",
        "push": "Confirm push from {repo}?",
        "pr": "Confirm creating a pull request from {repo}?",
        "other": "Confirm {action} in {repo}?",
        "agent_warn": (
            "WARNING: this {action} changes agent instruction or permission files "
            "(the agent may be modifying its own rules):"
        ),
        "sensitive_warn": "WARNING: sensitive files are involved:",
        "protected_warn": "WARNING: this pushes straight to the protected branch {branch}.",
        "repository": "Repository",
        "branch": "Branch",
        "remote": "Remote",
        "base": "Base branch",
        "message": "Message",
        "files": "Files",
        "changes": "Changes",
        "pending": "Pending commits",
        "title": "Title",
        "body": "Description",
        "notes": "Notes",
        "none": "none detected",
        "more": "… and {n} more",
        "reply": "Reply YES to confirm.",
    },
    "es": {
        "commit": "¿Confirmas el commit en {repo}?",
        "push": "¿Confirmas el push desde {repo}?",
        "pr": "¿Confirmas crear un pull request desde {repo}?",
        "other": "¿Confirmas {action} en {repo}?",
        "agent_warn": (
            "ADVERTENCIA: este {action} modifica archivos de instrucciones o permisos del agente "
            "(el agente podría estar modificando sus propias reglas):"
        ),
        "sensitive_warn": "ADVERTENCIA: hay archivos sensibles implicados:",
        "protected_warn": "ADVERTENCIA: esto hace push directamente a la rama protegida {branch}.",
        "repository": "Repositorio",
        "branch": "Rama",
        "remote": "Remoto",
        "base": "Rama base",
        "message": "Mensaje",
        "files": "Archivos",
        "changes": "Cambios",
        "pending": "Commits pendientes",
        "title": "Título",
        "body": "Descripción",
        "notes": "Notas",
        "none": "ninguno detectado",
        "more": "… y {n} más",
        "reply": "Responde SÍ para confirmar.",
    },
}

_MAX_FILES = 50


def _clean(text: str) -> str:
    """Show control and bidi-override characters as ``\\xNN`` escapes; keep newlines and tabs."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _fence(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}\n{text}\n{ticks}"


def _code_span(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


class _Writer:
    def __init__(self, fmt: Format) -> None:
        self.fmt = fmt
        self.lines: list[str] = []

    def bold(self, text: str) -> None:
        self.lines.append(f"**{text}**" if self.fmt == "markdown" else text)

    def field(self, label: str, value: str | None) -> None:
        if value:
            shown = _code_span(_clean(value)) if self.fmt == "markdown" else _clean(value)
            self.lines.append(f"{label}: {shown}")

    def items(self, label: str | None, items: tuple[str, ...], more: str) -> None:
        if label:
            self.lines.append(f"{label}:")
        for item in items[:_MAX_FILES]:
            shown = _code_span(_clean(item)) if self.fmt == "markdown" else _clean(item)
            self.lines.append(f"- {shown}" if self.fmt == "markdown" else f"  • {shown}")
        if len(items) > _MAX_FILES:
            self.lines.append("  " + more.format(n=len(items) - _MAX_FILES))

    def block(self, label: str, text: str) -> None:
        self.lines.append(f"{label}:")
        body = _clean(text.rstrip("\n"))
        if self.fmt == "markdown":
            self.lines.append(_fence(body))
        else:
            self.lines.extend("    " + line for line in body.split("\n"))
        self.blank()

    def blank(self) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")


def _warnings(w: _Writer, details: ConfirmationDetails, s: dict[str, str]) -> None:
    icon = "⚠️ " if w.fmt == "markdown" else ""
    if details.agent_instruction_files_changed:
        w.bold(icon + s["agent_warn"].format(action=details.action))
        w.items(None, details.agent_instruction_files_changed, s["more"])
        w.blank()
    if details.sensitive_files:
        w.bold(icon + s["sensitive_warn"])
        w.items(None, details.sensitive_files, s["more"])
        w.blank()
    if details.protected_branch:
        w.bold(icon + s["protected_warn"].format(branch=_clean(details.branch or "?")))
        w.blank()


def _body(w: _Writer, details: ConfirmationDetails, s: dict[str, str]) -> None:
    w.field(s["repository"], details.repo_path)
    w.field(s["branch"], details.branch)
    w.field(s["remote"], details.remote)
    w.field(s["base"], details.base)
    w.field(s["title"], details.title)
    w.field(s["message"], details.message if details.action != "commit" else None)
    w.blank()
    if details.action == "commit" and details.message is not None:
        w.block(s["message"], details.message)
    if details.body:
        w.block(s["body"], details.body)
    if details.files:
        w.items(s["files"], details.files, s["more"])
        w.blank()
    if details.diff_preview:
        w.block(s["changes"], details.diff_preview)
    if details.action == "push" or details.pending_commits:
        w.block(s["pending"], details.pending_commits or s["none"])
    if details.notes:
        w.blank()
        w.items(s["notes"], details.notes, s["more"])


def format_confirmation_prompt(
    details: ConfirmationDetails,
    language: Language = "en",
    format: Format = "markdown",  # noqa: A002 - git-guardrails' option name
    *,
    reply: bool = True,
) -> str:
    """Render ``details`` for a human, in English or Spanish, as Markdown or plain text.

    Warnings come first: agent-instruction files (``⚠️`` in Markdown, ``WARNING:`` /
    ``ADVERTENCIA:`` in both formats), then sensitive files. Untrusted text is fenced (Markdown)
    and stripped of terminal control characters. The closing "Reply YES to confirm." is for a
    chat that answers in words; ``reply=False`` leaves it out where the answer is something else
    (a key in a dialog, ``--yes`` on a command line), and the caller says what that is.
    """
    if language not in _STRINGS:
        raise ValueError(f"unsupported language {language!r} (use 'en' or 'es')")
    if format not in ("markdown", "plain"):
        raise ValueError(f"unsupported format {format!r} (use 'markdown' or 'plain')")
    s = _STRINGS[language]
    w = _Writer(format)
    _warnings(w, details, s)
    repo = details.repo_path.rstrip("/").rsplit("/", 1)[-1] or details.repo_path
    header = s.get(details.action, s["other"]).format(repo=_clean(repo), action=details.action)
    w.bold(header)
    w.blank()
    _body(w, details, s)
    w.blank()
    if reply:
        w.lines.append(s["reply"])
    while w.lines and w.lines[-1] == "":
        w.lines.pop()
    return "\n".join(w.lines)
