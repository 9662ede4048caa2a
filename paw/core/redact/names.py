"""Which names look like secrets (options, assignments, query and JSON members), and the mark
that replaces a secret.
"""

from __future__ import annotations

import re

MASK = "[REDACTED]"


_SECRET_NAME_RE = re.compile(
    r"pass|pwd|secret|token|key|credential|auth(?!or)|cookie|session|signature|bearer"
    r"|(?:^|[_\-.])(?:sig|pw|pat|creds?)(?:$|[_\-.])",
    re.IGNORECASE,
)
# an option named like this takes a path, a mode or a name, not the secret itself
NOT_A_VALUE_RE = re.compile(
    r"(?:^|[_\-.])(?:file|stdin|path|dir|env|cmd|command|helper|prompt|type|length|len|size"
    r"|mode|format|url|uri|method|algorithm|name)$",
    re.IGNORECASE,
)


def is_secret_name(name: str) -> bool:
    """True when a variable, option, key or parameter named ``name`` likely holds a secret.

    >>> [is_secret_name(n) for n in ("DB_PASS", "apiKey", "X-Amz-Signature", "author", "PATH")]
    [True, True, True, False, False]
    """
    return _SECRET_NAME_RE.search(name) is not None
