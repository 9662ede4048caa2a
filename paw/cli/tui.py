"""`paw tui` (also bare `paw`) and `paw demo`: the Textual front end over a real supervisor."""

from __future__ import annotations

import argparse
from functools import partial
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from collections.abc import Callable

    from paw.cli.sweep_child import SweepChild
    from paw.supervisor.fleet import Fleet
    from paw.supervisor.service import Supervisor
    from paw.tui.app import PawApp
    from paw.tui.connect import Connection

DEFAULT_POLL_INTERVAL = 0.5  # seconds between sweeps while no pane events arrive
DEFAULT_SAFETY_SWEEP = 30.0  # seconds between full sweeps while pane events arrive
# The main screen's keys for `paw tui --help` (without importing Textual; a test keeps this
# equal to the screen's bindings).
KEYS = (
    ("a", "approve the selected prompt once (a confirm verdict asks first; block needs a reason)"),
    ("d", "deny it"),
    ("A", "approve and don't ask again (only if the agent offers it and the guard allows)"),
    ("t", "attach to the agent's pane (detach to come back)"),
    ("m", "type a message into the agent's input"),
    ("n", "spawn an agent (name, kind, task)"),
    ("x", "stop the agent; keep its work"),
    ("r", "remove its worktree and branch (refuses unsaved work)"),
    ("/", "filter agents"),
    ("v", "switch the right panel: pane or diff"),
    ("w", "the wave view: each task of the latest wave, parked prompts first"),
    ("?", "every key"),
    ("q", "quit (the agents keep running)"),
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``tui`` (``paw demo`` registers itself: paw.cli.demo)."""
    p = sub.add_parser(
        "tui",
        help="open the TUI (also what `paw` alone does)",
        description=(
            "Watch every agent of this repository and decide their prompts. Keys reach an agent "
            "only through the same path as `paw approve`: the prompt is re-verified, the guard "
            "applies, and the audit record is written first."
        ),
        epilog="keys:\n"
        + "\n".join(f"  {key:<3} {what}" for key, what in KEYS)
        + "\n\nexamples:\n  paw tui\n  paw tui -C ../other-repo --interval 0.5"
        + "\n\nenvironment:\n  PAW_SWEEPER=0  sweep in the TUI's own process (by default a sweeper "
        "process it starts\n                 sweeps this machine's agents; its errors go to "
        ".paw/sweeper.log)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_tui_options(p)
    p.set_defaults(func=cmd_tui)


def add_tui_options(p: argparse.ArgumentParser) -> None:
    """Options shared by ``paw tui`` and ``paw demo``."""
    p.add_argument(
        "-C", dest="repo", metavar="DIR", help="run as if in DIR (any directory of the repository)"
    )
    p.add_argument(
        "--interval",
        type=float,
        default=DEFAULT_POLL_INTERVAL,
        metavar="SECONDS",
        help=(
            "seconds between sweeps when tmux pane events are unavailable (no control mode, "
            f"server down; default {DEFAULT_POLL_INTERVAL})"
        ),
    )
    p.add_argument(
        "--safety-sweep",
        type=_positive,
        default=DEFAULT_SAFETY_SWEEP,
        metavar="SECONDS",
        help=(
            "paw sweeps when a pane draws or a window comes or goes (tmux control-mode "
            "events); with nothing happening it sweeps only every SECONDS "
            f"(default {DEFAULT_SAFETY_SWEEP:g})"
        ),
    )


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds: {text!r}")
    return value


def cmd_tui(args: argparse.Namespace) -> int:
    """Open the TUI for the repository containing the current directory (or ``-C DIR``).

    Only the repository check runs before the first frame; the supervisor (config, tmux
    control client, process inspector) is built by :func:`connect` while the layout is on
    screen, so the window appears in well under half a second.
    """
    from paw.cli.common import find_repo_root
    from paw.tui.app import make_app

    root = find_repo_root(getattr(args, "repo", None))
    run_app(
        make_app(
            connect=partial(connect, root),
            poll_interval=getattr(args, "interval", DEFAULT_POLL_INTERVAL),
            safety_interval=getattr(args, "safety_sweep", DEFAULT_SAFETY_SWEEP),
        )
    )
    return 0


def run_app(app: PawApp) -> None:
    """Run the TUI; release what its connector opened; raise the connector's error, if any."""
    try:
        app.run()
    finally:
        app.disconnect()
    if app.connect_error is not None:
        raise app.connect_error


def connect(root: str, socket_name: str | None = None) -> Connection:
    """Build the real supervisor for ``root`` with control mode, and what the TUI needs; its
    sweeps run in a sweeper process of their own (see :func:`start_sweeper`)."""
    from paw.cli.compose import build_fleet

    supervisor = build_fleet(root, socket_name, control=True)
    return connection_for(supervisor, sweeper=start_sweeper(supervisor, root, socket_name))


def start_sweeper(
    supervisor: Supervisor | Fleet, root: str, socket_name: str | None
) -> SweepChild | None:
    """Start the process that sweeps for the TUI (:mod:`paw.cli.sweep_child`): this
    machine's agents only (with hosts the TUI sweeps in its own process, as it does until the
    sweeper is up, and again if it ends). ``PAW_SWEEPER=0`` keeps every sweep in the TUI."""
    import os
    from pathlib import Path

    from paw.adapters.tmux.terminal import TmuxTerminal
    from paw.cli.compose import STATE_DIR
    from paw.cli.sweep_child import SweepChild, sweeper_argv
    from paw.supervisor.service import Supervisor

    terminal = supervisor.ctx.terminal
    if os.environ.get("PAW_SWEEPER", "1") == "0" or not isinstance(supervisor, Supervisor):
        return None
    if not isinstance(terminal, TmuxTerminal) or not terminal.control:
        return None
    state = Path(supervisor.ctx.repo_root) / STATE_DIR
    try:
        child = SweepChild(
            sweeper_argv(supervisor.ctx.repo_root, socket_name),
            cwd=root,
            log=str(state / "sweeper.log"),
        )
    except OSError:
        return None  # (no process could be started: the TUI sweeps itself)
    supervisor.sweep_elsewhere = child.sweep
    return child


def connection_for(
    supervisor: Supervisor | Fleet, *, sweeper: SweepChild | None = None
) -> Connection:
    """What the TUI needs beside ``supervisor``: attach, the configured kinds (those installed
    first: the spawn form offers the first), close (the ``sweeper`` first)."""
    import shutil
    from pathlib import Path

    from paw.adapters.tmux.terminal import TmuxTerminal
    from paw.adapters.wave_watch import WaveWatcher
    from paw.cli.compose import STATE_DIR
    from paw.cli.cost import usage_line
    from paw.core.agents import usable_kinds_first
    from paw.tui.connect import Connection

    waves = WaveWatcher(Path(supervisor.ctx.repo_root) / STATE_DIR / "waves")
    terminal = supervisor.ctx.terminal
    # Pane events: this machine's tmux server, and with hosts every host's too (a tmux
    # control-mode client over each host's ssh connection; see paw.supervisor.fleet).
    source: TmuxTerminal | Fleet | None = None
    if isinstance(terminal, TmuxTerminal) and terminal.control:
        remote = bool(getattr(supervisor, "remotes", None))
        source = cast("Fleet", supervisor) if remote else terminal
    watch = source.watch if source is not None else None
    if watch is not None and source is terminal:
        watch = partial(_watch_with_counts, supervisor, watch, sweeper)

    def close() -> None:
        if sweeper is not None:
            sweeper.close()
        supervisor.close()

    return Connection(
        supervisor,
        attach=attacher(supervisor),
        kinds=usable_kinds_first(supervisor.ctx.config, shutil.which),
        close=close,
        waves=waves.read,
        watch=watch,
        live=source.events_live if source is not None else None,
        pushes=sweeper if source is terminal else None,
        usage=usage_line(supervisor),
    )


def _watch_with_counts(
    supervisor: Supervisor | Fleet,
    watch: Callable[[Callable[[str | None], None]], bool],
    sweeper: SweepChild | None,
    listener: Callable[[str | None], None],
) -> bool:
    """``watch(listener)``, and a worktree count that ends on a worker (the TUI counts beside
    its sweeps, or the sweeper beside its own) asks ``listener`` for the sweep that shows it
    (a Fleet does both itself)."""
    supervisor.listen_counts(partial(listener, None))
    if sweeper is not None:
        sweeper.on_counted = partial(listener, None)
    return watch(listener)


def attacher(supervisor: Supervisor | Fleet) -> Callable[[str], None]:
    """Run ``tmux attach`` (or ``switch-client``) for an agent in the foreground."""

    def attach(agent: str) -> None:
        argv = supervisor.attach_argv(agent)
        # The terminal is handed to tmux until the human detaches; nothing to capture.
        from paw.adapters import proc

        proc.run_foreground(argv)

    return attach
