"""One agent CLI described once (pure): the :class:`AgentSpec` each agent module defines.

Every agent module under :mod:`paw.core.detect.agents` sets ``SPEC = AgentSpec(...)`` next to its
``detect_screen``. Everything else that lists agents derives from these specs through
:mod:`paw.core.detect.registry`: the detector registry, the built-in profiles
(:mod:`paw.core.agents`), the verified versions (:mod:`paw.core.verified`), ``paw doctor``, the
TUI's kinds, help texts, ``scripts/install-agents`` (``python -m paw.cli.agents``) and the test
parametrisations. Adding an agent is one module plus one fixture folder (docs/agents.md).

This module imports nothing heavy: a spec must be cheap to build, since listing agents imports
the modules that hold them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from paw.core.typed_room import DEFAULT_ROOM, InputRoom

if TYPE_CHECKING:
    from paw.core.config import TaskMode

Installer = Literal["npm", "pypi"]
PYTHON_PLACEHOLDER = "{python}"
"""In a command: the Python interpreter paw itself runs on."""


@dataclass(frozen=True, slots=True)
class Install:
    """Where the verified version of an agent CLI comes from (``scripts/install-agents``)."""

    via: Installer
    """``npm`` (one shared ``npm --prefix`` folder) or ``pypi`` (its own virtualenv)."""
    package: str
    version: str
    """The version whose live prompts the e2e suite verified; the installer pins it."""
    binary: str
    """The command the package installs (what ``paw doctor`` looks up on PATH)."""
    python: str | None = None
    """``pypi`` only: the oldest Python the package runs on (``"3.12"``), when newer than paw's."""

    @property
    def pin(self) -> str:
        """The package at its pinned version, as its installer spells it."""
        return f"{self.package}=={self.version}" if self.via == "pypi" else (
            f"{self.package}@{self.version}"
        )  # fmt: skip

    @property
    def command(self) -> str:
        """A command that installs the verified version for the user (``paw doctor``)."""
        if self.via == "npm":
            return f"npm install -g {self.pin}"
        python = f" --python python{self.python}" if self.python else ""
        return f"pipx install{python} {self.pin}"

    @property
    def bin_dir(self) -> str:
        """The folder under the install cache (``$PAW_AGENTS_HOME``) that holds ``binary``."""
        return f"{self.binary}-venv/bin" if self.via == "pypi" else "node_modules/.bin"


@dataclass(frozen=True, slots=True)
class SignIn:
    """Where an agent keeps its sign-in: credentials files and API-key variables, checked for
    presence only by ``paw doctor``; ``command`` signs in. A file may start with
    ``${VAR:-default}`` (``${CODEX_HOME:-~/.codex}/auth.json``) or ``~``."""

    files: tuple[str, ...]
    variables: tuple[str, ...]
    command: str


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """Everything paw knows about one agent kind, in one place (its detector module)."""

    kind: str
    """The agent id (``claude-code``); its module is named the same with ``_`` for ``-``."""
    command: tuple[str, ...]
    """How ``paw spawn`` starts it (``{python}`` stands for paw's own interpreter)."""
    executables: tuple[str, ...] = ()
    """Process match: program names that are the agent itself."""
    interpreters: tuple[str, ...] = ()
    """Process match: interpreters (``node``, ``python``) that may run it…"""
    scripts: tuple[str, ...] = ()
    """…with one of these scripts or modules among their arguments."""
    task_mode: TaskMode = "argv"
    task_flag: str | None = None
    """How the task is passed (see :class:`paw.core.agents.AgentProfile`)."""
    operand_subcommands: bool = False
    """The CLI runs a subcommand when its first operand names one (``claude -- doctor``)."""
    install: Install | None = None
    """The verified package; None for paw's own scripted agent."""
    sign_in: SignIn | None = None
    min_columns: int = 0
    """Narrowest pane the detector was verified at; narrower ones are "unknown", not idle."""
    fork_of: str | None = None
    """The agent this one forks and whose very dialogs it draws: each one's detector reads the
    other's prompts, and ``paw detect`` without ``--agent`` names the original."""
    usage_source: str | None = None
    """Where paw reads the agent's token usage (and cost), as reports name it; None: paw
    does not read it (docs/agents.md says why, per agent)."""
    input_room: InputRoom = DEFAULT_ROOM
    """How much typed text its input shows whole and paw reads back (measured; the default is
    paw's readers' limit): a follow-up paw composes is sized to fit (:mod:`paw.core.typed_room`)."""
    rank: int = 50
    """Where the agent comes in a list that offers a default (the TUI's spawn form): lower
    first, then by name. The most used agents come first."""

    @property
    def version(self) -> str | None:
        """The verified version, or None when the agent ships with paw."""
        return self.install.version if self.install is not None else None

    @property
    def binary(self) -> str:
        """The program ``paw doctor`` looks for on PATH."""
        return self.install.binary if self.install is not None else self.command[0]

    @property
    def module_name(self) -> str:
        """The name of the agent module that defines this spec."""
        return module_name(self.kind)

    @property
    def narrow_note(self) -> str:
        """The note of a detection given up because the pane is narrower than verified."""
        return narrow_note(self.min_columns)


def module_name(kind: str) -> str:
    """The agent module name of ``kind`` (``mistral-vibe`` -> ``mistral_vibe``)."""
    return kind.replace("-", "_")


def narrow_note(min_columns: int) -> str:
    """Why a detector reads nothing in a pane narrower than it was verified at."""
    return f"pane narrower than {min_columns} columns: not read"


def install_plan(specs: tuple[AgentSpec, ...]) -> list[str]:
    """One line per verified agent for ``scripts/install-agents``:
    ``KIND VIA PACKAGE VERSION BINARY BIN_DIR PYTHON`` (``-`` for no minimum Python)."""
    return [
        " ".join((s.kind, i.via, i.package, i.version, i.binary, i.bin_dir, i.python or "-"))
        for s in specs
        if (i := s.install) is not None
    ]


PROVIDER_KEYS = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "OPENROUTER_API_KEY")
"""API-key variables of the providers that multi-provider agents read."""
