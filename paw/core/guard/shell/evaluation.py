"""Evaluation state shared by the walker and the rules for one ``evaluate_command`` call."""

from __future__ import annotations

import re
from enum import Enum
from typing import TYPE_CHECKING

from paw.core.models import Action

if TYPE_CHECKING:
    from collections.abc import Callable

    from paw.core.config import GuardConfig
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.gitwrites import GitWrite

_BLOCK = Action.BLOCK
_CONFIRM = Action.CONFIRM

MAX_DEPTH = 12
MAX_NODES = 20_000

DEFAULT_PROTECTED = ("main", "master", "trunk", "develop", "production")

_PATTERN_CACHE: dict[tuple[str, ...], tuple[re.Pattern[str], ...]] = {}


class CwdKind(Enum):
    """What the current directory is, as far as the command tells."""

    PROJECT = "project"
    DANGEROUS = "dangerous"  # root, home or a system directory
    SUBDIR = "subdir"  # a directory inside the project (``cd build``)
    UNKNOWN = "unknown"


def compile_patterns(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    """User regexes, compiled once per distinct tuple (invalid ones never match)."""
    cached = _PATTERN_CACHE.get(patterns)
    if cached is None:
        compiled: list[re.Pattern[str]] = []
        for pattern in patterns:
            try:
                compiled.append(re.compile(pattern, re.IGNORECASE))
            except re.error:
                compiled.append(re.compile(re.escape(pattern), re.IGNORECASE))
        cached = tuple(compiled)
        _PATTERN_CACHE[patterns] = cached
    return cached


class Context:
    """Findings, literal variables, functions, aliases and limits for one evaluation."""

    __slots__ = (
        "aliases",
        "config",
        "cwd",
        "cwd_path",
        "cwd_prefix",
        "depth",
        "downloads",
        "env",
        "findings",
        "functions",
        "git_writes",
        "home",
        "nodes",
        "others",
        "others_nested",
        "patterns",
        "piped_out",
        "production",
        "project",
        "protected",
        "resolve",
        "scripts",
        "sinks",
        "var_subs",
    )

    def __init__(
        self,
        config: GuardConfig | None,
        cwd: CwdKind,
        patterns: tuple[re.Pattern[str], ...],
    ) -> None:
        self.config = config
        self.cwd = cwd
        self.cwd_path: str | None = None  # the project directory, when given and not dangerous
        self.project: str | None = None  # the same, kept after a `cd` (where the command started)
        # Other agents' worktrees (absolute, normalised), named by the caller: what lands there
        # is block (rules/worktrees.py). Empty: the guard knows of none.
        self.others: tuple[str, ...] = ()
        # One of them lies inside the judged worktree: a project-relative path may land there.
        self.others_nested = False
        # The user's home directory (absolute, normalised), named by the caller so that `~/…`,
        # `$HOME/…` can be placed; None: the guard does not know it (it reads no environment).
        self.home: str | None = None
        # Where an absolute path really leads (symlinks followed; None: cannot tell), given by the
        # caller (an adapter): the guard does no I/O. None: paths are judged as written.
        self.resolve: Callable[[str], str | None] | None = None
        # Where relative paths point after `cd`: "" is the start directory, None is unknown.
        self.cwd_prefix: str | None = ""
        self.patterns = patterns
        self.protected = config.protected_branches if config is not None else DEFAULT_PROTECTED
        # (rule, action, reason) per finding, in order: Finding values are built once, for the
        # distinct ones, when the verdict is (most rules fire more than once in a nested script).
        self.findings: list[tuple[str, Action, str]] = []
        self.env: dict[str, str] = {}
        self.functions: set[str] = set()
        self.git_writes: list[GitWrite] = []  # commits and pushes seen (confirmation details)
        self.aliases: dict[str, str] = {}
        self.downloads: set[str] = set()
        self.scripts: dict[str, str] = {}
        self.depth = 0
        self.piped_out = False  # the command being judged writes into a pipe
        self.production = False  # a production-looking assignment was seen (`RAILS_ENV=prod`)
        self.nodes = 0
        self.sinks: list[list[SimpleCommand]] = []
        # Variables set from a substitution: the commands that produced each value, so a later
        # `curl -d "$x"` is judged as if it held the substitution (`x=$(env)`).
        self.var_subs: dict[str, list[SimpleCommand]] = {}

    # How a nested script or a command is judged in this context: set once, on the class, by
    # paw.core.guard.shell (which builds on the walker and dispatch; this module is below them),
    # so that no context binds them per call.
    def run_script(self, text: str, origin: str) -> None:
        """Judge ``text`` as a script nested in the command (``origin`` names where it came
        from)."""
        del text, origin

    def run_command(self, cmd: SimpleCommand) -> object:
        """Judge ``cmd`` as a simple command run by the command."""
        del cmd
        return None

    def add(self, rule: str, action: Action, reason: str) -> None:
        """Record one finding."""
        self.findings.append((rule, action, reason))

    def block(self, rule: str, reason: str) -> None:
        """Record a block finding."""
        self.findings.append((rule, _BLOCK, reason))

    def confirm(self, rule: str, reason: str) -> None:
        """Record a confirm finding."""
        self.findings.append((rule, _CONFIRM, reason))
