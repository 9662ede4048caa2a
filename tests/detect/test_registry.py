"""The registry: every agent id maps to a module; missing modules give state ``unknown``."""

from __future__ import annotations

import pytest

from paw.core.detect import AGENTS, detect
from paw.core.detect.registry import AGENT_MODULES, load_detector
from paw.core.models import DetectionState
from paw.core.verified import VERIFIED_VERSIONS

SIX = tuple(VERIFIED_VERSIONS)  # every verified agent (ten)


def test_registry_lists_the_verified_agents_and_scripted() -> None:
    assert len(SIX) == 10
    assert set(SIX) | {"scripted"} == set(AGENTS)
    assert AGENT_MODULES["scripted"] == "paw.core.detect.agents.scripted"


@pytest.mark.parametrize("agent", SIX)
def test_registry_loads_each_agent_detector(agent: str) -> None:
    assert load_detector(agent) is not None


def test_detect_unknown_agent_is_unknown_state() -> None:
    found = detect("anything\n", "no-such-agent")
    assert found.state is DetectionState.UNKNOWN
    assert found.agent == "no-such-agent"


def test_detect_missing_module_is_unknown_state(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(AGENT_MODULES, "ghost", "paw.core.detect.agents.ghost_agent")
    found = detect("$ \n", "ghost")
    assert found.state is DetectionState.UNKNOWN
    assert found.prompt is None


@pytest.mark.parametrize("agent", SIX)
def test_detect_empty_screen_is_unknown(agent: str) -> None:
    assert detect("\n  \n", agent).state is DetectionState.UNKNOWN
