"""`paw tui` and `paw demo` on the command line (without opening the TUI)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.binding import Binding

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


def test_tui_help_lists_every_key_of_the_main_screen(capsys: pytest.CaptureFixture[str]) -> None:
    from paw.cli.tui import KEYS
    from paw.tui.screens.keys import MAIN_BINDINGS

    shown = {b.key_display or b.key for b in MAIN_BINDINGS if isinstance(b, Binding) and b.show}
    assert {key for key, _ in KEYS} == shown
    assert main(["tui", "--help"]) == 0
    out = capsys.readouterr().out
    for key, what in KEYS:
        assert f"  {key:<3} {what}" in out
