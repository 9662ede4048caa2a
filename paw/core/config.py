"""pydantic schema for paw.toml. No file access here (see paw.adapters.config_store)."""

from __future__ import annotations

import ipaddress
import re
from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator

from paw.core.notify_settings import NotifySettings

# Default of ``[channels] server_timeout_s``: generous, since a loaded machine answers late and
# a late answer is still the agent's word (a short wait dropped it for the screen).
SERVER_TIMEOUT_S = 30.0


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class PatternSet(_Strict):
    """A pattern list that extends or replaces paw's presets (as in git-guardrails)."""

    extend: tuple[str, ...] = ()
    """Regular expressions (Python syntax, case-insensitive) added to the preset list."""

    replace: tuple[str, ...] | None = None
    """When set, these regular expressions replace the preset list entirely."""

    def resolve(self, presets: tuple[str, ...]) -> tuple[str, ...]:
        """The effective list: ``replace`` if set, else presets plus ``extend``."""
        base = self.replace if self.replace is not None else presets
        return tuple(base) + tuple(self.extend)


class GuardConfig(_Strict):
    """The ``[guard]`` table of paw.toml."""

    allowed_dirs: tuple[str, ...] | None = None
    """If set, a command's working directory must lie inside one of these (component-wise)."""

    blocked_patterns: PatternSet = Field(default_factory=PatternSet)
    """Extra shell patterns to block. Matched against each executed command after parsing and
    normalisation (command word and arguments), not against the raw text. The presets are empty:
    paw's structural rules do that job (see docs/guardrails.md)."""

    sensitive_files: PatternSet = Field(default_factory=PatternSet)
    """Path patterns that abort a commit (matched on the normalised path)."""

    agent_instruction_files: PatternSet = Field(default_factory=PatternSet)
    """Path patterns for files that steer agents; changes are flagged for the human."""

    protected_branches: tuple[str, ...] = ("main", "master", "trunk", "develop", "production")
    """Branches a force push or remote delete to is blocked, not merely confirmed."""

    git_timeout_s: float = Field(30.0, gt=0, le=86400, allow_inf_nan=False)
    """Timeout in seconds (more than 0) for git commands run by the git actions."""

    diff_preview_lines: int = Field(60, ge=0, le=100_000)
    """How many lines of diff the confirmation details carry (0 or more)."""

    known_programs: tuple[str, ...] = ()
    """Programs the guard does not know but the user vouches for: their effects stay in the
    project. Without this, a program paw has no rule for is ``confirm`` ("paw does not know what
    `X` does"); destructive verbs, home paths, listeners and settings changes are still read."""

    content_scan: bool = True
    """Before a commit, also look inside the files it would add for unambiguous secret formats
    (private-key armour, provider-prefixed tokens); a hit aborts like a sensitive file name."""


TaskMode = Literal["argv", "stdin-typed", "none"]

DEFAULT_DISPOSABLE = (
    "node_modules",
    ".venv",
    "__pycache__",
    "*.pyc",
    ".*_cache",  # .pytest_cache, .mypy_cache, .ruff_cache
    ".tox",
    ".gradle",
)
"""Dependency and tool caches that can be rebuilt: deleted by ``paw rm`` without a copy."""


class TmuxConfig(_Strict):
    """The ``[tmux]`` table: where paw's agent panes live."""

    session: str | None = None
    """tmux session for this repository's agents. Default ``pawd-<repo-name>-<short hash>``
    (``pawd-``, not ``paw-``, so it never collides with git-paw's ``paw-<project>`` sessions)."""

    socket_name: str | None = None
    """A private tmux server (``tmux -L NAME``). Unset: the default server. The environment
    variable ``PAW_TMUX_SOCKET`` overrides this (tests and benchmarks use it to isolate)."""

    @field_validator("session")
    @classmethod
    def _check_session(cls, value: str | None) -> str | None:
        if value is not None and (not value or any(c in value for c in ":.\t\n '\"")):
            raise ValueError("a tmux session name must be non-empty, without ':', '.' or spaces")
        return value


