"""The approval path's pure decisions: what the guard says about a prompt's subject, and whether
``approve``/``deny`` may send keys given fresh facts about the pane (see docs/architecture.md).

Nothing here sends anything; :mod:`paw.supervisor.approve` gathers the facts, records, then acts.
"""

from __future__ import annotations

import fnmatch
import posixpath
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from paw.core.always import AlwaysScope, read_always_scope
from paw.core.channels.fuse import CLAIM_NOTE_PREFIX
from paw.core.detect.prompts import INCOMPLETE_NOTE_PREFIX, WRAP_NOTE
from paw.core.guard.files import PathClass, classify_path
from paw.core.guard.shell import find_git_write
from paw.core.guard.shell.gitwrites import GIT_WRITES, GitWrite
from paw.core.guard.shell.rules.posture import judge_address
from paw.core.models import Action, Detection, DetectionState, Finding, Prompt, PromptKind, Verdict

if TYPE_CHECKING:
    from paw.core.config import GuardConfig

ShellEvaluator = Callable[[str, str, "GuardConfig"], Verdict]
PathResolver = Callable[[str], "str | None"]
"""Where an absolute path really leads (symlinks followed), or None when it cannot be told:
an adapter's job (paw/adapters/paths.py); the guard only compares the answers."""
"""The guard's one shell entry, ``paw.guard.evaluate_command`` (also behind ``paw check``): the
supervisor injects it so approvals honour ``guard.allowed_dirs`` exactly as ``paw check`` does."""

__all__ = [
    "GIT_WRITES",
    "INCOMPLETE_NOTE_PREFIX",
    "WRAP_NOTE_PREFIX",
    "Facts",
    "GitWrite",
    "PathResolver",
    "Plan",
    "ShellEvaluator",
    "Step",
    "evaluate_mcp",
    "evaluate_path",
    "evaluate_subject",
    "find_git_write",
    "is_inside",
    "plan_approval",
    "plan_denial",
    "verify_live",
]


def _one(rule: str, action: Action, reason: str) -> Verdict:
    return Verdict.from_findings((Finding(rule, action, reason),))


def is_inside(path: str, root: str) -> bool:
    """True when ``path`` (absolute, or relative to ``root``) lies inside ``root`` lexically."""
    if path.startswith("~"):
        return False
    full = posixpath.normpath(posixpath.join(root, path))
    base = posixpath.normpath(root)
    return full == base or full.startswith(base.rstrip("/") + "/")


def evaluate_path(
    path: str, worktree: str, config: GuardConfig, resolve: PathResolver | None = None
) -> Verdict:
    """A file edit/write: outside the worktree blocks; sensitive or instruction files confirm.

    With ``resolve``, symlinks count: a committed ``NOTES.md -> ../../home/.bashrc`` (repository
    content is untrusted) makes "write NOTES.md" a write to ``~/.bashrc`` (block); a path or
    worktree ``resolve`` cannot follow is confirm (fail closed)."""
    if not is_inside(path, worktree):
        return _one("approve.path-outside-worktree", Action.BLOCK, f"{path} is outside {worktree}")
    rel = posixpath.relpath(posixpath.normpath(posixpath.join(worktree, path)), worktree)
    if resolve is not None:
        real = resolve(posixpath.join(worktree, rel))
        root = resolve(worktree)
        if real is None or root is None:
            return _one(
                "approve.path-unresolved", Action.CONFIRM, f"paw cannot tell where {path} leads"
            )
        if not is_inside(real, root):
            return _one(
                "approve.path-outside-worktree",
                Action.BLOCK,
                f"{path} is a link to {real}, outside {worktree}",
            )
        rel = posixpath.relpath(real, root)
    found = classify_path(rel, config)
    if found is PathClass.SENSITIVE:
        return _one("approve.sensitive-file", Action.CONFIRM, f"{rel} is a sensitive file")
    if found is PathClass.INSTRUCTION:
        return _one(
            "approve.instruction-file", Action.CONFIRM, f"{rel} steers agents (instruction file)"
        )
    return Verdict(Action.ALLOW)


def evaluate_fetch(url: str) -> Verdict:
    """A web fetch: a cloud metadata address blocks, a private network address confirms (effects
    beyond files count, as for shell commands); any other URL is allow."""
    found = judge_address(url)
    if found is None:
        return _one("approve.fetch-url", Action.ALLOW, f"fetches {url}")
    block, reason = found
    return _one("approve.fetch-private", Action.BLOCK if block else Action.CONFIRM, reason)


def evaluate_mcp(tool: str, allowed: tuple[str, ...]) -> Verdict:
    """An MCP tool call confirms unless ``tool`` matches one of ``allowed`` (fnmatch patterns)."""
    if any(fnmatch.fnmatchcase(tool, pattern) for pattern in allowed):
        return _one("approve.mcp-allowed", Action.ALLOW, f"MCP tool {tool} is allowed by config")
    return _one("approve.mcp-tool", Action.CONFIRM, f"MCP tool call {tool} needs confirmation")


