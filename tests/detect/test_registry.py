"""The registry: every agent module is a kind; missing modules give state ``unknown``."""

from __future__ import annotations

from pathlib import Path

import pytest

import paw.core.detect.agents as agents_package
from paw.core.detect import AGENTS, detect
from paw.core.detect.registry import agent_modules, load_detector
from paw.core.models import DetectionState
from paw.core.verified import verified_versions

VERIFIED = tuple(verified_versions())  # every agent paw installs at a verified version
FILES = sorted(
    p.stem.replace("_", "-")
    for p in Path(agents_package.__file__).parent.glob("*.py")
    if not p.name.startswith("_")
)


def test_registry_lists_every_agent_module_and_only_scripted_is_unpinned() -> None:
    assert list(agent_modules()) == FILES
    assert set(AGENTS) == set(FILES)
    assert set(FILES) - set(VERIFIED) == {"scripted"}
    assert agent_modules()["scripted"] == "paw.core.detect.agents.scripted"


@pytest.mark.parametrize("agent", VERIFIED)
def test_registry_loads_each_agent_detector(agent: str) -> None:
    assert load_detector(agent) is not None


def test_detect_unknown_agent_is_unknown_state() -> None:
    found = detect("anything\n", "no-such-agent")
    assert found.state is DetectionState.UNKNOWN
    assert found.agent == "no-such-agent"


def test_detect_missing_module_is_unknown_state(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(agent_modules(), "ghost", "paw.core.detect.agents.ghost_agent")
    found = detect("$ \n", "ghost")
    assert found.state is DetectionState.UNKNOWN
    assert found.prompt is None


@pytest.mark.parametrize("agent", VERIFIED)
def test_detect_empty_screen_is_unknown(agent: str) -> None:
    assert detect("\n  \n", agent).state is DetectionState.UNKNOWN
