"""The agent CLI versions paw's detectors were verified against (see docs/agents.md).

Derived from each agent module's ``SPEC`` (:mod:`paw.core.agentspec`): the pins live there only.
Each call imports every agent module (cached by the registry).
"""

from __future__ import annotations

import re

from paw.core.detect.registry import all_specs

_VERSION = re.compile(r"\d+\.\d+\.\d+")


def verified_versions() -> dict[str, str]:
    """Agent id -> the version whose live prompts the e2e suite verified (agents paw installs)."""
    return {s.kind: s.version for s in all_specs() if s.version is not None}


def binaries() -> dict[str, str]:
    """Agent id -> the command its package installs (agents paw installs)."""
    return {s.kind: s.binary for s in all_specs() if s.install is not None}


def parse_version(text: str) -> str | None:
    """The first ``X.Y.Z`` in a ``--version`` output.

    >>> parse_version("codex-cli 0.171.0")
    '0.171.0'
    >>> parse_version("no version here") is None
    True
    """
    found = _VERSION.search(text)
    return found.group(0) if found else None


def version_drift(kind: str, version: str | None, verified: str | None) -> str | None:
    """The one sentence that says ``kind`` runs another version than the verified one, or None
    (the same version, or nothing to compare: never asked, or no verified version).

    >>> version_drift("codex", "0.170.9", "0.171.0")  # doctest: +ELLIPSIS
    'runs codex 0.170.9, not the verified 0.171.0: ...'
    >>> version_drift("codex", "0.171.0", "0.171.0") is None
    True
    """
    if version is None or verified is None or version == verified:
        return None
    shown = f"{kind} {version}" if version else f"{kind} of an unknown version"
    return (
        f"runs {shown}, not the verified {verified}: paw may miss or misread its prompts "
        "and dialogs; watch its pane (`paw doctor` checks it)"
    )
