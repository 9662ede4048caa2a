"""Splitting an argument list into options and operands."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Container


class Parsed(NamedTuple):
    """Options (each as written, value options joined as ``opt=value``) and operands."""

    options: list[str]
    operands: list[str]
    letters: frozenset[str]


def split_args(args: list[str], with_value: Container[str] = ()) -> Parsed:
    """Split ``args``: options stop at ``--``; short clusters contribute to ``letters``.
    ``with_value``: the options that take the next word (a constant tuple or set)."""
    options: list[str] = []
    operands: list[str] = []
    letters: set[str] = set()
    i, n = 0, len(args)
    while i < n:
        arg = args[i]
        if arg[:1] != "-" or arg == "-":
            operands.append(arg)
            i += 1
            continue
        if arg == "--":
            operands.extend(args[i + 1 :])
            break
        if arg in with_value and i + 1 < n:
            options.append(f"{arg}={args[i + 1]}")
            i += 2
            continue
        options.append(arg)
        if arg[1] != "-":  # a short cluster
            letters.update(arg[1:])
        i += 1
    # `Parsed(...)` without its generated `__new__` frame (a call per command with options)
    return _new_parsed(Parsed, (options, operands, frozenset(letters) if letters else _NONE))


_new_parsed = tuple.__new__
_NONE: frozenset[str] = frozenset()


def has_long(parsed: Parsed, *names: str) -> bool:
    """True when any long option (with or without ``=value``) is among ``names``."""
    for opt in parsed.options:  # noqa: SIM110 - a loop, not a generator: runs for most `rm`s
        if opt.split("=", 1)[0] in names:
            return True
    return False


def option_value(args: list[str], *names: str) -> str | None:
    """The value of the first of ``names``: ``-o v``, ``-ov``, ``-sSLo v``, ``--out=v``."""
    for i, arg in enumerate(args):
        following = args[i + 1] if i + 1 < len(args) else None
        for name in names:
            if arg == name:
                return following
            if name.startswith("--"):
                if arg.startswith(name + "="):
                    return arg[len(name) + 1 :]
                continue
            if arg.startswith("-") and not arg.startswith("--") and name[1] in arg[1:]:
                glued = arg[arg.index(name[1], 1) + 1 :]
                return glued or following
    return None
