"""Which agents paw knows: one module per agent under ``paw.core.detect.agents``, found by name.

Each agent module defines ``SPEC`` (an :class:`~paw.core.agentspec.AgentSpec`) and
``detect_screen(text: str) -> Detection``, and may define ``input_text(text: str) -> str | None``
(what its input line holds; see :class:`InputReader`). The module is named after the agent
kind with ``_`` for ``-`` (``mistral-vibe`` -> ``mistral_vibe.py``); listing the package gives
every kind without importing a detector, and a kind's module is imported only when its spec
or detector is needed.
Adding an agent means adding one module (plus its fixture folder): every list of agents derives
from here.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING, Protocol, cast

if TYPE_CHECKING:
    from types import ModuleType

    from paw.core.agentspec import AgentSpec
    from paw.core.models import Detection

PACKAGE = "paw.core.detect.agents"


class ScreenDetector(Protocol):
    """The one function every agent module exposes."""

    def __call__(self, text: str) -> Detection:
        """Detect the state of ``text``, a captured pane of this agent."""
        ...


def kind_of(module: str) -> str:
    """The agent kind an agent module name stands for (``continue_cli`` -> ``continue-cli``);
    :func:`paw.core.agentspec.module_name` is the other way."""
    return module.replace("_", "-")


@cache
def agent_modules() -> dict[str, str]:
    """Agent kind -> its module path, for every module of the agents package, by kind name.

    Nothing is imported but the (empty) package itself: the names are the kinds."""
    import pkgutil  # only here: most commands never list the agents

    package = importlib.import_module(PACKAGE)
    names = sorted(
        info.name
        for info in pkgutil.iter_modules(package.__path__)
        if not info.ispkg and not info.name.startswith("_")
    )
    return {kind_of(name): f"{PACKAGE}.{name}" for name in names}


def agent_kinds() -> tuple[str, ...]:
    """Every built-in agent kind, in name order (cheap: no detector is imported)."""
    return tuple(agent_modules())


def _module(agent: str) -> ModuleType | None:
    module_path = agent_modules().get(agent)
    if module_path is None:
        return None
    try:
        return importlib.import_module(module_path)
    except ModuleNotFoundError as err:
        if err.name != module_path:  # a real bug inside the module: let it surface
            raise
        return None


def spec_for(agent: str) -> AgentSpec | None:
    """The spec of ``agent`` (its module imported on first use), or None if unknown."""
    from paw.core.agentspec import AgentSpec  # with the module: listing kinds needs neither

    module = _module(agent)
    spec = getattr(module, "SPEC", None)
    if spec is None:
        return None
    if not isinstance(spec, AgentSpec) or spec.kind != agent:
        msg = f"{module.__name__ if module else agent}.SPEC must be an AgentSpec of kind {agent!r}"
        raise TypeError(msg)
    return spec


@cache
def all_specs() -> tuple[AgentSpec, ...]:
    """The spec of every built-in agent, in name order (imports every agent module)."""
    return tuple(s for kind in agent_kinds() if (s := spec_for(kind)) is not None)


def load_detector(agent: str) -> ScreenDetector | None:
    """The ``detect_screen`` function for ``agent``, or None if unknown or not installed."""
    module = _module(agent)
    detector = getattr(module, "detect_screen", None)
    return cast("ScreenDetector", detector) if callable(detector) else None


class InputReader(Protocol):
    """The optional ``input_text`` function of an agent module."""

    def __call__(self, text: str) -> str | None:
        """What the agent's input line holds in ``text`` (a capture): "" when it is empty (a
        placeholder the agent shows there is not content), None when it cannot be read."""
        ...


def load_input_reader(agent: str) -> InputReader | None:
    """The ``input_text`` function for ``agent``, or None if it has none (its input cannot be
    read: paw types nothing into it)."""
    module = _module(agent)
    reader = getattr(module, "input_text", None)
    return cast("InputReader", reader) if callable(reader) else None
