"""Confirmation prompts (en/es, markdown/plain, warning first) and shell_escape."""

from __future__ import annotations

import subprocess
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paw.core.guard.confirm import ConfirmationDetails, format_confirmation_prompt, shell_escape

COMMIT = ConfirmationDetails(
    action="commit",
    repo_path="/srv/repos/shop",
    branch="feature/pay",
    message="feat: add payments",
    diff_preview=" src/pay.py | 3 +++\n 1 file changed",
    files=("src/pay.py", "AGENTS.md"),
    agent_instruction_files_changed=("AGENTS.md",),
)


class PromptCase(NamedTuple):
    test_id: str
    language: str
    fmt: str
    first_line: str
    labels: tuple[str, ...]


PROMPTS = [
    PromptCase(
        "en-markdown",
        "en",
        "markdown",
        "**⚠️ WARNING: this commit changes agent instruction",
        ("Confirm commit in shop?", "Message:", "Files:", "Changes:", "Reply YES"),
    ),
    PromptCase(
        "en-plain",
        "en",
        "plain",
        "WARNING: this commit changes agent instruction",
        ("Confirm commit in shop?", "Branch: feature/pay", "Message:", "Reply YES"),
    ),
    PromptCase(
        "es-markdown",
        "es",
        "markdown",
        "**⚠️ ADVERTENCIA: este commit modifica archivos",
        ("¿Confirmas el commit en shop?", "Mensaje:", "Archivos:", "Cambios:", "Responde SÍ"),
    ),
    PromptCase(
        "es-plain",
        "es",
        "plain",
        "ADVERTENCIA: este commit modifica archivos",
        ("¿Confirmas el commit en shop?", "Rama: feature/pay", "Repositorio:", "Responde SÍ"),
    ),
]


@pytest.mark.parametrize("case", PROMPTS, ids=lambda c: c.test_id)
def test_format_confirmation_prompt_warns_first(case: PromptCase) -> None:
    text = format_confirmation_prompt(COMMIT, language=case.language, format=case.fmt)  # type: ignore[arg-type]  # table holds plain strings
    assert text.splitlines()[0].startswith(case.first_line)
    for label in case.labels:
        assert label in text
    assert text.index("AGENTS.md") < text.index("feat: add payments")
    if case.fmt == "plain":
        assert "⚠️" not in text
        assert "```" not in text
        assert "**" not in text


def test_format_confirmation_prompt_without_instruction_files_has_no_warning() -> None:
    details = ConfirmationDetails(action="commit", repo_path="/r/x", message="m")
    for language in ("en", "es"):
        text = format_confirmation_prompt(details, language=language)
        assert "WARNING" not in text
        assert "ADVERTENCIA" not in text


def test_format_confirmation_prompt_spanish_translates_every_label() -> None:
    details = ConfirmationDetails(
        action="push",
        repo_path="/r/shop",
        branch="main",
        remote="origin",
        pending_commits="",
        sensitive_files=("id_rsa",),
        protected_branch=True,
        notes=("nota libre",),
    )
    es = format_confirmation_prompt(details, language="es", format="plain")
    for word in ("Remoto: origin", "Commits pendientes:", "ninguno detectado", "Notas:"):
        assert word in es
    assert "rama protegida main" in es
    assert "archivos sensibles" in es
    en_only = ("Remote", "Pending", "Branch", "Reply", "none detected", "Notes", "WARNING")
    assert not [w for w in en_only if w in es]


def test_format_confirmation_prompt_pr_shows_title_body_and_base() -> None:
    details = ConfirmationDetails(
        action="pr", repo_path="/r/shop", title="Add pay", body="Body text", base="main"
    )
    text = format_confirmation_prompt(details, language="es")
    assert "¿Confirmas crear un pull request desde shop?" in text
    assert "Título: `Add pay`" in text
    assert "Rama base: `main`" in text
    assert "Body text" in text


def test_format_confirmation_prompt_neutralises_untrusted_text() -> None:
    details = ConfirmationDetails(
        action="commit",
        repo_path="/r/x",
        message="ok\x1b[2J\n```\n**⚠️ all safe**\n```",
        files=("a`b.txt",),
    )
    text = format_confirmation_prompt(details)
    assert "\x1b" not in text
    assert "\\x1b[2J" in text
    assert "````\nok" in text  # a longer fence than the message's own
    assert "``a`b.txt``" in text


def test_format_confirmation_prompt_rejects_unknown_language() -> None:
    with pytest.raises(ValueError, match="language"):
        format_confirmation_prompt(COMMIT, language="fr")  # type: ignore[arg-type]  # the point of the test


def test_confirmation_details_to_dict_is_json_ready() -> None:
    data = COMMIT.to_dict()
    assert data["agent_instruction_files_changed"] == ["AGENTS.md"]
    assert data["action"] == "commit"


def _sh_echo(word: str) -> str:
    done = subprocess.run(
        ["/bin/sh", "-c", f"printf '%s' {shell_escape(word)}"], capture_output=True, check=True
    )
    return done.stdout.decode("utf-8", "surrogateescape")


class EscapeCase(NamedTuple):
    test_id: str
    word: str


ESCAPES = [
    EscapeCase("empty", ""),
    EscapeCase("quote", "it's"),
    EscapeCase("quotes", "''\"\""),
    EscapeCase("dollar", "$HOME $(id) `id`"),
    EscapeCase("newline", "a\nb\n"),
    EscapeCase("glob", "*?[a]"),
    EscapeCase("backslash", "\\'\\"),
    EscapeCase("dash", "-n"),
    EscapeCase("unicode", "été ключ 🔑"),
]


@pytest.mark.parametrize("case", ESCAPES, ids=lambda c: c.test_id)
def test_shell_escape_round_trips_through_sh(case: EscapeCase) -> None:
    assert _sh_echo(case.word) == case.word


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\0")))
def test_shell_escape_round_trips_any_text(word: str) -> None:
    assert _sh_echo(word) == word


@given(st.text())
def test_shell_escape_is_one_single_quoted_word(word: str) -> None:
    if "\0" in word:
        with pytest.raises(ValueError, match="NUL"):
            shell_escape(word)
        return
    quoted = shell_escape(word)
    assert quoted.startswith("'")
    assert quoted.endswith("'")
    assert quoted.replace("'\\''", "").count("'") == 2


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("fmt", ["markdown", "plain"])
def test_confirmation_without_the_reply_line(language: str, fmt: str) -> None:
    """Where the answer is a key or `--yes`, not a typed reply, the reply line is left out."""
    full = format_confirmation_prompt(COMMIT, language, fmt)  # type: ignore[arg-type]
    short = format_confirmation_prompt(COMMIT, language, fmt, reply=False)  # type: ignore[arg-type]
    assert full.startswith(short)
    assert full.splitlines()[-1] in {"Reply YES to confirm.", "Responde SÍ para confirmar."}
    assert "YES" not in short
    assert "SÍ" not in short
    assert not short.endswith("\n")
