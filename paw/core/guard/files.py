"""File rules: classify paths as sensitive (abort a commit), agent-instruction (flag) or ordinary.

Matching is path-aware, not substring: every pattern is searched in the *matching form* of a path
(:func:`normalize_path`; see :mod:`paw.core.guard.presets` for the pattern conventions). Template
names (``.env.example``, ``secrets.sample.yaml``) are exempt from the sensitive list unless they
carry a key or keystore extension. Rule ids: ``files.sensitive`` and ``files.instruction``.

Compiled rules are memoised per pattern list (a pure cache keyed by the patterns, not a settings
singleton), so :func:`classify_path` stays in the microseconds on the hot path.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import TYPE_CHECKING

from paw.core.config import PatternSet
from paw.core.guard.porcelain import StatusEntry, parse_porcelain, unquote_path
from paw.core.guard.presets import (
    AGENT_INSTRUCTION_FILE_PATTERNS,
    SENSITIVE_FILE_PATTERNS,
    TEMPLATE_MARKERS,
    TEMPLATE_NOT_EXEMPT,
)
from paw.errors import ConfigError

if TYPE_CHECKING:
    from collections.abc import Iterable

    from paw.core.config import GuardConfig

__all__ = [
    "PathClass",
    "PathRules",
    "StatusEntry",
    "classify_entry",
    "classify_path",
    "detect_agent_instruction_files",
    "detect_sensitive_files",
    "normalize_path",
    "parse_porcelain",
    "unquote_path",
]

SENSITIVE_RULE = "files.sensitive"
INSTRUCTION_RULE = "files.instruction"


class PathClass(StrEnum):
    """What a path is to the guard, most severe first."""

    SENSITIVE = "sensitive"
    INSTRUCTION = "instruction"
    ORDINARY = "ordinary"

    @property
    def severity(self) -> int:
        """2 for sensitive, 1 for instruction, 0 for ordinary."""
        return {"sensitive": 2, "instruction": 1, "ordinary": 0}[self.value]


# Latin look-alikes that NFKC leaves alone (Cyrillic and Greek lower case, after casefold).
_CONFUSABLES = str.maketrans(
    {
        "а": "a",
        "е": "e",
        "ё": "e",
        "і": "i",
        "ї": "i",
        "ј": "j",
        "о": "o",
        "р": "p",
        "с": "c",
        "ѕ": "s",
        "у": "y",
        "х": "x",
        "к": "k",
        "һ": "h",
        "ԁ": "d",
        "ӏ": "l",
        "ɡ": "g",
        "ı": "i",
        "α": "a",
        "ε": "e",
        "ι": "i",
        "κ": "k",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
    }
)
# Encrypted vaults meant to be committed (dotenv-vault's `.env.vault`; its keys live in .env.keys).
_COMMITTED_VAULT_RE = re.compile(r"(?:^|/)\.env\.vault$")
_TOKEN_SPLIT = re.compile(r"[._\-]+")
_TEMPLATES = frozenset(TEMPLATE_MARKERS)
_ANCHOR = "(?:^|/)"


# Invisible letters that are not format characters (Hangul fillers, braille blank).
_INVISIBLE = dict.fromkeys(map(ord, "\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5"))


def _fold_unicode(path: str) -> str:
    text = unicodedata.normalize("NFKC", path).translate(_INVISIBLE)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cf", "Cc"))
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Mn")
    return text.translate(_CONFUSABLES)


def _clean_component(part: str) -> str:
    if part in (".", ".."):
        return part
    stripped = part.strip(" \t").rstrip(" .")
    return stripped or part.strip(" \t")


def normalize_path(path: str) -> str:
    """The matching form of a path: folded, lower-case, ``/``-separated, trailing ``/`` for dirs.

    >>> normalize_path("./Config/ＳＥＣＲＥＴＳ.yaml")
    'config/secrets.yaml'
    >>> normalize_path(".env\\u200b")
    '.env'
    """
    text = path.lower() if path.isascii() else _fold_unicode(path)
    text = text.replace("\\", "/")
    is_dir = text.endswith("/")
    absolute = text.startswith("/")
    parts = [_clean_component(p) for p in text.split("/")]
    kept = [p for p in parts if p not in ("", ".")]
    out = "/".join(kept)
    if absolute:
        out = "/" + out
    if is_dir and kept:
        out += "/"
    return out


def _is_template(norm: str) -> bool:
    name = norm.rstrip("/").rsplit("/", 1)[-1]
    return any(token in _TEMPLATES for token in _TOKEN_SPLIT.split(name))


def _compile(patterns: tuple[str, ...], what: str) -> re.Pattern[str] | None:
    if not patterns:
        return None
    # Factor the common component anchor out so the engine tries the anchored alternatives only
    # at the start and after each "/" (about 10x faster than a flat alternation).
    anchored = [p[len(_ANCHOR) :] for p in patterns if p.startswith(_ANCHOR)]
    free = [p for p in patterns if not p.startswith(_ANCHOR)]
    parts = [f"(?:{p})" for p in free]
    if anchored:
        parts.insert(0, _ANCHOR + "(?:" + "|".join(f"(?:{p})" for p in anchored) + ")")
    try:
        return re.compile("|".join(parts), re.IGNORECASE)
    except re.error as err:
        bad = next((p for p in patterns if not _compiles(p)), "?")
        raise ConfigError(f"invalid {what} pattern {bad!r}: {err}") from err


def _compiles(pattern: str) -> bool:
    try:
        re.compile(pattern)
    except re.error:
        return False
    return True


@dataclass(frozen=True, slots=True, eq=False)  # identity hash: hashing compiled regexes is slow
class PathRules:
    """Compiled sensitive and instruction rules. Build with :meth:`from_config` (memoised)."""

    sensitive: re.Pattern[str] | None
    instruction: re.Pattern[str] | None
    not_exempt: re.Pattern[str]

    @classmethod
    def from_config(cls, config: GuardConfig | None = None) -> PathRules:
        """Rules for ``config`` (presets extended or replaced by its pattern sets)."""
        if config is None:
            return _rules(_NO_CHANGE, _NO_CHANGE)
        return _rules(config.sensitive_files, config.agent_instruction_files)

    def is_sensitive(self, path: str) -> bool:
        """True if ``path`` (no status prefix) names a secret-bearing file or directory."""
        return self._sensitive_norm(normalize_path(path))

    def is_instruction(self, path: str) -> bool:
        """True if ``path`` steers an agent (instructions, settings, hooks, MCP, paw's policy)."""
        return self.instruction is not None and bool(self.instruction.search(normalize_path(path)))

    def classify(self, path: str) -> PathClass:
        """Sensitive before instruction before ordinary."""
        norm = normalize_path(path)
        if self._sensitive_norm(norm):
            return PathClass.SENSITIVE
        if self.instruction is not None and self.instruction.search(norm):
            return PathClass.INSTRUCTION
        return PathClass.ORDINARY

    def _sensitive_norm(self, norm: str) -> bool:
        if self.sensitive is None or not self.sensitive.search(norm):
            return False
        if _COMMITTED_VAULT_RE.search(norm):
            return False
        return not _is_template(norm) or bool(self.not_exempt.search(norm))


_NO_CHANGE = PatternSet()


@lru_cache(maxsize=64)
def _rules(sensitive: PatternSet, instruction: PatternSet) -> PathRules:
    return PathRules(
        sensitive=_compile(sensitive.resolve(SENSITIVE_FILE_PATTERNS), "sensitive-file"),
        instruction=_compile(
            instruction.resolve(AGENT_INSTRUCTION_FILE_PATTERNS), "agent-instruction-file"
        ),
        not_exempt=re.compile(TEMPLATE_NOT_EXEMPT, re.IGNORECASE),
    )


def classify_path(path: str, config: GuardConfig | None = None) -> PathClass:
    """Classify one repository-relative or absolute path (no status prefix).

    >>> classify_path("config/.env.production"), classify_path(".env.example")
    (<PathClass.SENSITIVE: 'sensitive'>, <PathClass.ORDINARY: 'ordinary'>)
    >>> classify_path("packages/api/AGENTS.md")
    <PathClass.INSTRUCTION: 'instruction'>
    """
    return _classify_memo(PathRules.from_config(config), path)


@lru_cache(maxsize=4096)
def _classify_memo(rules: PathRules, path: str) -> PathClass:
    """Repeated paths (the same file seen on every sweep) cost one dict lookup."""
    return rules.classify(path)


def classify_entry(entry: StatusEntry, config: GuardConfig | None = None) -> PathClass:
    """The most severe class of every path an entry names (both sides of a rename or copy)."""
    rules = PathRules.from_config(config)
    return max((rules.classify(p) for p in entry.paths), key=lambda c: c.severity)


def _entries(status: str | Iterable[str]) -> list[StatusEntry]:
    """Porcelain text, or a list (any iterable) of paths: each item is one path, as it is."""
    if isinstance(status, str):
        return parse_porcelain(status)
    items: Iterable[object] = status
    if isinstance(items, bytes | bytearray):
        raise TypeError("give git's output as text (decode it) or a list of paths")
    entries: list[StatusEntry] = []
    for path in items:
        if not isinstance(path, str):
            raise TypeError(f"a path must be a str, not {type(path).__name__}")
        if path:
            entries.append(StatusEntry(" ", " ", path))
    return entries


def detect_sensitive_files(
    git_status_output: str | Iterable[str],
    config: GuardConfig | None = None,
    *,
    include_deletions: bool = True,
) -> list[str]:
    """Paths in ``git status --porcelain`` output (or bare path lines, or a list of paths)
    that are sensitive.

    >>> detect_sensitive_files(["src/app.py", "config/.env.production", "id_ed25519"])
    ['config/.env.production', 'id_ed25519']

    Both sides of renames and copies are checked (``R  .env -> .env.example`` still moves a
    secret). Ignored (``!!``) entries are skipped: they cannot be committed by ``git add -A``.
    With ``include_deletions=False``, pure deletions are skipped too (removing a key from the
    tree is remediation; the commit gate uses this). Run git with ``--untracked-files=all`` so
    collapsed directories (``?? secrets/``) are listed file by file; a collapsed directory is
    reported only when its own name is sensitive.
    """
    rules = PathRules.from_config(config)
    found: dict[str, None] = {}
    for entry in _entries(git_status_output):
        if entry.is_ignored or (entry.is_deletion and not include_deletions):
            continue
        for path in entry.paths:
            if rules.is_sensitive(path):
                found.setdefault(path, None)
    return list(found)


def detect_agent_instruction_files(
    git_status_output: str | Iterable[str], config: GuardConfig | None = None
) -> list[str]:
    """Paths in ``git status --porcelain`` output (or a list of paths) that steer an agent.
    Never aborts anything.

    Deletions count (removing ``AGENTS.md`` changes an agent's behaviour), as do both sides of a
    rename. Paths that are also sensitive are reported here as well.
    """
    rules = PathRules.from_config(config)
    found: dict[str, None] = {}
    for entry in _entries(git_status_output):
        if entry.is_ignored:
            continue
        for path in entry.paths:
            if rules.is_instruction(path):
                found.setdefault(path, None)
    return list(found)
