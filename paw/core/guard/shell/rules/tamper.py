"""Rewriting an agent's settings file to drop its hooks or permission rules is guard tampering.

``jq 'del(.hooks)' .claude/settings.json | sponge .claude/settings.json`` reads as an ordinary
JSON edit, but it removes the checks an agent runs before each tool call (hooks) or the rules
that hold it back (``permissions.deny``/``ask``). A structured-data filter (jq, yq, …) that
deletes or empties such a key, given an agent settings file, and whose output is kept (in place,
a redirection or a pipe onward) is block; reading the file alone is not judged here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

_SETTINGS_RE = re.compile(
    r"(^|/)(\.claude/settings(\.local)?\.json|\.claude\.json|\.codex/config\.toml"
    r"|\.gemini/settings\.json|\.qwen/settings\.json|opencode\.jsonc?|\.cursor/cli(-config)?\.json"
    r"|\.continue/config\.(json|ya?ml)|\.kiro/settings/[^/]+\.json|\.vibe/config\.toml"
    r"|\.kilocode/[^/]+\.json|\.aider\.conf\.ya?ml|\.mcp\.json)$"
)
_GUARD_KEYS = r"(?:hooks|permissions|deny|ask|disableAllHooks|approval_policy|sandbox\w*)"
# `del(.hooks)`, `del(.permissions.deny)`, `.hooks = {}`, `.permissions.deny |= []`, `delpaths`,
# yq's `del(.hooks)` and `.hooks = null`; `with_entries(select(.key != "hooks"))`.
_REMOVES_RE = re.compile(
    r"del\s*\([^)]*\b" + _GUARD_KEYS + r"\b"
    r"|\." + _GUARD_KEYS + r"\b[\w.\[\]\"]*\s*\|?=\s*(?:\{\s*\}|\[\s*\]|null|false|\"\")"
    r"|delpaths|select\s*\(\s*\.key\s*!=\s*\"" + _GUARD_KEYS + r"\""
    r"|\.disableAllHooks\s*\|?=\s*true"
)
_IN_PLACE = frozenset({"-i", "--inplace", "--in-place"})
_KEEPS_OUTPUT_OPS = frozenset({">", ">>", ">|", "&>", "&>>"})


def _check_filter(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    if not any(_SETTINGS_RE.search(a) for a in args):
        return
    if not any(_REMOVES_RE.search(a) for a in args):
        return
    keeps = (
        ctx.piped_out
        or any(a in _IN_PLACE or a.startswith("--in-place") for a in args)
        or any(r.op in _KEEPS_OUTPUT_OPS for r in cmd.redirects)
    )
    if keeps:
        settings = next(a for a in args if _SETTINGS_RE.search(a))
        ctx.block(
            "agents.settings-tamper",
            f"`{cmd.name}` removes hooks or permission rules from the agent settings `{settings}`",
        )


RULES: dict[str, tuple[Check, ...]] = dict.fromkeys(
    ("jq", "gojq", "jaq", "yq", "dasel", "tomlq", "jj"), (_check_filter,)
)
