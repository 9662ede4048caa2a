"""`paw detect [--agent ID] [--json] FILE|-`: output shape and exit codes."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from paw.cli import main
from tests.detect.corpus import CORPUS

SHELL = CORPUS / "codex" / "shell_short_120x40" / "screen.txt"
DONE = CORPUS / "codex" / "done_120x40" / "screen.txt"


def test_detect_cli_json_reports_prompt_with_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["detect", "--agent", "codex", "--json", str(SHELL)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["agent"] == "codex"
    assert out["state"] == "prompt"
    prompt = out["prompt"]
    assert set(prompt) >= {
        "kind",
        "subject",
        "question",
        "approve_keys",
        "deny_keys",
        "always_keys",
        "fingerprint",
        "waiting",
    }
    assert (prompt["kind"], prompt["subject"], prompt["waiting"]) == ("shell", "ls -la", False)
    assert (prompt["approve_keys"], prompt["deny_keys"]) == (["y"], ["Escape"])


def test_detect_cli_without_agent_names_the_prompting_agent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["detect", "--json", str(SHELL)]) == 0
    assert json.loads(capsys.readouterr().out)["agent"] == "codex"


def test_detect_cli_no_prompt_exits_10(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["detect", "--agent", "codex", "--json", str(DONE)]) == 10
    out = json.loads(capsys.readouterr().out)
    assert (out["state"], out["prompt"]) == ("idle", None)


def test_detect_cli_reads_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(SHELL.read_text(encoding="utf-8")))
    assert main(["detect", "--agent", "codex", "-"]) == 0
    assert "approve:  y" in capsys.readouterr().out


def test_detect_cli_empty_screen_is_unknown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    assert main(["detect", "--agent", "claude-code", str(empty)]) == 11
    assert "unknown" in capsys.readouterr().out


def test_detect_cli_unknown_agent_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["detect", "--agent", "nope", str(SHELL)]) == 2
    assert "unknown agent" in capsys.readouterr().err


def test_detect_cli_missing_file_is_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["detect", str(tmp_path / "missing.txt")]) == 1
    assert "cannot read" in capsys.readouterr().err
