"""The guard's patterns use no possessive quantifier and no atomic group (CPython before 3.11.5
misreads them, gh-106052: Debian 12's Python is 3.11.2), and their rewrites match exactly as
the possessive forms they replace, in linear time."""

from __future__ import annotations

import importlib
import json
import pkgutil
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import paw.core.guard
from paw.core.guard.shell import fastpath
from paw.core.guard.shell.rules import targets
from tests.core.guard.test_shell_parse import _corpus_commands

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "guard"

# The possessive forms as they were (the reference): `re` reads them right from 3.11.5 on.
_P = r"[A-Za-z0-9_./:=@%+,~*?-]++"
_Q = r"'[^'\n]*+'|\"[^\"$`\\!\n]*+\""
_W = rf"(?:{_P}|{_Q}|\{{\}}|\\;)"
_S = r" *+(?:&&|\|\||;|\|) *+"
_N = r"[A-Za-z_][A-Za-z0-9_]*+"
_E = rf"\$(?:({_N}|[0-9@*])|\{{({_N})(:?\?)?\}})"
_PS = rf"(?:{_P}|'[^'\n]*+'|\"[^\"`\\!\n]*+\"|\$(?:{_N}|[0-9@*]|\{{{_N}:?\??\}}))++"
_B = r"(?=[ \n;&|<>]|$)"
POSSESSIVE = {
    "_WORDS_RE": rf"{_P}(?: ++{_P})*+",
    "_LIST_RE": rf"{_W}(?: ++{_W})*+(?:{_S}{_W}(?: ++{_W})*+)*+",
    "_LIST_TOKEN_RE": rf"(&&|\|\||;)|(\|)|({_P})|'([^'\n]*+)'|\"([^\"$`\\!\n]*+)\"|(\{{\}})|\\(;)",
    "_EXPANSION_RE": _E,
    "_TOKEN_RE": (
        r" *+(?:(&&|\|\||;|\n)|(\|)|([0-9]?>>|[0-9]?>|&>>|&>|<)(?![<>&(|])"
        r"|([0-9]?>&[0-9])(?=[ \n;&|]|$)"
        rf"|({_P}(?: ++{_P})*+)(?=[ \n;&|]|$)|({_P}){_B}|(\{{\}}|\\;){_B}|({_PS}){_B}|.)"
    ),
    "_PIECE_RE": rf"({_P})|'([^'\n]*+)'|\"([^\"`\\!\n]*+)\"|({_E})",
    "_PIPE_WORD_RE": r"(?!==$|=~$)@?(?:[A-Za-z0-9_./:,~*=-]|\+(?!:))++",
    "_PLAIN_RELATIVE_RE": r"[^/~.*?\[\ue000-\ue002][^*?\[\ue000-\ue002]*+",
}
REWRITTEN: dict[str, re.Pattern[str]] = {
    name: getattr(targets if name == "_PLAIN_RELATIVE_RE" else fastpath, name)
    for name in POSSESSIVE
}
# Python's `re` reads `X*+` right from 3.11.5 on (gh-106052): only there is the reference one.
RELIABLE = sys.implementation.name == "cpython" and sys.version_info >= (3, 11, 5)


def _ops(items: Any, c: Any) -> Iterator[Any]:
    """Every operation of a parsed pattern (``re._parser``), nested ones included."""
    for op, av in items:
        yield op
        if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            yield from _ops(av[2], c)
        elif op is c.SUBPATTERN:
            yield from _ops(av[3], c)
        elif op is c.ATOMIC_GROUP:
            yield from _ops(av, c)
        elif op is c.BRANCH:
            for branch in av[1]:
                yield from _ops(branch, c)
        elif op in (c.ASSERT, c.ASSERT_NOT):
            yield from _ops(av[1], c)
        elif op is c.GROUPREF_EXISTS:
            yield from _ops(av[1], c)
            if av[2] is not None:
                yield from _ops(av[2], c)


