"""One guard entry: supervised approvals and `paw check` reach the same verdict through the same
function (``paw.guard.evaluate_command``), ``guard.allowed_dirs`` included; git-write details
for confirmations come from the guard's own parse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paw.core.approval import evaluate_subject, find_git_write
from paw.core.config import GuardConfig
from paw.core.guard.shell import analyse_command
from paw.core.models import Prompt, PromptKind
from paw.guard import evaluate_command
from paw.supervisor.service import default_shell_evaluator
from tests.core.guard.family_cases import FAMILY_CASES
from tests.core.guard.round_two_cases import ROUND_TWO_CASES

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "guard" / "commands.jsonl"


def _commands() -> list[str]:
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line]
    return (
        [r["cmd"] for r in rows]
        + [c.command for c in FAMILY_CASES]
        + [c.command for c in ROUND_TWO_CASES]
    )


def _shell_prompt(command: str) -> Prompt:
    return Prompt(PromptKind.SHELL, command, "Run this command?", ("Enter",), ("Escape",), "fp")


def _supervised(command: str, worktree: str, config: GuardConfig) -> tuple[str, tuple[str, ...]]:
    verdict = evaluate_subject(
        _shell_prompt(command),
        worktree=worktree,
        config=config,
        mcp_allowed=(),
        shell=default_shell_evaluator(),
    )
    return verdict.action.value, verdict.rules


def _checked(command: str, worktree: str, config: GuardConfig) -> tuple[str, tuple[str, ...]]:
    verdict = evaluate_command(command, cwd=worktree, config=config)
    return verdict.action.value, verdict.rules


@pytest.mark.parametrize("where", ["inside", "outside"])
def test_supervised_approvals_and_paw_check_agree_on_the_whole_corpus(
    tmp_path: Path, where: str
) -> None:
    allowed = tmp_path / "projects"
    worktree = (allowed if where == "inside" else tmp_path / "elsewhere") / "repo"
    worktree.mkdir(parents=True)
    config = GuardConfig(allowed_dirs=(str(allowed),))
    differ = []
    for command in _commands():
        supervised = _supervised(command, str(worktree), config)
        checked = _checked(command, str(worktree), config)
        if supervised != checked:
            differ.append((command, supervised, checked))
    assert not differ, differ[:10]


def test_a_worktree_outside_allowed_dirs_blocks_supervised_approvals(tmp_path: Path) -> None:
    config = GuardConfig(allowed_dirs=(str(tmp_path / "projects"),))
    worktree = tmp_path / "elsewhere"
    worktree.mkdir()
    action, rules = _supervised("ls -la", str(worktree), config)
    assert action == "block"
    assert "shell.cwd-not-allowed" in rules


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ('git commit -m "fix: a && b; c | d"', "fix: a && b; c | d"),
        ("git commit -m 'keep  two  spaces'", "keep  two  spaces"),
        ("npm test&&git commit -m done", "done"),
        ("sudo git commit -m x", "x"),
        ("bash -c 'git commit -m \"from a shell\"'", "from a shell"),
    ],
)
def test_git_write_details_come_from_the_guard_parse(command: str, message: str) -> None:
    found = find_git_write(command)
    assert found is not None
    assert found.action == "commit"
    assert found.message == message


@pytest.mark.parametrize(
    ("command", "action", "message"),
    [
        ('git commit -m "a && git push origin main"', "commit", "a && git push origin main"),
        ("git commit -m 'x; git push'", "commit", "x; git push"),
        ('echo "git commit -m x"', None, None),
        ("git commit -m x # && git push", "commit", "x"),
        ("cat <<'EOF'\ngit push origin main\nEOF", None, None),
    ],
)
def test_git_write_details_are_not_split_a_second_way(
    command: str, action: str | None, message: str | None
) -> None:
    """A splitter beside the guard's (``shlex``, splitting on ``&&``) reads a quoted ``&&``, a
    comment or a here-document as a second command."""
    found = find_git_write(command)
    assert (found.action if found else None, found.message if found else None) == (
        action,
        message,
    )


def test_every_git_write_found_is_one_the_verdict_confirms() -> None:
    """Details and verdict come from one walk: a write the details name is never allowed, but
    for the forms that write nothing (``--dry-run``, ``--help``)."""
    allowed = []
    for command in _commands():
        analysis = analyse_command(command)
        found = find_git_write(command)
        assert found == (analysis.git_writes[0] if analysis.git_writes else None)
        reads_only = "--dry-run" in command or "--help" in command
        if found is not None and analysis.verdict.action.value == "allow" and not reads_only:
            allowed.append(command)
    assert not allowed, allowed[:10]
