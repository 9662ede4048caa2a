"""After `paw demo`, a user who only did the README's "Try it" is told how to run paw: the
commands name the paw they can run, and how to put `paw` on the PATH follows."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from paw.cli.demo import next_steps, paw_command

SCRIPT = Path(sys.executable).parent / "paw"


@pytest.mark.skipif(not SCRIPT.is_file(), reason="paw runs without a console script here")
def test_paw_not_on_path_is_named_by_its_path_and_pipx_is_offered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no paw on PATH, as after "Try it"
    command = paw_command(str(SCRIPT.parent.parent))
    assert command == "bin/paw"
    monkeypatch.chdir(SCRIPT.parent.parent)
    text = next_steps(paw_command())
    assert "  bin/paw init " in text
    assert "  bin/paw spawn fix-login --agent claude-code" in text
    assert "`paw` is not on your PATH: run this one as bin/paw" in text
    assert "pipx install " in text
    assert "uv tool install " in text
    assert "\n  paw init" not in text


@pytest.mark.skipif(not SCRIPT.is_file(), reason="paw runs without a console script here")
def test_paw_on_path_is_plain_paw(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(SCRIPT.parent))
    assert paw_command() == "paw"
    text = next_steps(paw_command())
    assert "\n  paw init " in text
    assert "pipx" not in text


@pytest.mark.skipif(not SCRIPT.is_file(), reason="paw runs without a console script here")
def test_another_paw_on_path_is_not_taken_for_this_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "paw"
    other.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    other.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    command = paw_command()
    assert command != "paw"
    assert f"The `paw` on your PATH ({other}) is another one" in next_steps(command)
