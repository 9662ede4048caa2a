"""One module per agent CLI, named after its kind (``mistral_vibe`` for ``mistral-vibe``): its
``SPEC`` (:class:`paw.core.agentspec.AgentSpec`), its signatures as data, and
``detect_screen(text) -> Detection``. Nothing else registers an agent (docs/agents.md)."""

from __future__ import annotations
