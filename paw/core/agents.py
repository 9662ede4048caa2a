"""Agent profiles: how to start each agent kind and how to recognise its process (pure).

The built-in profiles derive from the ``SPEC`` of each agent module (:mod:`paw.core.agentspec`,
one per agent CLI plus the scripted demo agent); ``[agents.<kind>]`` in paw.toml overrides them
or adds custom kinds.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from paw.core.agentspec import PYTHON_PLACEHOLDER
from paw.core.config import AgentProfileConfig, ProcessMatch, TaskMode
from paw.core.detect.registry import agent_kinds, agent_modules, spec_for

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from paw.core.agentspec import AgentSpec
    from paw.core.config import PawConfig
    from paw.core.ports import ProcInfo

DEFAULT_STARTUP_TIMEOUT_S = 60.0
_VERSION_SUFFIX = re.compile(r"[0-9.]+$")


@dataclass(frozen=True, slots=True)
class AgentProfile:
    """Everything paw needs to launch and recognise one agent kind."""

    kind: str
    command: tuple[str, ...]
    match: ProcessMatch
    task_mode: TaskMode = "argv"
    task_flag: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    detector: str = ""
    startup_timeout_s: float = DEFAULT_STARTUP_TIMEOUT_S
    ready_pattern: str | None = None
    # The CLI runs a subcommand when its first operand names one, even after ``--``
    # (``claude -- update``): a one-word task there could be a command, never data.
    operand_subcommands: bool = False
    # The CLI ends its options at ``--`` (verified for the built-in CLIs); a custom command's
    # parser is unknown, so a task starting with ``-`` is refused there instead.
    operand_end: bool = False

    @property
    def detector_id(self) -> str:
        """The detector that reads this agent's screen."""
        return self.detector or self.kind

    @property
    def has_detector(self) -> bool:
        """True when a detector reads this agent's screen (idle, busy, prompts)."""
        return self.detector_id in agent_modules()


def profile_of(spec: AgentSpec) -> AgentProfile:
    """The built-in profile an agent's spec describes."""
    return AgentProfile(
        spec.kind,
        spec.command,
        ProcessMatch(
            executables=spec.executables, interpreters=spec.interpreters, scripts=spec.scripts
        ),
        task_mode=spec.task_mode,
        task_flag=spec.task_flag,
        operand_subcommands=spec.operand_subcommands,
        operand_end=True,  # verified for every built-in CLI
    )


class _BuiltinProfiles(Mapping[str, "AgentProfile"]):
    """Kind -> built-in profile, one per agent module: the kinds are known without importing
    a detector, a profile imports its agent's module on first use."""

    def __init__(self) -> None:
        self._cache: dict[str, AgentProfile] = {}

    def __getitem__(self, kind: str) -> AgentProfile:
        profile = self._cache.get(kind)
        if profile is None:
            spec = spec_for(kind)
            if spec is None:
                raise KeyError(kind)
            profile = self._cache[kind] = profile_of(spec)
        return profile

    def __contains__(self, kind: object) -> bool:
        return kind in agent_modules()

    def __iter__(self) -> Iterator[str]:
        return iter(agent_kinds())

    def __len__(self) -> int:
        return len(agent_modules())


BUILTIN_PROFILES: Mapping[str, AgentProfile] = _BuiltinProfiles()
"""Kind -> built-in profile, derived from each agent module's ``SPEC``."""


def known_kinds(config: PawConfig) -> tuple[str, ...]:
    """Every agent kind usable with this config, built-in first."""
    custom = tuple(k for k in config.agents if k not in BUILTIN_PROFILES)
    return tuple(BUILTIN_PROFILES) + custom


