"""Problems of a TOML settings file (paw.toml, a wave file), each located as ``file:line: key``.

Both checkers (``paw config check``, ``paw wave check``) list every problem of a file in one run
and in one style: pydantic's errors, then the checks that need more than one key (run on what
parsed), each mapped back to the line of the TOML source that sets the key. Keys are written as
dotted paths with arrays counted from 1 (``tasks[2].check``, ``rules[1].kind``), as the docs
number them; an unknown key reads ``unknown key; did you mean …?``. Pure: text in, problems out.
"""

from __future__ import annotations

import difflib
import re
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

if TYPE_CHECKING:
    from collections.abc import Iterable

Loc = tuple[str | int, ...]
"""A key path as pydantic gives it: names, and 0-based indices into arrays."""

Lines = Mapping[Loc, int]
"""Where each key path is set: its 1-based line."""

COLLECT = "collect"
"""Validation context flag: checks spanning several keys are left to the checker, which reports
each at its own key instead of the first one at the file's top."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem in a settings file: where (``file``, 1-based ``line`` if known, dotted
    ``key``) and what (``message``). ``loc`` is the key path it was found at (not compared)."""

    file: str
    line: int | None
    key: str | None
    message: str
    loc: Loc = field(default=(), compare=False, repr=False)


def format_problem(problem: Problem) -> str:
    """``paw.toml:12: guard.allowed_dirs: message`` (line and key omitted when unknown)."""
    where = problem.file if problem.line is None else f"{problem.file}:{problem.line}"
    text = ": ".join([where, *([problem.key] if problem.key else []), problem.message])
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)  # always one line


def key_text(loc: Loc) -> str:
    """``("tasks", 1, "check")`` -> ``tasks[2].check`` (arrays counted from 1)."""
    out = ""
    for part in loc:
        out += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


# -- where a key is set ------------------------------------------------------------------------

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(
    r"""^\s*((?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+)(?:\s*\.\s*(?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+))*)\s*="""
)


def _split_key(text: str) -> list[str]:
    parts = re.findall(r""""([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+)""", text)
    return [next(p for p in groups if p) if any(groups) else "" for groups in parts]


def _in_arrays(path: tuple[str, ...], arrays: dict[tuple[str, ...], int]) -> Loc:
    """``[tasks.x]`` after ``[[tasks]]`` means the last task's ``x``: put the indices in."""
    out: list[str | int] = []
    for i, part in enumerate(path):
        out.append(part)
        if path[: i + 1] in arrays:
            out.append(arrays[path[: i + 1]])
    return tuple(out)


def _multiline_opened(rest: str) -> str | None:
    """The delimiter of a multi-line string opened, and not closed, by a value ``rest``."""
    value = rest.lstrip()
    for delim in ('"""', "'''"):
        if value.startswith(delim) and value.count(delim) == 1:
            return delim
    return None


def scan_key_lines(text: str) -> dict[Loc, int]:
    """Map each table, array element and key path in TOML ``text`` to its 1-based line.

    >>> scan_key_lines('a = 1\\n[guard]\\nallowed_dirs = []\\n[[tasks]]\\nname = "x"\\n')
    {('a',): 1, ('guard',): 2, ('guard', 'allowed_dirs'): 3, ('tasks',): 4, ('tasks', 0): 4, \
('tasks', 0, 'name'): 5}
    """
    lines: dict[Loc, int] = {}
    arrays: dict[tuple[str, ...], int] = {}
    table: Loc = ()
    closing: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if closing is not None:  # inside a multi-line string: nothing here is a key
            if closing in line:
                closing = None
            continue
        header = _HEADER.match(line)
        if header:
            path = tuple(_split_key(header.group(2)))
            if header.group(1) == "[[":
                arrays[path] = arrays.get(path, -1) + 1
                arrays = {k: v for k, v in arrays.items() if k[: len(path)] != path or k == path}
            table = _in_arrays(path, arrays)
            for i in range(1, len(table) + 1):  # [a.b] also defines a
                lines.setdefault(table[:i], number)
            continue
        key = _KEY.match(line)
        if key:
            path_loc = (*table, *_split_key(key.group(1)))
            for i in range(len(table) + 1, len(path_loc) + 1):
                lines.setdefault(path_loc[:i], number)
            closing = _multiline_opened(line[key.end() :])
    return lines


def line_for(loc: Loc, lines: Mapping[Loc, int]) -> int | None:
    """The line of ``loc``, or of the nearest enclosing key that is written in the file."""
    for end in range(len(loc), 0, -1):
        if loc[:end] in lines:
            return lines[loc[:end]]
    return None


