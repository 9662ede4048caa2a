"""Where a prompt goes: a standing rule of the wave file, or a human (pure, fails closed)."""

from __future__ import annotations

import re

from paw.core.models import Action, PromptKind
from paw.core.wave.schema import WaveRule
from paw.core.wave.seen import SeenPrompt

HUMAN_ONLY_KINDS = frozenset({PromptKind.TRUST.value, PromptKind.QUESTION.value, "other"})


def needs_human_dialog(kind: str, approvable: bool) -> bool:
    """True for a dialog only a human can answer: not a plain tool permission.

    This is the seam for a distinct ``waiting`` detection state: such screens are parked and
    escalated like prompts, but never matched by standing rules nor approved by a generic key.
    """
    return kind in HUMAN_ONLY_KINDS or not approvable


def route(prompt: SeenPrompt, rules: tuple[WaveRule, ...], worktree: str) -> tuple[str, str, int]:
    """Where a prompt goes: ``("rule", why, N)`` or ``("human", why, 0)``."""
    if needs_human_dialog(prompt.kind, prompt.approvable):
        return "human", "a dialog only a human can answer", 0
    if prompt.verdict is not Action.ALLOW:
        return "human", f"guard verdict is {prompt.verdict.value}", 0
    for number, rule in enumerate(rules, 1):
        if rule_matches(rule, prompt.kind, prompt.subject, worktree):
            return "rule", f"matches rule {number} ({rule.kind} {rule.subject})", number
    if not rules:
        return "human", "no standing rules: every prompt waits for a human", 0
    return "human", "no standing rule matches", 0


_SHELL_CONTROL = re.compile(r"[;|&`<>\n\r]|\$\(")


def rule_matches(rule: WaveRule, kind: str, subject: str | None, worktree: str) -> bool:
    """True when ``rule`` covers a ``kind`` prompt about ``subject`` (pure, fails closed)."""
    if rule.kind != kind or not subject:
        return False
    if kind in ("edit", "write"):
        path = _relative(subject, worktree)
        if path is None:
            return False
        return _glob(rule.subject, path, path_mode=True)
    if (
        kind == "shell"
        and _SHELL_CONTROL.search(subject)
        and not _SHELL_CONTROL.search(rule.subject)
    ):
        return False
    return _glob(rule.subject, subject, path_mode=False)


def _relative(subject: str, worktree: str) -> str | None:
    path = subject.strip()
    root = worktree.rstrip("/")
    if root and path.startswith(root + "/"):
        path = path[len(root) + 1 :]
    elif path.startswith(("/", "~")):
        return None
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        return None
    return "/".join(parts)


def _glob(pattern: str, text: str, *, path_mode: bool) -> bool:
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i) and path_mode:
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*" if path_mode else ".*")
        elif c == "?":
            out.append("[^/]" if path_mode else ".")
        else:
            out.append(re.escape(c))
        i += 1
    return re.fullmatch("".join(out), text, flags=re.DOTALL) is not None
