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

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from paw.core.guard.content import SECRET_CONTENT_PATTERNS

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from tree_sitter import Node

MASK = "[REDACTED]"
MAX_PARSED_CHARS = 16 * 1024  # longer text (a huge check log) gets the word and shape rules only

Mode = Literal["both", "separate", "attached"]
"""How an option takes its secret: ``-pX``/``--opt=X`` (attached), ``-p X`` (separate), either."""

# -- which names look like secrets ----------------------------------------------------------------

_SECRET_NAME_RE = re.compile(
    r"pass|pwd|secret|token|key|credential|auth(?!or)|cookie|session|signature|bearer"
    r"|(?:^|[_\-.])(?:sig|pw|pat|creds?)(?:$|[_\-.])",
    re.IGNORECASE,
)
# an option named like this takes a path, a mode or a name, not the secret itself
_NOT_A_VALUE_RE = re.compile(
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


# -- per-program options that carry a secret ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ProgramRule:
    """Options of one program (after ``sub``, its sub-command words) that carry a secret.

    ``settings``: the program sets a named value (``aws configure set NAME VALUE``): VALUE is
    masked when NAME looks like a secret. ``operand``: the operand at that index is the secret
    (``vault login TOKEN``), only when the short option ``when`` is given if it is set
    (``htpasswd -b FILE USER PASSWORD``)."""

    sub: tuple[str, ...] = ()
    options: Mapping[str, Mode] | None = None
    settings: bool = False
    operand: int | None = None
    when: str | None = None


def _same(options: Mapping[str, Mode], *names: str) -> dict[str, tuple[ProgramRule, ...]]:
    return dict.fromkeys(names, (ProgramRule(options=options),))


_MYSQL: Mapping[str, Mode] = {"-p": "attached", "--password": "attached"}
_LOGIN: Mapping[str, Mode] = {"-p": "both", "--password": "both"}
_MONGO: Mapping[str, Mode] = {"-p": "both", "--password": "both"}
_LDAP: Mapping[str, Mode] = {"-w": "both"}

PROGRAM_RULES: Mapping[str, tuple[ProgramRule, ...]] = {
    "curl": (
        ProgramRule(
            options={
                "-u": "both",
                "--user": "both",
                "-U": "both",
                "--proxy-user": "both",
                "--oauth2-bearer": "both",
                "--pass": "both",
                "--proxy-pass": "both",
                "--tlspassword": "both",
                "--proxy-tlspassword": "both",
            }
        ),
    ),
    "wget": (
        ProgramRule(
            options={
                "--password": "both",
                "--http-password": "both",
                "--ftp-password": "both",
                "--proxy-password": "both",
            }
        ),
    ),
    **_same(
        _MYSQL,
        "mysql",
        "mysqldump",
        "mysqladmin",
        "mysqlimport",
        "mysqlcheck",
        "mysqlshow",
        "mysqlsh",
        "mariadb",
        "mariadb-dump",
        "mariadb-admin",
    ),
    **dict.fromkeys(
        ("docker", "podman", "nerdctl", "buildah", "skopeo", "finch", "oras", "crane"),
        (ProgramRule(sub=("login",), options=_LOGIN),),
    ),
    "helm": (
        ProgramRule(sub=("registry", "login"), options=_LOGIN),
        ProgramRule(sub=("repo", "add"), options={"--password": "both"}),
    ),
    "az": (ProgramRule(sub=("login",), options=_LOGIN),),
    "redis-cli": (ProgramRule(options={"-a": "both", "--pass": "both"}),),
    "sshpass": (ProgramRule(options={"-p": "both"}),),
    "openssl": (
        ProgramRule(
            options={
                "-k": "separate",
                "-K": "separate",
                "-pass": "separate",
                "-passin": "separate",
                "-passout": "separate",
            }
        ),
    ),
    **_same(_LDAP, "ldapsearch", "ldapmodify", "ldapadd", "ldapdelete", "ldapwhoami", "ldappasswd"),
    **_same({"-P": "both"}, "sqlcmd", "bcp", "unzip"),
    **_same(_MONGO, "mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport"),
    "smbclient": (ProgramRule(options={"-U": "both", "--user": "both"}),),
    "zip": (ProgramRule(options={"-P": "both", "--password": "both"}),),
    "7z": (ProgramRule(options={"-p": "attached"}),),
    "gpg": (ProgramRule(options={"--passphrase": "both"}),),
    "gh": (ProgramRule(sub=("secret", "set"), options={"-b": "both", "--body": "both"}),),
    "aws": (ProgramRule(sub=("configure", "set"), settings=True),),
    **dict.fromkeys(("npm", "pnpm", "yarn"), (ProgramRule(sub=("config", "set"), settings=True),)),
    "git": (ProgramRule(sub=("config",), settings=True),),
    "vault": (ProgramRule(sub=("login",), operand=0),),
    "htpasswd": (ProgramRule(operand=-1, when="b"),),
}
"""Programs whose options take a secret, by command name (basename)."""


# -- words with their extent -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Word:
    start: int  # character offsets into the text being redacted
    end: int
    value: str  # what the program receives (quotes removed)
    raw: str  # the text as written


Span = tuple[int, int]


def _mask_after(word: _Word, prefix: str) -> Span:
    """The part of ``word`` after ``prefix`` (the whole word when quoting hides where it is)."""
    if word.raw.startswith(prefix):
        return (word.start + len(prefix), word.end)
    return (word.start, word.end)


def _judge_command(words: list[_Word]) -> list[Span]:
    """Spans of ``words`` (one command's argv, any wrapper or label included) that are secret."""
    spans: list[Span] = []
    for i, word in enumerate(words):
        _judge_generic(word, words[i + 1] if i + 1 < len(words) else None, spans)
        name = word.value.rsplit("/", 1)[-1]
        for rule in PROGRAM_RULES.get(name, ()):
            rest = _after_sub(words[i + 1 :], rule.sub)
            if rest is not None:
                _judge_program(rule, rest, spans)
    return spans


_LONG_RE = re.compile(r"(-{1,2})([A-Za-z][\w.\-]*)(?:=(.*))?", re.DOTALL)
_ASSIGN_RE = re.compile(r"([A-Za-z_][\w.\-]*)=(.*)", re.DOTALL)


def _judge_generic(word: _Word, following: _Word | None, spans: list[Span]) -> None:
    value = word.value
    option = _LONG_RE.fullmatch(value)
    if option is not None:
        dashes, name, attached = option.groups()
        if (len(dashes) == 2 or len(name) > 2) and is_secret_name(name):
            if attached is not None:
                spans.append(_mask_after(word, f"{dashes}{name}="))
            elif (
                following is not None
                and not following.value.startswith("-")
                and not _NOT_A_VALUE_RE.search(name)
            ):
                spans.append((following.start, following.end))
        return
    assign = _ASSIGN_RE.fullmatch(value)
    if assign is not None and assign.group(2) and is_secret_name(assign.group(1)):
        spans.append(_mask_after(word, assign.group(1) + "="))


def _after_sub(words: list[_Word], sub: tuple[str, ...]) -> list[_Word] | None:
    """The words after the sub-command words ``sub`` (in order, options between), or None."""
    i = 0
    for part in sub:
        while i < len(words) and words[i].value != part:
            i += 1
        if i == len(words):
            return None
        i += 1
    return words[i:]


def _judge_program(rule: ProgramRule, words: list[_Word], spans: list[Span]) -> None:
    options = rule.options or {}
    operands: list[int] = []
    skip_next = False
    for i, word in enumerate(words):
        if skip_next:
            skip_next = False
            continue
        value = word.value
        if not value.startswith("-") or value == "-":
            operands.append(i)
            continue
        following = words[i + 1] if i + 1 < len(words) else None
        skip_next = _judge_option(options, word, following, spans)
    if rule.settings and len(operands) >= 2:
        name, val = words[operands[0]], words[operands[1]]
        if is_secret_name(name.value):
            spans.append((val.start, val.end))
    if rule.operand is not None and operands:
        if rule.when and not any(_has_short(w.value, rule.when) for w in words):
            return
        chosen = (
            words[operands[rule.operand]]
            if -len(operands) <= rule.operand < len(operands)
            else None
        )
        if chosen is not None:
            spans.append((chosen.start, chosen.end))


def _has_short(value: str, letter: str) -> bool:
    return value.startswith("-") and not value.startswith("--") and letter in value[1:]


def _judge_option(
    options: Mapping[str, Mode], word: _Word, following: _Word | None, spans: list[Span]
) -> bool:
    """Mask what ``word`` (an option) carries; True when it consumed ``following``."""
    value = word.value
    head, eq, _ = value.partition("=")
    mode = options.get(head)
    if mode is not None:
        if eq:
            if mode != "separate" or head.startswith("--"):
                spans.append(_mask_after(word, head + "="))
            return False
        if mode != "attached" and following is not None:
            spans.append((following.start, following.end))
            return True
        return False
    if value.startswith("--"):
        return False
    # a cluster of short options: `-sSu bob:pw`, `-pPW`, `-uroot`
    for k in range(2, len(value) + 1):
        short = value[:2] if k == 2 else "-" + value[k - 1]
        mode = options.get(short)
        if mode is None:
            if k > 2 and not value[k - 1].isalpha():
                return False
            continue
        if k < len(value):  # the rest of the word is the value
            if mode != "separate":
                spans.append(_mask_after(word, value[:k]))
            return False
        if mode != "attached" and following is not None:
            spans.append((following.start, following.end))
            return True
        return False
    return False


# -- parsed commands ----------------------------------------------------------------------------

_NOT_ARGV = frozenset(
    {"variable_assignment", "file_redirect", "herestring_redirect", "heredoc_redirect", "comment"}
)


def _parsed_spans(text: str) -> list[Span] | None:
    """Secret spans found by parsing ``text`` as a script; None when it does not parse cleanly."""
    from paw.core.guard.shell.parse import parse_script
    from paw.core.guard.shell.words import WordReader

    root = parse_script(text)
    source = (root.text or b"").decode("utf-8", "surrogatepass")
    if root.has_error or source[: len(text)] != text:
        return None  # an error, or the parser saw other text (continuations joined): words
    offset: list[int] | None = None  # byte offset -> character offset
    if not text.isascii():
        offset = []
        for i, ch in enumerate(text):
            offset += [i] * len(ch.encode("utf-8", "surrogatepass"))
        offset.append(len(text))
    reader = WordReader({})

    def word(node: Node) -> _Word:
        start, end = node.start_byte, node.end_byte
        if offset is not None:
            start, end = offset[min(start, len(offset) - 1)], offset[min(end, len(offset) - 1)]
        return _Word(start, end, reader.read(node).text, text[start:end])

    spans: list[Span] = []
    for node in _walk(root):
        if node.type == "command":
            argv = [
                word(child.named_children[0] if child.type == "command_name" else child)
                for child in node.named_children
                if child.type not in _NOT_ARGV
                and (child.type != "command_name" or child.named_children)
            ]
            spans += _judge_command(argv)
        elif node.type == "variable_assignment":
            name = node.child_by_field_name("name")
            value = node.child_by_field_name("value")
            if (
                name is not None
                and value is not None
                and is_secret_name((name.text or b"").decode("utf-8", "replace"))
            ):
                w = word(value)
                spans.append((w.start, w.end))
    return spans


def _walk(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


_WORD_RE = re.compile(r"""(?:'[^'\n]*'|"(?:\\.|[^"\\\n])*"|[^\s'"|;&()<>])+|'|\"""")


def _word_spans(line: str, base: int) -> list[Span]:
    """Secret spans of one line read word by word (it did not parse as a command)."""
    words = [
        _Word(base + m.start(), base + m.end(), m.group().replace("'", "").replace('"', ""),
              m.group())
        for m in _WORD_RE.finditer(line)
    ]  # fmt: skip
    return _judge_command(words)


def _command_spans(text: str) -> list[Span]:
    if len(text) <= MAX_PARSED_CHARS:
        found = _parsed_spans(text)
        if found is not None:
            return found
    spans: list[Span] = []
    for match in _LOGICAL_LINE_RE.finditer(text):  # a line, its continuations joined
        line, base = match.group(), match.start()
        found = _parsed_spans(line) if line and len(line) <= MAX_PARSED_CHARS else None
        if found is None:
            found = _word_spans(line, 0)
        spans += [(base + s, base + e) for s, e in found]
    return spans


_LOGICAL_LINE_RE = re.compile(r"(?:\\\n|[^\n])+")


def _apply(text: str, spans: list[Span]) -> str:
    if not spans:
        return text
    merged: list[Span] = []
    for start, end in sorted(s for s in spans if s[1] > s[0]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    out: list[str] = []
    at = 0
    for start, end in merged:
        out += [text[at:start], MASK]
        at = end
    out.append(text[at:])
    return "".join(out)


# -- shapes --------------------------------------------------------------------------------------

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
    if separated and (not head.startswith("-") or _NOT_A_VALUE_RE.search(name)):
        return m.group()  # `--token VALUE` only for options; a word before a word is prose
    return head + MASK


def _shape_rules(text: str) -> str:
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


def redact(text: str) -> tuple[str, bool]:
    """``text`` with what looks like a secret replaced by ``[REDACTED]``, and whether any was.

    >>> redact("mysql -uroot -pS3cret db")
    ('mysql -uroot -p[REDACTED] db', True)
    >>> redact("pytest -q tests/test_auth.py")
    ('pytest -q tests/test_auth.py', False)
    """
    out = _shape_rules(_apply(text, _command_spans(text)))
    return out, out != text
