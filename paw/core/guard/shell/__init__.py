"""paw's shell-command guard: parse with tree-sitter-bash, normalise words, judge each command.

``evaluate_command(text)`` returns a :class:`~paw.core.models.Verdict`: ``block`` for
destructive, privilege-escalating, remote-code or guard-tampering commands, ``confirm`` for git
writes, instruction-file writes and anything that cannot be resolved statically, ``allow``
otherwise. The rules and their ids are listed in docs/guardrails.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from paw.core.guard.shell.commands import SimpleCommand
from paw.core.guard.shell.dispatch import clear_name_cache, evaluate_simple
from paw.core.guard.shell.evaluation import MAX_DEPTH, Context, CwdKind, compile_patterns
from paw.core.guard.shell.fastjudge import fast_command, fast_pipeline
from paw.core.guard.shell.fastpath import clear_fast_memo, fast_parts
from paw.core.guard.shell.gitwrites import GitWrite, clear_made
from paw.core.guard.shell.parse import (
    MAX_SCRIPT_CHARS,
    clear_inner_cache,
    parse_inner,
)
from paw.core.guard.shell.rules.code import check_unparsed
from paw.core.guard.shell.rules.files import clear_class_cache
from paw.core.guard.shell.rules.targets import _normalise as normalise
from paw.core.guard.shell.rules.targets import is_dangerous_dir
from paw.core.guard.shell.walk import Walker
from paw.core.guard.shell.words import expand_braces
from paw.core.models import Action, Finding, Verdict

if TYPE_CHECKING:
    from collections.abc import Callable

    from paw.core.config import GuardConfig

    Resolver = Callable[[str], str | None]


__all__ = [
    "Analysis",
    "GitWrite",
    "analyse_command",
    "clear_memos",
    "evaluate_command",
    "find_git_write",
]

_ALLOW = Verdict(Action.ALLOW)


_BRACE_WORD_RE = re.compile(r"(^|[;&|(\n]\s*)(\{[^\s{}]*,[^\s{}]*\})")


def _expand_brace_word(match: re.Match[str]) -> str:
    return match.group(1) + " ".join(expand_braces(match.group(2)))


def _cwd_kind(cwd: str | None, ctx_probe: Context) -> CwdKind:
    if cwd is None:
        return CwdKind.PROJECT
    return (
        CwdKind.DANGEROUS
        if is_dangerous_dir(cwd.rstrip("/") or "/", ctx_probe)
        else CwdKind.PROJECT
    )


def _run_script(ctx: Context, text: str, origin: str) -> None:
    if ctx.depth >= MAX_DEPTH:
        ctx.confirm("shell.limit", f"`{origin}` nests scripts too deeply to check")
        return
    if len(text) > MAX_SCRIPT_CHARS:
        ctx.confirm("shell.limit", f"`{origin}` carries a script too large to check")
        return
    if "\x00" in text:
        ctx.confirm("shell.limit", f"`{origin}` contains NUL bytes")
        text = text.replace("\x00", " ")
    parts = fast_parts(text)
    if parts is not None and not (parts[2] and ctx.var_subs):
        ctx.depth += 1
        try:
            commands, piped, _ = parts
            if piped:
                fast_pipeline(ctx, commands)
            else:
                for command in commands:
                    fast_command(ctx, command)
        finally:
            ctx.depth -= 1
        return
    root = parse_inner(text)  # a tree is immutable: memoised by text, top-level or nested
    if root.has_error:
        ctx.confirm("shell.parse-error", f"`{origin}`: the shell syntax does not parse cleanly")
        check_unparsed(text, ctx, origin)
        expanded = _BRACE_WORD_RE.sub(_expand_brace_word, text)
        if expanded != text:  # `{rm,-rf,/}`: bash runs the brace expansion as a command
            _run_script(ctx, expanded, f"{origin} (brace expansion)")
    ctx.depth += 1
    try:
        Walker(ctx, evaluate_simple).walk(root)
    finally:
        ctx.depth -= 1


def _evaluate_in(ctx: Context, cmd: SimpleCommand) -> SimpleCommand:
    return evaluate_simple(cmd, ctx)


# Every context judges nested scripts and commands with these (see ``Context.run_script``).
Context.run_script = _run_script  # type: ignore[method-assign, assignment]
Context.run_command = _evaluate_in  # type: ignore[method-assign, assignment]


@lru_cache(maxsize=64)
def _places(
    cwd: str | None, others: tuple[str, ...], home: str | None
) -> tuple[tuple[str, ...], str | None, bool]:
    """The other worktrees (absolute, normalised, the judged one left out), the home directory
    and whether one of those worktrees lies inside the judged one: normalised once per distinct
    caller's list (the supervisor passes the same one for every command), not once per command."""
    own = normalise(cwd).rstrip("/") if cwd else None
    siblings = tuple(
        p for p in (normalise(o).rstrip("/") for o in others if o.startswith("/")) if p != own
    )
    placed_home = (normalise(home).rstrip("/") or None) if home and home.startswith("/") else None
    nested = own is None or any(p.startswith(own + "/") for p in siblings)
    return siblings, placed_home, nested


def _place_cwd(ctx: Context, cwd: str, resolve: Resolver | None) -> None:
    """What the directory the command runs in is: a project (its path, the resolver) or a
    dangerous one (root, a home, a system directory: relative paths are judged there)."""
    ctx.cwd = _cwd_kind(cwd, ctx)
    if ctx.cwd is CwdKind.PROJECT and cwd.startswith("/"):
        ctx.cwd_path = ctx.project = cwd.rstrip("/")
        ctx.resolve = resolve
    elif ctx.cwd is CwdKind.DANGEROUS:
        ctx.cwd_prefix = cwd.rstrip("/") or "/"


