"""The guard's fast path: a command line of plain shape is read into simple commands without
tree-sitter (see the comment below for the shape); fastjudge.py judges them as the walk would.
"""

from __future__ import annotations

import re

from paw.core.guard.shell.commands import Redirect
from paw.core.guard.shell.words import Word

# A list of simple commands (joined by ``&&``, ``||``, ``;`` or a newline), or one pipeline of
# them (stages joined by ``|``), whose words are glued from plain pieces (no operators, braces,
# comments, escapes), quoted pieces and simple variable expansions (``$X``, ``${X}``, ``${X:?}``,
# ``$1``, ``$@``, bare or inside double quotes: ``--x="a b"``, ``"$PWD":/src``), each command
# optionally ending in plain redirections (``> file``, ``2>/dev/null``, ``2>&1``, ``< in``),
# parses to those commands in order: skip tree-sitter and the walk, and build each command as
# the walk builds it (the differential tests compare the simple commands and the verdicts of
# both paths over the corpora and generated lists and pipelines). A pipeline is taken only
# alone (tree-sitter-bash nests a pipeline followed by `&&` in its own way). Assignments and
# reserved words are the parser's business; so are declarations (`export X=rm` sets X for the
# commands after it, which the walk tracks), except in a list of the first fast path's shape
# (plain and wholly quoted words, no newline), which judges them as a command (`export` alone
# dumps the environment: the walk does not see that) as it always did.
# The fast path reads what tree-sitter-bash would give the walk, quirks included: the forms it
# misreads (`a && b > f` redirects the whole list, `cat - 2>f` loses the `-`, `"$1 $2"` the
# blank, `b@c` its `b`) are either judged as the walk judges them or left to the parser; the
# differential tests fuzz each rule here against the parser.
# No possessive quantifier or atomic group (CPython before 3.11.5 misreads them, gh-106052, and
# Debian 12's Python is 3.11.2): the possessive `X*+` is written `X*(?!X)`. For an X that
# matches at most one way wherever it starts (one character of a class, a maximal plain run, a
# quoted piece, an expansion, blanks then a word), that is the same match in every context: the
# greedy repeat stops where X no longer matches, and the lookahead refuses each shorter
# repetition backtracking would try, at once; a run of one class is never split into several
# pieces (what makes `(?:[a]+)+` exponential), so matching stays linear. A piece ends where a
# blank, an operator or a quote starts; a command the fast path cannot take is rejected at its
# first other token. tests/core/guard/test_fastpath_regex.py compares each pattern with its
# possessive form and times them on long texts that almost match.
_PLAIN_CHARS = r"[A-Za-z0-9_./:=@%+,~*?-]"
_PLAIN = rf"{_PLAIN_CHARS}+(?!{_PLAIN_CHARS})"
_QUOTED = r"'[^'\n]*'|\"[^\"$`\\!\n]*\""
_PLAIN_WORDS = rf"{_PLAIN}(?: +{_PLAIN})*(?! +{_PLAIN_CHARS})"
_WORDS_RE = re.compile(_PLAIN_WORDS)
# The first fast path's lists and pipelines: plain, quoted or find words, blanks, `&&`, `||`,
# `;` and `|`, read by `_plain_parts` (one regex pass, then one token a word).
_OLD_WORD = rf"(?:{_PLAIN}|{_QUOTED}|\{{\}}|\\;)"
_OLD_WORDS = rf"{_OLD_WORD}(?: +{_OLD_WORD})*(?! +{_OLD_WORD})"
_SEP = r" *(?:&&|\|\||;|\|) *(?! )"
_LIST_RE = re.compile(rf"{_OLD_WORDS}(?:{_SEP}{_OLD_WORDS})*(?!{_SEP}{_OLD_WORDS})")
_LIST_TOKEN_RE = re.compile(
    rf"(&&|\|\||;)|(\|)|({_PLAIN})|'([^'\n]*)'|\"([^\"$`\\!\n]*)\"|(\{{\}})|\\(;)"
)
_NAME = r"[A-Za-z_][A-Za-z0-9_]*(?![A-Za-z0-9_])"
# `$NAME`, `$1`, `$@`, `$*` (group 1) or `${NAME}`, `${NAME?}`, `${NAME:?}` (groups 2, 3).
_EXPANSION = rf"\$(?:({_NAME}|[0-9@*])|\{{({_NAME})(:?\?)?\}})"
_EXPANSION_RE = re.compile(_EXPANSION)
_PIECE = rf"(?:{_PLAIN}|'[^'\n]*'|\"[^\"`\\!\n]*\"|\$(?:{_NAME}|[0-9@*]|\{{{_NAME}:?\??\}}))"
_PIECES = rf"{_PIECE}+(?!{_PIECE})"
_BOUNDARY = r"(?=[ \n;&|<>]|$)"
# Blanks before a token are part of it (`match.start(kind) > match.start()`).
_TOKEN_RE = re.compile(
    r" *(?! )(?:"
    r"(&&|\|\||;|\n)"  # 1 list operator
    r"|(\|)"  # 2 pipe
    r"|([0-9]?>>|[0-9]?>|&>>|&>|<)(?![<>&(|])"  # 3 redirection taking a target
    r"|([0-9]?>&[0-9])(?=[ \n;&|]|$)"  # 4 duplication (`2>&1`): the walk drops it
    rf"|({_PLAIN_WORDS})(?=[ \n;&|]|$)"  # 5 plain words (none before `2>`)
    rf"|({_PLAIN}){_BOUNDARY}"  # 6 a plain word
    rf"|(\{{\}}|\\;){_BOUNDARY}"  # 7 find's `{{}}` and `\;`, words on their own
    rf"|({_PIECES}){_BOUNDARY}"  # 8 a word glued from pieces (quoted, expanded)
    r"|.)"  # anything else: the parser's business
)
# A plain word tree-sitter-bash misreads in a pipeline, before a redirection, across lines, or
# glued to a quote (`b@c`, `b%`, `b?c`, `x+:`, `==`, `=~`): searched in the whole text (a hit
# inside quotes only sends the command to the parser).
_ODD_RE = re.compile(r"\?(?!\})|[^ \n;&|<>'\"]@|(?<![^ \n;&|<>])=[=~](?![^ \n;&|<>])")
# One piece of a word: plain (1), single-quoted (2), double-quoted (3), expansion (4: 5, 6, 7).
_PIECE_RE = re.compile(rf"({_PLAIN})|'([^'\n]*)'|\"([^\"`\\!\n]*)\"|({_EXPANSION})")
_RESERVED = frozenset(
    {"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac",
     "function", "select", "coproc", "in", "time", "!", "{", "}", "[[", "]]"}
)  # fmt: skip
# tree-sitter-bash misparses some plain words in a pipeline (`b@c`, `b%`, `b?c`, `x+:`, `==`,
# `=~`): a pipeline's unquoted pieces stay within this narrower set (fuzzed against the parser).
_PIPE_WORD_RE = re.compile(
    r"(?!==$|=~$)@?(?:[A-Za-z0-9_./:,~*=-]|\+(?!:))+(?![A-Za-z0-9_./:,~*=-]|\+(?!:))"
)
_FIND_WORDS = frozenset({"{}", ";"})  # not a command word the fast path knows how to read
_DASH = Word("-")
_SUBSTITUTION_RE = re.compile(r"\$\(|`|<\(|>\(")
_DECLARATIONS = frozenset(
    {"declare", "typeset", "export", "readonly", "local", "unset", "unsetenv"}
)
# A command word starting so is the parser's business (`- X=1 a` is `X=1 a` to tree-sitter-bash).
_KEYWORDS = _RESERVED | _DECLARATIONS | {"-"}

