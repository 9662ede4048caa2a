"""The guard's shortcuts decide exactly as the slow forms they replace."""

from __future__ import annotations

import json
import random
import shlex
from pathlib import Path

import pytest

from paw.core.guard import shell
from paw.core.guard.shell import dispatch, evaluate_command, fastjudge, fastpath
from paw.core.guard.shell.commands import SimpleCommand
from paw.core.guard.shell.evaluation import Context
from paw.core.guard.shell.rules import files
from paw.core.models import Action
from tests.core.guard.test_shell_parse import _corpus_commands

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "guard"

# Fragments of the special places (and near misses) to build paths from.
_FRAGMENTS = (
    "", "/", "~", ".", "..", "/dev/", "tcp", "sda", "/etc/", "cron", "systemd", "/root", "/home/u",
    "/Users/u", ".ssh", "/.config/", "autostart", "Library/LaunchAgents/", "LaunchDaemons",
    "paw.toml", "PAW.TOML", ".paw", ".PAW", "Guardrails.TOML", "guardrails.toml", "/usr", "bin",
    ".env", ".envrc", ".bashrc",
    ".zshrc", ".profile", ".claude", "settings.json", "hooks", ".gemini", ".mcp.json",
    "opencode.json", "opencode.jsonc", ".git/hooks/", "x.git/hooks/pre-commit", ".windsurf/",
    ".kiro/settings/", "src", "main.py", "dist", "\n", "a", "-", "_", ".vscode/settings.json",
    ".codex/config.toml", ".qwen/settings.json", ".cursor/hooks.json", ".config/paw", "/var",
    "spool", "/proc/1/environ", "udp", "nvme0n1", ".aider.conf.yml", "profile", "/etc/profile",
    "/dev/tcp/", "/dev/udp/", "~/.ssh/", "/root/.ssh", "~/.bashrc", "/home/u/.zshrc", "/root/",
)  # fmt: skip