class WorktreesConfig(_Strict):
    """The ``[worktrees]`` table: where agent worktrees and branches go."""

    root: str = Field("../{repo}-paw", min_length=1)
    """Directory holding one worktree per agent (``<root>/<agent name>``). Relative paths are
    relative to the repository root; ``{repo}`` is the repository directory's name. The default
    is a sibling directory so tools run in the main checkout (tests, linters, search) never
    descend into agent worktrees."""

    branch_prefix: str = Field("paw/", min_length=1)
    """Prefix of each agent's branch: agent ``alice`` works on ``paw/alice``."""

    base: str = Field("HEAD", min_length=1)
    """Default base ref for new worktrees (``paw spawn --base`` overrides it)."""

    disposable: tuple[str, ...] = DEFAULT_DISPOSABLE
    """Ignored files ``paw rm`` may delete without archiving: glob patterns matched against
    each path component (``node_modules`` matches ``web/node_modules/``). Any other ignored
    file (``.env``, ``build/``, ``*.log``) makes ``paw rm`` refuse, and ``paw rm --force``
    archives it."""


class ProcessMatch(_Strict):
    """What an agent pane's process tree must contain for paw to treat it as that agent."""

    executables: tuple[str, ...] = ()
    """Program names (basename of argv[0] or the process name) that are the agent itself."""

    interpreters: tuple[str, ...] = ()
    """Interpreters (``node``, ``python``; version suffixes ignored) that may run the agent."""

    scripts: tuple[str, ...] = ()
    """With an interpreter: an argument naming the agent. A pattern containing ``/`` or ``@`` or
    ``.`` matches as a substring (``@anthropic-ai/claude-code``, ``paw.demo.agent``); any other
    pattern must equal an argument's basename without extension (``claude``)."""


