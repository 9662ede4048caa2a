"""Secrets recognised by their shape anywhere in the text: URL user-info, secret-named query
parameters and JSON members, authorization headers, webhook URLs, PEM private keys, provider
token formats.
"""

from __future__ import annotations

import re

from paw.core.guard.content import SECRET_CONTENT_PATTERNS
from paw.core.redact.names import MASK, NOT_A_VALUE_RE, is_secret_name

_PEM_RE = re.compile(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----.*?"
    r"(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)",
    re.DOTALL,
)
_URL_USERINFO_RE = re.compile(
    r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.\-]*://)(?P<user>[^\s:/@'\"]*)(?::(?P<pw>[^\s/@'\"]*))?@"
)
_WEBHOOK_RE = re.compile(
    r"(?i)(hooks\.slack\.com/(?:services|workflows|triggers)/|discord(?:app)?\.com/api/webhooks/"
    r"|webhook\.office\.com/webhookb2/|chat\.googleapis\.com/v1/spaces/)[^\s'\"<>]+"
)
_NAME = r"[A-Za-z0-9_.\-]+"
_QUERY_RE = re.compile(rf"([?&;]({_NAME})=)[^&\s#'\"<>]+")
_JSON_RE = re.compile(rf"""(["']({_NAME})["']\s*:\s*)("(?:\\.|[^"\\])*"|'[^'\n]*'|[^\s,}}\]]+)""")
_HEADER_RE = re.compile(
    r"(?i)((?:proxy-)?authorization|x-api-key|x-auth-token|cookie|private-token)(\s*:\s*)"
    r"[^'\"\n]+"
)
_ASSIGN_SHAPE_RE = re.compile(
    rf"""(?<![\w.\-/])(-{{0,2}}({_NAME})(?:\s*=\s*|:\s+|\s+(?=\S)))(?:"[^"\n]*"|'[^'\n]*'|[^\s"'&,;]+)"""
)
_KEY_SHAPES: tuple[re.Pattern[str], ...] = (
    *(
        re.compile(rx, re.MULTILINE)
        for label, rx in SECRET_CONTENT_PATTERNS
        if label != "private key"
    ),
    re.compile(r"\bsk-(?:proj-|ant-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}"),
    re.compile(r"\bxox[a-z]-[A-Za-z0-9\-]{8,}"),
    re.compile(r"\bgithub_pat_[A-Za-z0-9_]{20,}"),
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"),
    re.compile(r"(?i)\b(?:bearer|token|basic)\s+[A-Za-z0-9._~+/\-]{12,}=*"),
    re.compile(r"\beyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{5,}"),  # JWT
)


def _userinfo(m: re.Match[str]) -> str:
    scheme, user, pw = m["scheme"], m["user"], m["pw"]
    if pw is not None:
        return f"{scheme}{user}:{MASK}@" if pw else m.group()
    if scheme.lower().rstrip(":/").endswith(("http", "https", "ftp")) and user:
        return f"{scheme}{MASK}@"  # a token alone as the user (`https://TOKEN@github.com`)
    return m.group()


def _named(m: re.Match[str], keep: int = 1) -> str:
    return m.group(keep) + MASK if is_secret_name(m.group(2)) else m.group()


def _assign_shape(m: re.Match[str]) -> str:
    head, name = m.group(1), m.group(2)
    if not is_secret_name(name):
        return m.group()
    separated = "=" not in head and ":" not in head
    if separated and (not head.startswith("-") or NOT_A_VALUE_RE.search(name)):
        return m.group()  # `--token VALUE` only for options; a word before a word is prose
    return head + MASK


def apply_shape_rules(text: str) -> str:
    out = _PEM_RE.sub(MASK, text)
    out = _URL_USERINFO_RE.sub(_userinfo, out)
    out = _WEBHOOK_RE.sub(lambda m: m.group(1) + MASK, out)
    out = _HEADER_RE.sub(lambda m: m.group(1) + m.group(2) + MASK, out)
    out = _QUERY_RE.sub(_named, out)
    out = _JSON_RE.sub(_named, out)
    out = _ASSIGN_SHAPE_RE.sub(_assign_shape, out)
    for pattern in _KEY_SHAPES:
        out = pattern.sub(MASK, out)
    return out