# A word with expansions, read when its command runs (the variables are those of that moment):
# its pieces (literal text, or an expansion's name and guard) and whether any part was quoted.
Pieces = list[str | tuple[str, str]]
FastWord = tuple[Pieces, bool]
# One simple command of the fast path: its words and redirections (those with expansions still
# to read), and its raw text when the walk would read that text for `$` (see `fast_command`).
FastCommand = tuple[list[Word | FastWord], list[Redirect | tuple[str, FastWord]], str | None]
# What the fast path runs: the simple commands, whether they are one pipeline's stages (else a
# list), and whether the raw text of each command is read for `$` (such a script is left to the
# parser while a variable carries a substitution: the walk adds what it ran to the word).
FastList = tuple[list[FastCommand], bool, bool]


# What `fast_parts` read, by text: the reading depends on the text alone (not on the directory,
# the variables or anything else of a call), and what it returns is never changed by the judge
# (`fastjudge.fast_command` copies the lists it hands on; words are values). An agent's commands
# recur (a prompt judged again, the same `sh -c` body): reading one again costs a dict lookup.
# Bounded: texts up to 4096 characters, 512 of them, emptied when full.
FAST_MEMO_SIZE = 512
FAST_MEMO_MAX_CHARS = 4096
_MEMO: dict[str, FastList | None] = {}
_MISSING = object()


