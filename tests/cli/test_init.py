"""`paw init`: the generated paw.toml is valid as written, with every example uncommented, and
with any one example uncommented; its comments are whole sentences."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from paw.cli import main
from paw.core.config import PawConfig

SETTING = re.compile(r"^#(?=[\[A-Za-z_])")  # "#key = value" or "#[table]": a setting line


def _init(repo: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["init", "-C", str(repo)]) == 0
    assert "paw config check" in capsys.readouterr().out
    return (repo / "paw.toml").read_text(encoding="utf-8")


def _check(repo: Path, text: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    (repo / "paw.toml").write_text(text, encoding="utf-8")
    code = main(["config", "check", "-C", str(repo)])
    return code, capsys.readouterr().out


def _uncomment(lines: list[str], wanted: set[int]) -> str:
    return "\n".join(SETTING.sub("", ln) if i in wanted else ln for i, ln in enumerate(lines))


def test_init_writes_a_file_config_check_accepts(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _init(git_repo, capsys)
    assert PawConfig.model_validate(tomllib.loads(text)) == PawConfig()
    assert _check(git_repo, text, capsys) == (0, "paw.toml: ok\n")


def test_every_example_uncommented_at_once_is_valid_and_lands_in_its_table(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _init(git_repo, capsys).splitlines()
    settings = {i for i, ln in enumerate(lines) if SETTING.match(ln)}
    assert len(settings) > 20
    text = _uncomment(lines, settings)
    code, out = _check(git_repo, text, capsys)
    assert (code, out) == (0, "paw.toml: ok\n"), text
    config = PawConfig.model_validate(tomllib.loads(text))
    # the [guard] keys after the pattern tables stay [guard] keys (nothing swallowed them)
    assert config.guard.protected_branches == PawConfig().guard.protected_branches
    assert config.guard.content_scan is True
    assert config.tmux.session == "my-agents"
    agent = config.agents["my-agent"]
    assert agent.command is not None
    assert agent.match is not None
    assert agent.match.executables


def test_each_example_uncommented_alone_is_valid(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _init(git_repo, capsys).splitlines()
    header = next(i for i, ln in enumerate(lines) if ln.startswith("#[agents."))
    command = next(i for i, ln in enumerate(lines) if ln.startswith("#command =") and i > header)
    settings = [i for i, ln in enumerate(lines) if SETTING.match(ln)]
    for i in settings:
        # the example agent table (its header and each key) needs its header and a command:
        # a custom kind without `command` is an error (issue 10's semantic checks)
        wanted = {i, header, command} if i >= header else {i}
        code, out = _check(git_repo, _uncomment(lines, wanted), capsys)
        assert (code, out) == (0, "paw.toml: ok\n"), lines[i]


def test_init_writes_the_notify_table(git_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[notify] is a table of paw.toml (docs/waves.md): `paw init` shows it like the others."""
    text = _init(git_repo, capsys)
    assert "\n[notify]\n" in text
    for key in ("urls", "bell", "tmux_badge", "command", "remind_every_s", "digest_over"):
        assert f"\n#{key} = " in text.split("\n[notify]\n", 1)[1].split("#[agents.", 1)[0]


def test_comments_are_whole_sentences(git_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _init(git_repo, capsys).splitlines()
    paragraphs: list[list[str]] = [[]]
    for line in lines:
        if line.startswith("# "):
            paragraphs[-1].append(line)
        elif paragraphs[-1]:
            paragraphs.append([])
    cut = [p[-1] for p in paragraphs if p and not p[-1].rstrip().endswith((".", ":", ")"))]
    assert cut == []
    assert all(len(line) <= 96 for line in lines)


def test_init_refuses_to_overwrite_and_reports_as_json(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", "-C", str(git_repo), "--json"]) == 0
    written = json.loads(capsys.readouterr().out)
    assert written == {"file": str(git_repo / "paw.toml"), "written": True, "replaced": False}
    assert main(["init", "-C", str(git_repo), "--json"]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert "already exists" in error["message"]
    assert error["exit_code"] == 1
    assert "--force" in error["hint"]
    assert main(["init", "-C", str(git_repo), "--force", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["replaced"] is True


def test_config_check_json_lists_problems_with_an_error(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (git_repo / "paw.toml").write_text("[guard]\nblocked = 1\n", encoding="utf-8")
    assert main(["config", "check", "-C", str(git_repo), "--json"]) == 2
    data = json.loads(capsys.readouterr().out)
    assert data["problems"]
    assert "guard.blocked" in data["problems"][0]
    assert data["error"]["exit_code"] == 2
