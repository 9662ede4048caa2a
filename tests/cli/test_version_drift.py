"""The running agent's version differs from the verified one: said where the user looks (issue
33): in `paw spawn`'s start-up notes and in `paw ls` (text and JSON), once per agent."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from paw.cli import main
from paw.core.detect.registry import spec_for

if TYPE_CHECKING:
    from libtmux.server import Server


def _fake_codex(folder: Path, version: str) -> Path:
    """A `codex` that prints ``version`` for --version and otherwise runs paw's demo agent."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "codex"
    script.write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = "--version" ]; then echo "codex-cli {version}"; exit 0; fi\n'
        f"exec {sys.executable} -m paw.demo.agent --script /dev/null\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return script


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.tmux
@pytest.mark.parametrize("drift", [True, False], ids=["older", "verified"])
def test_spawn_and_ls_say_the_agent_runs_another_version(
    drift: bool,
    capsys: pytest.CaptureFixture[str],
    git_repo: Path,
    server: Server,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spec = spec_for("codex")
    assert spec is not None
    assert spec.version is not None
    version = "0.170.9" if drift else spec.version
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    codex = _fake_codex(tmp_path / "old", version)
    (git_repo / "paw.toml").write_text(
        f"[agents.codex]\ncommand = {json.dumps([str(codex)])}\n", encoding="utf-8"
    )
    repo = str(git_repo)
    code, _out, err = _run(capsys, "-C", repo, "spawn", "a", "--agent", "codex",
                           "--startup-timeout", "5")  # fmt: skip
    assert code in (0, 5), err  # ready, or waiting for you (5)
    said = f"a runs codex {version}, not the verified {spec.version}"
    assert (said in err) is drift, err
    code, out, _err = _run(capsys, "-C", repo, "ls")
    assert (said in out) is drift, out
    assert out.count(said) == (1 if drift else 0)  # once per agent
    _code, out, _err = _run(capsys, "-C", repo, "ls", "--json")
    note = json.loads(out)["agents"][0]["version_note"]
    assert (note is not None and f"codex {version}" in note) is drift