def usable_kinds_first(config: PawConfig, which: Callable[[str], str | None]) -> tuple[str, ...]:
    """:func:`known_kinds`, those whose program ``which`` finds first (order kept otherwise):
    what a spawn form should offer by default."""
    kinds = known_kinds(config)

    def usable(kind: str) -> bool:
        profile = profile_for(config, kind)
        if profile is None or not profile.command:
            return False
        program = profile.command[0]
        return program == PYTHON_PLACEHOLDER or which(program) is not None

    def rank(kind: str) -> int:
        spec = spec_for(kind)
        return spec.rank if spec is not None else 100  # custom kinds after the built-in ones

    return tuple(sorted(kinds, key=lambda kind: (not usable(kind), rank(kind))))


def profile_for(config: PawConfig, kind: str) -> AgentProfile | None:
    """The effective profile of ``kind`` (built-in merged with overrides), or None if unknown."""
    override = config.agents.get(kind)
    base = BUILTIN_PROFILES.get(kind)
    if base is None:
        if override is None or not override.command:
            return None
        match = derive_match(override.command)
        wrapped = BUILTIN_PROFILES.get(override.detector or "")
        if wrapped is not None:  # a wrapper may exec the CLI whose screens it shows
            match = _union(match, wrapped.match)
        base = AgentProfile(kind, override.command, match)
    return _apply(base, override) if override is not None else base


def unknown_kind_hint(config: PawConfig, kind: str) -> str:
    """What to tell a user who asked for ``kind``, which :func:`profile_for` does not know."""
    custom = [k for k in known_kinds(config) if k not in BUILTIN_PROFILES]
    usable = [k for k in custom if profile_for(config, k) is not None]
    configured = f"your paw.toml adds {', '.join(usable)}" if usable else "paw.toml adds none"
    if kind in config.agents and kind not in usable:
        return (
            f"[agents.{kind}] in paw.toml has no `command`; add one, e.g. "
            f'command = ["{kind}"] (docs/agents.md, "Your own agent")'
        )
    return (
        f"built in: {', '.join(BUILTIN_PROFILES)}; {configured}. To add your own, put "
        f'[agents.{kind}] with command = ["your-program"] in paw.toml '
        '(docs/agents.md, "Your own agent")'
    )


# Interpreters a custom command may start its agent with (version suffixes ignored), and per
# family the options that take a value (skipped with it) and those that run inline code (no
# script to name). A script or module after them names the agent.
_FAMILIES: dict[str, str] = {
    "python": "python", "pypy": "python", "node": "node",
    **dict.fromkeys(("sh", "bash", "dash", "zsh", "ksh", "fish"), "sh"),
    "perl": "perl", "ruby": "ruby",
}  # fmt: skip
_VALUE_OPTIONS: dict[str, frozenset[str]] = {
    "python": frozenset({"-W", "-X", "-Q"}),
    "node": frozenset({"-r", "--require", "--import", "--loader", "-C", "--conditions"}),
    "sh": frozenset({"-o", "+o", "-O", "+O"}),
    "perl": frozenset(),
    "ruby": frozenset(),
}
_CODE_OPTIONS = frozenset({"-c", "-e", "-E", "--eval", "-p", "--print"})


def _interpreter(program: str) -> str | None:
    """The interpreter ``program`` names (``python`` for ``{python}`` or ``python3.12``)."""
    if program == PYTHON_PLACEHOLDER:
        return "python"
    name = _VERSION_SUFFIX.sub("", _basename(program))
    return name if name in _FAMILIES else None


def _script_arg(family: str, args: Sequence[str]) -> str | None:
    """The script (or ``-m`` module) an interpreter of ``family`` runs, from its arguments."""
    values = _VALUE_OPTIONS[family]
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in _CODE_OPTIONS:
            return None
        if family == "python" and arg.startswith("-m"):
            module = arg[2:] or (args[i + 1] if i + 1 < len(args) else "")
            return module or None
        if arg == "--":
            return args[i + 1] if i + 1 < len(args) else None
        if arg.startswith("-") or (arg.startswith("+") and family == "sh"):
            i += 2 if arg in values else 1
            continue
        return arg
    return None