def fast_parts(text: str) -> FastList | None:
    """The simple commands of ``text`` when it is such a list or pipeline (see above), else
    None (the parser's business). Callers do not change what it returns."""
    found = _MEMO.get(text, _MISSING)
    if found is not _MISSING:
        return found  # type: ignore[return-value]
    parts = _read_parts(text)
    if len(text) <= FAST_MEMO_MAX_CHARS:
        if len(_MEMO) >= FAST_MEMO_SIZE:
            _MEMO.clear()
        _MEMO[text] = parts
    return parts


def clear_fast_memo() -> None:
    """Forget every memoised reading (the benchmark's cold figures)."""
    _MEMO.clear()


def _read_parts(text: str) -> FastList | None:
    if text.endswith(" "):  # `alias ll='rm -rf ~'` then `ll` runs `rm -rf ~ ` (no words there)
        return _rich_parts(text.rstrip(" "))
    if _WORDS_RE.fullmatch(text) is not None:  # one command of plain words: the common case
        head = text.split(" ", 1)[0]
        if "=" in head or head in _RESERVED:
            return None
        return [([Word(w) for w in text.split(" ") if w], [], None)], False, False
    if _LIST_RE.fullmatch(text) is not None:
        return _plain_parts(text)
    return _rich_parts(text)


def _plain_parts(text: str) -> FastList | None:
    """A list or pipeline of the first fast path's shape (`_LIST_RE`)."""
    # The list matched: its tokens are words and operators with blanks between them (an
    # operator inside a quoted word is part of that word).
    parts: list[list[Word]] = []
    words: list[Word] = []
    listed = piped = False
    for match in _LIST_TOKEN_RE.finditer(text):
        kind = match.lastindex or 0
        if kind == 1:
            listed = True
            parts.append(words)
            words = []
        elif kind == 2:
            piped = True
            parts.append(words)
            words = []
        elif kind == 3 or kind > 5:  # a plain word, `{}` or the `;` of `\;`
            words.append(Word(match.group(kind)))
        else:
            words.append(Word(match.group(kind), quoted=True))
    parts.append(words)
    if piped and "$" in text:
        return _rich_parts(text)  # the walk reads each stage's text for `$`
    if piped and listed:
        return None
    odd = piped and (_may_be_odd(text) or "{}" in text or "\\;" in text)
    for words in parts:
        first = words[0]
        if not first.quoted and (
            "=" in first.text or first.text in _RESERVED or first.text in _FIND_WORDS
        ):
            return None  # an assignment or a reserved word: the parser's business
        if first.text in _DECLARATIONS and (piped or any("=" in w.text for w in words[1:])):
            return None  # `export X=rm && sh -c '$X …'`: the walk tracks what X holds
        if piped and (
            odd and any(not w.quoted and _PIPE_WORD_RE.fullmatch(w.text) is None for w in words)
        ):
            return None
    return [(words, [], None) for words in parts], piped, False  # type: ignore[misc]


