"""One spec per agent: a new agent is one module (plus its fixture folder), and every list of
agents derives from the specs, so no hand-written list of agents creeps back in."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from paw.core.agents import BUILTIN_PROFILES, profile_of
from paw.core.detect.registry import agent_kinds, agent_modules, all_specs, spec_for
from paw.core.guard.shell.rules.agents import agent_clis

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "fixtures" / "corpus"
SPEC_MODULES = ROOT / "paw" / "core" / "detect" / "agents"

NEW_AGENT = '''\
"""New CLI (npm ``@example/new-cli``): a throwaway agent written by tests/test_agentspec.py."""

from __future__ import annotations

from paw.core.agentspec import AgentSpec, Install, SignIn
from paw.core.detect.prompts import idle, unknown
from paw.core.detect.screen import parse_screen
from paw.core.models import Detection

SPEC = AgentSpec(
    kind="new-cli",
    command=("newcli",),
    executables=("newcli",),
    interpreters=("node",),
    scripts=("@example/new-cli", "newcli"),
    task_flag="--prompt",
    install=Install("npm", "@example/new-cli", "1.2.3", "newcli"),
    sign_in=SignIn((), ("NEWCLI_API_KEY",), "newcli login"),
)


def detect_screen(text: str) -> Detection:
    """Idle at its ``newcli>`` input line; nothing else is read."""
    screen = parse_screen(text)
    if screen.lines and screen.lines[-1].startswith("newcli>"):
        return idle(SPEC.kind)
    return unknown(SPEC.kind, "not a new-cli screen")
'''

# What the copy of paw with the new module derives, printed as JSON by a fresh interpreter.
PROBE = """\
import contextlib, io, json, shutil, sys
import paw
from paw.cli import main
from paw.cli.demo import next_steps
from paw.cli.doctor import collect
from paw.cli.supervise import KINDS_HELP
from paw.core.agents import BUILTIN_PROFILES, plan_launch, profile_for, usable_kinds_first
from paw.core.agentspec import install_plan
from paw.core.config import PawConfig
from paw.core.detect import AGENTS, detect
from paw.core.detect.registry import agent_modules, all_specs
from paw.core.guard.shell import evaluate_command
from paw.core.verified import binaries, verified_versions
from paw.tui.connect import DEFAULT_KINDS

profile = profile_for(PawConfig(), "new-cli")
help_text = io.StringIO()
with contextlib.redirect_stdout(help_text):
    main(["spawn", "--help"])
print(json.dumps({
    "paw": paw.__file__,
    "modules": agent_modules(),
    "detect_agents": list(AGENTS),
    "profiles": list(BUILTIN_PROFILES),
    "launch": list(plan_launch(profile, "fix the login form", "py").argv),
    "match": profile.match.model_dump(),
    "verified": verified_versions(),
    "binaries": binaries(),
    "doctor": [r.name for r in collect()],
    "tui_kinds": list(usable_kinds_first(PawConfig(), shutil.which)),
    "tui_default_kinds": list(DEFAULT_KINDS),
    "spawn_help": KINDS_HELP,
    "spawn_help_text": help_text.getvalue(),
    "demo": next_steps(),
    "install_plan": install_plan(all_specs()),
    "detected": detect("newcli> ", "new-cli").state.value,
    "guard": [evaluate_command(c).action.value for c in ("newcli --no-sandbox",
              "node lib/@example/new-cli/cli.js --trust-all-tools", "othercli --no-sandbox")],
}))
"""


@pytest.fixture(scope="module")
def with_new_agent(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A copy of paw with one more agent module, and nothing else changed; what it derives."""
    root = tmp_path_factory.mktemp("paw-copy")
    shutil.copytree(ROOT / "paw", root / "paw", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "paw" / "core" / "detect" / "agents" / "new_cli.py").write_text(
        NEW_AGENT, encoding="utf-8"
    )
    bin_dir = root / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "newcli"
    fake.write_text("#!/bin/sh\necho 'newcli 1.2.3'\n", encoding="utf-8")
    fake.chmod(0o755)
    env = {
        **os.environ,
        "PYTHONPATH": str(root),
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "PAW_AGENTS_HOME": str(root / "cache"),
        "COLUMNS": "400",
    }
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True, text=True, env=env, cwd=root, timeout=300, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    data: dict[str, object] = json.loads(out.stdout)
    assert str(data["paw"]).startswith(str(root)), "the probe did not run the copy of paw"
    return data


def test_a_new_agent_module_appears_in_every_derived_list(
    with_new_agent: dict[str, object],
) -> None:
    data = with_new_agent
    kinds = sorted([*agent_kinds(), "new-cli"])
    verified = {s.kind: s.version for s in all_specs() if s.version is not None}
    assert data["modules"] == {
        **agent_modules(),
        "new-cli": "paw.core.detect.agents.new_cli",
    }
    assert data["detect_agents"] == kinds
    assert data["profiles"] == kinds
    assert data["launch"] == ["newcli", "--prompt=fix the login form"]
    assert data["match"] == {
        "executables": ["newcli"],
        "interpreters": ["node"],
        "scripts": ["@example/new-cli", "newcli"],
    }
    assert data["verified"] == {**verified, "new-cli": "1.2.3"}
    assert data["binaries"] == {
        **{s.kind: s.binary for s in all_specs() if s.install},
        "new-cli": "newcli",
    }
    doctor = data["doctor"]
    assert isinstance(doctor, list)
    assert "new-cli" in doctor
    assert "new-cli login" in doctor  # the fake newcli answers the verified version
    tui_kinds = data["tui_kinds"]
    assert isinstance(tui_kinds, list)
    assert tui_kinds[0] == "new-cli"  # the one kind whose program is on PATH comes first
    assert sorted(tui_kinds) == kinds
    assert "new-cli" in str(data["tui_default_kinds"])
    assert "new-cli" in str(data["spawn_help"])
    assert "new-cli" in re.sub(r"\s+", " ", str(data["spawn_help_text"]))
    assert "new-cli" in re.sub(r"\s+", " ", str(data["demo"]))
    plan = data["install_plan"]
    assert isinstance(plan, list)
    assert "new-cli npm @example/new-cli 1.2.3 newcli node_modules/.bin -" in plan
    assert data["detected"] == "idle"
    # the guard knows its launch command; another program is not an agent (and, unknown, confirm)
    assert data["guard"] == ["block", "block", "confirm"]


