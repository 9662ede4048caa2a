"""Fixtures of the end-to-end suite: the installed agent CLIs, checked once per session."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.e2e import agents, diagnose

if TYPE_CHECKING:
    from collections.abc import Generator

# Resolve the agents cache from the real HOME now: the suite-wide autouse fixture points HOME
# at a temporary directory before each test runs.
os.environ.setdefault("PAW_AGENTS_HOME", str(Path.home() / ".cache" / "paw-agents"))


@pytest.fixture(scope="session")
def installed_agents() -> Path:
    """The agents cache; fails (never skips) when an agent CLI or tmux is missing."""
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not on PATH: the e2e suite drives agents in tmux panes")
    home = agents.agents_home()
    missing = agents.missing_binaries(home)
    if missing:
        pytest.fail(
            f"agent CLIs not installed in {home}: {', '.join(missing)}; {agents.INSTALL_HINT}"
        )
    return home


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failed live test's report carries what paw saw (tests/e2e/diagnose.py): the pane,
    `paw ls --json`, `paw prompts --json`, the audit tail and the process proof."""
    del call
    report = yield
    if report.when == "call" and report.failed:
        found = diagnose.take(item) or diagnose.from_fixtures(item)
        if found:
            report.sections.append(("paw e2e diagnostics", found))
    return report