def derive_match(command: Sequence[str]) -> ProcessMatch:
    """The default process match of a custom ``command``: an interpreter (``{python}``,
    ``python3``, ``node``, ``sh``…) running the script or module the command names; else the
    program itself, or any interpreter running it as a script (a ``#!`` file)."""
    args = list(command)
    while args and _basename(args[0]) == "env":  # env [-i] [NAME=VALUE]... PROGRAM
        args = args[1:]
        while args and (args[0].startswith("-") or "=" in args[0]):
            args = args[1:]
    if not args:
        return ProcessMatch()
    program = args[0]
    name = _interpreter(program)
    if name is None:
        return ProcessMatch(
            executables=(_basename(program),),
            interpreters=tuple(_FAMILIES),
            scripts=(_script_pattern(program),),
        )
    family = _FAMILIES[name]
    script = _script_arg(family, args[1:])
    if script is None:
        names = ("python", "python3") if program == PYTHON_PLACEHOLDER else (_basename(program),)
        return ProcessMatch(executables=names)
    module = family == "python" and not script.endswith(".py") and "/" not in script
    return ProcessMatch(
        interpreters=(name,), scripts=(script if module else _script_pattern(script),)
    )


def _script_pattern(path: str) -> str:
    """A :attr:`ProcessMatch.scripts` pattern for the script at ``path``: its name without
    extension (compared with each argument's), or the whole name when it has dots left."""
    return _stem(path)


