"""`paw doctor`: is this machine ready for paw, are the installed agents the verified ones, and
does each installed agent have credentials to start with.

Agents are found the way `paw spawn` finds them: on PATH (``shutil.which``), nothing else. A copy
only in the cache ``scripts/install-agents`` fills is reported as "not on PATH", with the folder to
add, because spawn could not start it either.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from paw.cli.common import add_json_flag
from paw.core.verified import BINARIES, VERIFIED_VERSIONS, parse_version

OK, WARN, FAIL = "ok", "warn", "fail"

EPILOG = """\
what it checks:
  tmux, git    on PATH, and their versions (missing: fail)
  AGENT        on PATH as `paw spawn` looks it up, its version against the version paw's
               prompt detection was verified with; a copy only in the install cache
               ($PAW_AGENTS_HOME, default ~/.cache/paw-agents) is "not on PATH"
  AGENT login  a credentials file or an API-key variable the agent reads (listed in the row);
               presence only: paw never reads secrets or contacts a provider, so an expired
               sign-in still shows ok

exit codes: 0 nothing failed (warnings allowed), 1 tmux or git missing

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


@dataclass(frozen=True, slots=True)
class SignIn:
    """Where an agent keeps its sign-in: files under HOME (or an override variable) and key
    variables; ``command`` signs in."""

    files: tuple[str, ...]
    variables: tuple[str, ...]
    command: str


_PROVIDER_KEYS = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "OPENROUTER_API_KEY")

SIGN_IN: dict[str, SignIn] = {
    "claude-code": SignIn(
        ("~/.claude/.credentials.json",),
        ("ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_AUTH_TOKEN"),
        "claude, then /login",
    ),
    "codex": SignIn(("$CODEX_HOME/auth.json",), ("OPENAI_API_KEY", "CODEX_API_KEY"), "codex login"),
    "gemini-cli": SignIn(
        ("~/.gemini/oauth_creds.json",), ("GEMINI_API_KEY", "GOOGLE_API_KEY"), "gemini"
    ),
    "aider": SignIn((), (*_PROVIDER_KEYS, "DEEPSEEK_API_KEY"), "export a provider key"),
    "qwen-code": SignIn(
        ("~/.qwen/oauth_creds.json",), ("OPENAI_API_KEY", "DASHSCOPE_API_KEY"), "qwen"
    ),
    "opencode": SignIn(
        ("$XDG_DATA_HOME/opencode/auth.json",), _PROVIDER_KEYS, "opencode auth login"
    ),
    "kilocode": SignIn(("$XDG_DATA_HOME/kilo/auth.json",), _PROVIDER_KEYS, "kilo auth login"),
    "cline": SignIn(("~/.cline/data/settings/providers.json",), (), "cline auth"),
    "continue-cli": SignIn(
        ("$CONTINUE_GLOBAL_DIR/config.yaml", "~/.continue/auth.json"), _PROVIDER_KEYS, "cn login"
    ),
    "mistral-vibe": SignIn(("$VIBE_HOME/.env",), ("MISTRAL_API_KEY",), "vibe --setup"),
}
_DEFAULTS = {
    "$CODEX_HOME": "~/.codex",
    "$XDG_DATA_HOME": "~/.local/share",
    "$CONTINUE_GLOBAL_DIR": "~/.continue",
    "$VIBE_HOME": "~/.vibe",
}


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
    return [home / "node_modules" / ".bin", home / "aider-venv" / "bin", home / "vibe-venv" / "bin"]


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


def _tmux_version(path: str) -> str | None:
    from paw.adapters.proc import run

    done = run([path, "-V"], timeout=10, check=False)
    return done.stdout.strip() or None


def _agent_row(agent: str) -> CheckRow:
    verified = VERIFIED_VERSIONS[agent]
    binary = BINARIES[agent]
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
        return CheckRow(agent, WARN, f"not installed: no `{binary}` on PATH (verified: {verified})")
    version = _version_of(path)
    if version != verified:
        return CheckRow(
            agent,
            WARN,
            f"version {version or 'unknown'} at {path} differs from the verified {verified}: "
            "prompt detection may miss or misread its dialogs",
        )
    return CheckRow(agent, OK, f"{version} (verified) at {path}")


def _expand(pattern: str) -> Path:
    for var, default in _DEFAULTS.items():
        if pattern.startswith(var):
            pattern = pattern.replace(var, os.environ.get(var[1:]) or default, 1)
    return Path(pattern).expanduser()


def sign_in_row(agent: str) -> CheckRow:
    """Whether ``agent`` has a credentials file or key variable (presence only, never read)."""
    spec = SIGN_IN[agent]
    name = f"{agent} login"
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


def collect() -> list[CheckRow]:
    """Every check, in display order."""
    rows = [_tool_row("tmux", "apt-get install tmux"), _tool_row("git", "apt-get install git")]
    rows.append(CheckRow("python", OK, sys.version.split()[0]))
    for agent in VERIFIED_VERSIONS:
        row = _agent_row(agent)
        rows.append(row)
        if row.status == OK or "differs" in row.detail:
            rows.append(sign_in_row(agent))
    return rows


def _run(args: argparse.Namespace) -> int:
    from paw.cli import error_object, print_json

    rows = collect()
    failed = [r.name for r in rows if r.status == FAIL]
    code = 1 if failed else 0
    if args.json:
        data: dict[str, object] = {"checks": [asdict(r) for r in rows]}
        if failed:
            data["error"] = error_object(f"missing: {', '.join(failed)}", code=code)
        print_json(data)
        return code
    width = max(len(r.name) for r in rows)
    print(f"{'STATUS':6}  {'CHECK':{width}}  DETAIL")
    for row in rows:
        print(f"{row.status:6}  {row.name:{width}}  {row.detail}")
    return code
