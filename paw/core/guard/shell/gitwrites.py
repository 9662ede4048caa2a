"""Git writes found while judging a command: what a confirmation shows about a commit or push.

They come from the same parse and walk as the verdict (wrappers peeled, ``bash -c`` bodies and
``&&`` chains followed, quotes removed), never from a second splitter.
"""

from __future__ import annotations

from dataclasses import dataclass

from paw.core.guard.shell.pushargs import PushPlan, parse_push

GIT_WRITES = frozenset({"commit", "push"})


@dataclass(frozen=True, slots=True)
class GitWrite:
    """A git write found in a shell command: the action and, for a commit, its ``-m`` message."""

    action: str
    message: str | None = None
    remote: str | None = None  # push: the first operand (or --repo)
    branch: str | None = None  # push: the source side of the first refspec


# GitWrite values by their fields: a frozen dataclass costs several µs to build, and the same
# commit or push recurs (a prompt judged again); a value handed out again changes nothing.
# Bounded: emptied when full.
_MADE: dict[tuple[str, str | None, str | None, str | None], GitWrite] = {}
_MADE_MAX = 256


def _made(
    action: str, message: str | None = None, remote: str | None = None, branch: str | None = None
) -> GitWrite:
    key = (action, message, remote, branch)
    found = _MADE.get(key)
    if found is None:
        if len(_MADE) >= _MADE_MAX:
            _MADE.clear()
        found = _MADE[key] = GitWrite(action, message, remote, branch)
    return found


def clear_made() -> None:
    """Forget the GitWrite values made so far (the benchmark's cold figures)."""
    _MADE.clear()


def git_write(sub: str, args: list[str], plan: PushPlan | None = None) -> GitWrite | None:
    """The :class:`GitWrite` of ``git <sub> <args>`` (arguments already normalised; ``plan``:
    the push's arguments parsed already, when the caller has them)."""
    if sub == "commit":
        return _made("commit", _message(args))
    if sub == "push":
        return _push_target(args, plan)
    return None


def _push_target(args: list[str], plan: PushPlan | None = None) -> GitWrite:
    """``git push [options] [remote [refspec…]]``: the remote and the first refspec's source,
    read by the same parser as the verdict (:func:`~paw.core.guard.shell.pushargs.parse_push`).

    Only plain sources are named (``main``, ``+main``, ``refs/heads/main:x``); ``HEAD`` or no
    refspec leaves the branch empty, and the git guard falls back to the current branch (and,
    without a remote, to the upstream).
    """
    if plan is None:
        plan = parse_push(args)
    return _made("push", None, plan.remote, plan.source)


def _message(args: list[str]) -> str | None:
    for i, arg in enumerate(args):
        short = arg.startswith("-") and not arg.startswith("--") and arg.endswith("m")
        if (short or arg == "--message") and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--message="):
            return arg.split("=", 1)[1]
    return None
