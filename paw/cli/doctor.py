"""`paw doctor`: is this machine ready for paw, and are the installed agents the verified ones."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from paw.cli.common import add_json_flag
from paw.core.verified import BINARIES, VERIFIED_VERSIONS, parse_version

OK, WARN, FAIL = "ok", "warn", "fail"


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
        help="check tmux, git and the agent CLIs (warns on unverified agent versions)",
        description="Check that tmux and git are usable and compare each installed agent CLI's "
        "version with the version paw's prompt detection was verified against. Agents are looked "
        "up on PATH and in the cache scripts/install-agents fills ($PAW_AGENTS_HOME, default "
        "~/.cache/paw-agents). Exit 0 when nothing failed (warnings allowed), 1 otherwise.",
    )
    add_json_flag(p)
    p.set_defaults(func=_run)


def _agent_dirs() -> list[Path]:
    home = Path(os.environ.get("PAW_AGENTS_HOME", Path.home() / ".cache" / "paw-agents"))
    return [home / "node_modules" / ".bin", home / "aider-venv" / "bin"]


def _which(binary: str) -> str | None:
    for folder in _agent_dirs():
        candidate = folder / binary
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which(binary)


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
    path = _which(BINARIES[agent])
    if path is None:
        return CheckRow(
            agent, WARN, f"not installed (verified: {verified}; scripts/install-agents)"
        )
    version = _version_of(path)
    if version != verified:
        return CheckRow(
            agent,
            WARN,
            f"version {version or 'unknown'} differs from the verified {verified}: prompt "
            "detection may miss or misread its dialogs",
        )
    return CheckRow(agent, OK, f"{version} (verified) at {path}")


def collect() -> list[CheckRow]:
    """Every check, in display order."""
    rows = [_tool_row("tmux", "apt-get install tmux"), _tool_row("git", "apt-get install git")]
    rows.append(CheckRow("python", OK, sys.version.split()[0]))
    rows += [_agent_row(agent) for agent in VERIFIED_VERSIONS]
    return rows


def _run(args: argparse.Namespace) -> int:
    rows = collect()
    if args.json:
        print(json.dumps([asdict(r) for r in rows]))
    else:
        for row in rows:
            print(f"{row.status:4}  {row.name:12} {row.detail}")
    return 1 if any(r.status == FAIL for r in rows) else 0
