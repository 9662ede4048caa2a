"""Import hygiene: the core and the guard stay headless and pure (harlequin style)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("textual", "libtmux", "rich")


class ImportCase(NamedTuple):
    test_id: str
    module: str
    forbidden: tuple[str, ...]


IMPORT_CASES = [
    ImportCase("core", "paw.core", HEAVY),
    ImportCase("guard-facade", "paw.guard", HEAVY),
    ImportCase("core-guard-shell", "paw.core.guard.shell", HEAVY),
    ImportCase("core-detect", "paw.core.detect", HEAVY),
    ImportCase("detect-facade", "paw.detect", HEAVY),
    ImportCase("cli-root", "paw.cli", HEAVY),
    ImportCase("web", "paw.web.app", HEAVY),  # the page never pays for Textual or tmux
]


@pytest.mark.parametrize("case", IMPORT_CASES, ids=[c.test_id for c in IMPORT_CASES])
def test_architecture_import_pulls_in_no_heavy_module(case: ImportCase) -> None:
    code = (
        f"import sys, {case.module}\n"
        f"bad = [m for m in {case.forbidden!r} if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "", f"{case.module} imports {out.stdout.strip()}"


BANNED_MODULES = {"subprocess", "shutil", "socket", "threading", "asyncio", "time", "os"}
BANNED_CALLS = {"open", "read_text", "write_text", "read_bytes", "write_bytes"}


def _violations(path: Path, base: Path = ROOT) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] in BANNED_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in BANNED_MODULES:
                found.append(node.module)
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in BANNED_CALLS:
                found.append(f"{name}() at line {node.lineno}")
    return [f"{path.relative_to(base)}: {v}" for v in found]


def test_architecture_core_has_no_side_effects() -> None:
    files = sorted((ROOT / "paw" / "core").rglob("*.py"))
    assert files, "paw/core is empty"
    problems = [v for f in files for v in _violations(f)]
    assert problems == []


def test_architecture_the_scan_bites(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import subprocess\nopen('x')\n", encoding="utf-8")
    assert _violations(bad, base=tmp_path) == ["bad.py: subprocess", "bad.py: open() at line 2"]


def test_architecture_import_linter_contracts_hold() -> None:
    lint = Path(sys.executable).parent / "lint-imports"
    out = subprocess.run([str(lint)], capture_output=True, text=True, cwd=ROOT, check=False)
    assert out.returncode == 0, out.stdout + out.stderr


ROOM_MAX_LINES = 450  # a room for one job; docs/architecture.md "How big a room is"


def _named_catalogues() -> set[str]:
    """The modules docs/architecture.md names as catalogues allowed past the bound."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("### How big a room is", 1)[1].split("\n#", 1)[0]
    return set(re.findall(r"`(paw/[\w/]+\.py)`", section))


def _over_the_bound(root: Path) -> set[str]:
    return {
        path.relative_to(root).as_posix()
        for path in (root / "paw").rglob("*.py")
        if len(path.read_text(encoding="utf-8").splitlines()) > ROOM_MAX_LINES
    }


def test_architecture_no_room_is_over_the_bound_but_the_named_catalogues() -> None:
    named = _named_catalogues()
    assert named, "docs/architecture.md names no catalogue: the section moved?"
    assert all((ROOT / n).is_file() for n in named), named  # no stale name
    assert _over_the_bound(ROOT) <= named


def test_architecture_the_room_bound_bites(tmp_path: Path) -> None:
    (tmp_path / "paw").mkdir()
    (tmp_path / "paw" / "big.py").write_text("x = 1\n" * (ROOM_MAX_LINES + 1), encoding="utf-8")
    (tmp_path / "paw" / "small.py").write_text("x = 1\n" * ROOM_MAX_LINES, encoding="utf-8")
    assert _over_the_bound(tmp_path) == {"paw/big.py"}
