"""Parse ``git status --porcelain`` (v1) output, with or without ``-z``.

Pure: the text comes from the caller. Handles renames and copies (both sides), C-style quoted
paths with octal escapes (``core.quotePath``), spaces, non-ASCII names, collapsed untracked
directories (``?? dir/``), ``## branch`` headers, bare path lines with no status code, and
``git diff --name-status`` lines (``R100<TAB>old<TAB>new``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_STATUS_CHARS = frozenset(" MTADRCU?!")
_ESCAPES = {
    "a": 7,
    "b": 8,
    "t": 9,
    "n": 10,
    "v": 11,
    "f": 12,
    "r": 13,
    '"': 34,
    "\\": 92,
}
_ARROW = " -> "
_NAME_STATUS = re.compile(r"^([MADRCTUX])[0-9]{0,3}\t")


@dataclass(frozen=True, slots=True)
class StatusEntry:
    """One entry of ``git status --porcelain``.

    ``index`` and ``worktree`` are the X and Y status letters (both ``" "`` for a bare path
    line). ``orig_path`` is the source of a rename or copy. A collapsed untracked directory keeps
    its trailing ``/`` in ``path``.
    """

    index: str
    worktree: str
    path: str
    orig_path: str | None = None

    @property
    def paths(self) -> tuple[str, ...]:
        """Every path the entry names: the rename/copy source first, then the target."""
        return (self.orig_path, self.path) if self.orig_path is not None else (self.path,)

    @property
    def is_dir(self) -> bool:
        """True for a collapsed untracked directory (``?? dir/``)."""
        return self.path.endswith("/")

    @property
    def is_untracked(self) -> bool:
        """True for ``??`` entries."""
        return self.index == "?"

    @property
    def is_ignored(self) -> bool:
        """True for ``!!`` entries (only listed with ``--ignored``)."""
        return self.index == "!"

    @property
    def is_deletion(self) -> bool:
        """True when the entry only removes its path (``D ``, `` D``, ``DD``): no content added."""
        codes = {self.index, self.worktree} - {" "}
        return codes == {"D"}

    @property
    def is_rename(self) -> bool:
        """True for renames and copies (``R`` or ``C`` in either column)."""
        return self.orig_path is not None


def unquote_path(text: str) -> str:
    """Decode a git C-style quoted path (``"a\\303\\251.txt"`` -> ``aé.txt``); others pass through.

    >>> unquote_path('"\\\\303\\\\251t\\\\303\\\\251.txt"')
    'été.txt'
    >>> unquote_path('plain name.txt')
    'plain name.txt'
    """
    if len(text) < 2 or not (text.startswith('"') and text.endswith('"')):
        return text
    body, out, i = text[1:-1], bytearray(), 0
    while i < len(body):
        ch = body[i]
        if ch != "\\" or i + 1 == len(body):
            out += ch.encode("utf-8", "surrogateescape")
            i += 1
            continue
        nxt = body[i + 1]
        if _is_octal(body[i + 1 : i + 4]):
            out.append(int(body[i + 1 : i + 4], 8) & 0xFF)
            i += 4
        else:
            out.append(_ESCAPES.get(nxt, ord(nxt) if nxt.isascii() else 0x3F))
            i += 2
    return out.decode("utf-8", "replace")


def _is_octal(chunk: str) -> bool:
    return len(chunk) == 3 and all(c in "01234567" for c in chunk)


def _split_quoted(rest: str) -> tuple[str, str | None]:
    """Split ``old -> new`` where either side may be quoted; return (first, second or None)."""
    if rest.startswith('"'):
        end = _closing_quote(rest)
        if end > 0:
            first, tail = rest[: end + 1], rest[end + 1 :]
            if tail.startswith(_ARROW):
                return unquote_path(first), unquote_path(tail[len(_ARROW) :])
            if not tail:
                return unquote_path(first), None
    if _ARROW in rest:
        old, new = rest.split(_ARROW, 1)
        return unquote_path(old), unquote_path(new)
    return unquote_path(rest), None


def _closing_quote(text: str) -> int:
    i = 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i
        i += 1
    return -1


def _status_code(line: str) -> tuple[str, str] | None:
    if (
        len(line) >= 4
        and line[2] == " "
        and line[0] in _STATUS_CHARS
        and line[1] in _STATUS_CHARS
        and line[:2] != "  "
    ):
        return line[0], line[1]
    return None


def _parse_name_status(line: str) -> StatusEntry | None:
    """``git diff --name-status`` lines: ``M\tpath``, ``R100\told\tnew``."""
    match = _NAME_STATUS.match(line)
    if match is None:
        return None
    fields = [unquote_path(f) for f in line[match.end() :].split("\t")]
    letter = match.group(1)
    if letter in "RC" and len(fields) == 2:
        return StatusEntry(letter, " ", fields[1], fields[0])
    return StatusEntry(letter, " ", "\t".join(fields))


def _parse_line(line: str) -> StatusEntry | None:
    if not line.strip() or line.startswith("## "):
        return None
    named = _parse_name_status(line)
    if named is not None:
        return named
    code = _status_code(line)
    if code is None:
        first, second = _split_quoted(line)
        if second is not None:
            return StatusEntry(" ", " ", second, first)
        return StatusEntry(" ", " ", first)
    x, y = code
    first, second = _split_quoted(line[3:])
    if second is not None and ("R" in code or "C" in code):
        return StatusEntry(x, y, second, first)
    if second is not None:  # an arrow in a non-rename entry: part of an unquoted name
        return StatusEntry(x, y, line[3:])
    return StatusEntry(x, y, first)


def _parse_z(text: str) -> list[StatusEntry]:
    fields = text.split("\0")
    entries: list[StatusEntry] = []
    i = 0
    while i < len(fields):
        field = fields[i]
        i += 1
        if not field or field.startswith("## "):
            continue
        code = _status_code(field)
        if code is None:
            entries.append(StatusEntry(" ", " ", field))
            continue
        x, y = code
        orig: str | None = None
        if ("R" in code or "C" in code) and i < len(fields):
            orig = fields[i]
            i += 1
        entries.append(StatusEntry(x, y, field[3:], orig))
    return entries


def parse_porcelain(text: str) -> list[StatusEntry]:
    """Parse ``git status --porcelain[=v1] [-z]`` output (the ``-z`` form is detected by NUL).

    >>> [e.paths for e in parse_porcelain('R  old.txt -> "new name.txt"\\n?? build/\\n')]
    [('old.txt', 'new name.txt'), ('build/',)]
    >>> parse_porcelain('R  new\\0old\\0 M a b\\0')[0].paths
    ('old', 'new')
    """
    if "\0" in text:
        return _parse_z(text)
    lines = (line.removesuffix("\r") for line in text.split("\n"))
    return [e for e in map(_parse_line, lines) if e is not None]
