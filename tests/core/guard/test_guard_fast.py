"""The guard's shortcuts decide exactly as the slow forms they replace."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from paw.core.guard import shell
from paw.core.guard.shell import evaluate_command
from paw.core.guard.shell.rules import files
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
    simple = [c for c in _corpus_commands() if shell._fast_parts(c) is not None]
    rng = random.Random(5)  # noqa: S311 - reproducible test data, not secrets
    piped = [" | ".join(rng.sample(simple, rng.randint(2, 4))) for _ in range(1500)]
    piped += [f"{c} | sh" for c in simple] + [f"echo hi | {c} | cat" for c in simple]
    fast = [c for c in piped if shell._fast_parts(c) is not None]
    assert len(fast) > 500
    with_fast = [repr(evaluate_command(c)) for c in fast]
    monkeypatch.setattr(shell, "_fast_parts", lambda text: None)
    parsed = [repr(evaluate_command(c)) for c in fast]
    assert with_fast == parsed


def test_only_a_lone_pipeline_without_dollar_or_declaration_takes_the_fast_path() -> None:
    assert shell._fast_parts("echo aGkK | base64 -d | sh") is not None
    assert shell._fast_parts("ls | echo 'GITHUB_TOKEN'") is not None
    # The walk reads variable names in the raw text of a printing command, quoted or not.
    assert shell._fast_parts("ls | echo '$GITHUB_TOKEN'") is None
    assert shell._fast_parts("a | b | c && d") is None  # tree-sitter nests this its own way
    assert shell._fast_parts("export X=1 | sh") is None  # a declaration, not a command stage
    for misparsed in ("echo hi | me@h", "a | b%c", "a | b?c", "a | 0_+:", "a | b =="):
        assert shell._fast_parts(misparsed) is None, misparsed


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
    fast = [c for c in commands if shell._fast_parts(c) is not None]
    assert len(fast) > 500
    with_fast = [repr(evaluate_command(c)) for c in fast]
    monkeypatch.setattr(shell, "_fast_parts", lambda text: None)
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
    fast = [c for c in commands if shell._fast_parts(c) is not None]
    assert len(fast) > 800
    assert any("{} +" in c for c in fast)
    assert any("\\;" in c for c in fast)
    with_fast = [repr(evaluate_command(c)) for c in fast]
    monkeypatch.setattr(shell, "_fast_parts", lambda text: None)
    parsed = [repr(evaluate_command(c)) for c in fast]
    assert with_fast == parsed
