"""`paw doctor`: is this machine ready for paw, are the installed agents the verified ones, and
does each installed agent have credentials to start with.

Agents are found the way `paw spawn` finds them: the ``command`` of an ``[agents.<kind>]`` table in
the nearest paw.toml when it sets one (its program, asked for its version), else on PATH
(``shutil.which``), nothing else. A copy only in the cache ``scripts/install-agents`` fills is
reported as "not on PATH", with the folder to add, because spawn could not start it either.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import stat
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from paw.cli.common import add_json_flag
from paw.core.detect.registry import all_specs, spec_for
from paw.core.verified import parse_version

if TYPE_CHECKING:
    from paw.cli.result import Result
    from paw.core.agentspec import AgentSpec

OK, WARN, FAIL = "ok", "warn", "fail"

EPILOG = """\
what it checks:
  tmux, git    on PATH, and their versions (missing: fail)
  setpriv      (Linux) util-linux's setpriv, with which paw's tmux clients die with paw even
               when it is killed (missing: warn; the next paw ends what a killed one left)
  paw          where this paw runs from; its TUI stylesheet and the bash grammar its guard
               parses with load (missing: fail, reinstall paw)
  AGENT        the command `paw spawn` runs: [agents.AGENT] command in the nearest paw.toml,
               else the agent's program on PATH; its version against the version paw's
               prompt detection was verified with; a copy only in the install cache
               ($PAW_AGENTS_HOME, default ~/.cache/paw-agents) is "not on PATH"
  AGENT login  a credentials file or an API-key variable the agent reads (listed in the row);
               presence only: paw never reads secrets or contacts a provider, so an expired
               sign-in still shows ok
  gemini-cli hook
               (inside a git repository) whether `paw spawn` can wire Gemini CLI's hook
               channel here: not when a directory above the repository's .paw/ may be written
               by group or others (such as /tmp: Gemini skips a settings file there), and then
               the agent runs on the screen path alone (warn, with what to do)

exit codes: 0 nothing failed (warnings allowed), 1 tmux or git missing, or paw's install broken

examples:
  paw doctor
  paw doctor --json | jq '.checks[] | select(.status != "ok")'