def _may_be_odd(text: str) -> bool:
    """False when no word of ``text`` can fail `_PIPE_WORD_RE`: such a word holds `%`, `?`,
    `@` (but for a lone leading one), `+:`, or is `==` or `=~`."""
    return "%" in text or "?" in text or "@" in text or "+:" in text or "==" in text or "=~" in text


def _pieces(word: str, pieces: Pieces) -> tuple[bool, bool, bool] | None:
    """Read a glued word into ``pieces``: (quoted, expanded, has `$1`/`$@`-like expansion), or
    None when a piece is not one the fast path reads as the walk does."""
    if word[0] == "'" and word.find("'", 1) == len(word) - 1:  # one single-quoted piece
        pieces.append(word[1:-1])
        return True, False, False
    quoted = expanded = special = False
    at = 0
    for match in _PIECE_RE.finditer(word):
        if match.start() != at:
            return None
        at = match.end()
        kind = match.lastindex
        if kind == 1:
            plain = match.group(1)
            if _PIPE_WORD_RE.fullmatch(plain) is None:
                return None  # tree-sitter-bash misreads `x+:"a"`, `jq%$0`
            pieces.append(plain)
        elif kind == 2:
            pieces.append(match.group(2))
            quoted = True
        elif kind == 3:
            quoted = True
            body = match.group(3)
            if "$" in body:
                if not _double_quoted(body, pieces):
                    return None
                expanded = True
            else:
                pieces.append(body)
        else:
            if match.start() and word[match.start() - 1] in "'\"":
                return None  # `"x"""$b9*` is `"x""" $ b9*` to tree-sitter-bash
            name = match.group(5) or match.group(6)
            pieces.append((name, match.group(7) or ""))
            expanded = True
            special = special or not (name[0].isalpha() or name[0] == "_")
    if at != len(word):
        return None
    return quoted, expanded, special


def _double_quoted(body: str, pieces: Pieces) -> bool:
    """Add a double-quoted body's literal text and expansions to ``pieces``; False when a `$`
    in it is not a simple expansion."""
    at = 0
    for match in _EXPANSION_RE.finditer(body):
        literal = body[at : match.start()]
        if "$" in literal or (literal and literal.isspace()):
            return False  # tree-sitter-bash drops blanks between expansions (`"$1 $2"`)
        if literal:
            pieces.append(literal)
        pieces.append((match.group(1) or match.group(2), match.group(3) or ""))
        at = match.end()
    rest = body[at:]
    if "$" in rest or (rest and at and rest.isspace()):
        return False
    if rest or at == 0:
        pieces.append(rest)
    return True


