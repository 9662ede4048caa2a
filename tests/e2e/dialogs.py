"""Record the real agents' dialogs that are not tool permissions: pickers, mode changes, sign-in.

``python -m tests.e2e.dialogs [AGENT ...] [--sizes 120x40,80x24]`` starts each agent with the
stub model in a private tmux server (the driver in tests/e2e/driver.py, no paw), types one of
its slash commands that opens a dialog (a permissions or approval-mode picker, a sign-in
screen, a model picker), waits until the screen has settled, and writes the capture to
``tests/fixtures/dialogs/<agent>/<name>_<cols>x<rows>/`` (``screen.txt``, ``screen.ansi``,
``meta.json`` with ``"state": "dialog"``). Each capture also checks that the dialog went away
on Escape (a dialog at the live position, not a transcript). tests/detect/test_dialogs.py
reads them: such a screen is never idle or busy. Prints one line per case.
"""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path
from typing import NamedTuple

from paw.core.detect.registry import spec_for
from tests.e2e import driver
from tests.e2e.agents import AGENT_IDS
from tests.support.budget import budget

OUT = Path(__file__).resolve().parent.parent / "fixtures" / "dialogs"
SIZES = ((120, 40), (80, 24))


class Opener(NamedTuple):
    """A slash command that opens a dialog, and a word the open dialog shows."""

    name: str
    command: str
    shows: str


OPENERS: dict[str, tuple[Opener, ...]] = {
    "claude-code": (
        Opener("permissions_picker", "/permissions", "Allow"),
        Opener("login_picker", "/login", "login"),
    ),
    "codex": (Opener("permissions_picker", "/permissions", "ermission"),),
    "gemini-cli": (Opener("editor_picker", "/editor", "Editor"),),
    "qwen-code": (Opener("approval_mode_picker", "/approval-mode", "pproval"),),
    "opencode": (Opener("models_picker", "/models", "Select model"),),
}


def _record(agent: str, opener: Opener, cols: int, rows: int) -> str:
    run = driver.start_run(agent, f"pawdlg-{uuid.uuid4().hex[:8]}", cols, rows)
    try:
        driver.wait_ready(run)
        run.pane.type_text(opener.command)
        run.pane.wait_stable(quiet=1.0, timeout=budget(30))
        run.pane.send_keys(driver.ENTER)
        run.pane.wait_for(lambda s: opener.shows in s, budget(30), f"{opener.command} to open")
        screen = run.pane.wait_stable(quiet=1.5, timeout=budget(60))
        ansi = run.pane.capture_ansi()
        run.pane.send_keys("Escape")
        closed = run.pane.wait_stable(quiet=1.5, timeout=budget(60))
        folder = OUT / agent / f"{opener.name}_{cols}x{rows}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "screen.txt").write_text(screen, encoding="utf-8")
        (folder / "screen.ansi").write_text(ansi, encoding="utf-8")
        spec = spec_for(agent)
        meta = {
            "agent": agent,
            "agent_version": spec.version if spec else None,
            "cols": cols,
            "rows": rows,
            "state": "dialog",
            "opened_by": opener.command,
            "closed_by_escape": closed != screen,
            "notes": "captured by tests/e2e/dialogs.py against the stub model",
        }
        (folder / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        return (
            f"{agent} {opener.name} {cols}x{rows}: written (closed by Escape: {closed != screen})"
        )
    finally:
        driver.stop_run(run)


def main(argv: list[str]) -> int:
    """Record every opener of the named agents (default: all that have one)."""
    sizes: tuple[tuple[int, int], ...] = SIZES
    names = [a for a in argv if not a.startswith("--")]
    for arg in argv:
        if arg.startswith("--sizes="):
            sizes = tuple(
                (int(c), int(r)) for c, r in (s.split("x") for s in arg.split("=", 1)[1].split(","))
            )
    failed = 0
    for agent in names or [a for a in AGENT_IDS if a in OPENERS]:
        for opener in OPENERS.get(agent, ()):
            for cols, rows in sizes:
                try:
                    print(_record(agent, opener, cols, rows), flush=True)
                except (TimeoutError, RuntimeError) as err:
                    failed += 1
                    print(f"{agent} {opener.name} {cols}x{rows}: FAILED {err}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
