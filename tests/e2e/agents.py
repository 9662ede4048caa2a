"""How each real agent CLI is installed, configured against the stub model and launched.

Every agent runs with a clean environment (``env -i`` plus what it needs), an isolated HOME
holding the config files that skip its onboarding, and a scratch git repository as its working
directory. Scratch space lives under the agents cache, not under /tmp: Codex refuses to put its
helper binaries under /tmp.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from paw.core.verified import binaries, verified_versions
from tests.e2e.scenarios import MCP_MARKER, README_TEXT

API_KEY = "sk-paw-e2e-0123456789abcdefghijklmnop"
MODEL = "paw-stub"
AGENT_IDS = tuple(verified_versions())
VERSIONS = verified_versions()  # the versions install-agents pins and paw verified
INSTALL_HINT = (
    "run scripts/install-agents (it installs the pinned agent CLIs into $PAW_AGENTS_HOME)"
)


def agents_home() -> Path:
    """Where scripts/install-agents put the CLIs."""
    default = Path.home() / ".cache" / "paw-agents"
    return Path(os.environ.get("PAW_AGENTS_HOME") or default)


def binary_path(agent: str, home: Path | None = None) -> Path:
    """The installed binary of ``agent``."""
    root = home or agents_home()
    name = binaries()[agent]
    venv = PYTHON_VENVS.get(agent)
    if venv is not None:
        return root / venv / "bin" / name
    return root / "node_modules" / ".bin" / name


# Agents installed from PyPI, each into its own virtualenv (see scripts/install-agents).
PYTHON_VENVS = {"aider": "aider-venv", "mistral-vibe": "vibe-venv"}


def missing_binaries(home: Path | None = None) -> list[str]:
    """The agents whose binary is not installed."""
    return [a for a in AGENT_IDS if not os.access(binary_path(a, home), os.X_OK)]


class Workspace(NamedTuple):
    """One agent run's private directories."""

    root: Path
    home: Path
    repo: Path


# Real users' repositories and worktrees live under long paths, and a long path is what makes an
# agent wrap a field (a `Destination:` path, a command) onto the next line. The scratch space is
# padded to at least this many characters so the suite always runs in that class.
MIN_SCRATCH_CHARS = 110


def deep_scratch(base: Path) -> Path:
    """``base`` extended by padding directories until its path has MIN_SCRATCH_CHARS characters."""
    path = base
    while len(str(path)) < MIN_SCRATCH_CHARS:
        path = path / "a-deep-scratch-folder-as-real-users-have"
    return path


