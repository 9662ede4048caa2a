"""What paw cannot prove from a screen, and how the guard narrows it (issue 29, item 11).

On a real tmux server: a process of the user that writes to an agent's terminal repaints a
blocked prompt's subject as ``ls -la``; paw shows what the screen shows, and one approve sends
the key to the real prompt (the threat: SECURITY.md, "What paw cannot prove from a screen").
The defence paw has: the same repaint asked for by an agent is blocked by the guard, through
``paw check`` and through the prompt paw lists, and ``paw approve`` refuses it.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.adversarial.ident_support import (
    Env,
    answers,
    configure,
    events,
    listed,
    paw,
    screen,
    tmux,
    wait_for,
    wait_prompt,
)

pytestmark = [pytest.mark.tmux, pytest.mark.git]

BLOCKED = "rm -rf ~/projects"
SHOWN = "ls -la"


def _repaint_command(text: str, tty: str) -> str:
    """The exact repaint: save the cursor, draw the subject's row with another subject, restore."""
    rows = text.splitlines()
    row = next(i for i, line in enumerate(rows) if BLOCKED in line)
    line = rows[row].replace(BLOCKED, SHOWN.ljust(len(BLOCKED)))
    return f"printf '\\0337\\033[{row + 1};1H%s\\0338' '{line}' > {tty}"


def _agent(name: str) -> dict[str, object]:
    return next(a for a in listed("ls") if a["name"] == name)


def test_a_repainted_prompt_fools_the_screen_and_the_guard_blocks_the_repaint(env: Env) -> None:
    configure(env, f"shell {BLOCKED}")
    assert paw("spawn", "alice", "--agent", "scripted").returncode in (0, 5)
    wait_prompt(env, BLOCKED)
    assert [p["verdict"] for p in listed("prompts")] == ["block"]
    pane = str(_agent("alice")["pane_id"])
    tty = tmux(env, "display-message", "-p", "-t", pane, "#{pane_tty}").stdout.strip()
    assert tty.startswith("/dev/")
    repaint = _repaint_command(screen(env, pane), tty)

    # The defence: the guard blocks this exact command, whoever would ask to run it.
    checked = paw("check", "--json", repaint)
    assert checked.returncode == 20, checked.stdout + checked.stderr
    assert "shell.terminal-write" in json.loads(checked.stdout)["rules"]

    # The threat: another process of the user runs it; paw reads what the screen now shows.
    subprocess.run(["sh", "-c", repaint], check=True, timeout=30)
    assert wait_for(lambda: SHOWN in screen(env, pane) and BLOCKED not in screen(env, pane))
    assert wait_for(lambda: [p["subject"] for p in listed("prompts")] == [SHOWN])
    [fooled] = listed("prompts")
    assert fooled["verdict"] == "allow"
    done = paw("approve", str(fooled["id"]))
    assert done.returncode == 0, done.stderr
    assert wait_for(lambda: bool(answers(env)))
    # ... and the key reached the real prompt: what SECURITY.md says paw cannot prove.
    assert [(a["subject"], a["decision"]) for a in answers(env)] == [(BLOCKED, "approve")]

    # An agent that asks to run the repaint gets a block that one approve cannot send.
    short = f"printf '\\0337\\033[9;1H{SHOWN}\\0338' > {tty}"
    (env.tmp / "steps.txt").write_text(f"shell {short}\n", encoding="utf-8")
    assert paw("spawn", "bob", "--agent", "scripted").returncode in (0, 5)
    asked = wait_prompt(env, short)
    assert asked.verdict.action.value == "block"
    assert "shell.terminal-write" in asked.verdict.rules
    refused = paw("approve", asked.id)
    assert refused.returncode == 4, refused.stdout + refused.stderr
    assert [a["subject"] for a in answers(env)] == [BLOCKED]
    assert not [r for r in events(env, "approve", decision="send") if r.get("agent") == "bob"]
