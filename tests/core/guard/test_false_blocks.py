"""The false-block rate on ordinary developer commands (tests/fixtures/guard/ordinary.txt)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from paw.core.guard.shell import evaluate_command

ORDINARY = Path(__file__).resolve().parents[2] / "fixtures" / "guard" / "ordinary.txt"
MAX_FALSE_BLOCK_RATE = 0.02


def ordinary_commands() -> list[str]:
    """The fixture's commands (comments and blank lines skipped)."""
    lines = ORDINARY.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def test_ordinary_commands_fixture_is_large_enough() -> None:
    commands = ordinary_commands()
    assert len(commands) >= 300
    assert len(set(commands)) == len(commands)


def test_false_block_rate_on_ordinary_developer_commands() -> None:
    commands = ordinary_commands()
    counts: Counter[str] = Counter()
    blocked: list[str] = []
    for command in commands:
        verdict = evaluate_command(command)
        assert "shell.internal-error" not in verdict.rules, (command, verdict)
        counts[verdict.action.value] += 1
        if verdict.action.value == "block":
            blocked.append(f"{command!r}: {', '.join(verdict.rules)}")
    rate = counts["block"] / len(commands)
    print(f"\n{len(commands)} ordinary commands: {dict(counts)}; false-block rate {rate:.2%}")
    print("\n".join(blocked))
    assert rate <= MAX_FALSE_BLOCK_RATE, blocked


MAX_FALSE_CONFIRM_RATE = 0.03
_GIT_WRITE_RULES = frozenset({"git.write", "git.push"})
POSTURE = ORDINARY.parent / "posture.jsonl"


def test_false_confirm_rate_on_ordinary_developer_commands() -> None:
    """Allow is earned but paw is no nag: of the ordinary commands, at most 3 % are confirm for
    any reason other than a git write (git writes are confirm by policy)."""
    commands = ordinary_commands()
    nagged = []
    for command in commands:
        verdict = evaluate_command(command)
        if verdict.action.value == "confirm" and set(verdict.rules) - _GIT_WRITE_RULES:
            nagged.append(f"{command!r}: {', '.join(verdict.rules)}")
    rate = len(nagged) / len(commands)
    print(f"\nfalse-confirm rate {rate:.2%}\n" + "\n".join(nagged))
    assert rate <= MAX_FALSE_CONFIRM_RATE, nagged


def test_posture_set_must_not_allow_and_ordinary_look_alikes() -> None:
    """tests/fixtures/guard/posture.jsonl: commands of kinds no earlier round named (tools paw
    does not know, destructive verbs and SQL, home reads, listeners, settings, signals, private
    addresses) are never allow; their ordinary look-alikes are never block."""
    import json

    wrong = []
    for line in POSTURE.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        action = evaluate_command(case["cmd"]).action.value
        if (case["expect"] == "allow" and action == "block") or (
            case["expect"] != "allow" and action == "allow"
        ):
            wrong.append((case["cmd"], case["expect"], action))
    assert wrong == []