def evaluate_subject(
    prompt: Prompt,
    *,
    worktree: str,
    config: GuardConfig,
    mcp_allowed: tuple[str, ...],
    shell: ShellEvaluator,
    notes: tuple[str, ...] = (),
    resolve: PathResolver | None = None,
    also: tuple[str, ...] = (),
) -> Verdict:
    """The guard's verdict on what approving ``prompt`` would let the agent do.

    ``also``: other texts the prompt's subject may be (an observe-only channel's claim and the
    screen's drawing, neither proven to be what runs): each is judged too, and what it finds
    beyond ``allow`` counts, so the verdict is never looser than either's.

    ``notes`` are the detector's notes: a shell command whose screen lines were joined as
    wrapping may hide a line break, and a subject a detector says is incomplete (cut, scrolled,
    shortened with an ellipsis) is not what approving runs: either is never better than
    ``confirm`` (and a standing rule, which needs ``allow``, never matches it); so is a subject
    an observe-only channel claims where the screen does not show it whole (its note).
    """
    verdict = _subject_verdict(prompt, worktree, config, mcp_allowed, shell, resolve)
    for other in dict.fromkeys(t for t in also if t and t != prompt.subject):
        seen = _subject_verdict(
            replace(prompt, subject=other), worktree, config, mcp_allowed, shell, resolve
        )
        beyond = tuple(
            Finding(f.rule, f.action, f"as {other!r}: {f.reason}")
            for f in seen.findings
            if f.action is not Action.ALLOW
        )
        verdict = Verdict.from_findings((*verdict.findings, *beyond))
    cut = next((n for n in notes if n.startswith(INCOMPLETE_NOTE_PREFIX)), None)
    if cut is not None:
        reason = f"{cut}: paw judges only what it sees, and it is not the whole"
        extra = Finding("approve.incomplete-subject", Action.CONFIRM, reason)
        verdict = Verdict.from_findings((*verdict.findings, extra))
    claim = next((n for n in notes if n.startswith(CLAIM_NOTE_PREFIX)), None)
    if claim is not None:
        reason = f"{claim}: the agent's hook said it, and no live process vouches for it"
        extra = Finding("approve.unproven-channel-claim", Action.CONFIRM, reason)
        verdict = Verdict.from_findings((*verdict.findings, extra))
    if prompt.kind in _WRAPPABLE and any(n.startswith(WRAP_NOTE_PREFIX) for n in notes):
        field = "command" if prompt.kind is PromptKind.SHELL else "path or URL"
        reason = f"the {field} wrapped on screen; paw cannot tell wrapping from a line break"
        rule = (
            "approve.wrapped-command"
            if prompt.kind is PromptKind.SHELL
            else "approve.wrapped-field"
        )
        extra = Finding(rule, Action.CONFIRM, reason)
        return Verdict.from_findings((*verdict.findings, extra))
    return verdict


# Subjects a detector may have joined from wrapped screen lines (a shell command, a path, a URL):
# a joined subject is never judged better than confirm.
_WRAPPABLE = frozenset({PromptKind.SHELL, PromptKind.EDIT, PromptKind.WRITE, PromptKind.FETCH})


WRAP_NOTE_PREFIX = WRAP_NOTE.split(":", 1)[0]  # the detector's note on joined lines


def _subject_verdict(
    prompt: Prompt,
    worktree: str,
    config: GuardConfig,
    mcp_allowed: tuple[str, ...],
    shell: ShellEvaluator,
    resolve: PathResolver | None = None,
) -> Verdict:
    subject = prompt.subject
    if prompt.kind in _SUBJECT_KINDS and not subject:
        return _one(
            "approve.no-subject", Action.CONFIRM, "paw could not read what this prompt does"
        )
    if prompt.kind is PromptKind.SHELL and subject:
        return shell(subject, worktree, config)
    if prompt.kind in (PromptKind.EDIT, PromptKind.WRITE) and subject:
        return evaluate_path(subject, worktree, config, resolve)
    if prompt.kind is PromptKind.FETCH and subject:
        return evaluate_fetch(subject)
    if prompt.kind is PromptKind.MCP and subject:
        return evaluate_mcp(subject, mcp_allowed)
    return _one(
        "approve.prompt-kind", Action.CONFIRM, f"a {prompt.kind.value} prompt: read it first"
    )


_SUBJECT_KINDS = frozenset(
    {PromptKind.SHELL, PromptKind.EDIT, PromptKind.WRITE, PromptKind.FETCH, PromptKind.MCP}
)


class Step(StrEnum):
    """What the approval path does next."""

    REFUSE = "refuse"
    NEEDS_CONFIRMATION = "needs-confirmation"
    NEEDS_OVERRIDE = "needs-override"
    SEND = "send"


@dataclass(frozen=True, slots=True)
class Facts:
    """What paw found immediately before sending, for a prompt first seen with ``fingerprint``."""

    fingerprint: str
    pane_exists: bool
    agent_alive: bool  # the same agent process (pid + start time) still runs in the pane
    fresh: Detection | None  # a detection of a capture taken now (None: capture failed)


