"""The composition root: build a real :class:`~paw.supervisor.service.Supervisor`.

``build_supervisor(repo_dir, socket_name=None)`` is what the CLI and the TUI use; tests build
Supervisors over fakes directly (see tests/support/fakes.py).
"""

from __future__ import annotations

import importlib
import os
import shutil
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from paw.adapters import config_store
from paw.adapters.agent_version import read_version
from paw.adapters.audit import JsonlAuditLog, current_tty, current_user
from paw.adapters.config_store import format_problem
from paw.adapters.crash_switch import crash_points
from paw.adapters.git.runner import EarlyStatuses, GitCli
from paw.adapters.paths import home_directory, machine_name, resolve_path
from paw.adapters.pstree import PsutilInspector, lower_thread_priority
from paw.adapters.state import StateStore
from paw.adapters.tmux.terminal import TmuxTerminal
from paw.cli import UsageError, common
from paw.core.config import PawConfig
from paw.errors import PawError, SensitiveFilesError
from paw.supervisor.context import Actor, SweepSettings
from paw.supervisor.service import Supervisor, agent_worktrees, default_shell_evaluator

if TYPE_CHECKING:
    from paw.adapters.remote.ssh import SshTransport
    from paw.core.ports import ChannelHub
    from paw.supervisor.fleet import Fleet
    from paw.supervisor.fleet_hosts import HostRecord, Remote


CONFIG_NAME = "paw.toml"
STATE_DIR = common.STATE_DIR
SOCKET_ENV = "PAW_TMUX_SOCKET"


def git_details_for(config: PawConfig) -> Callable[[str, str], str | None]:
    """Confirmation details for a git commit/push an agent asks to run (message, diff preview,
    pending commits, agent-instruction and sensitive files), prepared by the git guard without
    running the write."""

    def details(command: str, worktree: str) -> str | None:
        from paw.core.approval import find_git_write
        from paw.core.guard.confirm import format_confirmation_prompt
        from paw.guard.git_actions import execute_git_action

        found = find_git_write(command)
        if found is None:
            return None
        params = {
            "action": found.action,
            "repo_path": worktree,
            "message": found.message,
            "remote": found.remote,
            "branch": found.branch,
        }
        try:
            result = execute_git_action(params, config.guard)
        except SensitiveFilesError as err:
            return f"WARNING: {err.message}"
        if result.confirmation_details is None:
            return None
        # paw's own confirmation is answered by `--yes`, `y` or a dialog's key, never a reply
        return format_confirmation_prompt(result.confirmation_details, format="plain", reply=False)

    return details


def find_repo_root(start: str | None = None) -> str:
    """The main worktree of the repository containing ``start`` (default: the cwd)."""
    return common.find_repo_root(start)


def load_config(path: Path, repo_root: str | None = None) -> PawConfig:
    """Read paw.toml (defaults when missing); UsageError (exit 2) naming the first problem.
    With ``repo_root``, the checks that need the repository run too (worktree root, branch
    prefix, base)."""
    config, problems = config_store.load_config(path, missing_ok=True, repo_root=repo_root)
    if config is None or problems:
        first = format_problem(problems[0]).replace(str(path), path.name)
        more = f" (+{len(problems) - 1} more; run `paw config check`)" if len(problems) > 1 else ""
        raise UsageError(first + more)
    return config


def config_problems(path: Path, repo_root: str | None = None) -> list[str]:
    """Every problem of paw.toml as ``file:line: key: message`` lines ([] when fine), notify
    URLs apprise cannot parse among them."""
    _config, problems = config_store.load_config(path, repo_root=repo_root, urls=True)
    return [format_problem(p).replace(str(path), path.name) for p in problems]


