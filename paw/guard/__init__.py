"""paw.guard: the decision layer between "an agent wants to run X" and "X runs".

Importable on its own by any agent runtime: it pulls in neither Textual nor libtmux. The API
follows git-guardrails (snake_case), parses shell with tree-sitter-bash, and returns three
verdicts. See docs/guard-api.md and docs/guardrails.md.

>>> from paw.guard import evaluate_command
>>> evaluate_command("git push --force").action.value
'block'
>>> evaluate_command("rm -rf ./build").action.value
'allow'
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from paw.core.config import GuardConfig, PawConfig
from paw.core.guard.confirm import ConfirmationDetails, format_confirmation_prompt, shell_escape
from paw.core.guard.files import (
    PathClass,
    classify_path,
    detect_agent_instruction_files,
    detect_sensitive_files,
)
from paw.core.guard.presets import presets
from paw.core.guard.shell import evaluate_command as _evaluate_shell
from paw.core.models import Action, Finding, Verdict
from paw.guard.git_actions import execute_confirmed_git_action, execute_git_action
from paw.guard.git_types import GitAction, GitActionParams, GitActionResult, GitConfirmationPayload
from paw.guard.paths import is_path_allowed
from paw.guard.shell_exec import ShellResult, run_shell

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = [
    "Action",
    "ConfirmationDetails",
    "Finding",
    "GitAction",
    "GitActionParams",
    "GitActionResult",
    "GitConfirmationPayload",
    "GuardConfig",
    "PathClass",
    "ShellResult",
    "Verdict",
    "classify_path",
    "detect_agent_instruction_files",
    "detect_sensitive_files",
    "evaluate_command",
    "execute_confirmed_git_action",
    "execute_git_action",
    "format_confirmation_prompt",
    "is_command_safe",
    "is_path_allowed",
    "presets",
    "run_shell",
    "shell_escape",
]

CWD_RULE = "shell.cwd-not-allowed"


def _guard(config: GuardConfig | PawConfig | None) -> GuardConfig | None:
    return config.guard if isinstance(config, PawConfig) else config


def _cwd_finding(
    cwd: str | os.PathLike[str] | None, allowed: Iterable[str] | None
) -> list[Finding]:
    if allowed is None or cwd is None:
        return []
    if is_path_allowed(cwd, allowed):
        return []
    reason = f"working directory {os.fspath(cwd)} is outside the allowed directories"
    return [Finding(CWD_RULE, Action.BLOCK, reason)]


def evaluate_command(
    command: str,
    cwd: str | os.PathLike[str] | None = None,
    config: GuardConfig | PawConfig | None = None,
    resolve: Callable[[str], str | None] | None = None,
    *,
    others: Iterable[str | os.PathLike[str]] = (),
    home: str | os.PathLike[str] | None = None,
) -> Verdict:
    """The guard's verdict on a shell command: ``allow``, ``confirm`` or ``block``.

    Args:
        command: the command as the agent would run it (may span lines).
        cwd: the directory it would run in. With ``config.allowed_dirs`` set, a ``cwd`` outside
            them blocks (rule ``shell.cwd-not-allowed``); a root or home ``cwd`` makes bare globs
            in destructive commands block.
        config: guard settings (a ``GuardConfig`` or a whole ``PawConfig``).
        resolve: with ``cwd``, where an absolute path really leads (symlinks followed, None
            when it cannot be told; ``paw.adapters.paths.resolve_path``): a write to a project
            file that links out of the project is judged where it lands, an unresolvable one
            is ``confirm``. Without it, paths are judged as written.
        others: other agents' worktrees (absolute paths; the caller knows them, the guard
            guesses none): a read, write, link or ``cd`` that lands in one is ``block`` (rule
            ``shell.other-worktree``), followed through symlinks when ``resolve`` is given.
        home: the user's home directory (absolute; ``paw.adapters.paths.home_directory``): with
            ``others``, ``~/…``, ``$HOME/…`` and ``${HOME}/…`` are placed there. The guard
            never reads it from the environment; without it those spellings are not judged
            against ``others``.

    Returns:
        A :class:`Verdict` with ``action``, human-readable ``reasons`` and stable ``rules`` ids.
        Never raises: what cannot be parsed or resolved is ``confirm``.
    """
    guard = _guard(config)
    cwd_text = os.fspath(cwd) if cwd is not None else None
    siblings = tuple(os.fspath(o) for o in others)
    home_text = os.fspath(home) if home is not None else None
    verdict = _evaluate_shell(command, cwd_text, guard, resolve, others=siblings, home=home_text)
    extra = _cwd_finding(cwd, guard.allowed_dirs if guard else None)
    if not extra:
        return verdict
    return Verdict.from_findings((*verdict.findings, *extra))


def is_command_safe(
    command: str,
    cwd: str | os.PathLike[str] | None = None,
    config: GuardConfig | PawConfig | None = None,
) -> tuple[bool, str | None]:
    """git-guardrails' ``isCommandSafe``: ``(False, reason)`` when the command is blocked or
    ``cwd`` lies outside ``allowed_dirs``; ``(True, None)`` otherwise.

    A ``confirm`` verdict is "safe" here, as in git-guardrails (git writes are gated by
    :func:`execute_git_action`); use :func:`evaluate_command` to see it.
    """
    verdict = evaluate_command(command, cwd, config)
    if verdict.action is Action.BLOCK:
        return False, verdict.reasons[0] if verdict.reasons else "blocked"
    return True, None
