"""Guard and agent tampering: guard-off variables, unguarded agent launches."""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from paw.core.guard.shell.rules.argv import option_value
from paw.core.guard.shell.rules.git import is_exec_key

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

_GUARD_VAR_RE = re.compile(
    r"^(PAW_GUARD\w*|PAW_\w*(BYPASS|DISABLE|UNSAFE)\w*|DCG_BYPASS|\w*_BYPASS(_\w+)?"
    r"|\w*SKIP_PERMISSIONS\w*|\w*DANGEROUSLY\w*|\w*YOLO\w*|CLAUDE_CODE_DISABLE_HOOKS\w*"
    r"|GOOSE_MODE)$"
)
_LOADER_VARS = frozenset({"LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "BASH_ENV"})
_PROGRAM_VARS = frozenset(
    {"GIT_SSH_COMMAND", "GIT_SSH", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER",
     "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "GIT_PROXY_COMMAND", "GIT_EXEC_PATH", "SSH_ASKPASS"}
)  # fmt: skip
# Variables whose value is a command line some program runs (pagers, editors, askpass, prompts).
_COMMAND_VARS = frozenset(
    {"PAGER", "MANPAGER", "GIT_PAGER", "GH_PAGER", "SYSTEMD_PAGER", "BAT_PAGER", "DELTA_PAGER",
     "EDITOR", "VISUAL", "SUDO_EDITOR", "FCEDIT", "GH_EDITOR", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR",
     "KUBE_EDITOR", "SVN_EDITOR", "HGEDITOR", "BROWSER", "GH_BROWSER", "TERMINAL",
     "LESSOPEN", "LESSCLOSE", "PROMPT_COMMAND", "GIT_SSH_COMMAND", "GIT_SSH", "GIT_PROXY_COMMAND",
     "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS", "GIT_EXTERNAL_DIFF", "RSYNC_RSH", "CVS_RSH",
     "MANROFFOPT", "DIFFPROG", "MERGE"}
)  # fmt: skip
_PROMPT_VARS = frozenset({"PS0", "PS1", "PS2", "PS3", "PS4"})
_OFF_VALUES = frozenset({"off", "0", "false", "no", "disable", "disabled", "none", "skip"})
_ON_VALUES = frozenset({"1", "true", "yes", "on", "enable", "enabled", "all"})
_DANGER_FLAG_RE = re.compile(r"^--(dangerously[-\w]*|allow-dangerously[-\w]*|yolo)(=.*)?$")
# Generic words (`--no-sandbox` is also a Chromium flag): only on an agent's own command line.
_AGENT_FLAG_RE = re.compile(
    r"^--(yes-always|no-sandbox|trust-all[-\w]*|allow-all[-\w]*|auto-approve[-\w]*"
    r"|skip-permissions[-\w]*|always-approve|force)(=.*)?$"
)
# Agent CLIs paw does not supervise (no module in paw/core/detect/agents); the supervised ones
# come from their specs (:func:`agent_clis`), so adding an agent module adds them here too.
_OTHER_CLIS = frozenset(
    {"cursor-agent", "amp", "goose", "crush", "kiro", "kiro-cli", "copilot", "auggie", "droid",
     "q", "openhands", "kilocode"}
)  # fmt: skip
_OTHER_PACKAGES = ("claude-code", "gemini-cli", "qwen-code", "opencode", "aider")


@cache
def agent_clis() -> frozenset[str]:
    """Programs that are coding agents: every installed agent's command, binary and process
    names from its spec, and the agents paw does not supervise (imports the agent modules once)."""
    from paw.core.detect.registry import all_specs

    names = {n for s in all_specs() if s.install for n in (s.command[0], s.binary, *s.executables)}
    return frozenset(names) | _OTHER_CLIS


@cache
def _packages_re() -> re.Pattern[str]:
    """Any agent's package name (``npx @openai/codex …``, ``pipx run aider-chat …``)."""
    from paw.core.detect.registry import all_specs

    packages = {s.install.package for s in all_specs() if s.install} | set(_OTHER_PACKAGES)
    return re.compile("|".join(re.escape(p) for p in sorted(packages)))


_MODE_OPTIONS = {
    "--permission-mode": frozenset({"bypasspermissions"}),
    "--approval-mode": frozenset({"yolo"}),
    "--ask-for-approval": frozenset({"never"}),
    "-a": frozenset({"never"}),
    "--sandbox": frozenset({"danger-full-access"}),
    "-s": frozenset({"danger-full-access"}),
}
_DATA_COMMANDS = frozenset({"echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "man", "which"})


def check_assignment(name: str, value: str, ctx: Context) -> None:
    """``PAW_GUARD=off`` and friends switch a guard off; some variables run or load code."""
    if name in _LOADER_VARS and value:
        ctx.block("shell.preload", f"`{name}` injects a library into every program started")
        return
    if name in _PROGRAM_VARS and is_exec_key("core.pager", value):
        ctx.block("git.config-exec", f"`{name}={value}` makes git run a program")
        return
    if name in _COMMAND_VARS and value.strip():
        program = value.strip()
        if name in {"LESSOPEN", "LESSCLOSE"}:
            program = program.lstrip("|").replace("%s", "file")
        if "\ue000" in program or "\ue002" in program:
            ctx.confirm("shell.program-option", f"`{name}` names a program paw cannot see")
        ctx.run_script(program, f"{name}=")
        return
    if name in _PROMPT_VARS and ("$(" in value or "`" in value):
        ctx.run_script(f"echo {value}", f"{name}=")
        return
    if not _GUARD_VAR_RE.match(name):
        return
    low = value.strip().lower()
    if name == "GOOSE_MODE":
        if value.strip().lower() == "auto":
            ctx.block("agents.guard-off", "`GOOSE_MODE=auto` makes goose approve everything")
        return
    bypass_name = any(
        k in name for k in ("BYPASS", "SKIP", "DANGEROUSLY", "YOLO", "DISABLE", "UNSAFE")
    )
    if (low in _OFF_VALUES and not bypass_name) or (bypass_name and low in _ON_VALUES):
        ctx.block("agents.guard-off", f"`{name}={value}` switches a guard off")
    elif not low or "\ue000" in low or "\ue002" in low:
        ctx.confirm("agents.guard-off", f"`{name}` is set to a value paw cannot see")


def _switches_off(arg: str, following: str) -> bool:
    """``--auto-approve false`` (cline's way to keep asking) turns auto-approval off."""
    key, eq, inline = arg.partition("=")
    value = inline if eq else following
    return key == "--auto-approve" and value.lower() in {"false", "0", "no", "off"}


def _agent_only_words(name: str, args: list[str]) -> bool:
    """True when some argument below flags only an agent's command line: only then is the
    program looked up among the agents (the lookup imports every agent module, once)."""
    for i, arg in enumerate(args):
        if arg[:1] != "-" and arg[:4] != "Bash":
            continue  # no agent flag, mode option or `Bash…` word starts otherwise
        if arg == "--force":
            if name in {"cursor-agent", "cursor"}:
                return True
            continue
        if _AGENT_FLAG_RE.match(arg) or arg in {"Bash(*)", "Bash", "Bash(:*)", "--yes", "-y"}:
            return True
        key, _, inline = arg.partition("=")
        values = _MODE_OPTIONS.get(key)
        value = inline or (args[i + 1] if i + 1 < len(args) else "")
        if values is not None and value.lower() in values:
            return True
    return False


def _short_flags(joined: str) -> bool:
    """Whether a short option an agent reads is among the words (each between newlines):
    `-y` (aider, gemini, qwen), `-a`/`-s` with a mode (codex), bare or with `=`."""
    return (
        "\n-y\n" in joined
        or "\n-a\n" in joined
        or "\n-a=" in joined
        or "\n-s\n" in joined
        or "\n-s=" in joined
    )


def _check_agent_flags(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    if cmd.name in _DATA_COMMANDS or not args:
        return
    joined = "\n" + "\n".join(args)
    if "\n-" not in joined and "\nBash" not in joined:
        return  # no option and no `Bash…` word: neither an agent's flag nor a danger flag
    if "\n--" not in joined and "\nBash" not in joined and not _short_flags(joined + "\n"):
        return  # `-rf`, `-la`: only long options, `Bash…` and `-y`, `-a`, `-s` can flag
    head = "\n".join(args[:3])  # no package name holds a newline: no false match across words
    agent = _agent_only_words(cmd.name, args) and (
        cmd.name in agent_clis() or _packages_re().search(head) is not None
    )
    if not agent and "dangerously" not in joined and "\n--yolo" not in joined:
        return  # without an agent, only `--dangerously…`/`--allow-dangerously…`/`--yolo` count
    _judge_flags(cmd, args, agent, ctx)


def _judge_flags(cmd: SimpleCommand, args: list[str], agent: bool, ctx: Context) -> None:
    for i, arg in enumerate(args):
        if agent and _switches_off(arg, args[i + 1] if i + 1 < len(args) else ""):
            continue
        if _DANGER_FLAG_RE.match(arg) or (agent and _AGENT_FLAG_RE.match(arg)):
            if arg == "--force" and cmd.name not in {"cursor-agent", "cursor"}:
                continue
            ctx.block(
                "agents.unguarded-launch", f"`{cmd.name} {arg}` runs an agent without approvals"
            )
            return
        if not agent:
            continue
        key, _, inline = arg.partition("=")
        values = _MODE_OPTIONS.get(key)
        value = inline or (args[i + 1] if i + 1 < len(args) else "")
        if values is not None and value.lower() in values:
            ctx.block("agents.unguarded-launch", f"`{cmd.name} {key} {value}` disables approvals")
            return
        if arg in {"Bash(*)", "Bash", "Bash(:*)"} and i > 0 and "allow" in args[i - 1].lower():
            ctx.block("agents.unguarded-launch", f"`{cmd.name}` pre-approves every shell command")
            return
        if cmd.name == "aider" and arg in {"--yes", "-y"}:
            ctx.block("agents.unguarded-launch", "`aider --yes` confirms every action itself")
            return
        if cmd.name in {"gemini", "qwen"} and arg == "-y":
            ctx.block("agents.unguarded-launch", f"`{cmd.name} -y` (yolo) disables approvals")
            return


# Subcommands and options of cline that start no agent session.
_CLINE_NO_SESSION = frozenset(
    {"auth", "config", "plugin", "skill", "connect", "mcp", "doctor", "history", "h", "hook",
     "schedule", "hub", "dashboard", "update", "version", "kanban", "-V", "--version", "-h",
     "--help", "--update", "--kanban"}
)  # fmt: skip
_AUTO_MODE = {"cn": "--auto", "kilo": "--auto", "kilocode": "--auto"}


def _check_auto_modes(cmd: SimpleCommand, ctx: Context) -> None:
    """Agent CLIs whose approval-free mode is a plain option, or the default (cline)."""
    args = cmd.args
    flag = _AUTO_MODE.get(cmd.name)
    if flag is not None and flag in args:
        ctx.block("agents.unguarded-launch", f"`{cmd.name} {flag}` approves every tool call")
    elif cmd.name == "vibe" and option_value(args, "--agent") in {"auto-approve", "smart-approve"}:
        ctx.block("agents.unguarded-launch", "`vibe --agent …` runs tools without asking")
    elif cmd.name == "cline" and not _CLINE_NO_SESSION.intersection(args):
        switched_off = any(
            _switches_off(arg, args[i + 1] if i + 1 < len(args) else "")
            for i, arg in enumerate(args)
        )
        if not switched_off:
            ctx.block(
                "agents.unguarded-launch",
                "`cline` starts with auto-approval on (`--auto-approve false` keeps it asking)",
            )


def _check_export(cmd: SimpleCommand, ctx: Context) -> None:
    for arg in cmd.args:
        name, eq, value = arg.partition("=")
        if eq:
            check_assignment(name, value, ctx)


def _check_assign(cmd: SimpleCommand, ctx: Context) -> None:
    if len(cmd.argv) == 3:
        check_assignment(cmd.argv[1].text, cmd.argv[2].text, ctx)


def _check_agent_config_cli(cmd: SimpleCommand, ctx: Context) -> None:
    """``claude mcp add …``, ``claude config set …``: the agent's configuration changes."""
    args = [a for a in cmd.args if not a.startswith("-")]
    if args[:1] in (["mcp"], ["config"]) and len(args) > 1 and args[1] not in {"list", "get", "ls"}:
        ctx.confirm("files.agent-config", f"`{cmd.name} {args[0]} {args[1]}` changes its config")


GLOBAL: tuple[Check, ...] = (_check_agent_flags,)
RULES: dict[str, tuple[Check, ...]] = {
    **dict.fromkeys(("claude", "codex", "gemini", "qwen"), (_check_agent_config_cli,)),
    **dict.fromkeys(("cline", "cn", "kilo", "kilocode", "vibe"), (_check_auto_modes,)),
    "=": (_check_assign,),
    "export": (_check_export,),
    "setenv": (_check_export,),
}
