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
