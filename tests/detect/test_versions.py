"""Each detector's verified version agrees with the corpus and with `paw doctor`'s table."""

from __future__ import annotations

import importlib

import pytest

from paw.core.detect.registry import AGENT_MODULES
from paw.core.verified import VERIFIED_VERSIONS
from tests.detect.corpus import load_cases

AGENTS = sorted(VERIFIED_VERSIONS)


@pytest.mark.parametrize("agent", AGENTS)
def test_detector_verified_version_matches_corpus_and_doctor(agent: str) -> None:
    module = importlib.import_module(AGENT_MODULES[agent])
    corpus = {c.meta["agent_version"] for c in load_cases() if c.agent == agent}
    assert corpus == {module.VERIFIED_VERSION}
    assert VERIFIED_VERSIONS[agent] == module.VERIFIED_VERSION
    assert agent == module.AGENT
