"""Each detector's verified version agrees with the corpus it was verified on and with what
`paw doctor` tells a user to install."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from paw.cli.doctor import _agent_row
from paw.core.detect.registry import agent_modules
from paw.core.verified import verified_versions
from tests.detect.corpus import load_cases

AGENTS = sorted(verified_versions())


@pytest.mark.parametrize("agent", AGENTS)
def test_detector_verified_version_matches_corpus_and_doctor(
    agent: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = importlib.import_module(agent_modules()[agent])
    corpus = {c.meta["agent_version"] for c in load_cases() if c.agent == agent}
    assert corpus == {module.VERIFIED_VERSION}
    monkeypatch.setenv("PATH", str(tmp_path))  # not installed: the doctor says what to install
    monkeypatch.setenv("PAW_AGENTS_HOME", str(tmp_path))
    row = _agent_row(module.SPEC)
    assert (row.name, row.status) == (agent, "warn")
    assert f"(verified: {module.VERIFIED_VERSION})" in row.detail
    assert row.detail.endswith(module.VERIFIED_VERSION)  # the install command pins it
    assert agent == module.AGENT
