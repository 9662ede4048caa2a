"""scripts/install-agents finds a new enough Python under pyenv when pyenv's shims cannot run."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "install-agents"


def _find_python(env_path: str, home: Path, work: Path) -> str:
    # The two functions alone, sourced from the script: no npm, no network.
    body = (
        f'source <(sed -n "/^python_ok()/,/^}}/p;/^find_python()/,/^}}/p" "{SCRIPT}"); '
        f'PYTHON=/nonexistent/python3; DIR="{work}"; find_python 3.12 ""'
    )
    done = subprocess.run(
        [shutil.which("bash") or "/bin/bash", "-c", body],
        env={"PATH": env_path, "HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return done.stdout.strip()


def _tools(tmp_path: Path) -> Path:
    """A PATH directory with only what the functions use: no Python of the machine's own."""
    tools = tmp_path / "tools"
    tools.mkdir()
    for name in ("sed", "dirname", "basename", "readlink"):
        found = shutil.which(name)
        assert found, name
        (tools / name).symlink_to(found)
    return tools


def _executable(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)
    return path


def test_a_pyenv_reached_through_its_shims_is_searched_under_another_home(tmp_path: Path) -> None:
    root = tmp_path / "pyenv"
    _executable(root / "shims" / "python3.12", "#!/bin/sh\nexit 1\n")  # a shim: fails here
    wanted = _executable(root / "versions" / "3.12.9" / "bin" / "python3", "#!/bin/sh\nexit 0\n")
    home = tmp_path / "a-home-without-pyenv"
    home.mkdir()
    path = f"{root / 'shims'}:{_tools(tmp_path)}"
    assert _find_python(path, home, tmp_path / "cache") == str(wanted)


def test_without_pyenv_on_path_nothing_is_found(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    assert _find_python(str(_tools(tmp_path)), home, tmp_path / "cache") == ""
