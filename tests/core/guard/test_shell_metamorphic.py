"""Metamorphic checks over the corpus: wrapping or re-spelling a command keeps its verdict."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from pathlib import Path

import pytest

from paw.core.guard.shell import evaluate_command
from paw.core.models import Action

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "guard" / "commands.jsonl"
COMMANDS = [json.loads(line)["cmd"] for line in CORPUS.read_text(encoding="utf-8").splitlines()]

Form = Callable[[str], str]
COMPOUND: dict[str, Form] = {
    "subshell": lambda c: f"( {c} )",
    "group": lambda c: f"{{ {c}; }}",
    "bash-c": lambda c: f"bash -c {shlex.quote(c)}",
    "and-echo": lambda c: f"{c} && echo done",
    "echo-then": lambda c: f"echo start; {c}",
    "if-body": lambda c: f"if true; then {c}; fi",
    "eval": lambda c: f"eval {shlex.quote(c)}",
}
FIRST_WORD: dict[str, Form] = {
    "quoted": lambda c: '"{}" {}'.format(*c.split(" ", 1)),
    "split-quote": lambda c: "{}''{} {}".format(c[0], *c[1:].split(" ", 1)),
    "backslash": lambda c: "\\" + c,
    "path": lambda c: "/usr/bin/" + c,
    "nohup": lambda c: "nohup " + c,
    "timeout": lambda c: "timeout 30 " + c,
    "env-i": lambda c: "env -i " + c,
    "command": lambda c: "command " + c,
    "var-prefix": lambda c: "LANG=C " + c,
}
_PLAIN_HEAD = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-.")
_NOT_PROGRAMS = frozenset({"cd", "export", "alias", "shopt", "eval", "while", "for", "if"})


def _rewritable(command: str) -> bool:
    head = command.split(" ", 1)[0]
    return (
        " " in command and set(head) <= _PLAIN_HEAD and head[:1].isalpha()
        and head not in _NOT_PROGRAMS
    )  # fmt: skip


def _same_or_unparsed(base: Action, command: str) -> None:
    verdict = evaluate_command(command)
    if verdict.action is base:
        return
    # Composing can itself break the syntax (`cmd & && echo`, a comment eating `)`): confirm.
    assert base is not Action.BLOCK, (command, verdict)
    assert verdict.action is Action.CONFIRM, (command, verdict)
    assert "shell.parse-error" in verdict.rules, (command, verdict)


@pytest.mark.parametrize("form", COMPOUND, ids=list(COMPOUND))
def test_evaluate_command_compound_forms_keep_the_verdict(form: str) -> None:
    for command in COMMANDS:
        _same_or_unparsed(evaluate_command(command).action, COMPOUND[form](command))


@pytest.mark.parametrize("form", FIRST_WORD, ids=list(FIRST_WORD))
def test_evaluate_command_first_word_forms_keep_the_verdict(form: str) -> None:
    commands = [c for c in COMMANDS if _rewritable(c)]
    assert len(commands) > 50
    for command in commands:
        _same_or_unparsed(evaluate_command(command).action, FIRST_WORD[form](command))
