"""Words bash builds by splitting: an unquoted expansion with blanks, ``${IFS}``, a changed IFS; and
``echo $SECRET`` printing a credential.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paw.core.guard.shell.commands import SimpleCommand
from paw.core.guard.shell.words import (
    IFS_SPLIT,
    Word,
)

if TYPE_CHECKING:
    from tree_sitter import Node

    from paw.core.guard.shell.evaluation import Context


_BLANK_RE = re.compile(r"[ \t\n]")
PRINT_WORDS = frozenset({"echo", "printf", "print"})
VAR_REF_RE = re.compile(rb"\$\{?([A-Za-z_][A-Za-z0-9_]*)")


IFS_CHANGED = " IFS"  # a key no shell variable can have: IFS was set to a non-blank value


def ifs_command_word(node: Node, ctx: Context) -> None:
    """``IFS=,; c=rm,-rf,/; $c`` or ``IFS=: read a b <<< …; $a $b``: after IFS is changed, a
    command word that comes from an expansion is a word built by splitting (obfuscation)."""
    name = node.child_by_field_name("name")
    if name is not None and b"$" in (name.text or b""):
        ctx.block("shell.ifs-words", "the command word is built by word splitting on a changed IFS")


def resplit(
    argv: list[Word], subs: dict[int, list[SimpleCommand]]
) -> tuple[list[Word], dict[int, list[SimpleCommand]]]:
    """Words from expansions split as bash splits them: ``c='rm -rf /'; $c`` (an unquoted
    command word with blanks) and ``rm${IFS}-rf${IFS}/`` (the default IFS)."""
    first = argv[0] if argv else None
    if first is not None and not first.quoted and first.is_static and _BLANK_RE.search(first.text):
        argv = [Word(part) for part in first.text.split()] + argv[1:]
        subs = {}
    for word in argv:  # a loop, not any(): this runs for every command with a `$`
        if IFS_SPLIT in word.text:
            return _split_ifs(argv), {}
    return argv, subs


def printed_secret_variable(raw: bytes, ctx: Context) -> None:
    """``echo $GITHUB_TOKEN`` prints a credential into the agent's context; ``echo
    '$GITHUB_TOKEN'`` prints those letters (nothing expands in single quotes, nor after a
    backslash), as the fast path, which reads the words, has always judged it."""
    from paw.core.guard.shell.rules.secrets import secret_variable

    for match in VAR_REF_RE.finditer(expanding(raw)):
        name = match.group(1).decode("ascii", "replace")
        if secret_variable(name) and name not in ctx.env:
            ctx.block("shell.secret-read", f"`echo ${name}` prints a credential")
            return


def expanding(raw: bytes) -> bytes:
    """``raw`` with what the shell takes literally blanked: single-quoted text outside double
    quotes (also ``$'…'``) and each backslash with the character it escapes. A quote left open
    keeps the rest as it is (a text that does not parse is read whole: fail closed).

    >>> expanding(b"echo '$A' $B")
    b'echo      $B'
    """
    if b"'" not in raw and b"\\" not in raw:
        return raw
    out = bytearray(raw)
    i, n, double = 0, len(raw), False
    while i < n:
        c = raw[i]
        if c == 0x5C:  # a backslash: the next character is literal (in double quotes too)
            out[i : i + 2] = b" " * len(out[i : i + 2])
            i += 2
        elif c == 0x22:
            double = not double
            i += 1
        elif c == 0x27 and not double:
            end = raw.find(b"'", i + 1)
            if end < 0:
                return bytes(out)
            out[i : end + 1] = b" " * (end + 1 - i)
            i = end + 1
        else:
            i += 1
    return bytes(out)


def _split_ifs(argv: list[Word]) -> list[Word]:
    """``rm${IFS}-rf${IFS}/`` is three words with the default IFS."""
    out: list[Word] = []
    for word in argv:
        if IFS_SPLIT not in word.text:
            out.append(word)
            continue
        out.extend(Word(part, word.quoted) for part in word.text.split(IFS_SPLIT) if part)
    return out
