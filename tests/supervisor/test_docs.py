"""The supervisor's docs name every paw.toml key and every sub-command."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from paw.adapters.config_file import render_default_config
from paw.cli import build_parser
from paw.core.config import AgentProfileConfig, PawConfig, ProcessMatch

DOCS = Path(__file__).resolve().parents[2] / "docs"
COMMANDS = (
    "init", "config check", "spawn", "ls", "attach", "send", "stop", "rm", "adopt",
    "prompts", "approve", "deny", "log", "stats", "host add", "host ls", "host check", "host rm",
)  # fmt: skip


def _keys(model: type[BaseModel], prefix: str) -> list[str]:
    out = []
    for key, field in model.model_fields.items():
        out.append(prefix + key)
        sub = field.annotation
        if isinstance(sub, type) and issubclass(sub, BaseModel) and key != "guard":
            out += _keys(sub, f"{prefix}{key}.")
    return out


def test_docs_configuration_lists_every_key() -> None:
    text = (DOCS / "configuration.md").read_text(encoding="utf-8")
    keys = _keys(PawConfig, "") + _keys(AgentProfileConfig, "agents.<kind>.")
    keys += _keys(ProcessMatch, "agents.<kind>.match.")
    missing = [k for k in keys if f"`{k}`" not in text]
    assert missing == []


def test_docs_cli_lists_every_command() -> None:
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert [c for c in COMMANDS if f"`paw {c}" not in text] == []
    assert all(f"| {code} |" in text for code in (0, 1, 2, 3, 4, 130))


def test_default_config_parses_to_defaults_and_names_every_table() -> None:
    import tomllib

    text = render_default_config()
    assert PawConfig.model_validate(tomllib.loads(text)) == PawConfig()
    for table in ("[tmux]", "[worktrees]", "[guard]", "[agents.my-agent]"):
        assert table in text


def test_every_command_has_help_with_examples() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    choices = getattr(sub, "choices", {})
    for name in ("spawn", "ls", "approve", "rm", "adopt", "prompts", "stats", "log"):
        assert "example" in (choices[name].epilog or "")
