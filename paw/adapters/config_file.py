"""Write a commented default ``paw.toml`` (values rendered by tomli-w, comments from the
pydantic field docstrings). Reading lives in :mod:`paw.adapters.config_store`."""

from __future__ import annotations

import textwrap
from pathlib import Path

import tomli_w
from pydantic import BaseModel

from paw.core.config import AgentProfileConfig, GuardConfig, PawConfig, TmuxConfig, WorktreesConfig
from paw.errors import ConfigError

_HEADER = """\
# paw.toml: settings for paw in this repository (docs/configuration.md lists every key).
# Every setting below is commented out and shows its default; uncomment to change it.
"""

_AGENT_EXAMPLE = """\
# Override a built-in agent profile, or add your own kind:
# [agents.my-agent]
# command = ["my-agent", "--interactive"]
# task_mode = "stdin-typed"
# [agents.my-agent.match]
# executables = ["my-agent"]
"""


def _comment(text: str) -> list[str]:
    lines: list[str] = []
    for para in text.strip().splitlines():
        lines += [f"# {w}" for w in textwrap.wrap(para.strip(), 94)] or ["#"]
    return lines


def _table(name: str, model: type[BaseModel], defaults: BaseModel) -> str:
    out = [f"[{name}]"]
    for key, field in model.model_fields.items():
        value = getattr(defaults, key)
        if isinstance(value, BaseModel):
            value = value.model_dump(exclude_none=True)
        out += _comment(field.description or "")
        if value is None:
            out.append(f"# {key} = (unset)")
        else:
            rendered = tomli_w.dumps({key: value}).strip().splitlines()
            out += [f"# {line}" for line in rendered]
        out.append("")
    return "\n".join(out)


def render_default_config() -> str:
    """The text of a fresh, fully commented paw.toml (parses to the defaults)."""
    config = PawConfig()
    parts = [
        _HEADER,
        *_comment(PawConfig.model_fields["mcp_allowed"].description or ""),
        "# mcp_allowed = []\n",
        _table("tmux", TmuxConfig, config.tmux),
        _table("worktrees", WorktreesConfig, config.worktrees),
        _table("guard", GuardConfig, config.guard),
        _AGENT_EXAMPLE,
        *_comment("Keys of an [agents.<kind>] table:"),
        *[f"#   {k}: {first}" for k, first in _agent_fields()],
    ]
    return "\n".join(parts) + "\n"


def _agent_fields() -> list[tuple[str, str]]:
    fields = AgentProfileConfig.model_fields.items()
    return [(k, " ".join((f.description or "").split()).split(". ")[0]) for k, f in fields]


def write_default_config(path: Path, *, overwrite: bool = False) -> None:
    """Write the commented default paw.toml to ``path`` (refuses to overwrite unless asked)."""
    if path.exists() and not overwrite:
        raise ConfigError(f"{path} already exists", hint="edit it, or pass --force to replace it")
    try:
        path.write_text(render_default_config(), encoding="utf-8")
    except OSError as err:
        raise ConfigError(f"cannot write {path}: {err}") from err
