"""`paw tui` and `paw demo` on the command line (without opening the TUI)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paw.cli import main


def test_cli_tui_outside_repository_explains_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tui", "-C", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "is not inside a git repository" in err
    assert "paw demo" in err


@pytest.mark.parametrize("command", ["tui", "demo"])
def test_cli_help_lists_command(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "--help"]) == 0
    assert f"usage: paw {command}" in capsys.readouterr().out
