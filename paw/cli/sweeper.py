"""`python -m paw.cli.sweeper`: the TUI's sweeps in a process of their own.

Started by `paw tui` (never by hand): it builds the same supervisor the TUI does, with its own
tmux control-mode clients, and answers each sweep request on its input with the picture on its
output (the frames of :mod:`paw.adapters.sweep_child`). It ends when its input ends: when the
TUI closes it, or dies however it dies.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from typing import IO, TYPE_CHECKING, Protocol

from paw.adapters.sweep_child import write_frame
from paw.errors import PawError, TmuxError

if TYPE_CHECKING:
    from collections.abc import Callable

    from paw.supervisor.model import Snapshot

# The TUI that starts a sweeper keeps two control-mode clients of its own on paw's session (its
# command client and its event client): they are paw's, not a human attached.
TUI_CLIENTS = 2


def main(argv: list[str] | None = None) -> int:
    """Sweep on request until the input ends."""
    parser = argparse.ArgumentParser(prog="python -m paw.cli.sweeper", description=__doc__)
    parser.add_argument("--root", required=True, help="the repository's main worktree")
    parser.add_argument("--socket", help="the tmux socket (name or path) the TUI uses")
    args = parser.parse_args(argv)
    frames = os.fdopen(os.dup(1), "wb")  # the frames' own descriptor...
    os.dup2(2, 1)  # ...and whatever else prints goes to the log, never into a frame
    requests = sys.stdin.buffer
    lock = threading.Lock()

    def send(message: tuple[object, ...]) -> None:
        with lock:
            write_frame(frames, message)

    from paw.adapters.tmux import TmuxTerminal
    from paw.cli.compose import build_fleet
    from paw.supervisor.service import Supervisor

    try:
        supervisor = build_fleet(args.root, args.socket, control=True, root=args.root)
    except PawError as err:
        send(("raise", "paw", err.message, err.hint))
        return 2
    if not isinstance(supervisor, Supervisor):  # hosts were added: the TUI sweeps those
        send(("raise", "paw", "the sweeper drives this machine's agents only", None))
        supervisor.close()
        return 2
    try:
        terminal = supervisor.ctx.terminal
        if isinstance(terminal, TmuxTerminal):
            terminal.clients_elsewhere = TUI_CLIENTS
            terminal.watch(lambda _pane: None)  # pane events say which panes to capture again
        supervisor.ctx.on_counted = lambda: send(("counted",))
        send(("ready",))
        serve(supervisor, requests, send)
    except (BrokenPipeError, OSError):
        return 0  # the TUI is gone
    finally:
        supervisor.close()
    return 0


class _Sweeps(Protocol):
    def poll_once(self, *, publish: Callable[[Snapshot], None] | None = None) -> Snapshot: ...


def serve(
    supervisor: _Sweeps, requests: IO[bytes], send: Callable[[tuple[object, ...]], None]
) -> None:
    """Answer each request byte on ``requests`` with a sweep's picture (or the error a sweep
    raised) until the input ends. The picture is sent as soon as it is whole, before the
    sweep writes its record of prompts seen (the TUI's approval waits for that write on the
    prompts lock; the new prompt's way to the screen does not).

    A full garbage collection walks every object and stops every thread: in a process that
    holds 200 agents' records, observations and captures, a sweep waits behind it. After the
    first picture what survives a collection is frozen, as the TUI does (paw.tui.gcpause)."""
    from paw.tui.gcpause import LongLived

    long_lived = LongLived()
    try:
        failed: tuple[object, ...] | None = None  # a write that failed after its picture
        while requests.read(1):
            if failed is not None:  # this request's answer is the failure
                send(failed)
                failed = None
                continue
            sent: list[Snapshot] = []

            def publish(snapshot: Snapshot, sent: list[Snapshot] = sent) -> None:
                send(("snapshot", snapshot))
                sent.append(snapshot)

            try:
                snapshot = supervisor.poll_once(publish=publish)
            except PawError as err:  # (TmuxError is one)
                kind = "tmux" if isinstance(err, TmuxError) else "paw"
                if sent:
                    failed = ("raise", kind, err.message, err.hint)
                else:
                    send(("raise", kind, err.message, err.hint))
            else:
                if not sent:
                    send(("snapshot", snapshot))
                long_lived.install()  # (once)
            long_lived.tick()
    finally:
        long_lived.uninstall()


if __name__ == "__main__":
    raise SystemExit(main())
