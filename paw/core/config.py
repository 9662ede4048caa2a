"""pydantic schema for paw.toml. No file access here (see paw.adapters.config_store)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class PatternSet(_Strict):
    """A pattern list that extends or replaces paw's presets (as in git-guardrails)."""

    extend: tuple[str, ...] = ()
    """Regular expressions (Python syntax, case-insensitive) added to the preset list."""

    replace: tuple[str, ...] | None = None
    """When set, these regular expressions replace the preset list entirely."""

    def resolve(self, presets: tuple[str, ...]) -> tuple[str, ...]:
        """The effective list: ``replace`` if set, else presets plus ``extend``."""
        base = self.replace if self.replace is not None else presets
        return tuple(base) + tuple(self.extend)


class GuardConfig(_Strict):
    """The ``[guard]`` table of paw.toml."""

    allowed_dirs: tuple[str, ...] | None = None
    """If set, a command's working directory must lie inside one of these (component-wise)."""

    blocked_patterns: PatternSet = Field(default_factory=PatternSet)
    """Extra shell patterns to block. Matched against each executed command after parsing and
    normalisation (command word and arguments), not against the raw text. The presets are empty:
    paw's structural rules do that job (see docs/guardrails.md)."""

    sensitive_files: PatternSet = Field(default_factory=PatternSet)
    """Path patterns that abort a commit (matched on the normalised path)."""

    agent_instruction_files: PatternSet = Field(default_factory=PatternSet)
    """Path patterns for files that steer agents; changes are flagged for the human."""

    protected_branches: tuple[str, ...] = ("main", "master", "trunk", "develop", "production")
    """Branches a force push or remote delete to is blocked, not merely confirmed."""

    git_timeout_s: float = 30.0
    """Timeout for git commands run by the git actions."""

    diff_preview_lines: int = 60
    """How many lines of diff the confirmation details carry."""


class PawConfig(_Strict):
    """The whole of paw.toml. The supervisor issue adds its tables here (agents, tmux, worktrees)."""

    guard: GuardConfig = Field(default_factory=GuardConfig)
    """Guard settings (``[guard]``)."""
