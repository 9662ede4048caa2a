"""tree-sitter-bash parsing: one lazily built parser, line-continuation joining."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

MAX_SCRIPT_CHARS = 64 * 1024
INNER_CACHE_SIZE = 256
INNER_CACHE_MAX_CHARS = 4096  # bounds the memo's memory: big scripts are parsed afresh

_PARSER: list[Parser] = []  # module-level cache of the one parser (built on first use)


def _parser() -> Parser:
    if not _PARSER:
        import tree_sitter
        import tree_sitter_bash

        language = tree_sitter.Language(tree_sitter_bash.language())
        _PARSER.append(tree_sitter.Parser(language))
    return _PARSER[0]


def join_continuations(text: str) -> str:
    """Remove backslash-newline pairs outside single quotes, as bash does before word splitting."""
    if "\\\n" not in text:
        return text
    out: list[str] = []
    i, n = 0, len(text)
    in_single = in_double = False
    while i < n:
        ch = text[i]
        if in_single:
            in_single = ch != "'"
        elif ch == "\\" and i + 1 < n:
            if text[i + 1] == "\n":
                i += 2
                continue
            out.append(text[i : i + 2])
            i += 2
            continue
        elif ch == "'" and not in_double:
            in_single = True
        elif ch == '"':
            in_double = not in_double
        out.append(ch)
        i += 1
    return "".join(out)


# tree-sitter-bash 0.25's external scanner calls isdigit() on the code point after `{` (and after
# `{N..`), an out-of-bounds ctype-table read that can crash the process for code points above
# 0xFF. Such a character is replaced by DEL before parsing (it only ever sits inside a word).
_BRACE_CRASH_RE = re.compile(r"\{[0-9]*(?:\.\.[0-9]*)?[^\x00-\xff]")


# tree-sitter-bash drops a lone `-` word standing right before a heredoc (`make -f - <<EOF`,
# `cat - <<EOF` parse without it): quoted, it is the same word to bash and stays in the tree.
_DASH_HEREDOC_RE = re.compile(r"(?<=[ \t])-(?=[ \t]+<<(?!<))")


def _defuse(source: str) -> str:
    if "<<" in source:
        source = _DASH_HEREDOC_RE.sub("'-'", source)
    if "{" not in source or source.isascii():
        return source
    return _BRACE_CRASH_RE.sub(lambda m: m.group(0)[:-1] + "\x7f", source)


def parse_script(text: str) -> Node:
    """Parse a shell script into a tree-sitter root node (continuations joined first).

    A trailing newline is added: tree-sitter-bash resolves a pipeline of three or more stages
    at end of input some 30 times slower than before a newline (same tree either way).
    """
    source = _defuse(join_continuations(text))
    if not source.endswith("\n"):
        source += "\n"
    return _parser().parse(source.encode("utf-8", "surrogatepass")).root_node


def parse_inner(text: str) -> Node:
    """:func:`parse_script` memoised by text when short: for a command and the scripts nested
    inside one.

    ``sh -c '…'`` bodies, decoded payloads and interpreter ``-c`` code recur across an agent's
    commands, and a prompt's command is judged again; a tree is immutable, so sharing one
    between evaluations changes no verdict.
    """
    return _parse_memo(text) if len(text) <= INNER_CACHE_MAX_CHARS else parse_script(text)


def clear_inner_cache() -> None:
    """Forget every memoised nested-script tree (the benchmark's cold-cache figures)."""
    _parse_memo.cache_clear()


@lru_cache(maxsize=INNER_CACHE_SIZE)
def _parse_memo(text: str) -> Node:
    return parse_script(text)
