"""paw installs like a Python tool: the wheel built from this checkout, installed into a fresh
virtualenv from the package index (as ``pipx install .`` / ``uv tool install .`` do), runs from
outside the checkout with everything it needs inside the wheel or its dependencies.

One test, about a minute on a loaded two-core machine (venv, wheel build, install from the pip
cache the README's test command filled). The distribution is ``paw-agents`` (``paw`` on PyPI is
another project); the command and the import package are ``paw``.
"""

from __future__ import annotations

import json
import os
import pwd
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.support.budget import budget

ROOT = Path(__file__).resolve().parents[1]
DIST = "paw-agents"


def _env(home: Path) -> dict[str, str]:
    """The user's environment without anything that would import the checkout's paw; pip keeps
    the user's cache (isolated_env gave the test a HOME of its own)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["HOME"] = str(home)
    env.setdefault("PIP_CACHE_DIR", str(Path(pwd.getpwuid(os.getuid()).pw_dir) / ".cache" / "pip"))
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _run(argv: list[str], cwd: Path, env: dict[str, str], seconds: float) -> str:
    done = subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=budget(seconds), check=False
    )
    assert done.returncode == 0, f"{argv}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _package_files() -> set[str]:
    """Every file of the checkout's ``paw`` package (what the wheel must carry)."""
    return {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "paw").rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }


@pytest.mark.install
@pytest.mark.timeout(budget(900))
def test_the_wheel_in_a_clean_virtualenv_runs_paw_from_outside_the_checkout(
    tmp_path: Path, isolated_env: Path
) -> None:
    env = _env(isolated_env)
    dist = tmp_path / "dist"
    _run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(dist)],
        tmp_path, env, 300,
    )  # fmt: skip
    (wheel,) = dist.glob("*.whl")
    assert wheel.name.startswith("paw_agents-")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    missing = _package_files() - names
    assert not missing, f"not in the wheel: {sorted(missing)}"
    assert "paw/tui/paw.tcss" in names

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp_path, env, 120)
    python = venv / "bin" / "python"
    _run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-compile",
         str(wheel)],
        tmp_path, env, 600,
    )  # fmt: skip
    paw = str(venv / "bin" / "paw")
    work = tmp_path / "elsewhere"  # not the checkout: its paw is not importable from here
    work.mkdir()

    probe = (
        "import json, importlib.metadata as m, paw, paw.tui.app as app;"
        f"print(json.dumps([paw.__file__, str(app.PawApp.CSS_PATH), m.version({DIST!r})]))"
    )
    where = json.loads(_run([str(python), "-c", probe], work, env, 120))
    site = venv / "lib"
    assert Path(where[0]).is_relative_to(site), where
    assert Path(where[1]).is_relative_to(site), where
    assert Path(where[1]).is_file(), where
    assert where[2] == "0.1.0"

    assert "usage: paw demo" in _run([paw, "demo", "--help"], work, env, 120)
    assert _run([paw, "check", "ls"], work, env, 120).split() == ["ALLOW", "ls"]
    doctor = json.loads(_run([paw, "doctor", "--json"], work, env, 120))
    rows = {row["name"]: row for row in doctor["checks"]}
    assert rows["paw"]["status"] == "ok", rows["paw"]
    assert str(site) in rows["paw"]["detail"]  # the stylesheet and grammar of the install
