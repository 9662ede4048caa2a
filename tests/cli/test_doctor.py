from __future__ import annotations

import json
from pathlib import Path

import pytest

from paw.cli import main


def _fake_cli(folder: Path, name: str, output: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / name
    script.write_text(f"#!/bin/sh\necho '{output}'\n", encoding="utf-8")
    script.chmod(0o755)


def test_doctor_warns_when_agent_version_differs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PAW_AGENTS_HOME", str(tmp_path))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    _fake_cli(tmp_path / "node_modules" / ".bin", "codex", "codex-cli 0.170.9")
    _fake_cli(tmp_path / "node_modules" / ".bin", "gemini", "0.61.0")
    assert main(["doctor", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["codex"]["status"] == "warn"
    assert "differs from the verified 0.171.0" in rows["codex"]["detail"]
    assert rows["gemini-cli"]["status"] == "ok"
    assert rows["opencode"]["status"] == "warn"
    assert "not installed" in rows["opencode"]["detail"]
    assert rows["tmux"]["status"] == "ok"
