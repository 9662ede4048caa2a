"""Write a commented default ``paw.toml`` (comments from the pydantic field docstrings).
Reading lives in :mod:`paw.adapters.config_store`.

Two kinds of line: ``# text`` explains, ``#key = value`` (no space after ``#``) is a setting at
its default, or an example where the default is "unset". Deleting the ``#`` of any setting line,
or of all of them, gives a valid paw.toml (tests/cli/test_init.py proves it): nested tables are
written as dotted keys (``sensitive_files.extend = []``) so that no ``[header]`` swallows the
keys after it, and every value fits on its line.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from paw.core.config import (
    AgentProfileConfig,
    ChannelsConfig,
    GuardConfig,
    PatternSet,
    PawConfig,
    ProcessMatch,
    ServeConfig,
    TmuxConfig,
    WorktreesConfig,
)
from paw.core.notify_settings import NotifySettings
from paw.errors import ConfigError

if TYPE_CHECKING:
    from collections.abc import Mapping

WIDTH = 96

_HEADER = """\
# paw.toml: settings for paw in this repository (docs/configuration.md lists every key).
# Lines starting with "# " explain. Lines starting with "#" and a key are settings, shown at
# their default (or, where the default is "unset", with an example value): delete that "#" to
# use one.
# `paw config check` lists every problem of this file.
"""

# Example values for settings whose default is "unset" (they still must validate).
_EXAMPLES: Mapping[str, object] = {
    "tmux.session": "my-agents",
    "tmux.socket_name": "paw",
    "guard.allowed_dirs": ["~/src"],
    "notify.command": ["my-notifier", "--quiet"],
    "serve.public_url": "https://build-box.example.ts.net",
}

_AGENT_EXAMPLE: Mapping[str, object] = {
    "command": ["my-agent", "--interactive"],
    "env": {"MY_AGENT_LOG": "info"},
    "task_mode": "argv",
    "task_flag": "--task",
    "detector": "claude-code",
    "startup_timeout_s": 60.0,
    "ready_pattern": "^my-agent>",
}
_MATCH_EXAMPLE: Mapping[str, object] = {
    "executables": ["my-agent", "claude"],
    "interpreters": ["node"],
    "scripts": ["@anthropic-ai/claude-code"],
}


def _comment(text: str) -> list[str]:
    """``# `` lines, wrapped, from a docstring (rST ``literals`` shown as `literals`)."""
    text = re.sub(r"``([^`]+)``", r"`\1`", text)
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]
    lines: list[str] = []
    for para in paragraphs:
        lines += [f"# {w}" for w in textwrap.wrap(para, WIDTH - 2)]
    return lines


def _inline(value: object) -> str:
    """``value`` as a one-line TOML value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_inline(v)}" for k, v in value.items()) + " }"
    msg = f"no TOML rendering for {value!r}"
    raise TypeError(msg)


def _setting(key: str, value: object) -> str:
    return f"#{key} = {_inline(value)}"


def _table(name: str, model: type[BaseModel], defaults: BaseModel) -> str:
    out = [f"[{name}]"]
    for key, field in model.model_fields.items():
        value = getattr(defaults, key)
        out += _comment(field.description or "")
        if isinstance(value, PatternSet):
            out += _pattern_lines(key, value)
        elif value is None:
            out.append("# Unset by default; for example:")
            out.append(_setting(key, _EXAMPLES[f"{name}.{key}"]))
        else:
            out.append(_setting(key, value))
        out.append("")
    return "\n".join(out)


def _pattern_lines(key: str, value: PatternSet) -> list[str]:
    out = _sub_comment("extend", PatternSet.model_fields["extend"].description or "")
    out.append(_setting(f"{key}.extend", list(value.extend)))
    replace = PatternSet.model_fields["replace"].description or ""
    return out + _sub_comment("replace", f"{replace} Written `{key}.replace = [...]`.")


def _sub_comment(name: str, text: str) -> list[str]:
    """A sub-key's description: ``#   name: text``, continued under it."""
    text = " ".join(re.sub(r"``([^`]+)``", r"`\1`", text).split())
    first, *rest = textwrap.wrap(f"{name}: {text}", WIDTH - 4)
    return [f"#   {first}"] + [f"#     {line}" for line in textwrap.wrap(" ".join(rest), WIDTH - 6)]


def _agents_example() -> str:
    out = [
        *_comment(AgentProfileConfig.__doc__ or ""),
        *_comment(
            "An example: `my-agent`, your own wrapper script around Claude Code (so Claude "
            "Code's detector reads its screen). docs/agents.md has more."
        ),
        "#[agents.my-agent]",
    ]
    for key, field in AgentProfileConfig.model_fields.items():
        out += _comment(field.description or "")
        if key == "match":
            for sub, sub_field in ProcessMatch.model_fields.items():
                out += _sub_comment(sub, sub_field.description or "")
                out.append(_setting(f"match.{sub}", _MATCH_EXAMPLE[sub]))
        else:
            out.append(_setting(key, _AGENT_EXAMPLE[key]))
    return "\n".join(out) + "\n"


def render_default_config() -> str:
    """The text of a fresh, fully commented paw.toml (parses to the defaults)."""
    config = PawConfig()
    parts = [
        _HEADER,
        *_comment(PawConfig.model_fields["mcp_allowed"].description or ""),
        _setting("mcp_allowed", list(config.mcp_allowed)) + "\n",
        _table("tmux", TmuxConfig, config.tmux),
        _table("worktrees", WorktreesConfig, config.worktrees),
        _table("guard", GuardConfig, config.guard),
        *_comment(PawConfig.model_fields["notify"].description or ""),
        _table("notify", NotifySettings, config.notify),
        _table("channels", ChannelsConfig, config.channels),
        _table("serve", ServeConfig, config.serve),
        _agents_example(),
    ]
    return "\n".join(parts)


def write_default_config(path: Path, *, overwrite: bool = False) -> None:
    """Write the commented default paw.toml to ``path`` (refuses to overwrite unless asked)."""
    if path.exists() and not overwrite:
        raise ConfigError(f"{path} already exists", hint="edit it, or pass --force to replace it")
    try:
        path.write_text(render_default_config(), encoding="utf-8")
    except OSError as err:
        raise ConfigError(f"cannot write {path}: {err}") from err
