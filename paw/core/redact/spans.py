"""Where the secrets are in a command line: its words with their extent (parsed by the guard's
shell parser, or read word by word when it does not parse), judged with the program table and
the generic name rules; the spans found are masked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from paw.core.redact.names import MASK, NOT_A_VALUE_RE, is_secret_name
from paw.core.redact.programs import PROGRAM_RULES, Mode, ProgramRule

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from tree_sitter import Node


MAX_PARSED_CHARS = 16 * 1024  # longer text (a huge check log) gets the word and shape rules only


@dataclass(frozen=True, slots=True)
class _Word:
    start: int  # character offsets into the text being redacted
    end: int
    value: str  # what the program receives (quotes removed)
    raw: str  # the text as written


Span = tuple[int, int]


def _mask_after(word: _Word, prefix: str) -> Span:
    """The part of ``word`` after ``prefix`` (the whole word when quoting hides where it is)."""
    if word.raw.startswith(prefix):
        return (word.start + len(prefix), word.end)
    return (word.start, word.end)


def _judge_command(words: list[_Word]) -> list[Span]:
    """Spans of ``words`` (one command's argv, any wrapper or label included) that are secret."""
    spans: list[Span] = []
    for i, word in enumerate(words):
        _judge_generic(word, words[i + 1] if i + 1 < len(words) else None, spans)
        name = word.value.rsplit("/", 1)[-1]
        for rule in PROGRAM_RULES.get(name, ()):
            rest = _after_sub(words[i + 1 :], rule.sub)
            if rest is not None:
                _judge_program(rule, rest, spans)
    return spans


_LONG_RE = re.compile(r"(-{1,2})([A-Za-z][\w.\-]*)(?:=(.*))?", re.DOTALL)
_ASSIGN_RE = re.compile(r"([A-Za-z_][\w.\-]*)=(.*)", re.DOTALL)


def _judge_generic(word: _Word, following: _Word | None, spans: list[Span]) -> None:
    value = word.value
    option = _LONG_RE.fullmatch(value)
    if option is not None:
        dashes, name, attached = option.groups()
        if (len(dashes) == 2 or len(name) > 2) and is_secret_name(name):
            if attached is not None:
                spans.append(_mask_after(word, f"{dashes}{name}="))
            elif (
                following is not None
                and not following.value.startswith("-")
                and not NOT_A_VALUE_RE.search(name)
            ):
                spans.append((following.start, following.end))
        return
    assign = _ASSIGN_RE.fullmatch(value)
    if assign is not None and assign.group(2) and is_secret_name(assign.group(1)):
        spans.append(_mask_after(word, assign.group(1) + "="))


def _after_sub(words: list[_Word], sub: tuple[str, ...]) -> list[_Word] | None:
    """The words after the sub-command words ``sub`` (in order, options between), or None."""
    i = 0
    for part in sub:
        while i < len(words) and words[i].value != part:
            i += 1
        if i == len(words):
            return None
        i += 1
    return words[i:]


def _judge_program(rule: ProgramRule, words: list[_Word], spans: list[Span]) -> None:
    options = rule.options or {}
    operands: list[int] = []
    skip_next = False
    for i, word in enumerate(words):
        if skip_next:
            skip_next = False
            continue
        value = word.value
        if not value.startswith("-") or value == "-":
            operands.append(i)
            continue
        following = words[i + 1] if i + 1 < len(words) else None
        skip_next = _judge_option(options, word, following, spans)
    if rule.settings and len(operands) >= 2:
        name, val = words[operands[0]], words[operands[1]]
        if is_secret_name(name.value):
            spans.append((val.start, val.end))
    if rule.operand is not None and operands:
        if rule.when and not any(_has_short(w.value, rule.when) for w in words):
            return
        chosen = (
            words[operands[rule.operand]]
            if -len(operands) <= rule.operand < len(operands)
            else None
        )
        if chosen is not None:
            spans.append((chosen.start, chosen.end))


def _has_short(value: str, letter: str) -> bool:
    return value.startswith("-") and not value.startswith("--") and letter in value[1:]


def _judge_option(
    options: Mapping[str, Mode], word: _Word, following: _Word | None, spans: list[Span]
) -> bool:
    """Mask what ``word`` (an option) carries; True when it consumed ``following``."""
    value = word.value
    head, eq, _ = value.partition("=")
    mode = options.get(head)
    if mode is not None:
        if eq:
            if mode != "separate" or head.startswith("--"):
                spans.append(_mask_after(word, head + "="))
            return False
        if mode != "attached" and following is not None:
            spans.append((following.start, following.end))
            return True
        return False
    if value.startswith("--"):
        return False
    # a cluster of short options: `-sSu bob:pw`, `-pPW`, `-uroot`
    for k in range(2, len(value) + 1):
        short = value[:2] if k == 2 else "-" + value[k - 1]
        mode = options.get(short)
        if mode is None:
            if k > 2 and not value[k - 1].isalpha():
                return False
            continue
        if k < len(value):  # the rest of the word is the value
            if mode != "separate":
                spans.append(_mask_after(word, value[:k]))
            return False
        if mode != "attached" and following is not None:
            spans.append((following.start, following.end))
            return True
        return False
    return False


# -- parsed commands ----------------------------------------------------------------------------

_NOT_ARGV = frozenset(
    {"variable_assignment", "file_redirect", "herestring_redirect", "heredoc_redirect", "comment"}
)


def _parsed_spans(text: str) -> list[Span] | None:
    """Secret spans found by parsing ``text`` as a script; None when it does not parse cleanly."""
    from paw.core.guard.shell.parse import parse_script
    from paw.core.guard.shell.words import WordReader

    root = parse_script(text)
    source = (root.text or b"").decode("utf-8", "surrogatepass")
    if root.has_error or source[: len(text)] != text:
        return None  # an error, or the parser saw other text (continuations joined): words
    offset: list[int] | None = None  # byte offset -> character offset
    if not text.isascii():
        offset = []
        for i, ch in enumerate(text):
            offset += [i] * len(ch.encode("utf-8", "surrogatepass"))
        offset.append(len(text))
    reader = WordReader({})

    def word(node: Node) -> _Word:
        start, end = node.start_byte, node.end_byte
        if offset is not None:
            start, end = offset[min(start, len(offset) - 1)], offset[min(end, len(offset) - 1)]
        return _Word(start, end, reader.read(node).text, text[start:end])

    spans: list[Span] = []
    for node in _walk(root):
        if node.type == "command":
            argv = [
                word(child.named_children[0] if child.type == "command_name" else child)
                for child in node.named_children
                if child.type not in _NOT_ARGV
                and (child.type != "command_name" or child.named_children)
            ]
            spans += _judge_command(argv)
        elif node.type == "variable_assignment":
            name = node.child_by_field_name("name")
            value = node.child_by_field_name("value")
            if (
                name is not None
                and value is not None
                and is_secret_name((name.text or b"").decode("utf-8", "replace"))
            ):
                w = word(value)
                spans.append((w.start, w.end))
    return spans


def _walk(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


_WORD_RE = re.compile(r"""(?:'[^'\n]*'|"(?:\\.|[^"\\\n])*"|[^\s'"|;&()<>])+|'|\"""")


def _word_spans(line: str, base: int) -> list[Span]:
    """Secret spans of one line read word by word (it did not parse as a command)."""
    words = [
        _Word(base + m.start(), base + m.end(), m.group().replace("'", "").replace('"', ""),
              m.group())
        for m in _WORD_RE.finditer(line)
    ]  # fmt: skip
    return _judge_command(words)


def command_spans(text: str) -> list[Span]:
    if len(text) <= MAX_PARSED_CHARS:
        found = _parsed_spans(text)
        if found is not None:
            return found
    spans: list[Span] = []
    for match in _LOGICAL_LINE_RE.finditer(text):  # a line, its continuations joined
        line, base = match.group(), match.start()
        found = _parsed_spans(line) if line and len(line) <= MAX_PARSED_CHARS else None
        if found is None:
            found = _word_spans(line, 0)
        spans += [(base + s, base + e) for s, e in found]
    return spans


_LOGICAL_LINE_RE = re.compile(r"(?:\\\n|[^\n])+")


def apply_spans(text: str, spans: list[Span]) -> str:
    if not spans:
        return text
    merged: list[Span] = []
    for start, end in sorted(s for s in spans if s[1] > s[0]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    out: list[str] = []
    at = 0
    for start, end in merged:
        out += [text[at:start], MASK]
        at = end
    out.append(text[at:])
    return "".join(out)