"""


@dataclass(frozen=True, slots=True)
class CheckRow:
    """One line of the doctor's report."""

    name: str
    status: str
    detail: str


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``paw doctor``."""
    p = sub.add_parser(
        "doctor",
        help="check tmux, git, and each agent CLI: on PATH, verified version, credentials",
        description="Check that tmux and git are usable; for each agent CLI, that `paw spawn` "
        "finds it on PATH, whether its version is the one paw's prompt detection was verified "
        "against, and whether its credentials file or API-key variable is present.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_json_flag(p)
    p.set_defaults(func=_run)


def _cache_dirs() -> list[Path]:
    home = Path(os.environ.get("PAW_AGENTS_HOME", Path.home() / ".cache" / "paw-agents"))
    folders = (s.install.bin_dir for s in all_specs() if s.install is not None)
    return [home / folder for folder in dict.fromkeys(folders)]


def _in_cache(binary: str) -> str | None:
    for folder in _cache_dirs():
        candidate = folder / binary
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def _version_of(path: str) -> str | None:
    from paw.adapters.proc import run

    try:
        done = run([path, "--version"], timeout=30, check=False)
    except OSError:
        return None
    except Exception:  # noqa: BLE001 - a hanging or crashing CLI is reported, not raised
        return None
    return parse_version(done.stdout + " " + done.stderr)


def _tool_row(name: str, min_hint: str) -> CheckRow:
    path = shutil.which(name)
    if path is None:
        return CheckRow(name, FAIL, f"not found on PATH ({min_hint})")
    version = _version_of(path) if name != "tmux" else _tmux_version(path)
    return CheckRow(name, OK, f"{version or 'unknown version'} at {path}")


def _setpriv_row() -> list[CheckRow]:
    """Linux only: whether paw's tmux clients can be bound to paw's life (setpriv)."""
    if not sys.platform.startswith("linux"):
        return []
    path = shutil.which("setpriv")
    if path is None:
        detail = ("not found on PATH (apt-get install util-linux): a paw killed with SIGKILL "
                  "leaves its tmux clients until the next paw ends them")  # fmt: skip
        return [CheckRow("setpriv", WARN, detail)]
    return [CheckRow("setpriv", OK, f"at {path} (paw's tmux clients die with paw)")]


def _tmux_version(path: str) -> str | None:
    from paw.adapters.proc import run

    done = run([path, "-V"], timeout=10, check=False)
    return done.stdout.strip() or None


def configured_commands(start: str | None = None) -> dict[str, tuple[str, ...]]:
    """The ``command`` of each ``[agents.<kind>]`` table in the nearest paw.toml (what `paw
    spawn` runs instead of the built-in command); {} without a readable paw.toml."""
    from paw.adapters.config_store import load_config
    from paw.cli.common import find_config

    path = find_config(start)
    if path is None:
        return {}
    config, _problems = load_config(path, missing_ok=True)
    if config is None:
        return {}
    return {kind: p.command for kind, p in config.agents.items() if p.command}


def _configured_row(spec: AgentSpec, command: tuple[str, ...]) -> CheckRow:
    """The agent as paw.toml says `paw spawn` starts it: its program, then its version."""
    from paw.core.agentspec import PYTHON_PLACEHOLDER

    argv = [sys.executable if part == PYTHON_PLACEHOLDER else part for part in command]
    program = argv[0]
    path = program if "/" in program else shutil.which(program)
    where = f"`{' '.join(command)}` ([agents.{spec.kind}] command in paw.toml)"
    if path is None or not (Path(path).is_file() and os.access(path, os.X_OK)):
        return CheckRow(spec.kind, WARN, f"not found: {where}; `paw spawn` cannot start it")
    from paw.adapters.agent_version import read_version

    # an interpreter (node, python) runs the agent's script: the script is asked
    version = read_version(argv, spec.interpreters)
    if version != spec.version:
        return CheckRow(
            spec.kind,
            WARN,
            f"version {version or 'unknown'} of {where} differs from the verified "
            f"{spec.version}: prompt detection may miss or misread its dialogs",
        )
    return CheckRow(spec.kind, OK, f"{version} (verified): {where}")


def _agent_row(spec: AgentSpec, command: tuple[str, ...] | None = None) -> CheckRow:
    if command:
        return _configured_row(spec, command)
    agent, verified, binary = spec.kind, spec.version, spec.binary
    path = shutil.which(binary)  # exactly how `paw spawn` resolves the program
    if path is None:
        cached = _in_cache(binary)
        if cached is not None:
            return CheckRow(
                agent,
                WARN,
                f"not on PATH, so `paw spawn` cannot start it (a copy is at {cached}; add its "
                "folder to PATH)",
            )
        how = f"; install it: {spec.install.command}" if spec.install is not None else ""
        return CheckRow(
            agent, WARN, f"not installed: no `{binary}` on PATH (verified: {verified}){how}"
        )
    version = _version_of(path)
    if version != verified:
        return CheckRow(
            agent,
            WARN,
            f"version {version or 'unknown'} at {path} differs from the verified {verified}: "
            "prompt detection may miss or misread its dialogs",
        )
    return CheckRow(agent, OK, f"{version} (verified) at {path}")


_VARIABLE = re.compile(r"^\$\{(\w+):-([^}]*)\}")


def _expand(pattern: str) -> Path:
    """``${VAR:-default}/file`` with VAR from the environment (else the default), ``~`` expanded."""
    found = _VARIABLE.match(pattern)
    if found is not None:
        value = os.environ.get(found.group(1)) or found.group(2)
        pattern = value + pattern[found.end() :]
    return Path(pattern).expanduser()


def sign_in_row(agent: str) -> CheckRow:
    """Whether ``agent`` has a credentials file or key variable (presence only, never read)."""
    agent_spec = spec_for(agent)
    spec = agent_spec.sign_in if agent_spec is not None else None
    name = f"{agent} login"
    if spec is None:
        return CheckRow(name, OK, "nothing to sign in to")
    for var in spec.variables:
        if os.environ.get(var):
            return CheckRow(name, OK, f"${var} is set")
    for pattern in spec.files:
        path = _expand(pattern)
        if path.is_file():
            return CheckRow(name, OK, f"credentials file {path}")
    looked = [str(_expand(p)) for p in spec.files] + [f"${v}" for v in spec.variables]
    return CheckRow(
        name,
        WARN,
        f"no credentials found (looked for {', '.join(looked)}); sign in: {spec.command}",
    )


PACKAGE_DATA = ("tui/paw.tcss", "py.typed")
"""Files paw reads from its own package (a wheel that lacks one is a broken install)."""


def install_row() -> CheckRow:
    """paw's own install: where it runs from, its package data (the TUI's stylesheet) and the
    bash grammar the guard parses every command with (the tree-sitter-bash dependency)."""
    import paw

    root = Path(paw.__file__).resolve().parent
    missing = [name for name in PACKAGE_DATA if not (root / name).is_file()]
    if missing:
        detail = f"{', '.join(missing)} missing from {root}: reinstall paw (pipx install …)"
        return CheckRow("paw", FAIL, detail)
    try:
        from paw.core.guard.shell.parse import parse_script

        if parse_script("ls -la").has_error:
            return CheckRow("paw", FAIL, "the bash grammar does not parse `ls -la`")
    except (ImportError, OSError, ValueError) as err:
        detail = f"the bash grammar (tree-sitter-bash) does not load: {err}; reinstall paw"
        return CheckRow("paw", FAIL, detail)
    return CheckRow("paw", OK, f"{paw.__version__} at {root} (bash grammar, TUI stylesheet)")


GEMINI_HOOK = "gemini-cli hook"


def gemini_hook_rows(start: str | None = None) -> list[CheckRow]:
    """Whether `paw spawn` can wire Gemini CLI's hook for the repository containing ``start``
    (default: the cwd): Gemini skips a settings file below a directory group or others may
    write to, and paw keeps it in the repository's ``.paw/``. No row outside a repository."""
    from paw.adapters.channels.gemini import insecure_ancestor
    from paw.adapters.config_store import load_config
    from paw.cli.common import STATE_DIR, find_config, find_repo_root
    from paw.errors import PawError

    try:
        root = Path(find_repo_root(start))
    except (PawError, OSError):
        return []
    path = find_config(str(root))
    config = load_config(path, missing_ok=True)[0] if path is not None else None
    if config is not None and not config.channels.enabled:
        detail = "not wired: channels are off in paw.toml ([channels] enabled = false)"
        return [CheckRow(GEMINI_HOOK, OK, detail)]
    state = root / STATE_DIR
    bad = insecure_ancestor(state / "channels")
    if bad is None:
        detail = f"wired at each spawn: {state} lies below directories only you may write to"
        return [CheckRow(GEMINI_HOOK, OK, detail)]
    todo = "keep the repository below directories only you may write to (under your home)"
    try:
        info = bad.stat()
    except OSError:
        info = None
    if info is not None and info.st_uid == os.getuid() and not info.st_mode & stat.S_ISVTX:
        todo += f", or make {bad} yours alone: chmod go-w {bad}"
    detail = (
        f"not wired here: Gemini skips a settings file below {bad}, which group or others may "
        f"write to, so paw reads Gemini's prompts from the screen alone; to wire it, {todo}"
    )
    return [CheckRow(GEMINI_HOOK, WARN, detail)]


