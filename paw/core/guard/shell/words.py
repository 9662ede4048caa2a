"""Bash word normalisation: quote and backslash removal, ANSI-C decoding, braces, variables.

A word becomes a :class:`Word` whose ``text`` is what bash would pass to the program, as far
as it can be known statically. Parts that cannot be known are replaced by sentinel characters:
:data:`UNKNOWN` for an unresolved expansion (``$X``, ``$(…)``) and :data:`GUARDED` for
``${X:?}``, which aborts the command when the variable is empty.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

    from tree_sitter import Node

UNKNOWN = "\ue000"
GUARDED = "\ue001"
SUBST = "\ue002"  # output of a command substitution: unknown, assumed non-empty
SENTINELS = UNKNOWN + GUARDED + SUBST
IFS_SPLIT = "\ue003"  # an unquoted `$IFS`: bash splits the word there (default IFS)

# Variables whose value paw knows well enough to judge a path.
LAST_JOB = "%last-background-job"  # `$!`: the shell's own last background job
_KNOWN_VARS = {
    "HOME": "~",
    "PWD": ".",
    "OLDPWD": UNKNOWN,
    "TMPDIR": "/tmp",  # noqa: S108 - a path to judge, not to use
    "!": LAST_JOB,
    "IFS": IFS_SPLIT,
    # the terminal's name (zsh's $TTY, ssh's, gpg's by convention): a terminal device
    "TTY": "/dev/pts/" + UNKNOWN,
    "SSH_TTY": "/dev/pts/" + UNKNOWN,
    "GPG_TTY": "/dev/pts/" + UNKNOWN,
}

_ANSI_SIMPLE = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
_ANSI_RE = re.compile(r"\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)")
_DQ_ESCAPE_RE = re.compile(r'\\([$`"\\])')
_BACKSLASH_RE = re.compile(r"\\(.)", re.DOTALL)
_BRACE_RE = re.compile(r"\{([^{}]*,[^{}]*)\}")
_EXPANSION_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(.*)", re.DOTALL)

# Cyrillic and Greek letters that look like Latin ones (a small, targeted confusables table).
_CONFUSABLES = str.maketrans(
    "аеорсуххіјѕԁһӏԛԝаѵАВЕКМНОРСТХІЈЅαβεικνορτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxxijsdhlqwavABEKMHOPCTXIJSabeiknoptuxABEZHIKMNOPTYX",
)


@dataclass(slots=True)  # not frozen: built ~10 times per command, 5x cheaper; never mutated
class Word:
    """One normalised shell word (a value: never mutated after construction).

    ``text`` carries :data:`UNKNOWN`/:data:`GUARDED` sentinels where expansions could not be
    resolved; ``quoted`` is true when any part was quoted; ``braces`` when it had unquoted
    ``{…,…}`` that bash would brace-expand.
    """

    text: str
    quoted: bool = False
    braces: bool = False

    @property
    def is_static(self) -> bool:
        """True when the whole value is known."""
        text = self.text
        return UNKNOWN not in text and GUARDED not in text and SUBST not in text


def decode_ansi_c(body: str) -> str:
    """Decode the body of a ``$'…'`` string as bash does."""

    def repl(match: re.Match[str]) -> str:
        esc = match.group(1)
        head = esc[0]
        if head in "xuU" and len(esc) > 1:
            return chr(min(int(esc[1:], 16), 0x10FFFF))
        if head.isdigit():
            return chr(int(esc, 8) & 0xFF)
        if head == "c" and len(esc) == 2:
            return chr(ord(esc[1]) & 0x1F)
        return _ANSI_SIMPLE.get(esc, "\\" + esc)

    return _ANSI_RE.sub(repl, body)


def remove_backslashes(text: str) -> str:
    """Unquoted backslash removal: ``r\\m`` is ``rm``."""
    if "\\" not in text:
        return text
    return _BACKSLASH_RE.sub(r"\1", text)


def expand_braces(text: str, limit: int = 64) -> list[str]:
    """Expand literal ``{a,b}`` groups (innermost first), capped at ``limit`` results."""
    out = [text]
    for _ in range(8):
        if not any(_BRACE_RE.search(t) for t in out):
            break
        nxt: list[str] = []
        for t in out:
            match = _BRACE_RE.search(t)
            if match is None:
                nxt.append(t)
                continue
            head, tail = t[: match.start()], t[match.end() :]
            nxt.extend(head + alt + tail for alt in match.group(1).split(","))
        out = nxt[:limit]
    return out


def fold_confusables(text: str) -> str:
    """NFKC plus a look-alike table: what a human would read the word as."""
    folded = unicodedata.normalize("NFKC", text).translate(_CONFUSABLES)
    return "".join(c for c in folded if unicodedata.category(c) != "Cf")


_PLAIN = frozenset({"word", "number", "file_descriptor", "special_variable_name", "variable_name"})
_QUOTED = frozenset({"string", "translated_string"})
_SUBSTITUTIONS = frozenset({"command_substitution", "process_substitution"})


def has_unknown(text: str) -> bool:
    """True when ``text`` holds an unresolved expansion or substitution."""
    return UNKNOWN in text or SUBST in text


def _plain(text: str, flags: list[bool], *, in_quotes: bool) -> str:
    if in_quotes:
        return _DQ_ESCAPE_RE.sub(r"\1", text)
    if "{" in text or "}" in text:
        flags[1] = True
    return remove_backslashes(text)


def _var_value(name: str, env: Mapping[str, str]) -> str:
    if name in env:
        return env[name]
    return _KNOWN_VARS.get(name, UNKNOWN)


class WordReader:
    """Turns tree-sitter word nodes into :class:`Word` values under a variable environment."""

    __slots__ = ("env",)

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = env

    def read(self, node: Node) -> Word:
        """Normalise one word-like node."""
        parts: list[str] = []
        flags = [False, False]  # quoted, braces
        self._collect(node, parts, flags, in_quotes=False)
        return Word("".join(parts), quoted=flags[0], braces=flags[1])

    def _collect(self, node: Node, parts: list[str], flags: list[bool], *, in_quotes: bool) -> None:
        kind = node.type
        text = node.text.decode("utf-8", "replace") if node.text is not None else ""
        if kind in _PLAIN:
            parts.append(_plain(text, flags, in_quotes=in_quotes))
        elif kind == "raw_string":
            flags[0] = True
            parts.append(text[1:-1])
        elif kind == "ansi_c_string":
            flags[0] = True
            parts.append(decode_ansi_c(text[2:-1]))
        elif kind in _QUOTED:
            flags[0] = True
            for child in node.named_children:
                self._collect(child, parts, flags, in_quotes=True)
        elif kind == "string_content":
            parts.append(_DQ_ESCAPE_RE.sub(r"\1", text))
        elif kind == "simple_expansion":
            parts.append(_var_value(text[1:], self.env))
        elif kind == "expansion":
            parts.append(self._expansion(node, text))
        elif kind in {"concatenation", "command_name"}:
            for child in node.children:
                self._collect(child, parts, flags, in_quotes=in_quotes)
        elif kind in _SUBSTITUTIONS:
            parts.append(SUBST)
        else:  # arithmetic and anything else: not known statically
            parts.append(UNKNOWN)

    def _expansion(self, node: Node, text: str) -> str:
        inner = text[2:-1]
        match = _EXPANSION_RE.fullmatch(inner)
        if match is None:
            return UNKNOWN
        name, op = match.groups()
        if not op:
            return _var_value(name, self.env)
        if op.startswith(("?", ":?")):
            value = _var_value(name, self.env)
            return GUARDED if value == UNKNOWN else value
        del node
        return UNKNOWN
