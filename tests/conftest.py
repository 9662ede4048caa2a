"""Shared fixtures: an isolated HOME and environment for every test, and a real git repository."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "paw test",
    "GIT_AUTHOR_EMAIL": "paw-test@example.invalid",
    "GIT_COMMITTER_NAME": "paw test",
    "GIT_COMMITTER_EMAIL": "paw-test@example.invalid",
}


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private HOME, no inherited tmux/git state, a private git config (libtmux set_home)."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for var in list(os.environ):
        if var.startswith("GIT_") or var in {"TMUX", "TMUX_PANE", "PAW_TMUX_SOCKET"}:
            monkeypatch.delenv(var, raising=False)
    gitconfig = home / ".gitconfig-test"
    gitconfig.write_text("[init]\n\tdefaultBranch = main\n", encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for key, value in GIT_IDENTITY.items():
        monkeypatch.setenv(key, value)
    return home


def _git(cwd: Path, *args: str) -> str:
    out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return out.stdout


@pytest.fixture
def git_repo(tmp_path: Path, isolated_env: Path) -> Path:
    """A real repository on branch main with one commit, under tmp_path."""
    del isolated_env  # ordering: the isolated git config must be in place first
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    (repo / "README.md").write_text("# demo\n", encoding="utf-8")
    _git(repo, "add", "README.md")
    _git(repo, "commit", "-q", "-m", "initial")
    return repo
