"""Read paw.toml into :class:`~paw.core.config.PawConfig`, collecting every problem with its line.

``load_config`` never raises for a bad file: it returns ``(None, problems)`` so ``paw config
check`` can list them all in one pass (harlequin's ``Problems``). Pydantic error locations are
mapped back to TOML lines by a small scanner of ``[table]`` headers and ``key =`` lines; TOML
syntax errors carry their own line. Writing the default file lives elsewhere (tomli-w).
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from paw.adapters.git import GitCli
from paw.core.config import PawConfig, WorktreesConfig

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(
    r"""^\s*((?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+)(?:\s*\.\s*(?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+))*)\s*="""
)
_TOML_LINE = re.compile(r"\s*\(at line (\d+), column (\d+)\)")
_PATTERN_TABLES = ("blocked_patterns", "sensitive_files", "agent_instruction_files")


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem in a config file: where (``file``, 1-based ``line`` if known, dotted ``key``)
    and what (``message``)."""

    file: str
    line: int | None
    key: str | None
    message: str


def format_problem(problem: Problem) -> str:
    """``paw.toml:12: guard.allowed_dirs: message`` (line and key omitted when unknown)."""
    where = problem.file if problem.line is None else f"{problem.file}:{problem.line}"
    text = ": ".join([where, *([problem.key] if problem.key else []), problem.message])
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)  # always one line


def _split_key(text: str) -> list[str]:
    parts = re.findall(r""""([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+)""", text)
    return [next(p for p in groups if p) if any(groups) else "" for groups in parts]


def scan_key_lines(text: str) -> dict[tuple[str, ...], int]:
    """Map each table and key path in TOML ``text`` to the 1-based line that defines it.

    >>> scan_key_lines('a = 1\\n[guard]\\nallowed_dirs = []\\n')
    {('a',): 1, ('guard',): 2, ('guard', 'allowed_dirs'): 3}
    """
    lines: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            table = tuple(_split_key(header.group(1)))
            for i in range(1, len(table) + 1):  # [a.b] also defines a
                lines.setdefault(table[:i], number)
            continue
        key = _KEY.match(line)
        if key:
            path = table + tuple(_split_key(key.group(1)))
            for i in range(len(table) + 1, len(path) + 1):
                lines.setdefault(path[:i], number)
    return lines


def _line_for(loc: tuple[str, ...], lines: dict[tuple[str, ...], int]) -> int | None:
    for end in range(len(loc), 0, -1):
        if loc[:end] in lines:
            return lines[loc[:end]]
    return None


def _fields_at(loc: tuple[str | int, ...]) -> list[str]:
    model: type[BaseModel] = PawConfig
    for part in loc:
        if isinstance(part, int):
            continue
        field = model.model_fields.get(part)
        annotation = field.annotation if field else None
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return []
        model = annotation
    return list(model.model_fields)