def locate(file: str, loc: Loc, message: str, lines: Mapping[Loc, int]) -> Problem:
    """A problem at key path ``loc``."""
    return Problem(file, line_for(loc, lines), key_text(loc) or None, message, loc)


# -- pydantic's errors -------------------------------------------------------------------------


def _unwrap(annotation: object) -> object:
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        return args[0] if len(args) == 1 else annotation
    return annotation


def model_at(root: type[BaseModel], loc: Loc) -> type[BaseModel] | None:
    """The model whose keys are expected at ``loc`` (through tables, arrays and maps)."""
    annotation: object = root
    for part in loc:
        annotation = _unwrap(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            found = annotation.model_fields.get(str(part))
            if found is None or isinstance(part, int):
                return None
            annotation = found.annotation
        elif get_origin(annotation) in (tuple, list) and isinstance(part, int):
            annotation = get_args(annotation)[0]
        elif get_origin(annotation) is dict:
            annotation = get_args(annotation)[1]
        else:
            return None
    annotation = _unwrap(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def unknown_key_message(root: type[BaseModel], loc: Loc) -> str:
    """``unknown key; did you mean 'x'? (allowed: …)`` for the key at ``loc``."""
    model = model_at(root, loc[:-1])
    allowed = list(model.model_fields) if model else []
    close = difflib.get_close_matches(str(loc[-1]), allowed, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown key{hint} (allowed: {', '.join(allowed)})" if allowed else "unknown key"


def _message(root: type[BaseModel], error: Any) -> str:
    loc = tuple(error["loc"])
    if error["type"] == "extra_forbidden" and loc:
        return unknown_key_message(root, loc)
    if error["type"] == "missing":
        return "required, but missing"
    return str(error["msg"]).removeprefix("Value error, ")


def validation_problems(
    file: str, err: ValidationError, lines: Mapping[Loc, int], root: type[BaseModel]
) -> list[Problem]:
    """Every error of ``err`` (validating ``root``) at its key and line. An array too short
    only because its bad elements were left out is not a problem of its own."""
    errors = err.errors()
    return [
        locate(file, tuple(error["loc"]), _message(root, error), lines)
        for error in errors
        if not (error["type"] == "too_short" and _has_inner(tuple(error["loc"]), errors))
    ]


def _has_inner(loc: Loc, errors: Iterable[Any]) -> bool:
    return any(len(e["loc"]) > len(loc) and tuple(e["loc"])[: len(loc)] == loc for e in errors)


def covered(loc: Loc, reported: Iterable[Problem]) -> bool:
    """True when a problem was already reported at ``loc``, inside it, or around it (a check
    on what parsed does not repeat what the schema said about the same key)."""
    if not loc:
        return False
    for problem in reported:
        if not problem.loc:
            continue
        shorter = min(len(loc), len(problem.loc))
        if loc[:shorter] == problem.loc[:shorter]:
            return True
    return False


def in_order(problems: Iterable[Problem]) -> list[Problem]:
    """Problems by line (unlocated last), each once, in the order found within a line."""
    unique = list(dict.fromkeys(problems))
    return sorted(unique, key=lambda p: (p.line is None, p.line or 0))


def salvage(model: type[BaseModel], data: object) -> BaseModel | None:
    """``data`` validated as ``model`` with every part that does not validate left out (a
    table's bad keys, a map's bad entries): what the checks spanning several keys run on when
    the schema found problems. None when even that fails (a required key is missing)."""
    if not isinstance(data, dict):
        return None
    try:
        return model.model_validate(data, context={COLLECT: True})
    except ValidationError:
        pass
    kept: dict[str, object] = {}
    for key, value in data.items():
        found = model.model_fields.get(key)
        if found is None:
            continue
        annotation = _unwrap(found.annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            part = salvage(annotation, value)
            if part is not None:
                kept[key] = part
        elif get_origin(annotation) is dict and isinstance(value, dict):
            inner = _unwrap(get_args(annotation)[1])
            if isinstance(inner, type) and issubclass(inner, BaseModel):
                entries = {k: salvage(inner, v) for k, v in value.items() if isinstance(k, str)}
                kept[key] = {k: v for k, v in entries.items() if v is not None}
            elif _valid(model, key, value):
                kept[key] = value
        elif _valid(model, key, value):
            kept[key] = value
    try:
        return model.model_validate(kept, context={COLLECT: True})
    except ValidationError:
        return None


def _valid(model: type[BaseModel], key: str, value: object) -> bool:
    try:
        model.model_validate({key: value}, context={COLLECT: True})
    except ValidationError as err:
        return not any(tuple(e["loc"])[:1] == (key,) for e in err.errors())
    return True
