"""`paw COMMAND` imports the module of COMMAND alone: the map says which module registers what."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from paw.cli import COMMAND_MODULES, _command_modules, build_parser


def _registered(module: object) -> set[str]:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    module.register(sub)  # type: ignore[attr-defined]
    return set(sub.choices)


def test_every_command_maps_to_the_module_that_registers_it() -> None:
    seen: dict[str, str] = {}
    for module in _command_modules():
        for name in _registered(module):
            seen[name] = module.__name__.rsplit(".", 1)[-1]
    assert seen == COMMAND_MODULES


@pytest.mark.parametrize("command", sorted(COMMAND_MODULES))
def test_a_commands_own_parser_equals_the_full_ones(command: str) -> None:
    """`paw COMMAND --help` and its options are the same whichever way the parser is built."""

    def sub_help(parser: argparse.ArgumentParser) -> str:
        action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return str(action.choices[command].format_help())

    assert sub_help(build_parser(command=command)) == sub_help(build_parser())


def test_paw_ls_imports_neither_the_wave_runner_nor_hosts_nor_libtmux() -> None:
    """What `paw ls` and `paw prompts` import (their parser, the composition root) leaves out
    the other commands, the wave models, libtmux (a sweep is paw's own tmux call) and
    Textual: each is a share of a one-shot command's start-up."""
    code = (
        "import sys; from paw.cli import build_parser; build_parser(command='ls'); "
        "import paw.cli.compose; "
        "print(sorted(m for m in sys.modules if m.startswith("
        "('paw.cli.', 'paw.core.wave', 'libtmux', 'textual'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "paw.cli.supervise" in out
    for heavy in ("paw.cli.wave", "paw.core.wave", "paw.cli.hosts", "paw.cli.tui", "libtmux"):
        assert f"'{heavy}'" not in out, out
    assert "'textual" not in out, out


def test_paw_help_builds_every_parser_without_the_wave_models() -> None:
    """`paw --help` registers every command, `paw wave` among them; the wave's pydantic
    models (a quarter of a second to build on a two-core machine) wait for a wave to read."""
    code = (
        "import sys; from paw.cli import build_parser; build_parser(); "
        "print(sorted(m for m in sys.modules if m.startswith(('paw.cli.wave', 'paw.core.wave'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "'paw.cli.wave'" in out  # registered...
    assert "'paw.core.wave'" not in out, out  # ...without its models
