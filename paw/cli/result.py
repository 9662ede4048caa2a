"""What a command did, and the one renderer that prints it.

A handler returns a :class:`Result` (or, not yet converted, an exit code having printed
itself): the JSON object it prints under ``--json``, the lines it prints on stdout and stderr
in order, and the exit code. :func:`render` is the one place that writes them. Errors raised as
:class:`~paw.errors.PawError` still go through ``paw.cli.report_error``.

Two kinds of output cannot wait for the end of a command, and go through here too: a
:class:`Question` a result carries (`paw approve` asking a person at a terminal to confirm:
:func:`render` asks it, and a yes renders the result the question leads to), and
:func:`write_live` lines written as they happen (a wave's progress, the note `paw attach`
writes before tmux takes the terminal).

Three JSON layouts are pinned by tests and by what reads them: ``PRETTY`` (indented, non-ASCII
as is, anything else as ``str``: every command's), ``LINE`` (one line: `paw check`, read line by
line by hooks) and ``ASCII`` (indented, non-ASCII escaped: `paw detect` and `paw wave`).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

OUT = "out"
ERR = "err"
RAW = "raw"  # stdout, written as is (no newline added)


class JsonLayout(Enum):
    """How the JSON object is laid out (see the module's docstring)."""

    PRETTY = "pretty"
    LINE = "line"
    ASCII = "ascii"


def json_text(data: object, layout: JsonLayout = JsonLayout.PRETTY) -> str:
    """``data`` as ``layout`` writes it."""
    if layout is JsonLayout.LINE:
        return json.dumps(data, ensure_ascii=False)
    if layout is JsonLayout.ASCII:
        return json.dumps(data, indent=2)
    return json.dumps(data, indent=2, default=str, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Question:
    """A yes/no question for a person at a terminal, asked before a result stands: ``text``
    is shown, then ``ask`` waits for the answer; a yes renders ``then()`` instead. Never asked
    when the input is not a terminal (the result stands as it is)."""

    text: str
    ask: str
    then: Callable[[], Result]


@dataclass(frozen=True, slots=True)
class Result:
    """One command's outcome: what ``--json`` prints, what text mode prints, the exit code."""

    data: Mapping[str, object] | None = None  # the one JSON object (None: prints nothing)
    lines: Sequence[tuple[str, str]] = ()  # text mode: (OUT, ERR or RAW, text), in order
    code: int = 0
    layout: JsonLayout = JsonLayout.PRETTY
    question: Question | None = None  # asked first, at a terminal (see Question)


class Lines:
    """A handler's text, built line by line (``out`` to stdout, ``err`` to stderr)."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []

    def out(self, text: str) -> None:
        """A line (or lines) for stdout."""
        self.lines.append((OUT, text))

    def err(self, text: str) -> None:
        """A line (or lines) for stderr."""
        self.lines.append((ERR, text))

    def result(self, code: int = 0, *, question: Question | None = None) -> Result:
        """The text as a :class:`Result` (``question``: see :class:`Question`)."""
        return Result(lines=tuple(self.lines), code=code, question=question)


def lines_of(*lines: str, code: int = 0) -> Result:
    """A result that prints ``lines`` on stdout."""
    return Result(lines=tuple((OUT, line) for line in lines), code=code)


def json_of(
    obj: Mapping[str, object], *, code: int = 0, layout: JsonLayout = JsonLayout.PRETTY
) -> Result:
    """A result that prints ``obj`` as JSON."""
    return Result(data=obj, code=code, layout=layout)


def render(result: Result) -> int:
    """Write ``result``: its JSON object if it has one, then its lines; its exit code. (A
    handler under ``--json`` gives the object and at most lines for stderr.) A result with
    a :class:`Question` asks it first when the input is a terminal: a yes renders what the
    question leads to instead."""
    question = result.question
    if question is not None and sys.stdin.isatty():
        print(question.text)
        if input(question.ask).strip().lower() in ("y", "yes"):
            return render(question.then())
    if result.data is not None:
        print(json_text(result.data, result.layout))
    for stream, line in result.lines:
        if stream == RAW:
            sys.stdout.write(line)
        else:
            print(line, file=sys.stderr if stream == ERR else sys.stdout)
    return result.code


def write_live(text: str, stream: str = OUT) -> None:
    """Write ``text`` now, flushed, to stdout (``OUT``) or stderr (``ERR``): output that
    cannot wait for the command's result (a wave's progress lines, a note before `paw
    attach` hands the terminal to tmux)."""
    print(text, file=sys.stderr if stream == ERR else sys.stdout, flush=True)
