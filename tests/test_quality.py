"""The gates are part of the suite: ruff and mypy --strict must be clean."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, check=False)


def test_quality_ruff_is_clean() -> None:
    out = _run(str(BIN / "ruff"), "check", "--quiet", ".")
    assert out.returncode == 0, out.stdout + out.stderr


def test_quality_mypy_strict_is_clean() -> None:
    out = _run(str(BIN / "mypy"), "--no-error-summary")
    assert out.returncode == 0, out.stdout + out.stderr
