"""Read paw.toml into :class:`~paw.core.config.PawConfig`, collecting every problem with its line.

``load_config`` never raises for a bad file: it returns ``(None, problems)`` so ``paw config
check`` can list them all in one pass (harlequin's ``Problems``): the schema's errors, and the
checks spanning several keys (regular expressions, custom kinds, the worktree root, the branch
prefix, the base, notify URLs) run on every part of the file that parsed
(:func:`paw.core.problems.salvage`). Each problem is located at its key's line
(:mod:`paw.core.problems`); TOML syntax errors carry their own line. Writing the default file
lives elsewhere (tomli-w).
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from paw.adapters.git.runner import GitCli
from paw.core.config import PawConfig, WorktreesConfig
from paw.core.problems import (
    Loc,
    Problem,
    covered,
    format_problem,
    in_order,
    locate,
    salvage,
    scan_key_lines,
    validation_problems,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["Problem", "format_problem", "load_config", "parse_config", "scan_key_lines"]

_TOML_LINE = re.compile(r"\s*\(at line (\d+), column (\d+)\)")
_PATTERN_TABLES = ("blocked_patterns", "sensitive_files", "agent_instruction_files")


def _pattern_problems(file: str, config: PawConfig, lines: Mapping[Loc, int]) -> list[Problem]:
    """Regular expressions in the ``[guard]`` pattern sets must compile."""
    problems = []
    for table in _PATTERN_TABLES:
        pattern_set = getattr(config.guard, table)
        for kind in ("extend", "replace"):
            for index, pattern in enumerate(getattr(pattern_set, kind) or ()):
                try:
                    re.compile(pattern)
                except re.error as err:
                    loc = ("guard", table, kind, index)
                    message = f"invalid regular expression {pattern!r}: {err}"
                    problems.append(locate(file, loc, message, lines))
    return problems


def _dir_problems(file: str, config: PawConfig, lines: Mapping[Loc, int]) -> list[Problem]:
    dirs = config.guard.allowed_dirs or ()
    bad = [d for d in dirs if not (d.startswith("~") or Path(d).is_absolute())]
    if not bad:
        return []
    message = f"must be absolute paths (or start with ~): {', '.join(map(repr, bad))}"
    return [locate(file, ("guard", "allowed_dirs"), message, lines)]


def _agent_problems(file: str, config: PawConfig, lines: Mapping[Loc, int]) -> list[Problem]:
    """Required fields per agent kind: a kind paw does not know needs a ``command``; any
    ``command`` needs a program (a non-empty first element)."""
    from paw.core.agents import BUILTIN_PROFILES

    problems = []
    for kind, agent in config.agents.items():
        if agent.command is None and kind not in BUILTIN_PROFILES:
            message = (
                "a custom agent kind needs `command` (the argv that starts it), "
                f"or use a built-in kind ({', '.join(BUILTIN_PROFILES)})"
            )
            problems.append(locate(file, ("agents", kind), message, lines))
        elif agent.command is not None and (not agent.command or not agent.command[0].strip()):
            message = "must name a program: a non-empty list whose first element is not empty"
            problems.append(locate(file, ("agents", kind, "command"), message, lines))
    return problems


def repo_problems(
    config: PawConfig, text: str, file: str, repo_root: str, git: GitCli | None = None
) -> list[Problem]:
    """Checks that need the repository: the worktree root must lie outside ``.git`` and be
    creatable; git must accept the branch prefix; the base must name a commit. Values left at
    their defaults cost no git call."""
    lines = scan_key_lines(text)
    problems = []
    wt = config.worktrees
    repo = Path(repo_root)
    root = Path(os.path.normpath(repo / wt.root.replace("{repo}", repo.name)))
    why = _root_problem(repo, root)
    if why:
        problems.append(locate(file, ("worktrees", "root"), why, lines))
    git = git or GitCli(line_counts=False)
    defaults = WorktreesConfig()
    if wt.branch_prefix != defaults.branch_prefix and not git.valid_branch_name(
        repo_root, f"{wt.branch_prefix}agent"
    ):
        message = f"git does not accept branches named {wt.branch_prefix}NAME"
        problems.append(locate(file, ("worktrees", "branch_prefix"), message, lines))
    if wt.base != defaults.base and (
        wt.base.startswith("-") or git.resolve_commit(repo_root, wt.base) is None
    ):
        message = f"{wt.base!r} names no commit in this repository"
        problems.append(locate(file, ("worktrees", "base"), message, lines))
    return problems


def url_problems(config: PawConfig, text: str, file: str) -> list[Problem]:
    """``[notify]`` URLs apprise cannot parse (parsed only: nothing is sent)."""
    if not config.notify.urls:
        return []
    from paw.adapters.notify import url_problems as parse_urls

    lines = scan_key_lines(text)
    return [
        locate(file, ("notify", "urls", index), message, lines)
        for index, message in parse_urls(config.notify.urls)
    ]


def _root_problem(repo: Path, root: Path) -> str | None:
    git_dir = repo / ".git"
    if root == git_dir or git_dir in root.parents:
        return f"{root} is inside the repository's .git directory"
    existing = root
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        return f"cannot create {root}: {existing} is not a directory"
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"cannot create {root}: {existing} is not writable"
    return None


def _parse(text: str, file: str) -> tuple[PawConfig | None, list[Problem]]:
    """What parsed (the whole file, or every part of it that validates) and every problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        match = _TOML_LINE.search(str(err))
        line = int(match.group(1)) if match else None
        message = _TOML_LINE.sub("", str(err))
        if match:
            message += f" (column {match.group(2)})"
        return None, [Problem(file, line, None, f"invalid TOML: {message}")]
    lines = scan_key_lines(text)
    problems: list[Problem] = []
    try:
        config = PawConfig.model_validate(data)
    except ValidationError as err:
        problems = validation_problems(file, err, lines, PawConfig)
        part = salvage(PawConfig, data)
        config = part if isinstance(part, PawConfig) else PawConfig()
    problems += [
        p
        for p in (
            _pattern_problems(file, config, lines)
            + _dir_problems(file, config, lines)
            + _agent_problems(file, config, lines)
        )
        if not covered(p.loc, problems)
    ]
    return config, problems