def build_fleet(
    repo_dir: str | None = None,
    socket_name: str | None = None,
    *,
    control: bool = False,
    counts: bool = True,
    prompts: bool = True,
    root: str | None = None,
    early: EarlyStatuses | None = None,
) -> Supervisor | Fleet:
    """The local supervisor, or, once hosts are added (``paw host add``), a :class:`Fleet` of
    it and one supervisor per host over ssh. Without hosts nothing about ssh is touched.

    ``counts=False``: sweeps count no worktree (no git process), for commands that show no
    counts (`paw prompts`). ``prompts=False``: sweeps return no live prompt and judge only
    prompts never seen before, for commands that show none (`paw ls`). ``root`` and
    ``early``: see :func:`build_supervisor`."""
    local = build_supervisor(
        repo_dir, socket_name, control=control, root=root, early=early, counts=counts,
        prompts=prompts, one_shot=not control,  # a command's few sweeps, not a TUI's or a runner's
    )  # fmt: skip
    if not (Path(local.ctx.repo_root) / STATE_DIR / "hosts.json").exists():
        return local  # no host was ever added: nothing of this module's hosts is even imported
    from paw.supervisor.fleet import Fleet
    from paw.supervisor.fleet_hosts import load_hosts

    hosts = load_hosts(local.ctx.state)
    if not hosts:
        return local
    remotes = {
        name: build_remote(local, host, control=control, counts=counts, prompts=prompts)
        for name, host in hosts.items()
    }
    return Fleet(local, remotes)


class SshLink:
    """A host's connection (:class:`paw.supervisor.fleet_hosts.HostLink`) over an ssh master."""

    def __init__(self, transport: SshTransport) -> None:
        """Connect through ``transport``."""
        self.transport = transport

    def connect(self) -> None:
        """Start the master unless it answers; PawError naming why the host is unreachable."""
        from paw.adapters.remote.ssh import SshError

        try:
            self.transport.connect()
        except SshError as err:
            raise PawError(str(err)) from err

    def disconnect(self) -> None:
        """Stop the master."""
        self.transport.disconnect()

    def close(self) -> None:
        """End this process's shell on the host (the master persists for the next command)."""
        self.transport.close_channel()


def transport_for(host: HostRecord) -> SshTransport:
    """The ssh transport of ``host``."""
    from paw.adapters.remote.ssh import SshTransport, parse_target

    return SshTransport(
        parse_target(host.url),
        identity=host.identity,
        config_file=host.ssh_config,
        options=tuple(host.options),
        entry=host.name,
    )


def build_remote(
    local: Supervisor,
    host: HostRecord,
    *,
    control: bool = False,
    counts: bool = True,
    prompts: bool = True,
) -> Remote:
    """A supervisor for ``host``: tmux, git and ps over ssh, its records in
    ``.paw/hosts/NAME/``, decisions in the local audit log. ``counts``, ``prompts``: see
    :func:`build_fleet`."""
    from paw.adapters.remote.git import RemoteGit
    from paw.adapters.remote.ps import PsInspector
    from paw.adapters.remote.terminal import RemoteTerminal
    from paw.supervisor.fleet_hosts import Remote

    ctx = local.ctx
    transport = transport_for(host)
    terminal = RemoteTerminal(transport, host.socket, control=control)
    state_dir = Path(ctx.repo_root) / STATE_DIR
    supervisor = Supervisor(
        ctx.config,
        host.repo,
        terminal,
        RemoteGit(transport),
        PsInspector(transport),
        ctx.audit,
        StateStore(state_dir / "hosts" / host.name),
        ctx.clock,
        python=host.python,
        actor=ctx.actor,
        sleep=ctx.sleep,
        fault=ctx.fault,
        host=host.name,
        own_procs=ctx.procs,
        settings=SweepSettings(
            count_worktrees=counts,
            show_prompts=prompts,
            count_in_background=control,  # counts over ssh never hold a long-running sweep
            count_setup=lower_thread_priority if control else None,
        ),
    )
    if control:
        terminal.watch_session(supervisor.session)
    return Remote(host, SshLink(transport), supervisor)


OBSERVE_TTL_S = 5.0  # long-running sweepers re-resolve an unchanged agent at least this often


def socket_file(sup: Supervisor) -> str | None:
    """The path of the tmux socket ``sup`` talks to (None for a terminal that is not local
    tmux): what a process started in one of paw's panes needs to find the same server."""
    terminal = sup.ctx.terminal
    return terminal.socket_file() if isinstance(terminal, TmuxTerminal) else None


def _channels(config: PawConfig, state_dir: Path, *, streams: bool) -> ChannelHub | None:
    """The agents' structured prompt channels (None: off in the config). ``streams``: a
    long-running process, which may hold one event stream per agent (see FileChannelHub)."""
    if not config.channels.enabled:
        return None
    from paw.adapters.channels.hub import FileChannelHub

    return FileChannelHub(
        state_dir,
        sys.executable,
        streams=streams,
        server_timeout=config.channels.server_timeout_s,
    )