def _guard_patterns() -> Iterator[tuple[str, re.Pattern[str]]]:
    for info in pkgutil.walk_packages(paw.core.guard.__path__, "paw.core.guard."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            values = value.values() if isinstance(value, dict) else value
            if isinstance(value, re.Pattern):
                yield f"{info.name}.{name}", value
            elif isinstance(value, list | tuple | frozenset | set | dict):
                for item in values:
                    if isinstance(item, re.Pattern):
                        yield f"{info.name}.{name}", item


def _uses_possessive(pattern: str | bytes, flags: int) -> bool:
    parser: Any = importlib.import_module("re._parser")
    constants: Any = importlib.import_module("re._constants")
    banned = {constants.POSSESSIVE_REPEAT, constants.POSSESSIVE_REPEAT_ONE, constants.ATOMIC_GROUP}
    return any(op in banned for op in _ops(parser.parse(pattern, flags), constants))


def test_the_scan_sees_possessive_quantifiers_and_atomic_groups() -> None:
    for pattern in ("a*+", "(?:ab?c)*+", "[a-z]++b", "x(?>y|z)", "(?:a(?:b?+))"):
        assert _uses_possessive(pattern, 0), pattern
    for name, pattern in POSSESSIVE.items():
        assert _uses_possessive(pattern, 0), name
    for pattern in ("a*", r"\++", r"[+]+", "(?!a)(?=b)", "x{1,2}"):
        assert not _uses_possessive(pattern, 0), pattern


def test_no_guard_pattern_uses_possessive_quantifiers_or_atomic_groups() -> None:
    patterns = list(_guard_patterns())
    assert len(patterns) > 100
    assert {"paw.core.guard.shell.fastpath._TOKEN_RE"} <= {name for name, _ in patterns}
    used = [name for name, p in patterns if _uses_possessive(p.pattern, p.flags)]
    assert used == []


def test_the_fast_path_reads_on_every_python() -> None:
    """No interpreter gate: the parser is left only the commands the fast path cannot take."""
    for command in ("git status", "ls -la && echo 'a b'", 'cat "$HOME"/x 2>/dev/null | wc -l'):
        assert fastpath.fast_parts(command) is not None, command


# Pieces of commands: plain words, quoted ones, expansions, find's words, operators, blanks and
# the characters that end or break a piece (the fast path's alphabet and its edges).
_PIECES = (
    "a", "rm", "-rf", "/", "~", "./x", "a=b", "x@y", "%", "?", "*", "+:", "==", "=~", "@", "1",
    "'a b'", "''", "'$X'", '"a"', '"$X"', '"${Y:?}x"', '"a$1"', '"!"', "$X", "$1", "$@", "${X}",
    "${X?}", "${X:?}", "$", "${", "{}", "\\;", "\\", "'", '"', "`", "$(x)", "(", ")", "#", "\ue000",
)  # fmt: skip
_JOINS = (
    "", " ", "  ", " && ", "&&", " || ", "|", " | ", ";", "; ", "\n", " > ", "2>", " 2>&1", " <",
    ">>", "&", "&>", "<<", " >(",
)  # fmt: skip
_CHARS = "aZ09_./:=@%+,~*?- \n'\"$`\\!{}();&|<>#\t\ue000"


def _strings() -> list[str]:
    rng = random.Random(34)  # noqa: S311 - reproducible test data, not secrets
    found = _corpus_commands()
    for name in ("posture.jsonl", "posture_heldout.jsonl"):
        for line in (FIXTURES / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                found.append(json.loads(line)["cmd"])
    found += (FIXTURES / "ordinary.txt").read_text(encoding="utf-8").splitlines()
    found += [c[i:] for c in list(found) for i in (1, len(c) // 2)]  # other starts
    for _ in range(20_000):
        found.append("".join(rng.choices(_CHARS, k=rng.randint(0, 24))))
    for _ in range(20_000):
        parts = rng.choices(_PIECES, k=rng.randint(1, 8))
        found.append("".join(p + rng.choice(_JOINS) for p in parts).rstrip(rng.choice(("", " "))))
    return found


def _reading(pattern: re.Pattern[str], text: str) -> tuple[object, ...]:
    """Every way the guard uses a pattern: whole, from the start, and each match of a scan."""
    whole = pattern.fullmatch(text)
    start = pattern.match(text)
    return (
        whole and whole.span(),
        start and (start.span(), start.lastindex, start.groups()),
        [(m.span(), m.lastindex, m.groups()) for m in pattern.finditer(text)],
    )


def _differences(strings: list[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for name, source in POSSESSIVE.items():
        old, new = re.compile(source), REWRITTEN[name]
        for text in strings:
            if _reading(old, text) != _reading(new, text):
                found.setdefault(name, []).append(text)
    return found


@pytest.mark.skipif(not RELIABLE, reason="`re` misreads the possessive reference (gh-106052)")
def test_rewritten_patterns_match_as_the_possessive_ones() -> None:
    strings = _strings()
    assert len(strings) > 40_000
    assert _differences(strings) == {}


@pytest.mark.skipif(not RELIABLE, reason="`re` misreads the possessive reference (gh-106052)")
def test_rewritten_patterns_match_at_every_position_as_the_possessive_ones() -> None:
    for name, source in POSSESSIVE.items():
        old, new = re.compile(source), REWRITTEN[name]
        for text in _corpus_commands():
            for at in range(len(text) + 1):
                a, b = old.match(text, at), new.match(text, at)
                assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups())), (
                    name,
                    text,
                )


@pytest.mark.skipif(not RELIABLE, reason="`re` misreads the possessive reference (gh-106052)")
@settings(max_examples=3000, deadline=None)
@given(
    text=st.text(alphabet=_CHARS, max_size=40)
    | st.lists(st.sampled_from(_PIECES + _JOINS)).map("".join)
)
def test_generated_text_matches_as_with_the_possessive_patterns(text: str) -> None:
    assert _differences([text]) == {}


# Texts that almost match, long: a pattern that gives characters back one by one and retries
# (`(?:[a]+)+`, a `*` before what the repeated piece can start with) takes exponential or
# quadratic time on them; the rewritten ones take a few milliseconds each.
_SLOW_LOOP = """
import sys, time
from paw.core.guard.shell import fastpath
from paw.core.guard.shell.rules import targets
bodies = ["a", "a ", "$a", "'a'", "\\"a\\"", "${a}", "$1a", "a=", "' '", "{} ", "a && ", "a | ",
          "a;", " ", "@a", "+"]
started = time.process_time()
for name in sys.argv[1:]:
    pattern = getattr(targets if name == "_PLAIN_RELATIVE_RE" else fastpath, name)
    for body in bodies:
        for tail in ("(", "'", "\\\\", "$", "\\n(", " ", "!"):
            text = body * 20_000 + tail
            pattern.fullmatch(text)
            pattern.match(text)
            pattern.search(text[:2_000])
print(round(time.process_time() - started, 2))
"""


def test_rewritten_patterns_take_linear_time_on_texts_that_almost_match() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _SLOW_LOOP, *POSSESSIVE],
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert float(out.stdout) < 60, out.stdout  # linear: well under a second on a quiet machine