def _rich_parts(text: str) -> FastList | None:  # noqa: C901 - one pass
    """A list or pipeline with glued words, expansions, redirections or newlines (see above)."""
    if (
        text.startswith(" ")
        or text.endswith(" ")
        or "%" in text
        or "+:" in text
        or (_may_be_odd(text) and _ODD_RE.search(text) is not None)
    ):
        return None
    # Per command: words, redirections, the span of its words.
    commands: list[tuple[list[Word | FastWord], list[Redirect | tuple[str, FastWord]], int, int]]
    commands = []
    words: list[Word | FastWord] = []
    reds: list[Redirect | tuple[str, FastWord]] = []
    pending: str | None = None  # a redirection's operator waiting for its target
    redirected = False  # the command has a redirection: no word may follow
    start = end = 0
    listed = piped = expands = glued = chained = found = False
    for match in _TOKEN_RE.finditer(text):
        kind = match.lastindex
        if kind is None:
            return None
        if kind >= 5:  # a word
            if redirected and pending is None:
                return None  # a word after a redirection: the parser's business
            chunk = match.group(kind)
            word: Word | FastWord
            if kind == 5 and " " in chunk:  # several plain words
                if pending is not None:
                    return None  # a word after a redirection's target: the parser's business
                if not words:
                    head = chunk.split(" ", 1)[0]
                    if "=" in head or head in _KEYWORDS:
                        return None  # an assignment, a reserved word: the parser's business
                    start = match.start(5)
                words.extend([Word(w) for w in chunk.split(" ") if w])
                end = match.end()
                continue
            if kind <= 6:
                if not words and pending is None:
                    if "=" in chunk or chunk in _KEYWORDS:
                        return None  # an assignment, a reserved word: the parser's business
                    start = match.start(kind)
                word = Word(chunk)
            elif kind == 7:
                if not words or pending is not None:
                    return None  # `{} x`, `> {}`: the parser's business
                word = Word(";" if chunk == "\\;" else "{}")
                found = True
            else:
                pieces: Pieces = []
                read = _pieces(chunk, pieces)
                if read is None:
                    return None
                quoted, expanded, special = read
                if len(pieces) > 1:
                    if special:
                        return None  # `$1x`, `'a'$0`: tree-sitter-bash reads these its own way
                    glued = True
                if expanded:
                    if pending is not None:
                        return None  # an expansion in a redirection's target: its own quirks
                    word = (pieces, quoted)
                    expands = True
                else:
                    word = Word("".join(pieces), quoted=quoted)  # type: ignore[arg-type]
                if not words and pending is None:
                    first = pieces[0]
                    if (
                        type(first) is str
                        and not chunk.startswith(("'", '"'))
                        and ("=" in first or first in _KEYWORDS)
                    ):
                        return None  # `X="a b" cmd`, `export"X=1"`: the parser's business
                    start = match.start(8)
            if pending is not None:
                reds.append(Redirect(pending, word) if type(word) is Word else (pending, word))  # type: ignore[arg-type]
                pending = None
            else:
                words.append(word)
                end = match.end()
            continue
        if kind >= 3:  # a redirection
            if match.start(kind) == match.start() or not words or pending is not None:
                return None  # `a2>f`, `> f cmd`, `> > f`: the parser's business
            op = match.group(kind)
            if op[0].isdigit() and words[-1] == _DASH:
                return None  # tree-sitter-bash drops the `-` of `cat - 2>f`
            if kind == 3:
                pending = op.lstrip("0123456789")
            redirected = True
            continue
        if not words or pending is not None:
            return None  # an empty command, a dangling redirection
        if redirected and kind == 2 and commands:
            # `a | b 2>&1 | c` is `{ a | b 2>&1; } | c` to tree-sitter-bash: only the first
            # and last stages of a pipeline keep their redirections as the walk reads them
            return None
        _close(commands, words, reds, start, end, chained)
        if kind == 1:
            listed = True
            chained = match.group(1) in ("&&", "||")
        else:
            piped = True
            chained = False
        words = []
        reds = []
        redirected = False
    if not words or pending is not None or (piped and (listed or found)):
        return None  # an empty or dangling end, a pipeline in a list (tree-sitter's nesting)
    _close(commands, words, reds, start, end, chained)
    if (expands or glued) and _SUBSTITUTION_RE.search(text) is not None:
        return None  # the walk looks for substitutions in a glued word's text, quoted or not
    if "$" in text and (piped or expands):
        return [(ws, rs, text[a:b]) for ws, rs, a, b in commands], piped, True
    return [(ws, rs, None) for ws, rs, _, _ in commands], piped, False


def _close(
    commands: list[tuple[list[Word | FastWord], list[Redirect | tuple[str, FastWord]], int, int]],
    words: list[Word | FastWord],
    reds: list[Redirect | tuple[str, FastWord]],
    start: int,
    end: int,
    chained: bool,
) -> None:
    if reds and chained:
        # `a && b > f` is `{ a && b; } > f` to tree-sitter-bash: the walk judges b without the
        # redirection, then the redirection alone (no words: see `fast_command`).
        commands.append((words, [], start, end))
        commands.append(([], reds, start, start))
    else:
        commands.append((words, reds, start, end))