@dataclass(frozen=True, slots=True)
class Analysis:
    """One evaluation: the verdict and the git writes met on the way (for confirmations)."""

    verdict: Verdict
    git_writes: tuple[GitWrite, ...] = ()


def _judge(
    command: str,
    cwd: str | None,
    config: GuardConfig | None,
    resolve: Resolver | None = None,
    others: tuple[str, ...] = (),
    home: str | None = None,
) -> tuple[Verdict, list[GitWrite]]:
    try:
        # a fresh context for this call (built here, not in a helper: a frame less per call)
        patterns = (
            compile_patterns(config.blocked_patterns.resolve(())) if config is not None else ()
        )
        ctx = Context(config, CwdKind.PROJECT, patterns)
        if cwd is not None:
            _place_cwd(ctx, cwd, resolve)
        if others:
            ctx.others, ctx.home, ctx.others_nested = _places(cwd, others, home)
        _run_script(ctx, command, "command")
    except RecursionError:
        found = (Finding("shell.limit", Action.CONFIRM, "too deeply nested"),)
        return Verdict.from_findings(found), []
    except Exception as err:  # noqa: BLE001 - fail closed: a guard bug must never become an allow
        reason = f"the guard could not judge this command ({type(err).__name__})"
        found = (Finding("shell.internal-error", Action.CONFIRM, reason),)
        return Verdict.from_findings(found), []
    if not ctx.findings:
        return _ALLOW, ctx.git_writes
    writes = ctx.git_writes
    if writes and any(f[0] == "shell.parse-error" for f in ctx.findings):
        writes = []
    return _verdict(ctx.findings), writes


def analyse_command(
    command: str,
    cwd: str | None = None,
    config: GuardConfig | None = None,
) -> Analysis:
    """Judge ``command`` once; return the verdict and the commits/pushes it runs.

    Git writes are left out when the command does not parse cleanly (details could mislead);
    the verdict is then at least ``confirm``.
    """
    verdict, writes = _judge(command, cwd, config)
    return Analysis(verdict, tuple(writes))


def evaluate_command(
    command: str,
    cwd: str | None = None,
    config: GuardConfig | None = None,
    resolve: Resolver | None = None,
    *,
    others: tuple[str, ...] = (),
    home: str | None = None,
) -> Verdict:
    """Judge a shell command an agent asks to run.

    Args:
        command: the command text, possibly several lines.
        cwd: the directory it would run in, when known (root or home make bare globs block).
        config: the guard settings (protected branches, user-blocked patterns).
        resolve: where an absolute path really leads (symlinks followed; None when it cannot
            be told), with ``cwd``: a write to a project file that is a link out of the project
            is judged where it lands. The caller does the I/O (``paw.adapters.paths``).
        others: other agents' worktrees (absolute paths, named by the caller: the supervisor
            knows its agents, the guard guesses none). A read, write, link or ``cd`` that lands
            in one is ``block`` (rule ``shell.other-worktree``).
        home: the user's home directory (absolute), named by the caller: with ``others``,
            ``~/…``, ``$HOME/…`` and ``${HOME}/…`` are placed there (the guard reads no
            environment; without it such paths are not judged against ``others``).

    Returns:
        The most severe verdict over every executed part, with one finding per rule that fired.
        Never raises; anything paw cannot judge is ``confirm``.
    """
    return _judge(command, cwd, config, resolve, others, home)[0]


def find_git_write(command: str) -> GitWrite | None:
    """The first ``git commit``/``git push`` ``command`` runs (None when there is none or the
    command does not parse cleanly). Adds details to a confirmation; never allows."""
    writes = analyse_command(command).git_writes
    return writes[0] if writes else None


def clear_memos() -> None:
    """Forget every memo the guard keeps between calls (script readings and trees, path classes
    and places, rules by command name, verdicts and git writes by their values): no decision is
    memoised (every rule runs on every call), and the benchmark's cold figures start here."""
    clear_inner_cache()
    clear_class_cache()
    clear_name_cache()
    _places.cache_clear()
    _VERDICTS.clear()
    clear_fast_memo()
    clear_made()


# Verdicts by the findings they are built from: a verdict is a value (frozen, made only of
# strings), so handing out one built earlier from the same findings changes nothing, and spares
# building a Finding per finding (a frozen dataclass costs several µs). Bounded: emptied when full.
_VERDICTS: dict[tuple[tuple[str, Action, str], ...], Verdict] = {}
_VERDICTS_MAX = 1024


def _verdict(findings: list[tuple[str, Action, str]]) -> Verdict:
    """``Verdict.from_findings`` over the distinct findings (by rule and reason, first kept)."""
    key = tuple(findings)
    verdict = _VERDICTS.get(key)
    if verdict is None:
        if len(_VERDICTS) >= _VERDICTS_MAX:
            _VERDICTS.clear()
        verdict = _VERDICTS[key] = _build_verdict(findings)
    return verdict


def _build_verdict(findings: list[tuple[str, Action, str]]) -> Verdict:
    seen: dict[tuple[str, str], Action] = {}
    for rule, action, reason in findings:
        seen.setdefault((rule, reason), action)
    actions = seen.values()
    worst = _BLOCK if _BLOCK in actions else _CONFIRM if _CONFIRM in actions else Action.ALLOW
    return Verdict(worst, tuple(Finding(r, a, why) for (r, why), a in seen.items()))


_BLOCK = Action.BLOCK
_CONFIRM = Action.CONFIRM
