"""Other agents' worktrees: a read, a write, a link or a ``cd`` that lands in a worktree paw gave
another agent is ``block`` (rule ``shell.other-worktree``): one agent's approved command must
not change, read or build on another's unsaved work. The caller names those worktrees
(``evaluate_command(..., others=...)``: the supervisor knows its agents); the guard guesses no
path. A path is judged where it lands: relative paths from where the command runs (after
``cd``), absolute ones as written and, when the caller can follow symlinks, where the link
leads. ``~/…`` (also ``$HOME/…`` and ``${HOME}/…``, read as ``~`` by the word reader) lands
in the home directory the caller names (``home=...``: the supervisor passes its user's; the guard
reads no environment); without it, or for ``~user/…``, the path cannot be placed. What cannot be
placed (an unknown directory after ``cd "$X"``) is left to the other rules (a path above the
project is ``confirm`` there).
"""

from __future__ import annotations

import fnmatch
from typing import TYPE_CHECKING

from paw.core.guard.shell.rules.targets import _normalise as normalise
from paw.core.guard.shell.rules.targets import in_cwd
from paw.core.guard.shell.words import SUBST, UNKNOWN

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context

RULE = "shell.other-worktree"
# Programs whose operands are data, not paths (`echo ../bob/x` prints text).
_DATA = frozenset({"echo", "printf", "=", "export", "declare", "local", "readonly", "typeset"})


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root + "/")


def _may_reach(pattern: str, root: str) -> bool:
    """A glob (``../*/src``, ``/w/repo-paw/b*``) whose leading segments can name ``root``."""
    parts = [p for p in pattern.split("/") if p]
    roots = [p for p in root.split("/") if p]
    if len(parts) < len(roots):
        return False
    return all(fnmatch.fnmatchcase(r, p) for p, r in zip(parts, roots, strict=False))


def _at_home(text: str, home: str | None) -> str | None:
    """``~`` or ``~/…`` in ``home`` (None: no home given, or ``~user``, ``~+``, ``~-``)."""
    if home is None:
        return None
    if text == "~":
        return home
    if text.startswith("~/"):
        return home + text[1:]
    return None


def _stays_below(text: str, ctx: Context) -> bool:
    """A relative path with no ``..`` from the start directory, no link to follow and no other
    worktree inside the project: it lands in the project (most operands; no work to place it)."""
    return (
        ctx.resolve is None
        and ctx.cwd_prefix == ""
        and not ctx.others_nested
        and text[0] not in "/~"
        and ".." not in text
    )


def _absolute(seen: str, ctx: Context) -> str | None:
    """``seen`` (from the start directory) as an absolute path, or None when it cannot be
    placed (an unknown directory, no home named)."""
    if seen.startswith("~"):
        return _at_home(seen, ctx.home)
    if seen.startswith("/"):
        return seen
    if ctx.cwd_prefix is None or not ctx.project:
        return None
    return f"{ctx.project}/{seen}"


def other_worktree(text: str, ctx: Context) -> str | None:
    """The other agent's worktree ``text`` lands in, or None (also when paw cannot place it)."""
    if not text or UNKNOWN in text or SUBST in text or _stays_below(text, ctx):
        return None
    seen = _absolute(in_cwd(text, ctx), ctx)  # after `cd ~/w`, `bob/x` is `~/w/bob/x`
    if seen is None:
        return None
    where = normalise(seen)
    places = [where]
    if "*" in where or "?" in where or "[" in where:
        return next((o for o in ctx.others if _may_reach(where, o)), None)
    if ctx.resolve is not None:
        real = ctx.resolve(where)
        if real is not None and real != where:
            places.append(real)
    project = ctx.project
    for place in places:
        for other in ctx.others:
            # a worktree nested in another (the project inside a sibling's tree) is its own
            if _inside(place, other) and not (
                project and len(project) > len(other) and _inside(place, project)
            ):
                return other
    return None


def check_path(text: str, ctx: Context, verb: str) -> bool:
    """Block ``text`` when it lands in another agent's worktree; True when it did."""
    other = other_worktree(text, ctx)
    if other is None:
        return False
    ctx.block(RULE, f"`{verb}` reaches `{text[:120]}`, in another agent's worktree ({other})")
    return True


def check_operands(cmd: SimpleCommand, ctx: Context) -> None:
    """Every operand, option value and redirection target of ``cmd`` that names a path (reads,
    ``cd``, ``ln``, ``git -C``, ``< f``, ``> f``): the first that lands in another agent's
    worktree blocks."""
    moved = bool(ctx.cwd_prefix)  # after `cd ..`, a bare `bob` may be a sibling
    for arg in () if cmd.name in _DATA else cmd.args:
        value = arg.split("=", 1)[1] if arg.startswith("-") and "=" in arg else arg
        if ("/" in value or value == ".." or (moved and not value.startswith("-"))) and check_path(
            value, ctx, cmd.name
        ):
            return
    for redirect in cmd.redirects:  # `< ../bob/.env`, `> ../bob/a.py`
        target = redirect.target.text
        placed = "/" in target or moved
        if placed and not redirect.op.startswith("<<") and check_path(target, ctx, cmd.name):
            return