def make_workspace(agent: str, base: Path | None = None) -> Workspace:
    """A scratch HOME and a git repository with README.md and one commit (outside /tmp).

    The scratch folder is deep (``deep_scratch``) so wrapped fields stay tested.
    """
    scratch = base or deep_scratch(agents_home() / "scratch")
    scratch.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix=f"{agent}-", dir=scratch))
    home, repo = root / "home", root / "demo"
    home.mkdir()
    repo.mkdir()
    (home / ".gitconfig").write_text(
        "[user]\n\tname = paw e2e\n\temail = paw-e2e@example.invalid\n"
        "[init]\n\tdefaultBranch = main\n",
        encoding="utf-8",
    )
    (repo / "README.md").write_text(README_TEXT, encoding="utf-8")
    env = {**git_env(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    for args in (
        ["init", "-q", "-b", "main"],
        ["add", "README.md"],
        ["commit", "-q", "-m", "init"],
    ):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)
    return Workspace(root, home, repo)


def remove_workspace(ws: Workspace) -> None:
    """Delete a scratch workspace."""
    shutil.rmtree(ws.root, ignore_errors=True)


def git_env(home: Path) -> dict[str, str]:
    """Isolated git identity and config for a scratch HOME."""
    return {
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "paw e2e",
        "GIT_AUTHOR_EMAIL": "paw-e2e@example.invalid",
        "GIT_COMMITTER_NAME": "paw e2e",
        "GIT_COMMITTER_EMAIL": "paw-e2e@example.invalid",
        "HOME": str(home),
    }


def _write_json(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def _setup_claude(ws: Workspace, url: str) -> dict[str, str]:
    _write_json(
        ws.home / ".claude.json",
        {
            "hasCompletedOnboarding": True,
            "hasSeenAutoDefaultNudge": True,
            "theme": "dark",
            "customApiKeyResponses": {"approved": [API_KEY[-20:]], "rejected": []},
            "projects": {str(ws.repo): {"hasTrustDialogAccepted": True, "allowedTools": []}},
        },
    )
    _write_json(ws.home / ".claude" / "settings.json", {"permissions": {"defaultMode": "default"}})
    return {
        "ANTHROPIC_BASE_URL": url,
        "ANTHROPIC_API_KEY": API_KEY,
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1",
    }


def _setup_codex(ws: Workspace, url: str) -> dict[str, str]:
    codex_home = ws.home / ".codex"
    codex_home.mkdir(parents=True, exist_ok=True)
    (codex_home / "config.toml").write_text(
        "\n".join(
            [
                f'model = "{MODEL}"',
                'model_provider = "fake"',
                "[model_providers.fake]",
                'name = "paw stub"',
                f'base_url = "{url}/v1"',
                'env_key = "PAW_STUB_KEY"',
                'wire_api = "responses"',
                "supports_websockets = false",
                f'[projects."{ws.repo}"]',
                'trust_level = "trusted"',
                "",
            ]
        ),
        encoding="utf-8",
    )
    return {"CODEX_HOME": str(codex_home), "PAW_STUB_KEY": API_KEY}


def _setup_gemini(ws: Workspace, url: str) -> dict[str, str]:
    settings = {
        "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
        "privacy": {"usageStatisticsEnabled": False},
        "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
    }
    _write_json(ws.home / ".gemini" / "settings.json", settings)
    return {"GOOGLE_GEMINI_BASE_URL": url, "GEMINI_API_KEY": API_KEY}


def _setup_aider(ws: Workspace, url: str) -> dict[str, str]:
    prices = {
        f"openai/{MODEL}": {
            "max_tokens": 8192,
            "max_input_tokens": 128000,
            "max_output_tokens": 8192,
            "input_cost_per_token": 0.0,
            "output_cost_per_token": 0.0,
            "litellm_provider": "openai",
            "mode": "chat",
        }
    }
    _write_json(ws.home / ".aider" / "caches" / "model_prices_and_context_window.json", prices)
    return {
        "OPENAI_API_BASE": f"{url}/v1",
        "OPENAI_API_KEY": API_KEY,
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    }


def _setup_qwen(ws: Workspace, url: str) -> dict[str, str]:
    settings = {
        "security": {"auth": {"selectedType": "openai"}, "folderTrust": {"enabled": False}},
        "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "tools": {"useRipgrep": False, "approvalMode": "default"},
    }
    registry = os.environ.get(REGISTRY_ENV, "")
    if registry:  # its update check on, against a stand-in registry: it draws its notice
        settings["general"] = {"enableAutoUpdate": True}
    _write_json(ws.home / ".qwen" / "settings.json", settings)
    env = {"OPENAI_API_KEY": API_KEY, "OPENAI_BASE_URL": f"{url}/v1", "OPENAI_MODEL": MODEL}
    return {**env, **_registry_env(ws, registry)}


REGISTRY_ENV = "PAW_E2E_REGISTRY"  # a stand-in npm registry's URL (tests/e2e/record.py)


def _registry_env(ws: Workspace, registry: str) -> dict[str, str]:
    """npm pointed at the stand-in registry, and its global prefix inside the scratch HOME: an
    agent's own update check sees a newer release, and the update it then tries installs
    nothing outside the scratch space (the registry has no package to give)."""
    if not registry:
        return {}
    return {"npm_config_registry": registry, "npm_config_prefix": str(ws.home / "npm-global")}


def _setup_opencode(ws: Workspace, url: str) -> dict[str, str]:
    config = {
        "$schema": "https://opencode.ai/config.json",
        "provider": {
            "paw": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "paw stub",
                "options": {"baseURL": f"{url}/v1", "apiKey": API_KEY},
                "models": {MODEL: {"name": "paw stub"}},
            }
        },
        "model": f"paw/{MODEL}",
        "small_model": f"paw/{MODEL}",
        "permission": {"bash": "ask", "edit": "ask", "webfetch": "ask"},
        "autoupdate": False,
        "share": "disabled",
    }
    _write_json(ws.home / ".config" / "opencode" / "opencode.json", config)
    return {"OPENCODE_DISABLE_AUTOUPDATE": "1"}


def _opencode_like_config(url: str) -> dict[str, object]:
    return {
        "provider": {
            "paw": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "paw stub",
                "options": {"baseURL": f"{url}/v1", "apiKey": API_KEY},
                "models": {MODEL: {"name": "paw stub"}},
            }
        },
        "model": f"paw/{MODEL}",
        "small_model": f"paw/{MODEL}",
        "permission": {"bash": "ask", "edit": "ask", "webfetch": "ask"},
        "autoupdate": False,
        "share": "disabled",
    }