class AgentProfileConfig(_Strict):
    """An ``[agents.<kind>]`` table: overrides for a built-in profile, or a custom profile.

    Unset fields keep the built-in value. A kind that is not built in must set ``command``.
    """

    command: tuple[str, ...] | None = None
    """The argv that starts the agent. ``{python}`` as an element stands for the Python
    interpreter running paw."""

    env: dict[str, str] | None = None
    """Extra environment variables for the agent process."""

    task_mode: TaskMode | None = None
    """How the task reaches the agent: ``argv`` (appended to the command, after ``task_flag``
    if set), ``stdin-typed`` (typed into the agent's input once it is up), ``none``."""

    task_flag: str | None = None
    """With ``task_mode = "argv"``: the option that carries the task. A long one is passed as
    ``--flag=TASK``; a short one (``-p``) refuses tasks starting with ``-``. Without a flag the
    task is the last argument (after ``--`` for the built-in CLIs, which accept it; a custom
    command refuses tasks starting with ``-``). Either way it is data, never an option."""

    match: ProcessMatch | None = None
    """Process-tree match. Default for a custom profile: derived from ``command`` (an
    interpreter such as ``{python}``, ``python3``, ``node`` or ``sh`` with the script or
    ``-m`` module it runs, else the program's name), plus the built-in match of ``detector``'s
    kind, so a wrapper that ``exec``s a supported CLI is still recognised."""

    detector: str | None = None
    """Which detector reads this agent's screen (a built-in agent id). Default: the kind itself;
    an unknown id makes every screen ``unknown`` (paw then never offers approval)."""

    startup_timeout_s: float | None = Field(default=None, gt=0)
    """How long ``paw spawn`` waits, on the wall clock, for the agent to come up (ready for
    its task, busy with it, or asking for something) before it reports what the screen shows.
    Default 60; ``paw spawn --startup-timeout`` overrides it for one spawn."""

    ready_pattern: str | None = None
    """A regular expression (Python syntax) searched in the last non-blank line of the
    agent's screen: when it matches, the agent is ready for its task (``stdin-typed`` tasks are
    typed then). Unset: ready when the detector sees the idle input; for a kind without a
    detector, when the screen shows something and has not changed for a second."""

    @field_validator("ready_pattern")
    @classmethod
    def _check_pattern(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as err:
                raise ValueError(f"not a regular expression: {err}") from err
        return value


class ChannelsConfig(_Strict):
    """The ``[channels]`` table: agents' structured prompt channels (docs/agents.md)."""

    enabled: bool = True
    """Wire each spawned agent's channel where paw has one (Claude Code's PermissionRequest
    hook): the agent then tells paw what it asks, with the exact input, and paw answers that
    request; the screen stays the cross-check. ``false``: the screen path alone."""

    server_timeout_s: float = Field(default=SERVER_TIMEOUT_S, gt=0, le=86400, allow_inf_nan=False)
    """How long paw waits, on the wall clock, for an opencode or Kilo Code server to answer
    one request (its list of pending permission requests, an answer, the first connection of a
    long-running paw process). A server that takes longer counts as down for that look: the
    screen path applies, as without a channel. Raise it on a heavily loaded machine; lower it
    only if a frozen agent holding ``paw prompts`` that long bothers you."""


class ServeConfig(_Strict):
    """The ``[serve]`` table: ``paw serve`` as notifications reach it (docs/web.md)."""

    public_url: str | None = None
    """Where ``paw serve`` is reached from the people notified (``https://host.tailnet.ts.net``;
    ``http://`` only for a loopback address, as through ``ssh -L``). When set, each escalation
    of a prompt carries a link to that one occurrence (signed, expiring, used once)."""

    link_ttl_s: float = Field(default=1800.0, gt=0, allow_inf_nan=False)
    """Seconds a notification's link stays valid; after that it is refused (default-deny)."""

    allow_hosts: tuple[str, ...] = ()
    """More names ``paw serve`` on a loopback address answers to, as the browser's ``Host``
    header has them: ``NAME`` (the scheme's default port, as behind a tunnel) or ``NAME:PORT``
    (``localhost:9000`` for ``ssh -L 9000:127.0.0.1:8765``). ``public_url``'s host counts
    without being named here. Any other name is refused (a page another site's DNS points at
    this machine gets nothing); ``paw serve --allow-host`` adds more for one run."""

    @field_validator("allow_hosts")
    @classmethod
    def _check_hosts(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(host_header(v) for v in value)

    @field_validator("public_url")
    @classmethod
    def _check_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parts = urlsplit(value)
        if parts.scheme not in ("https", "http") or not parts.hostname:
            raise ValueError("not an http(s) URL with a host")
        if parts.query or parts.fragment:
            raise ValueError("a base URL: no query or fragment")
        if parts.scheme == "http" and not _loopback(parts.hostname):
            raise ValueError(
                "http:// only for a loopback address: the link is a credential (use https://)"
            )
        return value.rstrip("/")


_HOST_NAME = re.compile(r"[a-z0-9]([a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\]")


def host_header(name: str) -> str:
    """``name`` (``NAME`` or ``NAME:PORT``, an IPv6 address in brackets) as a ``Host`` header
    says it, lower case; ValueError for anything else (a scheme, a path, a user, a bad port)."""
    text = name.strip().lower()
    parts = urlsplit(f"//{text}")
    try:
        parts.port  # noqa: B018 - read for its check
    except ValueError as err:
        raise ValueError(f"{name!r}: not NAME or NAME:PORT (a port is 0-65535)") from err
    name_part = text.rsplit(":", 1)[0] if parts.port is not None else text
    if parts.netloc != text or not _HOST_NAME.fullmatch(name_part) or text.endswith(":"):
        raise ValueError(f"{name!r}: not NAME or NAME:PORT (no scheme, path, user or pattern)")
    return text


def public_host(url: str) -> str:
    """The ``Host`` header a browser sends to ``url`` (a checked ``public_url``)."""
    parts = urlsplit(url)
    return parts.netloc.rsplit("@", 1)[-1].lower()


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class PawConfig(_Strict):
    """The whole of paw.toml."""

    guard: GuardConfig = Field(default_factory=GuardConfig)
    """Guard settings (``[guard]``)."""

    tmux: TmuxConfig = Field(default_factory=TmuxConfig)
    """tmux settings (``[tmux]``)."""

    worktrees: WorktreesConfig = Field(default_factory=WorktreesConfig)
    """Worktree settings (``[worktrees]``)."""

    agents: dict[str, AgentProfileConfig] = Field(default_factory=dict)
    """Agent profiles by kind (``[agents.claude-code]``, ``[agents.my-agent]``)."""

    mcp_allowed: tuple[str, ...] = ()
    """MCP tools (``server/tool`` or ``server/*``) whose calls are allowed without confirmation.
    Every other MCP tool call needs confirmation."""

    notify: NotifySettings = Field(default_factory=NotifySettings)
    """Where unattended waves escalate (``[notify]``; see docs/waves.md)."""

    channels: ChannelsConfig = Field(default_factory=ChannelsConfig)
    """Agents' structured prompt channels (``[channels]``; see docs/agents.md)."""

    serve: ServeConfig = Field(default_factory=ServeConfig)
    """``paw serve`` as notifications reach it (``[serve]``; see docs/web.md)."""
