"""Secret markers in content (rule files.content): strong formats only, AWS example key ignored."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from paw.core.guard.content import find_secret_markers


class ContentCase(NamedTuple):
    test_id: str
    text: str
    expect: list[str]


# Built from pieces so the repository itself holds no token-shaped literal.
CASES = [
    ContentCase("rsa-key", "-----BEGIN RSA " + "PRIVATE KEY-----\nMIIE", ["private key"]),
    ContentCase("pkcs8", "x\n-----BEGIN " + "PRIVATE KEY-----\n", ["private key"]),
    ContentCase("aws", "id = AKIA" + "Q3EGRMK2ZC7WXYZA\n", ["AWS access key id"]),
    ContentCase("aws-example", "id = AKIAIOSFODNN7" + "EXAMPLE\n", []),
    ContentCase("github", "token: ghp_" + "a" * 36, ["GitHub token"]),
    ContentCase("slack", "xoxb-" + "1234567890-abcdef", ["Slack token"]),
    ContentCase("public-key", "-----BEGIN PUBLIC KEY-----\nMIIB", []),
    ContentCase("certificate", "-----BEGIN CERTIFICATE-----\nMIIB", []),
    ContentCase("prose", "Never commit your private key or AWS keys.", []),
    ContentCase("code", "if token.startswith('ghp_'): raise", []),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.test_id)
def test_find_secret_markers_table(case: ContentCase) -> None:
    assert find_secret_markers(case.text) == case.expect
