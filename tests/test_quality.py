"""The gates are part of the suite: ruff and mypy --strict must be clean."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.budget import budget

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, check=False)


@pytest.mark.timeout(int(budget(300)))
def test_quality_ruff_is_clean() -> None:
    out = _run(str(BIN / "ruff"), "check", "--quiet", ".")
    assert out.returncode == 0, out.stdout + out.stderr


# mypy from a cold cache takes minutes on a loaded two-core machine.
@pytest.mark.timeout(int(budget(900)))
def test_quality_mypy_strict_is_clean() -> None:
    out = _run(str(BIN / "mypy"), "--no-error-summary")
    assert out.returncode == 0, out.stdout + out.stderr