def _union(a: ProcessMatch, b: ProcessMatch) -> ProcessMatch:
    def both(x: tuple[str, ...], y: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(dict.fromkeys(x + y))

    return ProcessMatch(
        executables=both(a.executables, b.executables),
        interpreters=both(a.interpreters, b.interpreters),
        scripts=both(a.scripts, b.scripts),
    )


def _apply(base: AgentProfile, over: AgentProfileConfig) -> AgentProfile:
    return replace(
        base,
        command=over.command or base.command,
        env={**base.env, **(over.env or {})},
        task_mode=over.task_mode or base.task_mode,
        task_flag=over.task_flag if over.task_flag is not None else base.task_flag,
        match=over.match or base.match,
        detector=over.detector or base.detector,
        startup_timeout_s=over.startup_timeout_s or base.startup_timeout_s,
        ready_pattern=over.ready_pattern or base.ready_pattern,
    )


@dataclass(frozen=True, slots=True)
class Launch:
    """How to start an agent: the argv, and text to type once it is up (stdin-typed tasks)."""

    argv: tuple[str, ...]
    env: Mapping[str, str]
    typed_task: str | None = None


class TaskError(ValueError):
    """A task that cannot be passed to an agent as data (it could be read as an option or a
    command); the message says why and what to do instead."""


_SLASH_COMMAND = re.compile(r"/[A-Za-z][\w:-]*")
_COMMAND_WORD = re.compile(r"\s*[A-Za-z][\w:.-]*\s*")  # what could name a subcommand


def plan_launch(profile: AgentProfile, task: str | None, python: str) -> Launch:
    """The argv (with ``{python}`` expanded) and task delivery for one spawn.

    The task is always data, never an option: after ``--`` when it is an operand, glued to
    a long flag as ``--flag=TASK`` (``--flag TASK`` lets a task starting with ``-`` be read as
    an option), or typed into the agent's input. What no form can carry as data is refused
    (:class:`TaskError`): a task starting with ``-`` after a short flag, a one-word task where
    the CLI routes subcommands, and a leading slash command (``/run …``), which agents'
    inputs execute."""
    argv = tuple(python if a == PYTHON_PLACEHOLDER else a for a in profile.command)
    if not task or profile.task_mode == "none":
        return Launch(argv, profile.env)
    _check_not_command(profile, task)
    if profile.task_mode == "stdin-typed":
        return Launch(argv, profile.env, typed_task=task)
    return Launch((*argv, *task_args(profile, task)), profile.env)


def task_args(profile: AgentProfile, task: str) -> tuple[str, ...]:
    """The arguments that carry ``task`` as data for ``profile`` (argv task mode)."""
    flag = profile.task_flag
    if not flag:
        if profile.operand_subcommands and _COMMAND_WORD.fullmatch(task):
            raise TaskError(
                f"{profile.kind}: a one-word task could run a {profile.kind} subcommand; "
                "write the task as a sentence, or type it with `paw send`"
            )
        if profile.operand_end:
            return ("--", task)
        if task.startswith("-"):
            raise TaskError(
                f"{profile.kind}: a task starting with '-' could be read as an option by its "
                'command; set a long task_flag (--name) or task_mode = "stdin-typed"'
            )
        return (task,)
    if flag.startswith("--"):
        return (f"{flag}={task}",)
    if task.startswith("-"):
        raise TaskError(
            f"{profile.kind}: a task starting with '-' after the short flag {flag} would be "
            'read as an option; set a long task_flag (--name) or task_mode = "stdin-typed"'
        )
    return (flag, task)


def _check_not_command(profile: AgentProfile, task: str) -> None:
    first = task.lstrip().split(maxsplit=1)[0] if task.strip() else ""
    if _SLASH_COMMAND.fullmatch(first):
        raise TaskError(
            f"{profile.kind}: a task starting with {first} would run as the agent's slash "
            "command, not as a task; start it with words, or type it with `paw send`"
        )


def _basename(arg: str) -> str:
    return arg.rstrip("/").rsplit("/", 1)[-1]


def _stem(arg: str) -> str:
    base = _basename(arg)
    return base.rsplit(".", 1)[0] if "." in base[1:] else base


def _is_interpreter(proc: ProcInfo, interpreters: Sequence[str]) -> bool:
    names = {_basename(proc.cmdline[0]) if proc.cmdline else "", proc.name, _basename(proc.exe)}
    normalised = {_VERSION_SUFFIX.sub("", n) for n in names if n}
    return any(i in normalised for i in interpreters)


def _script_matches(pattern: str, arg: str) -> bool:
    if any(c in pattern for c in "/@."):
        return pattern in arg
    return _stem(arg) == pattern


def matches_process(match: ProcessMatch, proc: ProcInfo) -> bool:
    """True when ``proc`` is the agent described by ``match``."""
    argv0 = _basename(proc.cmdline[0]) if proc.cmdline else ""
    if match.executables and (proc.name in match.executables or argv0 in match.executables):
        return True
    if not match.interpreters or not _is_interpreter(proc, match.interpreters):
        return False
    args = proc.cmdline[1:]
    return any(_script_matches(p, a) for p in match.scripts for a in args)


def still_starting(match: ProcessMatch, proc: ProcInfo) -> bool:
    """True while ``proc`` is a ``#!`` script still being started, not yet the agent: it
    matches (by its name: the kernel names a process after the script it was asked to run)
    while neither its executable nor its argv[0] is the agent's program or one of its
    interpreters (``env`` about to exec ``node`` for ``#!/usr/bin/env node``; argv[0] is the
    launcher, empty, or already the interpreter when the exec lands between two reads). Its
    executable is not the agent's yet, so it must not be bound as the agent's identity: the
    exec that follows would read as the agent replaced by another program."""
    if not proc.exe or not matches_process(match, proc):
        return False
    exe = _VERSION_SUFFIX.sub("", _basename(proc.exe))
    if exe in match.executables or exe in match.interpreters:
        return False
    argv0 = _basename(proc.cmdline[0]) if proc.cmdline else ""
    return argv0 not in match.executables  # a native agent run through a symlink: settled


def find_agent_process(profile: AgentProfile, procs: Sequence[ProcInfo]) -> ProcInfo | None:
    """The first process of a pane's tree (root first) that runs ``profile``'s agent."""
    return next((p for p in procs if matches_process(profile.match, p)), None)


def resolves(profile: AgentProfile, procs: list[ProcInfo]) -> bool:
    """True when the process tree ``procs`` currently runs an agent of ``profile``'s kind."""
    return find_agent_process(profile, procs) is not None