@dataclass(frozen=True, slots=True)
class Plan:
    """The decision: a step, a one-line reason, and the keys to send when ``step`` is SEND."""

    step: Step
    reason: str
    keys: tuple[str, ...] = ()
    prompt: Prompt | None = None
    always: AlwaysScope | None = None  # what an "always" choice makes the agent remember


def verify_live(facts: Facts) -> Plan | None:
    """A refusal when the prompt cannot be proven live and the same; None when it can."""
    if not facts.pane_exists:
        return Plan(Step.REFUSE, "the agent's pane is gone")
    if not facts.agent_alive:
        return Plan(
            Step.REFUSE,
            "the agent process that showed this prompt no longer runs in its pane",
        )
    fresh = facts.fresh
    if fresh is None or fresh.state is not DetectionState.PROMPT or fresh.prompt is None:
        return Plan(Step.REFUSE, "the pane shows no live prompt now")
    if fresh.prompt.fingerprint != facts.fingerprint:
        return Plan(Step.REFUSE, "the prompt changed since it was listed")
    return None


def _fresh_prompt(facts: Facts) -> Prompt:
    fresh = facts.fresh
    if fresh is None or fresh.prompt is None:  # verify_live rules this out
        raise ValueError("no fresh prompt")
    return fresh.prompt


def plan_approval(
    facts: Facts,
    verdict: Verdict,
    *,
    always: bool = False,
    confirmed: bool = False,
    override: str | None = None,
    judge: Callable[[str], Verdict] | None = None,
) -> Plan:
    """Decide an approval: refuse, ask for confirmation or an override reason, or send keys.

    ``always`` picks the agent's "don't ask again" option: a policy change, decided on its own
    (:func:`_plan_always`). ``judge`` evaluates a shell command in the agent's worktree; it
    lists the guarded commands an "always" would let run unasked.
    """
    refusal = verify_live(facts)
    if refusal is not None:
        return refusal
    prompt = _fresh_prompt(facts)
    keys = _approve_keys(prompt, always=always)
    if isinstance(keys, str):
        return Plan(Step.REFUSE, keys, prompt=prompt)
    if always:
        return _plan_always(verdict, keys, prompt, confirmed=confirmed, judge=judge)
    return _apply_verdict(verdict, keys, prompt, confirmed=confirmed, override=override)


def _plan_always(
    verdict: Verdict,
    keys: tuple[str, ...],
    prompt: Prompt,
    *,
    confirmed: bool,
    judge: Callable[[str], Verdict] | None,
) -> Plan:
    """ "Always" only for an allowed call, and confirmed when it remembers more than this call."""
    if verdict.action is not Action.ALLOW:
        return Plan(
            Step.REFUSE,
            f"'always' is refused for a {verdict.action.value} verdict: the agent would then run "
            "such calls without asking; approve this one once instead",
            prompt=prompt,
        )
    scope = read_always_scope(prompt, judge)
    if scope.broader and not confirmed:
        return Plan(Step.NEEDS_CONFIRMATION, scope.explain(), prompt=prompt, always=scope)
    return Plan(Step.SEND, f"approved always: {scope.covers}", keys, prompt, always=scope)


def _approve_keys(prompt: Prompt, *, always: bool) -> tuple[str, ...] | str:
    if prompt.needs_human:
        return (
            f"this {prompt.kind.value} prompt is not a tool permission: paw never answers it "
            "with a generic approve; answer it in the pane (`paw attach`)"
        )
    if always:
        return prompt.always_keys or "this prompt offers no 'always' option"
    return prompt.approve_keys


def _apply_verdict(
    verdict: Verdict,
    keys: tuple[str, ...],
    prompt: Prompt,
    *,
    confirmed: bool,
    override: str | None,
) -> Plan:
    reasons = "; ".join(verdict.reasons)
    if verdict.action is Action.BLOCK:
        if override and override.strip():
            return Plan(Step.SEND, f"guard blocked, overridden: {override.strip()}", keys, prompt)
        return Plan(Step.NEEDS_OVERRIDE, f"the guard blocks this: {reasons}", prompt=prompt)
    if verdict.action is Action.CONFIRM and not confirmed:
        return Plan(Step.NEEDS_CONFIRMATION, f"needs confirmation: {reasons}", prompt=prompt)
    return Plan(Step.SEND, "approved", keys, prompt)


def plan_denial(facts: Facts) -> Plan:
    """Decide a denial: the same liveness proof, then the prompt's deny keys."""
    refusal = verify_live(facts)
    if refusal is not None:
        return refusal
    prompt = _fresh_prompt(facts)
    if not prompt.deny_keys:
        return Plan(Step.REFUSE, "this prompt has no deny keys; answer it in the pane", (), prompt)
    return Plan(Step.SEND, "denied", prompt.deny_keys, prompt)
