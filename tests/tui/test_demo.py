"""`paw demo`'s world: three scripted agents whose prompts get the three guard verdicts."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

import pytest

from paw.cli.compose import build_supervisor
from paw.cli.demo import (
    DEMO_AGENTS,
    create_demo_repo,
    kill_tmux_server,
    render_demo_config,
    spawn_demo_agents,
)
from paw.core.config import PawConfig
from paw.core.models import Action
from tests.tui.real_world import wait_for_prompts


def test_demo_config_is_valid_paw_toml() -> None:
    config = PawConfig.model_validate(tomllib.loads(render_demo_config("paw-demo-1")))
    assert config.tmux.socket_name == "paw-demo-1"
    assert sorted(config.agents) == sorted(a.kind for a in DEMO_AGENTS)


@pytest.mark.tmux
@pytest.mark.git
def test_demo_agents_show_allow_confirm_and_block(tmp_path: Path) -> None:
    socket = f"paw-demo-test-{tmp_path.name[-12:]}"
    try:
        repo = create_demo_repo(tmp_path, socket)
        assert subprocess.run(
            ["git", "log", "--oneline"], cwd=repo, capture_output=True, text=True, check=True
        ).stdout.strip()
        spawn_demo_agents(build_supervisor(str(repo), socket_name=socket))
        prompts = wait_for_prompts(build_supervisor(str(repo), socket_name=socket), 3)
        verdicts = {p.agent: p.verdict.action for p in prompts}
        assert verdicts == {"tidy": Action.ALLOW, "ship": Action.CONFIRM, "wreck": Action.BLOCK}
    finally:
        kill_tmux_server(socket)
    done = subprocess.run(["tmux", "-L", socket, "ls"], capture_output=True, text=True, check=False)
    assert done.returncode != 0  # the server is gone