def _paths() -> list[str]:
    found = [
        json.loads(line)["path"]
        for line in (FIXTURES / "paths.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    for line in (FIXTURES / "commands.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            found.extend(json.loads(line)["cmd"].split())
    rng = random.Random(11)  # noqa: S311 - reproducible test data, not secrets
    for _ in range(40_000):
        parts = rng.choices(_FRAGMENTS, k=rng.randint(1, 5))
        found.append(rng.choice(("", "/")).join(parts))
    return found


def test_any_place_is_the_alternation_of_its_patterns() -> None:
    paths = _paths()
    hits = 0
    for path in paths:
        expected = files._ANY_PLACE_RE.search(path) is not None
        assert files.any_place(path) is expected, path
        hits += expected
    assert 1_000 < hits < len(paths) - 1_000  # both outcomes are well represented


def test_pipelines_of_corpus_commands_judged_as_the_parser_judges_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fast path's pipelines (upstream stages, writes into a pipe) decide as the walk."""
    simple = [c for c in _corpus_commands() if fastpath.fast_parts(c) is not None]
    rng = random.Random(5)  # noqa: S311 - reproducible test data, not secrets
    piped = [" | ".join(rng.sample(simple, rng.randint(2, 4))) for _ in range(1500)]
    piped += [f"{c} | sh" for c in simple] + [f"echo hi | {c} | cat" for c in simple]
    fast = [c for c in piped if fastpath.fast_parts(c) is not None]
    assert len(fast) > 500
    with_fast = [repr(evaluate_command(c)) for c in fast]
    monkeypatch.setattr(shell, "fast_parts", lambda text: None)
    parsed = [repr(evaluate_command(c)) for c in fast]
    assert with_fast == parsed


def test_only_a_lone_pipeline_without_declaration_takes_the_fast_path() -> None:
    assert fastpath.fast_parts("echo aGkK | base64 -d | sh") is not None
    assert fastpath.fast_parts("ls | echo 'GITHUB_TOKEN'") is not None
    # The walk reads variable names in the raw text of a printing command where they expand
    # (not in single quotes, nor after a backslash): the fast path hands that text along.
    parts = fastpath.fast_parts("ls | echo '$GITHUB_TOKEN'")
    assert parts is not None
    assert parts[0][1][2] == "echo '$GITHUB_TOKEN'"
    assert evaluate_command("ls | echo '$GITHUB_TOKEN'").rules == ()
    assert evaluate_command('ls | echo "$GITHUB_TOKEN"').rules == ("shell.secret-read",)
    assert evaluate_command('ls | echo "it\'s $GITHUB_TOKEN"').rules == ("shell.secret-read",)
    assert fastpath.fast_parts("a | b | c && d") is None  # tree-sitter nests this its own way
    assert fastpath.fast_parts("export X=1 | sh") is None  # a declaration, not a command stage
    for misparsed in ("echo hi | me@h", "a | b%c", "a | b?c", "a | 0_+:", "a | b =="):
        assert fastpath.fast_parts(misparsed) is None, misparsed


_VOCABULARY = (
    "sh", "bash", "base64", "-d", "curl", "-fsSL", "https://x.example/i.sh", "echo", "Y3VybA==",
    "rev", "cat", ".env", "~/.ssh/id_rsa", "env", "jq", ".", "xargs", "rm", "-rf", "/", "sudo",
    "tee", "AGENTS.md", "git", "push", "--force", "python3", "-c", "node", "nc", "80", "gh",
    "auth", "token", "printenv", "grep", "TOKEN", "find", "-exec", "{}", "+", "-delete", "=",
    "==", "=~", "x=1", "export", "--x=y",
)  # fmt: skip
_ODD_CHARS = "abAZ09_./:=@%+,~*?-"


def test_generated_pipelines_judged_as_the_parser_judges_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Odd plain words included: tree-sitter-bash misparses some (`b@c`, `x+:`, `==`) and the
    verdict then carries its parse error; the fast path leaves those to the parser."""
    rng = random.Random(8)  # noqa: S311 - reproducible test data, not secrets

    def word() -> str:
        roll = rng.random()
        if roll < 0.5:
            return rng.choice(_VOCABULARY)
        if roll < 0.65:
            return "'" + " ".join(rng.choices(_VOCABULARY, k=rng.randint(0, 3))) + "'"
        return "".join(rng.choices(_ODD_CHARS, k=rng.randint(1, 6)))

    commands = [
        " | ".join(
            " ".join(word() for _ in range(rng.randint(1, 4))) for _ in range(rng.randint(2, 4))
        )
        for _ in range(4000)
    ]
    fast = [c for c in commands if fastpath.fast_parts(c) is not None]
    assert len(fast) > 500
    with_fast = [repr(evaluate_command(c)) for c in fast]
    monkeypatch.setattr(shell, "fast_parts", lambda text: None)
    parsed = [repr(evaluate_command(c)) for c in fast]
    assert with_fast == parsed


_FIND_VOCABULARY = (
    "find", ".", "/", "~", "-name", "'*.sh'", "-exec", "-execdir", "-ok", "{}", "\\;", "+", "rm",
    "-rf", "sudo", "chmod", "777", "sh", "-c", "'rm -rf /'", "xargs", "-I{}", "echo", "ls", "git",
    "push", "--force", "cat", ".env", "bash", "'{}'", '"{}"', "-delete", "mv", "AGENTS.md", "env",
    "{}x", "x{}", "\\;x",
)  # fmt: skip


def test_generated_find_exec_lists_judged_as_the_parser_judges_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`{}` and `\\;` words (find, xargs) in lists and pipelines decide as the walk."""
    rng = random.Random(9)  # noqa: S311 - reproducible test data, not secrets
    commands = []
    for _ in range(3000):
        command = " ".join(rng.choices(_FIND_VOCABULARY, k=rng.randint(1, 7)))
        for _ in range(rng.randint(0, 2)):
            command += rng.choice((" && ", " || ", "; ", " | "))
            command += " ".join(rng.choices(_FIND_VOCABULARY, k=rng.randint(1, 7)))
        commands.append(command)
    fast = [c for c in commands if fastpath.fast_parts(c) is not None]
    assert len(fast) > 800
    assert any("{} +" in c for c in fast)
    assert any("\\;" in c for c in fast)
    with_fast = [repr(evaluate_command(c)) for c in fast]
    monkeypatch.setattr(shell, "fast_parts", lambda text: None)
    parsed = [repr(evaluate_command(c)) for c in fast]
    assert with_fast == parsed


# -- the fast path's glued words, expansions, redirections and newlines --------------------------

_RICH_WORDS = (
    "rm", "-rf", "-f", "/", "~", "*", "git", "push", "--force", "echo", "printf", "cat", ".env",
    "sh", "bash", "-c", "find", ".", "-exec", "{}", "\\;", "+", "sudo", "curl", "jq", "tee",
    "a.txt", "AGENTS.md", "xargs", "env", "python3", "ls", "cd", "..", "build", "alias", "ll",
    "--x=y", "-", "--", "a,b", "node:20", "/dev/null", "~/.bashrc", ".claude/settings.json",
    "GITHUB_TOKEN", "1", "2", "X=1", "=",
)  # fmt: skip
_RICH_VARS = (
    "$HOME", "$1", "$2", "$@", "$*", "$X", "$PWD", "${HOME}", "${X:?}", "${X?}", "${BUILD_DIR}",
    "$GITHUB_TOKEN", "$TMPDIR", "$IFS", "$0", "$_", "$$", "$?", "$!", "${1}", "${X:-y}", "$",
)  # fmt: skip
_RICH_REDIRECTS = (
    ">", "> ", ">>", "2>", "2> ", "&>", "&>>", "<", "< ", "1>", "2>&1", ">&2", "1>&2", "0<", ">|",
    "<<<", ">(",
)  # fmt: skip
_RICH_SEPARATORS = (" && ", " || ", "; ", ";", "\n", " | ", "|", " \n", "&&\n", " & ")


def _rich_commands(seed: int, count: int) -> list[str]:  # noqa: C901 - one generator
    rng = random.Random(seed)  # noqa: S311 - reproducible test data, not secrets

    def piece() -> str:
        roll = rng.random()
        if roll < 0.5:
            return rng.choice(_RICH_WORDS)
        if roll < 0.65:
            return rng.choice(_RICH_VARS)
        inner = " ".join(rng.choices(_RICH_WORDS + _RICH_VARS, k=rng.randint(0, 3)))
        return f"'{inner}'" if roll < 0.8 else f'"{inner}"'

    def command() -> str:
        text = " ".join(
            "".join(piece() for _ in range(1 if rng.random() < 0.7 else rng.randint(2, 3)))
            for _ in range(rng.randint(1, 5))
        )
        for _ in range(rng.choice((0, 0, 1, 1, 2))):
            op = rng.choice(_RICH_REDIRECTS)
            text += f" {op}" + ("" if op[-1].isdigit() else rng.choice(_RICH_WORDS + _RICH_VARS))
            if rng.random() < 0.15:  # words after a redirection (`cat 2>f a b`)
                text += " " + " ".join(rng.choices(_RICH_WORDS, k=rng.randint(1, 2)))
        return text

    out = []
    for _ in range(count):
        text = command()
        for _ in range(rng.randint(0, 2)):
            text += rng.choice(_RICH_SEPARATORS) + command()
        if rng.random() < 0.1:
            text += rng.choice((" ", "  "))  # `ll` of `alias ll='rm -rf ~'` runs `rm -rf ~ `
        roll = rng.random()
        if roll < 0.2:  # nested, with positionals bound (`$1`, `$@` read the operands)
            text = f"sh -c {shlex.quote(text)} _ " + rng.choice(("a b", "/ ~", "'rm -rf' /"))
        elif roll < 0.3:
            text = (
                f"find {rng.choice(('.', '~', '$HOME'))} -exec sh -c {shlex.quote(text)} _ {{}} \\;"
            )
        elif roll < 0.35:
            text = f"echo {shlex.quote(text)} | sh"
        out.append(text)
    return out


def _judged(command: str, cwd: str | None) -> tuple[str, list[tuple[object, ...]]]:
    """The analysis of ``command`` and every simple command the rules were handed."""
    seen: list[tuple[object, ...]] = []
    real = dispatch.evaluate_simple

    def record(cmd: SimpleCommand, ctx: Context) -> SimpleCommand:
        seen.append(
            (
                [(w.text, w.quoted, w.braces) for w in cmd.argv],
                [(r.op, r.target.text, r.target.quoted) for r in cmd.redirects],
                cmd.stdin_text,
                [c.name for c in cmd.upstream],
                sorted((i, [c.name for c in s]) for i, s in cmd.subs.items()),
                cmd.wrappers,
                ctx.piped_out,
                sorted(ctx.env.items()),
                ctx.depth,
            )
        )
        return real(cmd, ctx)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(shell, "evaluate_simple", record)  # the walk's
        patch.setattr(fastjudge, "evaluate_simple", record)  # the fast path's
        analysis = shell.analyse_command(command, cwd=cwd)
    return repr(analysis), seen


def test_rich_fast_path_hands_the_rules_what_the_walk_hands_them() -> None:
    """Glued words, expansions, redirections and newlines: the rules see the same simple
    commands (words, quoting, redirections, upstream, pipe, variables) in the same order, and the
    verdicts are the same, with and without the fast path; nested scripts included."""
    # (The first fast path's forms, `_plain_parts`, are tested above; as they always did, they
    # take a declaration as a command and odd plain words tree-sitter-bash misreads.)
    commands = [c for c in _rich_commands(21, 6000) if fastpath.fast_parts(c) is not None]
    commands = [c for c in commands if fastpath._rich_parts(c) is not None]
    assert len(commands) > 1000
    for needle in ("$", "> ", "2>&1", "\n", "&& ", '"$', "sh -c"):
        assert any(needle in c for c in commands), needle
    fast = {c: [_judged(c, cwd) for cwd in (None, "/")] for c in commands}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(shell, "fast_parts", lambda text: None)
        parsed = {c: [_judged(c, cwd) for cwd in (None, "/")] for c in commands}
    differ = [c for c in commands if fast[c] != parsed[c]]
    assert not differ, differ[:5]


def test_rich_fast_path_leaves_tree_sitter_quirks_to_the_parser() -> None:
    """Forms tree-sitter-bash reads its own way (the walk judges what it reads) stay parsed."""
    for quirk in (
        "a && b@c > f",  # an odd plain word near a redirection (`b@c` loses `b`)
        "echo x+:'a'",  # glued to a quote
        "cat - 2>f",  # the `-` vanishes before a numbered redirection
        "a | b 2>&1 | c",  # a middle stage's redirection wraps the stages before it
        "echo $1x",  # `$1` glued
        "echo 'a'$0",
        'echo "$1 $2"',  # the blank between expansions is dropped
        "a 0<f",  # `0` becomes a word
        "a > $HOME/x",  # an expansion in a target
        "a > f b",  # a word after a redirection
        'export"X=1"',  # a declaration glued to a quote
        "x=$HOME cmd",
        "echo '$(id)'$HOME",  # the walk looks for substitutions in a glued word
        "a |& b",
        "a &",
        "a 2>&-",
        "- X=1 a > f",  # the `-` vanishes: `X=1` becomes an assignment
        'echo "x"""$b9*',  # `$` alone, then a word `b9*`
        "a <== b",  # `==` read as a test
    ):
        assert fastpath.fast_parts(quirk) is None, quirk


def test_rich_fast_path_takes_the_slow_corpus_commands() -> None:
    for command in (
        "find $HOME -type f -exec sh -c 'rm -f \"$1\"' _ {} \\;",
        "jq '.a=1' .mcp.json > .mcp.json.tmp && mv .mcp.json.tmp .mcp.json",
        "shopt -s expand_aliases\nalias ll='rm -rf ~'\nll",
        "cargo build 2>&1 | tee build.log",
        'docker run --rm -v "$PWD":/src -w /src node:20 npm test',
        'rm -rf "${BUILD_DIR:?}"/*',
        "mkdir -p .kiro/steering && echo 'Use Go 1.23' > .kiro/steering/tech.md",
    ):
        assert fastpath.fast_parts(command) is not None, command
    verdict = evaluate_command("find $HOME -type f -exec sh -c 'rm -f \"$1\"' _ {} \\;")
    assert verdict.action is Action.BLOCK
    assert evaluate_command("shopt -s expand_aliases\nalias ll='rm -rf ~'\nll").rules == (
        "shell.rm-home",
    )


_CODE_FRAGMENTS = (
    "os.system(", "os.popen(", "subprocess.run(", "commands.getoutput(", "pty.spawn(", "system(",
    "exec(", "execSync(", "spawn(", "popen(", "shell_exec(", "passthru(", "proc_open(",
    "IO.popen(", "Open3.capture2(", "do shell script \"", "Runtime.getRuntime().exec(",
    "os.execute(", "io.popen(", "os.execvp(", "os.spawnl(", "eval(", "Function(", "runpy.",
    "compile(", "iex ", "Invoke-Expression ", "urlopen(", "requests.get(", "requests.post(",
    "urllib.request", "fetch(", "https://x", "http://x", "Net.WebClient", "DownloadString(",
    "Invoke-WebRequest", " iwr ", "open-uri", "LWP::Simple", "http.client", "axios.post(",
    "Net::HTTP", "HTTP::Tiny", "curl_exec(", "socket.send(", ".sendall(", "socket", "SOCKET",
    "Socket.new", "TCPSocket", "net.connect(", "NET.CONNECT", "fsockopen(", "ſocket", "ſOCKET",
    "fork", "forkpty", "pcntl_fork", "while True:", "loop {", "for(;;)", "redo", "open('f', 'w')",
    'open("f", "a")', "writeFileSync('f'", "appendFile('f'", "File.write('f'", "IO.write('f'",
    "file_put_contents('f'", "Path('f').write_text(", "~/.ssh/id_rsa", "os.environ", ";", "\n",
    " ", "(", ")", "'", '"', "x", "sys", "spaw", "exe", "sockt", "fo rk", "ur lopen",
)  # fmt: skip


def test_code_needles_are_in_every_match_of_their_patterns() -> None:
    """A source without the needles is not searched: every match must hold one of them."""
    from paw.core.guard.shell.rules import code

    rng = random.Random(12)  # noqa: S311 - reproducible test data, not secrets
    sources = [
        "".join(rng.choices(_CODE_FRAGMENTS, k=rng.randint(1, 8))) for _ in range(30_000)
    ] + list(_CODE_FRAGMENTS)
    checks = (
        (code._SHELL_CALL_RE, lambda s: code._has_any(s, code._SHELL_CALL_NEEDLES)),
        (code._NETWORK_CALL_RE, lambda s: code._has_any(s, code._NETWORK_CALL_NEEDLES)),
        (code._SOCKET_RE, code._may_open_socket),
        (code._DOWNLOAD_EXEC_RE, code._may_download_exec),
        (code._FORK_LOOP_RE, lambda s: code._has_any(s, code._FORK_NEEDLES)),
        (code._WRITE_RE, lambda s: code._has_any(s, code._WRITE_NEEDLES)),
    )
    for pattern, may_match in checks:
        matched = skipped = 0
        for source in sources:
            if pattern.search(source) is not None:
                matched += 1
                assert may_match(source), (pattern.pattern[:40], source)
            elif not may_match(source):
                skipped += 1
        assert matched > 100, pattern.pattern[:40]
        assert skipped > 100, pattern.pattern[:40]


def test_words_without_odd_characters_are_read_alike_in_pipelines() -> None:
    """`_may_be_odd` spares the per-word check of a pipeline: it must be true whenever some
    plain word fails `_PIPE_WORD_RE`."""
    rng = random.Random(13)  # noqa: S311 - reproducible test data, not secrets
    chars = "aZ09_./:=@%+,~*?-"
    failing = 0
    for _ in range(50_000):
        word = "".join(rng.choices(chars, k=rng.randint(1, 5)))
        if fastpath._PIPE_WORD_RE.fullmatch(word) is None:
            failing += 1
            assert fastpath._may_be_odd(f"x | {word}"), word
    assert failing > 10_000


# The fast path and the walk disagreed here (the fast path ran only on some interpreters until
# it ran on all): settled by what the shell and `env` do, with both paths deciding alike.
_SETTLED = (
    ("echo '$GITHUB_TOKEN'", Action.ALLOW),  # single quotes: the letters, not the token
    ("echo \\$GITHUB_TOKEN", Action.ALLOW),  # a backslash: the same
    ("echo $'$GITHUB_TOKEN'", Action.ALLOW),  # ANSI-C quotes expand no variable either
    ("echo '$GITHUB_TOKEN' > out.txt", Action.ALLOW),
    ('echo "$GITHUB_TOKEN"', Action.BLOCK),  # double quotes expand it
    ('echo "it\'s $GITHUB_TOKEN"', Action.BLOCK),  # a single quote inside double ones is text
    ("echo 'a' $GITHUB_TOKEN", Action.BLOCK),
    ("bash -c 'echo $GITHUB_TOKEN'", Action.BLOCK),  # the script expands it
    ("env A=1 ==", Action.BLOCK),  # env sets `==` as it sets `A=1`, runs nothing: prints all
    ("env A=1 =~", Action.BLOCK),
    ("env =x", Action.BLOCK),
)


@pytest.mark.parametrize(("command", "action"), _SETTLED)
def test_the_fast_path_and_the_walk_agree_where_they_once_differed(
    command: str, action: Action, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_fast = shell.analyse_command(command, cwd="/srv/proj").verdict
    monkeypatch.setattr(shell, "fast_parts", lambda text: None)
    fastpath.clear_fast_memo()
    walked = shell.analyse_command(command, cwd="/srv/proj").verdict
    assert with_fast.action is action, with_fast
    assert walked.action is action, walked
