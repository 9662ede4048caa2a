"""The guard knows the agents paw added this round (cline, continue-cli, kilocode, mistral-vibe)."""

from __future__ import annotations

import pytest

from paw.guard import evaluate_command


@pytest.mark.parametrize(
    ("command", "action"),
    [
        ("cline -i --auto-approve true", "block"),
        ("cline -i --auto-approve=true", "block"),
        ("cline -i --auto-approve false", "allow"),
        ("kilo --dangerously-skip-permissions", "block"),
        ("vibe --dangerously-skip-permissions", "block"),
        ("cn --version", "allow"),
        ("kilo --version", "allow"),
    ],
)
def test_new_agent_launches_are_judged_like_the_others(command: str, action: str) -> None:
    assert evaluate_command(command).action.value == action, evaluate_command(command).reasons
