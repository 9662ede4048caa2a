"""``git push`` arguments, read once: the verdict (``rules/gitpush.py``) and the confirmation a
human reads (``gitwrites.py``) both take their remote and refspecs from :func:`parse_push`.

The option table is git's own (``builtin/push.c``; ``git subtree push`` from git-subtree's
option spec): ``--repo``, ``--receive-pack``, ``--exec``, ``--recurse-submodules`` and
``-o``/``--push-option`` take the next word as their value; ``--signed`` and
``--force-with-lease`` take one only after ``=``. Like git's option parser it reads unique
abbreviations (``--mirr``), ``--no-`` negations (the last word wins), short clusters
(``-fo ci.skip``, ``-oci.skip``), options after operands and ``--``. A word it cannot place is
kept as written: nothing here makes a push look smaller than git runs it.
"""

from __future__ import annotations

from typing import NamedTuple

# long option -> takes the next word as its value (without ``=``)
_PUSH_LONG: dict[str, bool] = {
    "verbose": False, "quiet": False, "repo": True, "all": False, "branches": False,
    "mirror": False, "delete": False, "tags": False, "dry-run": False, "porcelain": False,
    "force": False, "force-with-lease": False, "force-if-includes": False,
    "recurse-submodules": True, "thin": False, "receive-pack": True, "exec": True,
    "set-upstream": False, "progress": False, "prune": False, "no-verify": False,
    "verify": False, "follow-tags": False, "signed": False, "atomic": False,
    "push-option": True, "ipv4": False, "ipv6": False,
}  # fmt: skip
_PUSH_SHORT = {
    "v": "verbose", "q": "quiet", "d": "delete", "n": "dry-run", "f": "force",
    "u": "set-upstream", "o": "push-option", "4": "ipv4", "6": "ipv6",
}  # fmt: skip
_SUBTREE_LONG: dict[str, bool] = {
    "help": False, "quiet": False, "debug": False, "annotate": True, "branch": True,
    "ignore-joins": False, "onto": True, "rejoin": False, "squash": False, "message": True,
    "prefix": True,
}  # fmt: skip
_SUBTREE_SHORT = {"h": "help", "q": "quiet", "d": "debug", "b": "branch", "m": "message",
                  "P": "prefix"}  # fmt: skip
IMPLICIT = "(the current branch)"


class PushPlan(NamedTuple):
    """What a push does: its flags (long names, ``--force``), remote and refspecs."""

    flags: frozenset[str]
    remote: str | None
    refspecs: tuple[str, ...]

    @property
    def force(self) -> bool:
        return "--force" in self.flags

    @property
    def lease(self) -> bool:
        return bool(self.flags & {"--force-with-lease", "--force-if-includes"})

    @property
    def delete(self) -> bool:
        return "--delete" in self.flags

    @property
    def mirror(self) -> bool:
        return "--mirror" in self.flags

    @property
    def dry_run(self) -> bool:
        return "--dry-run" in self.flags

    @property
    def prune(self) -> bool:
        return "--prune" in self.flags

    @property
    def wide(self) -> bool:
        return bool(self.flags & {"--all", "--branches", "--tags"})

    @property
    def targets(self) -> list[tuple[str, bool, bool]]:
        """Each refspec's destination: ``(branch, forced by +, deleted)``."""
        found: list[tuple[str, bool, bool]] = []
        for spec in self.refspecs:
            plus = spec.startswith("+")
            src, colon, dst = (spec[1:] if plus else spec).partition(":")
            if colon and not src:
                found.append((_dest(dst), plus, True))
            else:
                found.append((_dest(dst if colon else src), plus, self.delete))
        return found

    @property
    def source(self) -> str | None:
        """The branch the first refspec pushes from, when it names one plainly."""
        if not self.refspecs:
            return None
        src = self.refspecs[0].lstrip("+").split(":", 1)[0]
        src = src.removeprefix("refs/heads/")
        return src if src and src not in {"HEAD", "@"} else None


def _dest(ref: str) -> str:
    for prefix in ("refs/heads/", "refs/remotes/", "heads/"):
        if ref.startswith(prefix):
            return ref[len(prefix) :]
    if ref in {"HEAD", "@", ""}:
        return IMPLICIT
    return ref


def _long(word: str, table: dict[str, bool]) -> tuple[str, bool] | None:
    """``(name, negated)`` for a long option word without its ``--`` and ``=value``: exact,
    ``no-`` negated, or a unique abbreviation of either (as git's option parser reads it)."""
    if word in table:
        return word, False
    if word.startswith("no-") and word[3:] in table:
        return word[3:], True
    found = [(n, False) for n in table if n.startswith(word)]
    if word.startswith("no-") and word[3:]:
        found += [(n, True) for n in table if n.startswith(word[3:])]
    return found[0] if len(found) == 1 else None


def parse_push(args: list[str], *, subtree: bool = False) -> PushPlan:
    """Parse ``git push`` arguments (after the subcommand; ``subtree``: after ``subtree``)."""
    long_table, short_table = (
        (_SUBTREE_LONG, _SUBTREE_SHORT) if subtree else (_PUSH_LONG, _PUSH_SHORT)
    )
    words = args[1:] if subtree else args
    flags: set[str] = set()
    values: dict[str, str] = {}
    positional: list[str] = []
    i = 0
    while i < len(words):
        arg = words[i]
        i += 1
        if arg == "--":
            positional += words[i:]
            break
        if arg.startswith("--"):
            word, eq, value = arg[2:].partition("=")
            found = _long(word, long_table)
            if found is None:
                flags.add(arg.split("=", 1)[0])
                continue
            name, negated = found
            if negated:
                flags.discard("--" + name)
                continue
            flags.add("--" + name)
            if not eq and long_table[name] and i < len(words):
                value, i = words[i], i + 1
            values[name] = value
        elif arg.startswith("-") and len(arg) > 1:
            for j, letter in enumerate(arg[1:], start=2):
                short = short_table.get(letter)
                flags.add("--" + short if short else "-" + letter)
                if short is not None and long_table[short]:
                    value = arg[j:]
                    if not value and i < len(words):
                        value, i = words[i], i + 1
                    values[short] = value
                    break
        else:
            positional.append(arg)
    remote = positional[0] if positional else values.get("repo") or None
    return PushPlan(frozenset(flags), remote, tuple(positional[1:]))
