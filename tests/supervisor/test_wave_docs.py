"""docs/waves.md: its wave file works when pasted, and it explains every key."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from pydantic import BaseModel

from paw.cli import main
from paw.core.wave import NotifySettings, WaveFile, WaveRule, WaveTask

if TYPE_CHECKING:
    from libtmux.server import Server

DOC = Path(__file__).resolve().parents[2] / "docs" / "waves.md"


def _pasted() -> str:
    blocks = re.findall(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.DOTALL)
    assert blocks, "docs/waves.md has no toml block"
    return str(blocks[0])


@pytest.mark.parametrize("model", [WaveFile, WaveTask, WaveRule, NotifySettings])
def test_waves_doc_explains_every_key(model: type[BaseModel]) -> None:
    text = DOC.read_text(encoding="utf-8")
    assert [k for k in model.model_fields if f"| `{k}` |" not in text] == []


def _stand_in(kind: str, *steps: str) -> str:
    command = json.dumps(["{python}", "-m", "paw.demo.agent", *steps])
    return (
        f'[agents.{kind}]\ncommand = {command}\ndetector = "scripted"\ntask_flag = "--task"\n'
        'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }\n'
    )


@pytest.mark.tmux
@pytest.mark.git
@pytest.mark.timeout(240)
def test_the_pasted_wave_file_runs_to_done(
    git_repo: Path,
    server: Server,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.chdir(git_repo)
    # claude-code and codex stand in as the scripted agent: it asks to write a file.
    (git_repo / "paw.toml").write_text(
        _stand_in("claude-code", "busy 0.3", "write NOTES.md")
        + _stand_in("codex", "busy 0.3", "write CHANGELOG.md"),
        encoding="utf-8",
    )
    wave = git_repo.parent / "night.toml"
    wave.write_text(_pasted(), encoding="utf-8")
    assert main(["wave", "check", str(wave)]) == 0
    assert main(["wave", "run", str(wave), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["wave", "report", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["status"] == "done"
    rows = {t["task"]: (t["status"], t["approved_by_rule"]) for t in report["tasks"]}
    assert rows == {"notes": ("done", 1), "changelog": ("done", 1)}
