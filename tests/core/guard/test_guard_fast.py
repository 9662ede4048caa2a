"""The guard's shortcuts decide exactly as the slow forms they replace."""

from __future__ import annotations

import json
import random
from pathlib import Path

from paw.core.guard.shell.rules import files

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "guard"

# Fragments of the special places (and near misses) to build paths from.
_FRAGMENTS = (
    "", "/", "~", ".", "..", "/dev/", "tcp", "sda", "/etc/", "cron", "systemd", "/root", "/home/u",
    "/Users/u", ".ssh", "/.config/", "autostart", "Library/LaunchAgents/", "LaunchDaemons",
    "paw.toml", "PAW.TOML", ".paw", "guardrails.toml", "/usr", "bin", ".env", ".envrc", ".bashrc",
    ".zshrc", ".profile", ".claude", "settings.json", "hooks", ".gemini", ".mcp.json",
    "opencode.json", "opencode.jsonc", ".git/hooks/", "x.git/hooks/pre-commit", ".windsurf/",
    ".kiro/settings/", "src", "main.py", "dist", "\n", "a", "-", "_", ".vscode/settings.json",
)  # fmt: skip


def _paths() -> list[str]:
    found = [
        json.loads(line)["path"]
        for line in (FIXTURES / "paths.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    for line in (FIXTURES / "commands.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            found.extend(json.loads(line)["cmd"].split())
    rng = random.Random(11)  # noqa: S311 - reproducible test data, not secrets
    for _ in range(40_000):
        parts = rng.choices(_FRAGMENTS, k=rng.randint(1, 5))
        found.append(rng.choice(("", "/")).join(parts))
    return found


def test_any_place_is_the_alternation_of_its_patterns() -> None:
    paths = _paths()
    hits = 0
    for path in paths:
        expected = files._ANY_PLACE_RE.search(path) is not None
        assert files.any_place(path) is expected, path
        hits += expected
    assert 1_000 < hits < len(paths) - 1_000  # both outcomes are well represented
