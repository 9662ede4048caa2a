"""Prompt ids: short names for one occurrence of a prompt in one pane (pure)."""

from __future__ import annotations

import hashlib
import re

PROMPT_ID_LENGTH = 10
_ID_RE = re.compile(rf"[0-9a-f]{{{PROMPT_ID_LENGTH}}}")


def prompt_id(pane_id: str, fingerprint: str) -> str:
    """The id of the prompt with ``fingerprint`` shown in ``pane_id``.

    The same prompt in the same pane always gets the same id (any paw process computes it);
    a different prompt, or the same text in another pane, gets another.
    """
    digest = hashlib.sha256(f"{pane_id}\0{fingerprint}".encode()).hexdigest()
    return digest[:PROMPT_ID_LENGTH]


def occurrence_id(pane_id: str, fingerprint: str, nonce: str) -> str:
    """The id of one occurrence of the prompt ``fingerprint`` in ``pane_id``: ``nonce`` (random,
    from the caller) makes every appearance of the same question its own id."""
    return prompt_id(pane_id, f"{fingerprint}\0{nonce}")


def is_prompt_id(text: str) -> bool:
    """True when ``text`` has the shape of a prompt id."""
    return _ID_RE.fullmatch(text) is not None