def _setup_kilo(ws: Workspace, url: str) -> dict[str, str]:
    # Snapshots (its undo history) take long on a loaded machine, and then Kilo stops to ask
    # whether to keep waiting: off, so the first prompt is the scenario's.
    config = {**_opencode_like_config(url), "snapshot": False}
    _write_json(ws.home / ".config" / "kilo" / "kilo.json", config)
    names = ("AUTOUPDATE", "MODELS_FETCH", "LSP_DOWNLOAD", "SHARE", "SESSION_INGEST", "PRESENCE")
    return {f"KILO_DISABLE_{name}": "1" for name in (*names, "CODEBASE_INDEXING")}


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _setup_cline(ws: Workspace, url: str) -> dict[str, str]:
    # Cline's hub daemon listens on a fixed port (25463) unless CLINE_HUB_PORT names another:
    # each run gets its own, so several Clines (each with its own HOME) can run at once.
    hub = {"CLINE_HUB_PORT": str(free_port())}
    # `cline auth` writes the provider settings in the shape this version reads.
    env = {**git_env(ws.home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TERM": "dumb"}
    env.update(hub)
    command = [str(binary_path("cline")), "auth", "-p", "openai", "-k", API_KEY, "-m", MODEL]
    subprocess.run(
        [*command, "-b", f"{url}/v1"], env=env, check=True, capture_output=True, timeout=120
    )
    notices = {"cline-cli-cline-pass-intro": True, "cline-cli-desktop-launch": True}
    settings = ws.home / ".cline" / "data" / "settings"
    _write_json(settings / "cli-notices.json", {"shown": notices})
    return hub


def _stop_cline_hub(ws: Workspace) -> None:
    """End the hub daemon Cline leaves running (it holds a fixed port), by its recorded pid."""
    lock = ws.home / ".cline" / "data" / "locks" / "hub" / "production.json"
    try:
        pid = int(json.loads(lock.read_text(encoding="utf-8"))["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


MCP_SERVER = Path(__file__).resolve().parent / "mcp_server.py"
MCP_ENV = "PAW_E2E_MCP"  # set: the agents that take an MCP server get tests/e2e/mcp_server.py


def _mcp_servers(ws: Workspace) -> list[str]:
    """Continue's ``mcpServers`` entry for the probe server, when ``PAW_E2E_MCP`` is set."""
    if os.environ.get(MCP_ENV, "") in ("", "0"):
        return []
    return [
        "mcpServers:",
        "  - name: paw-probe",
        f"    command: {sys.executable}",
        f"    args: [{MCP_SERVER}, {ws.repo / MCP_MARKER}]",
    ]


def _setup_continue(ws: Workspace, url: str) -> dict[str, str]:
    home = ws.home / ".continue"
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.yaml").write_text(
        "\n".join(
            [
                "name: paw-e2e",
                "version: 0.0.1",
                "schema: v1",
                "models:",
                f"  - name: {MODEL}",
                "    provider: openai",
                f"    model: {MODEL}",
                f"    apiBase: {url}/v1",
                f"    apiKey: {API_KEY}",
                "    capabilities: [tool_use]",
                "    roles: [chat, edit, apply]",
                *_mcp_servers(ws),
                "",
            ]
        ),
        encoding="utf-8",
    )
    (home / "permissions.yaml").write_text("ask:\n  - Bash\n  - Edit\n  - Write\n", "utf-8")
    return {
        "CONTINUE_CLI_ENABLE_TELEMETRY": "0",
        "CONTINUE_METRICS_ENABLED": "0",
        "CONTINUE_GLOBAL_DIR": str(home),
    }


def _setup_vibe(ws: Workspace, url: str) -> dict[str, str]:
    home = ws.home / ".vibe"
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(
        "\n".join(
            [
                'active_model = "paw"',
                'default_agent = "ask"',
                "enable_telemetry = false",
                "enable_update_checks = false",
                "enable_auto_update = false",
                "enable_notifications = false",
                "experimental_enable_model_catalog = false",
                "[[providers]]",
                'name = "paw"',
                f'api_base = "{url}/v1"',
                'api_key_env_var = "PAW_STUB_KEY"',
                'api_style = "openai"',
                'backend = "generic"',
                "[[models]]",
                f'name = "{MODEL}"',
                'provider = "paw"',
                'alias = "paw"',
                "",
            ]
        ),
        encoding="utf-8",
    )
    return {"VIBE_HOME": str(home), "PAW_STUB_KEY": API_KEY}


class AgentSpec(NamedTuple):
    """How to configure and start one agent CLI."""

    agent: str
    setup: Callable[[Workspace, str], dict[str, str]]
    args: tuple[str, ...]
    cleanup: Callable[[Workspace], None] | None = None


SPECS: dict[str, AgentSpec] = {
    "claude-code": AgentSpec("claude-code", _setup_claude, ()),
    "codex": AgentSpec(
        "codex", _setup_codex, ("--no-daemon", "-a", "on-request", "-s", "read-only")
    ),
    "gemini-cli": AgentSpec("gemini-cli", _setup_gemini, ()),
    "aider": AgentSpec(
        "aider",
        _setup_aider,
        (
            "--model",
            f"openai/{MODEL}",
            "--edit-format",
            "diff",
            "--no-check-update",
            "--no-show-release-notes",
            "--no-show-model-warnings",
            "--analytics-disable",
            "--no-gitignore",
            "--no-auto-commits",
        ),
    ),
    "qwen-code": AgentSpec("qwen-code", _setup_qwen, ()),
    "opencode": AgentSpec("opencode", _setup_opencode, ()),
    "kilocode": AgentSpec("kilocode", _setup_kilo, ()),
    "cline": AgentSpec(
        "cline", _setup_cline, ("-i", "--auto-approve", "false"), cleanup=_stop_cline_hub
    ),
    "continue-cli": AgentSpec(
        "continue-cli", _setup_continue, ("--config", "{home}/.continue/config.yaml")
    ),
    "mistral-vibe": AgentSpec("mistral-vibe", _setup_vibe, ()),
}


def agent_args(agent: str, home: Path | None) -> list[str]:
    """The agent's command-line flags, ``{home}`` replaced by the scratch HOME."""
    args = list(SPECS[agent].args)
    if home is None:
        if any("{home}" in arg for arg in args):
            raise ValueError(f"{agent}'s flags need the scratch HOME")
        return args
    return [arg.replace("{home}", str(home)) for arg in args]


def cleanup(agent: str, ws: Workspace) -> None:
    """Stop what ``agent`` leaves running after its pane is gone (e.g. Cline's hub daemon)."""
    spec = SPECS.get(agent)
    if spec is not None and spec.cleanup is not None:
        spec.cleanup(ws)


def launch_env(agent: str, ws: Workspace, url: str) -> dict[str, str]:
    """The complete environment of one agent process (nothing inherited but PATH)."""
    node_bin = str(agents_home() / "node_modules" / ".bin")
    env = {
        "PATH": f"{node_bin}:{os.environ.get('PATH', '/usr/local/bin:/usr/bin:/bin')}",
        "TERM": "xterm-256color",
        # As under paw (tests/e2e/paw_run.py): without it gemini-cli warns below its prompts.
        "COLORTERM": "truecolor",
        "LANG": "C.UTF-8",
        "NO_UPDATE_NOTIFIER": "1",
        **git_env(ws.home),
    }
    env.update(SPECS[agent].setup(ws, url))
    return env


def launch_argv(agent: str, ws: Workspace, url: str) -> list[str]:
    """``env -i K=V … binary args``: a command line for a tmux pane."""
    env = launch_env(agent, ws, url)
    return [
        "env",
        "-i",
        *(f"{k}={v}" for k, v in env.items()),
        str(binary_path(agent)),
        *agent_args(agent, ws.home),
    ]