def _message(error: Any) -> str:
    loc = tuple(error["loc"])
    if error["type"] == "extra_forbidden":
        allowed = _fields_at(loc[:-1])
        close = difflib.get_close_matches(str(loc[-1]), allowed, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        return f"unknown key{hint} (allowed: {', '.join(allowed)})" if allowed else "unknown key"
    return str(error["msg"])


def _key_text(loc: tuple[str | int, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _validation_problems(file: str, err: ValidationError, text: str) -> list[Problem]:
    lines = scan_key_lines(text)
    problems = []
    for error in err.errors():
        loc = tuple(error["loc"])
        named = tuple(str(p) for p in loc if not isinstance(p, int))
        problems.append(Problem(file, _line_for(named, lines), _key_text(loc), _message(error)))
    return sorted(problems, key=lambda p: (p.line is None, p.line or 0))


def _pattern_problems(file: str, config: PawConfig, text: str) -> list[Problem]:
    """Regular expressions in the ``[guard]`` pattern sets must compile."""
    lines = scan_key_lines(text)
    problems = []
    for table in _PATTERN_TABLES:
        pattern_set = getattr(config.guard, table)
        for kind in ("extend", "replace"):
            for index, pattern in enumerate(getattr(pattern_set, kind) or ()):
                try:
                    re.compile(pattern)
                except re.error as err:
                    loc = ("guard", table, kind)
                    problems.append(
                        Problem(
                            file,
                            _line_for(loc, lines),
                            f"guard.{table}.{kind}[{index}]",
                            f"invalid regular expression {pattern!r}: {err}",
                        )
                    )
    return problems


def _dir_problems(file: str, config: PawConfig, text: str) -> list[Problem]:
    dirs = config.guard.allowed_dirs or ()
    bad = [d for d in dirs if not (d.startswith("~") or Path(d).is_absolute())]
    if not bad:
        return []
    line = _line_for(("guard", "allowed_dirs"), scan_key_lines(text))
    message = f"must be absolute paths (or start with ~): {', '.join(map(repr, bad))}"
    return [Problem(file, line, "guard.allowed_dirs", message)]


def _agent_problems(file: str, config: PawConfig, text: str) -> list[Problem]:
    """Required fields per agent kind: a kind paw does not know needs a ``command``; any
    ``command`` needs a program (a non-empty first element)."""
    from paw.core.agents import BUILTIN_PROFILES

    lines = scan_key_lines(text)
    problems = []
    for kind, agent in config.agents.items():
        loc = ("agents", kind, "command")
        if agent.command is None and kind not in BUILTIN_PROFILES:
            message = (
                "a custom agent kind needs `command` (the argv that starts it), "
                f"or use a built-in kind ({', '.join(BUILTIN_PROFILES)})"
            )
            problems.append(Problem(file, _line_for(loc, lines), f"agents.{kind}", message))
        elif agent.command is not None and (not agent.command or not agent.command[0].strip()):
            message = "must name a program: a non-empty list whose first element is not empty"
            problems.append(Problem(file, _line_for(loc, lines), f"agents.{kind}.command", message))
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
        loc = ("worktrees", "root")
        problems.append(Problem(file, _line_for(loc, lines), "worktrees.root", why))
    git = git or GitCli(line_counts=False)
    defaults = WorktreesConfig()
    if wt.branch_prefix != defaults.branch_prefix and not git.valid_branch_name(
        repo_root, f"{wt.branch_prefix}agent"
    ):
        loc = ("worktrees", "branch_prefix")
        message = f"git does not accept branches named {wt.branch_prefix}NAME"
        problems.append(Problem(file, _line_for(loc, lines), "worktrees.branch_prefix", message))
    if wt.base != defaults.base and (
        wt.base.startswith("-") or git.resolve_commit(repo_root, wt.base) is None
    ):
        loc = ("worktrees", "base")
        message = f"{wt.base!r} names no commit in this repository"
        problems.append(Problem(file, _line_for(loc, lines), "worktrees.base", message))
    return problems


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


def parse_config(text: str, file: str = "paw.toml") -> tuple[PawConfig | None, list[Problem]]:
    """Validate TOML ``text`` as paw.toml (pure; ``file`` only labels the problems)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        match = _TOML_LINE.search(str(err))
        line = int(match.group(1)) if match else None
        message = _TOML_LINE.sub("", str(err))
        if match:
            message += f" (column {match.group(2)})"
        return None, [Problem(file, line, None, f"invalid TOML: {message}")]
    try:
        config = PawConfig.model_validate(data)
    except ValidationError as err:
        return None, _validation_problems(file, err, text)
    problems = (
        _pattern_problems(file, config, text)
        + _dir_problems(file, config, text)
        + _agent_problems(file, config, text)
    )
    return (None, problems) if problems else (config, [])


def load_config(
    path: str | Path, *, missing_ok: bool = False, repo_root: str | None = None
) -> tuple[PawConfig | None, list[Problem]]:
    """Read and validate ``path``. Returns the config, or None and every problem found.

    A missing file is a problem unless ``missing_ok``, in which case the defaults are returned.
    With ``repo_root``, the checks that need the repository run too (:func:`repo_problems`).
    """
    config, problems = _load(path, missing_ok=missing_ok)
    if config is None or repo_root is None:
        return config, problems
    text = Path(path).read_text(encoding="utf-8") if Path(path).exists() else ""
    found = repo_problems(config, text, str(path), repo_root)
    return (None, found) if found else (config, [])


def _load(path: str | Path, *, missing_ok: bool) -> tuple[PawConfig | None, list[Problem]]:
    file = str(path)
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        if missing_ok:
            return PawConfig(), []
        return None, [Problem(file, None, None, "file not found")]
    except OSError as err:
        return None, [Problem(file, None, None, f"cannot read: {err.strerror or err}")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        return None, [Problem(file, line, None, "invalid TOML: not UTF-8")]
    return parse_config(text, file)
