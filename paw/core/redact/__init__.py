"""Redaction of secrets from text that leaves the machine (notifications): pure.

A message names commands (``curl -u bob:pw …``), so secrets are judged on the *parsed* command
first: the guard's shell parser (tree-sitter-bash) gives each word its extent and its value, and
a table of programs says which of their options carry a secret (``curl -u``, ``mysql -pPW``,
``docker login -p``, ``redis-cli -a``, ``sshpass -p``, ``openssl -k``, ``aws configure set
aws_secret_access_key …``). Every command also gets the generic rules: an option or an
assignment whose *name* looks like a secret (``--token X``, ``export DB_PASS=…``,
``PGPASSWORD=… psql``). Text that does not parse (a sentence, a check's output, half a quote) is
read word by word with the same table. The shape rules then run over everything: URL user-info,
secret-named query parameters, JSON ``"password": …`` members, authorization headers, chat
webhook URLs, PEM private-key blocks and the provider token formats (AWS, GitHub, Slack,
OpenAI, JWT …). Where unsure, more is masked, never less (fail closed).
"""

from __future__ import annotations

from paw.core.redact.names import MASK, is_secret_name
from paw.core.redact.programs import PROGRAM_RULES, Mode, ProgramRule
from paw.core.redact.shapes import apply_shape_rules
from paw.core.redact.spans import MAX_PARSED_CHARS, apply_spans, command_spans

__all__ = [
    "MASK",
    "MAX_PARSED_CHARS",
    "PROGRAM_RULES",
    "Mode",
    "ProgramRule",
    "is_secret_name",
    "redact",
]


def redact(text: str) -> tuple[str, bool]:
    """``text`` with what looks like a secret replaced by ``[REDACTED]``, and whether any was.

    >>> redact("mysql -uroot -pS3cret db")
    ('mysql -uroot -p[REDACTED] db', True)
    >>> redact("pytest -q tests/test_auth.py")
    ('pytest -q tests/test_auth.py', False)
    """
    out = apply_shape_rules(apply_spans(text, command_spans(text)))
    return out, out != text