def collect() -> list[CheckRow]:
    """Every check, in display order."""
    rows = [_tool_row("tmux", "apt-get install tmux"), _tool_row("git", "apt-get install git")]
    rows.extend(_setpriv_row())
    rows.append(CheckRow("python", OK, sys.version.split()[0]))
    rows.append(install_row())
    commands = configured_commands()
    for spec in all_specs():
        if spec.install is None:  # ships with paw
            continue
        row = _agent_row(spec, commands.get(spec.kind))
        rows.append(row)
        if row.status == OK or "differs" in row.detail:
            rows.append(sign_in_row(spec.kind))
        if spec.kind == "gemini-cli":
            rows.extend(gemini_hook_rows())
    return rows


def _run(args: argparse.Namespace) -> Result:
    from paw.cli import error_object
    from paw.cli.result import json_of, lines_of

    rows = collect()
    failed = [r.name for r in rows if r.status == FAIL]
    code = 1 if failed else 0
    if args.json:
        data: dict[str, object] = {"checks": [asdict(r) for r in rows]}
        if failed:
            data["error"] = error_object(f"missing: {', '.join(failed)}", code=code)
        return json_of(data, code=code)
    width = max(len(r.name) for r in rows)
    return lines_of(
        f"{'STATUS':6}  {'CHECK':{width}}  DETAIL",
        *(f"{row.status:6}  {row.name:{width}}  {row.detail}" for row in rows),
        code=code,
    )