def _usage_log(state_dir: Path) -> Callable[[str, str, Mapping[str, str]], str | None]:
    """Makes ready the analytics log an agent's aider writes for paw (in ``state_dir``), unless
    the user names aider's log themselves (in the launch's environment over paw's, or aider's
    settings files): None then. The usage modules are imported only when an agent is
    spawned."""

    def prepare(agent: str, worktree: str, env: Mapping[str, str]) -> str | None:
        from paw.adapters.usage_logs import prepare_aider_log, user_aider_log

        if user_aider_log(worktree, {**os.environ, **env}):
            return None
        return prepare_aider_log(state_dir, agent)

    return prepare


def build_supervisor(
    repo_dir: str | None = None,
    socket_name: str | None = None,
    *,
    control: bool = False,
    root: str | None = None,
    early: EarlyStatuses | None = None,
    counts: bool = True,
    prompts: bool = True,
    one_shot: bool = False,
) -> Supervisor:
    """A Supervisor over real tmux, git, psutil and ``.paw/`` for the repo containing
    ``repo_dir``. The tmux socket is ``socket_name``, else ``$PAW_TMUX_SOCKET``, else
    ``[tmux] socket_name``, else the default server; a value with a ``/`` is a socket path
    (``tmux -S``), anything else a name (``tmux -L``, under ``$TMUX_TMPDIR``).

    ``control=True`` is for long-running processes (the TUI): polls go through a persistent
    tmux control-mode client attached to paw's session, and recapture only panes that
    changed. It costs a round trip to start and shows the session as attached, so one-shot
    commands keep the default (one tmux process per call).

    ``root``: the repository's main worktree, already found (by :func:`find_repo_root`) for
    ``repo_dir``. ``early``: worktree statuses a command started ahead of its first sweep
    (see :class:`~paw.adapters.git.runner.EarlyStatuses`). ``counts``, ``prompts``,
    ``one_shot``: how its sweeps work (:class:`~paw.supervisor.context.SweepSettings`)."""
    root = root or find_repo_root(repo_dir)
    config = load_config(Path(root) / CONFIG_NAME, root)
    socket = socket_name or os.environ.get(SOCKET_ENV) or config.tmux.socket_name
    state_dir = Path(root) / STATE_DIR
    state = StateStore(state_dir)
    state.check_writable()  # one line, before anything is created, when .paw/ is read-only
    terminal = (
        TmuxTerminal(socket_path=socket, control=control)
        if socket is not None and "/" in socket
        else TmuxTerminal(socket_name=socket, control=control)
    )
    supervisor = Supervisor(
        config,
        root,
        terminal,
        GitCli(early=early),
        PsutilInspector(),
        JsonlAuditLog(state_dir / "audit.jsonl"),
        state,
        time.time,
        python=sys.executable,
        actor=Actor(user=current_user(), tty=current_tty()),
        sleep=time.sleep,
        git_details=git_details_for(config),
        which=shutil.which,
        fault=crash_points(os.environ),
        machine=machine_name() or None,
        # writes follow symlinks on this machine; other agents' worktrees and the user's home
        # (to place `~/…`) are named to the guard
        shell=default_shell_evaluator(resolve_path, agent_worktrees(state), home_directory()),
        settings=SweepSettings(
            observe_ttl=OBSERVE_TTL_S if control else 0.0,
            count_worktrees=counts,
            one_shot=one_shot,
            count_in_background=control,
            count_setup=lower_thread_priority if control else None,
            show_prompts=prompts,
        ),
        resolve_path=resolve_path,  # edit/write prompts follow symlinks
        channels=_channels(config, state_dir, streams=control),
        agent_version=read_version,
        usage_log=_usage_log(state_dir),
    )
    if control:
        terminal.watch_session(supervisor.session)
        # the guard is imported when a sweep first judges a prompt; a long-running sweeper
        # pays for it here, so its first prompt is not shown a tenth of a second later
        for module in ("paw.core.approval", "paw.guard"):
            importlib.import_module(module)
    return supervisor