def parse_config(text: str, file: str = "paw.toml") -> tuple[PawConfig | None, list[Problem]]:
    """Validate TOML ``text`` as paw.toml (pure; ``file`` only labels the problems)."""
    config, problems = _parse(text, file)
    return (None, in_order(problems)) if problems else (config, [])


def load_config(
    path: str | Path,
    *,
    missing_ok: bool = False,
    repo_root: str | None = None,
    urls: bool = False,
) -> tuple[PawConfig | None, list[Problem]]:
    """Read and validate ``path``. Returns the config, or None and every problem found.

    A missing file is a problem unless ``missing_ok``, in which case the defaults are returned.
    With ``repo_root``, the checks that need the repository run too (:func:`repo_problems`),
    on every part of the file that parsed; with ``urls``, apprise parses the notify URLs.
    """
    config, problems, text = _load(path, missing_ok=missing_ok)
    if config is not None and repo_root is not None:
        found = repo_problems(config, text, str(path), repo_root)
        problems += [p for p in found if not covered(p.loc, problems)]
    if config is not None and urls:
        problems += [
            p for p in url_problems(config, text, str(path)) if not covered(p.loc, problems)
        ]
    return (None, in_order(problems)) if problems else (config, [])


def _load(path: str | Path, *, missing_ok: bool) -> tuple[PawConfig | None, list[Problem], str]:
    file = str(path)
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        if missing_ok:
            return PawConfig(), [], ""
        return None, [Problem(file, None, None, "file not found")], ""
    except OSError as err:
        return None, [Problem(file, None, None, f"cannot read: {err.strerror or err}")], ""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        return None, [Problem(file, line, None, "invalid TOML: not UTF-8")], ""
    config, problems = _parse(text, file)
    return config, problems, text
