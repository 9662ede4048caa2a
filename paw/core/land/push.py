"""Pushing the landed base: never forced, a protected branch only with a standing rule."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.guard.shell.rules.gitpush import is_protected_branch
from paw.core.wave.rules import rule_matches

if TYPE_CHECKING:
    from collections.abc import Sequence

    from paw.core.wave.schema import WaveFile

# -- pushing the landed base -------------------------------------------------------------------


def push_command(remote: str, into: str) -> str:
    """The push paw makes, as a standing rule names it (never a force)."""
    return f"git push {remote} {into}"


def push_refusal(
    wave: WaveFile, into: str, remote: str | None, protected: Sequence[str]
) -> str | None:
    """Why the landed base may not be pushed (None: push it). Asked for by the human (``--push``),
    it still goes through the guard's rule for pushes: a protected branch (as the guard tells
    one: :func:`~paw.core.guard.shell.rules.gitpush.is_protected_branch`) is pushed only when a
    standing rule of the wave file names that very push."""
    if remote is None:
        return f"{into} has no remote to push to (`git remote add origin URL`)"
    if is_protected_branch(into, protected):  # the guard's own rule: they cannot drift
        command = push_command(remote, into)
        if not any(rule_matches(rule, "shell", command, "") for rule in wave.rules):
            return (
                f"{into} is a protected branch: a standing rule naming `{command}` "
                '([[rules]] kind = "shell") in the wave file allows it'
            )
    return None