def test_every_built_in_profile_is_its_spec() -> None:
    for spec in all_specs():
        assert BUILTIN_PROFILES[spec.kind] == profile_of(spec)
        assert spec_for(spec.kind) is spec
        assert agent_modules()[spec.kind].rsplit(".", 1)[1] == spec.module_name


@pytest.mark.parametrize("kind", [s.kind for s in all_specs() if s.install is not None])
def test_each_installed_agent_has_its_fixture_folder(kind: str) -> None:
    """The fixture folder is the one other thing a new agent needs: real captures (each with
    its meta.json) and agent.json, which the look-alike tests build on."""
    folder = CORPUS / kind
    assert sorted(folder.glob("*/meta.json")), f"no captures in {folder}"
    frame = json.loads((folder / "agent.json").read_text(encoding="utf-8"))["idle_frame"]
    assert (folder / frame["case"] / "screen.txt").is_file()


@pytest.mark.parametrize("kind", [s.kind for s in all_specs() if s.install is not None])
def test_the_guard_knows_each_agent_launch_command(kind: str) -> None:
    """`<agent> --no-sandbox` is blocked by the guard's list of agent CLIs, which also covers
    agents paw does not drive: each agent paw installs is on it, with its process names."""
    spec = spec_for(kind)
    assert spec is not None
    assert {spec.binary, spec.command[0], *spec.executables} <= agent_clis()


# Lists of agent names that are not lists of paw's agents: the guard's patterns cover every
# agent CLI and instruction file in the ecosystem (checked above for paw's own), and a probe of
# the e2e suite that only some CLIs were verified against.
ALLOWED = {
    "paw/core/guard/presets.py",
    "paw/core/guard/shell/rules/agents.py",
    "paw/core/guard/shell/rules/files.py",
    "paw/core/guard/shell/rules/tamper.py",  # settings paths, also of agents paw does not run
    "tests/adversarial/test_tasks_as_data.py",
}


def _agent_lists(path: Path, text: str, kinds: set[str]) -> list[str]:
    """Literals (list, tuple, set, dict, string) naming three or more of ``kinds``."""
    names = re.compile("|".join(rf"(?<![\w-]){re.escape(k)}(?![\w-])" for k in sorted(kinds)))
    if path.suffix != ".py":
        found = set(names.findall(text))
        return [f"{path.name}: {sorted(found)}"] if len(found) >= 3 else []
    hits = []
    tree = ast.parse(text)
    docstrings = {  # prose about some agents, not a list to keep up to date
        id(body[0].value)
        for node in ast.walk(tree)
        if (body := getattr(node, "body", None)) and isinstance(body, list)
        and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
    }  # fmt: skip
    for node in ast.walk(tree):
        if id(node) in docstrings:
            continue
        if isinstance(node, ast.Dict):
            items = [k for k in node.keys if k is not None]
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items = node.elts
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found = set(names.findall(node.value))
            if len(found) >= 3:
                hits.append(f"{path.name}:{node.lineno}: {sorted(found)}")
            continue
        else:
            continue
        listed = {i.value for i in items if isinstance(i, ast.Constant) and i.value in kinds}
        if len(listed) >= 3:
            hits.append(f"{path.name}:{node.lineno}: {sorted(listed)}")
    return hits


def _sources() -> list[Path]:
    files = [*(ROOT / "paw").rglob("*.py"), *(ROOT / "tests").rglob("*.py")]
    files += [p for p in (ROOT / "scripts").iterdir() if p.is_file()]
    skip = (SPEC_MODULES, ROOT / "tests" / "e2e")  # the specs; the e2e suite's set-up data
    return sorted(
        p
        for p in files
        if not any(p.is_relative_to(s) for s in skip)
        and p.relative_to(ROOT).as_posix() not in ALLOWED
        and p != Path(__file__)
    )


def test_no_hand_written_list_of_agents() -> None:
    kinds = {s.kind for s in all_specs() if s.install is not None}
    problems = [
        hit for path in _sources() for hit in _agent_lists(path, path.read_text("utf-8"), kinds)
    ]
    assert problems == [], "derive these from the agent specs (paw.core.detect.registry)"


def test_the_list_scan_bites(tmp_path: Path) -> None:
    kinds = {"claude-code", "codex", "aider", "cline"}
    source = textwrap.dedent(
        """\
        KINDS = ("claude-code", "codex", "aider")
        FRAMES = {"codex": 1, "cline": 2, "aider": 3}
        HELP = "agent kind: claude-code, codex, aider"
        FINE = ("claude-code", "codex")


        def f():
            '''Prose about claude-code, codex and aider is fine.'''
        """
    )
    bad = tmp_path / "bad.py"
    assert [h.split(":")[1] for h in _agent_lists(bad, source, kinds)] == ["1", "2", "3"]


def test_docs_name_each_agent_at_its_verified_version() -> None:
    """docs/agents.md has a section per agent paw installs, headed with the pinned version."""
    text = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    headed = dict(re.findall(r"^## (\S+) — verified (\S+)$", text, flags=re.MULTILINE))
    assert headed == {s.kind: s.version for s in all_specs() if s.version is not None}
