"""The agent pins live in one place, each agent's ``SPEC``: scripts/install-agents reads them
(``python -m paw.cli.install_plan``) instead of listing its own, and the plan it reads is exactly
the verified versions paw reports (paw/core/verified.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from paw.core.agentspec import install_plan
from paw.core.detect.registry import all_specs
from paw.core.verified import binaries, verified_versions

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "install-agents"
# A pinned package as npm (`pkg@1.2.3`) or pip (`pkg==1.2.3`) spells it.
PIN = re.compile(r"[\w@/.-]+(?:@|==)[0-9]+\.[0-9]+\.[0-9]+")


def _plan_from_a_bare_python() -> list[str]:
    """The plan as install-agents reads it: a Python without site-packages (-S), paw's source on
    PYTHONPATH and nothing else, so a python3 lacking paw's dependencies can print it."""
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-S", "-m", "paw.cli.install_plan"],
        capture_output=True, text=True, check=True, env=env, cwd=ROOT, timeout=120,
    )  # fmt: skip
    return out.stdout.splitlines()


def test_install_agents_reads_the_pins_from_the_specs() -> None:
    text = SCRIPT.read_text(encoding="utf-8")
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    assert "paw.cli.install_plan" in code
    assert PIN.findall(text) == [], "a pin in scripts/install-agents: put it in the agent's SPEC"
    known = {s.install.package for s in all_specs() if s.install is not None} | set(binaries())
    named = sorted(k for k in known if re.search(rf"(?<![\w/@-]){re.escape(k)}(?![\w/-])", code))
    assert named == [], f"scripts/install-agents names agents itself: {named}"


def test_install_plan_is_the_verified_versions() -> None:
    lines = _plan_from_a_bare_python()
    assert lines == install_plan(all_specs())
    pinned = {kind: version for kind, _via, _pkg, version, *_ in (line.split() for line in lines)}
    assert pinned == verified_versions()
    for line in lines:
        _kind, via, _package, _version, binary, bin_dir, python = line.split()
        assert via in ("npm", "pypi"), line
        assert bin_dir == ("node_modules/.bin" if via == "npm" else f"{binary}-venv/bin"), line
        assert python == "-" or re.fullmatch(r"3\.\d+", python), line


def test_mistral_vibe_pins_its_python() -> None:
    # vibe needs Python >= 3.12 while paw runs on older ones: the spec says so, the script asks.
    vibe = next(s for s in all_specs() if s.kind == "mistral-vibe")
    assert vibe.install is not None
    assert vibe.install.python == "3.12"
