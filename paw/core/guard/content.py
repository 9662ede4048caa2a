"""Secret markers in file content: a cheap complement to the name rules (rule ``files.content``).

Name rules miss a key copied to an innocent name (``cp ~/.ssh/id_rsa notes.txt``). These
patterns are the unambiguous, high-confidence formats only (private-key armour and
provider-prefixed tokens), so ordinary code and docs do not trip them. AWS's documented example
key (``…EXAMPLE``) is ignored. Pure: callers pass the text.
"""

from __future__ import annotations

import re

SECRET_CONTENT_PATTERNS: tuple[tuple[str, str], ...] = (
    ("private key", r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"),
    ("PuTTY private key", r"^PuTTY-User-Key-File-\d+: "),
    ("AWS access key id", r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b"),
    ("GitHub token", r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})\b"),
    ("GitLab token", r"\bglpat-[A-Za-z0-9_\-]{20,}\b"),
    ("Slack token", r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b"),
    ("Stripe secret key", r"\b(?:sk|rk)_live_[A-Za-z0-9]{20,}\b"),
    ("Google API key", r"\bAIza[0-9A-Za-z_\-]{35}\b"),
    (
        "OpenAI API key",
        r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}T3BlbkFJ[A-Za-z0-9_\-]{20,}",
    ),
    ("Anthropic API key", r"\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_\-]{80,}"),
    ("npm token", r"\bnpm_[A-Za-z0-9]{36}\b"),
    ("PyPI token", r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}"),
)
"""(label, regex) pairs searched in file text (multi-line mode)."""

_COMPILED = tuple((label, re.compile(rx, re.MULTILINE)) for label, rx in SECRET_CONTENT_PATTERNS)
_EXAMPLE = re.compile(r"EXAMPLE", re.IGNORECASE)


def find_secret_markers(text: str) -> list[str]:
    """Labels of the secret formats found in ``text`` (empty when none).

    >>> find_secret_markers("key = AKIAIOSFODNN7EXAMPLE")
    []
    >>> find_secret_markers("-----BEGIN OPENSSH PRIVATE KEY-----\\nb3Bl...")
    ['private key']
    """
    found = []
    for label, pattern in _COMPILED:
        if any(not _EXAMPLE.search(m.group()) for m in pattern.finditer(text)):
            found.append(label)
    return found
