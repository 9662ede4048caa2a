"""`python -m paw.cli.sweeper`: the TUI's sweeps in a process of their own.

Started by `paw tui` (never by hand): it builds the same supervisor the TUI does, with its own
tmux control-mode clients, and answers each sweep request on its input with the picture on its
output (the frames of :mod:`paw.cli.sweep_child`); once the TUI follows it, it also sweeps
on its own pane events and pushes each picture (see :func:`serve`). It ends when its input
ends: when the TUI closes it, or dies however it dies.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from typing import IO, TYPE_CHECKING, Protocol

from paw.cli.sweep_child import FrameWriter
from paw.errors import PawError, TmuxError
from paw.supervisor.model import AgentView, LivePrompt
from paw.supervisor.pump import EventPump, agent_panes, duty_rest

if TYPE_CHECKING:
    from collections.abc import Callable

    from paw.supervisor.model import Snapshot

# The TUI that starts a sweeper keeps two control-mode clients of its own on paw's session (its
# command client and its event client; only the first once it follows this sweeper's pushes):
# they are paw's, not a human attached.
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
    writer = FrameWriter(frames, shared=(AgentView, LivePrompt))  # sent before: as a number

    def send(message: tuple[object, ...]) -> None:
        with lock:
            writer.write(message)

    from paw.adapters.tmux.terminal import TmuxTerminal
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
    terminal = supervisor.ctx.terminal
    inbox = Inbox()
    pump = EventPump(inbox.pane_due)
    live: Callable[[], bool] | None = None
    try:
        if isinstance(terminal, TmuxTerminal):
            terminal.clients_elsewhere = TUI_CLIENTS

            def following() -> None:  # the TUI's event client is not started: one client
                terminal.clients_elsewhere = TUI_CLIENTS - 1

            inbox.on_follow = following
            # pane events say which panes to capture again, and (followed) when to sweep
            if terminal.watch(pump.note):
                live = terminal.events_live
                pump.start()

        def counted() -> None:  # a count ended beside the sweeps and changed what shows
            if inbox.following:
                pump.note(None)
            else:
                send(("counted",))

        supervisor.listen_counts(counted)
        # a hook channel's poke: its request goes to the TUI before the screen sweep
        # cross-checks it, marked early (no sweep's picture: the TUI posts it as its feed posts
        # a look of its own, and acknowledges nothing for it)
        supervisor.publish_early = lambda snapshot: send(("early", snapshot))
        send(("ready",))
        serve(supervisor, requests, send, pump=pump if live else None, live=live, inbox=inbox)
    except (BrokenPipeError, OSError):
        return 0  # the TUI is gone
    finally:
        pump.stop()
        supervisor.close()
    return 0


class _Sweeps(Protocol):
    def poll_once(self, *, publish: Callable[[Snapshot], None] | None = None) -> Snapshot: ...


class Inbox:
    """What the TUI asked for and what the pump says is due, under one condition.

    The TUI writes one byte per request: ``s`` a sweep now (answered with ``("snapshot", ...)``),
    ``f`` follow (from now on sweep on this process's own pane events and push each picture as
    ``("pushed", ...)``), ``a`` the last picture is handled (one push may follow: a TUI that
    is still drawing is not sent pictures it would drop)."""

    def __init__(self) -> None:
        """Nothing asked yet."""
        self.cond = threading.Condition()
        self.requests = 0
        self.following = False
        self.credit = 0  # pushes the TUI will take (at most 1)
        self.due = False  # the pump fired since the last sweep
        self.ended = False  # the input ended
        self.rest_until = 0.0  # time.monotonic() before which no push sweeps (SWEEP_DUTY)
        self.on_follow: Callable[[], None] | None = None  # called once the TUI follows

    def read(self, requests: IO[bytes]) -> None:
        """Read request bytes until the input ends (on a thread of its own)."""
        try:
            while True:
                data = requests.read(1)
                if not data:
                    break
                with self.cond:
                    if data == b"s":
                        self.requests += 1
                    elif data == b"f" and not self.following:
                        self.following = True
                        self.credit = 1
                        if self.on_follow is not None:
                            self.on_follow()
                    elif data == b"a":
                        self.credit = 1
                    self.cond.notify()
        except (OSError, ValueError):
            pass
        finally:
            with self.cond:
                self.ended = True
                self.cond.notify()

    def pane_due(self) -> None:
        """The pump's thread: a pane drew or the structure changed."""
        with self.cond:
            self.due = True
            self.cond.notify()

    def next(self) -> str | None:
        """Wait for the next sweep to make: ``"snapshot"`` (asked for), ``"pushed"`` (due,
        followed, the TUI ready for it, the rest after the last push over), None (the input
        ended; requests read before the end are answered first)."""
        with self.cond:
            while True:
                if self.requests:
                    self.requests -= 1
                    self.due = False  # the sweep takes whatever was due
                    return "snapshot"
                if self.ended:
                    return None
                if self.following and self.due and self.credit:
                    wait = self.rest_until - time.monotonic()
                    if wait <= 0:
                        self.credit -= 1
                        self.due = False
                        return "pushed"
                    self.cond.wait(wait)
                else:
                    self.cond.wait()


def _failure(
    err: PawError,
    kind: str,
    *,
    sent: bool,
    inbox: Inbox,
    send: Callable[[tuple[object, ...]], None],
) -> tuple[object, ...] | None:
    """Tell the TUI a sweep failed; returns the answer due to its next request, if any (a
    requested sweep whose picture went before it failed)."""
    error = ("tmux" if isinstance(err, TmuxError) else "paw", err.message, err.hint)
    if kind == "pushed":  # answers no request: the TUI shows it as it comes
        send(("pushed-raise", *error))
        if not sent:
            with inbox.cond:
                inbox.credit = 1  # no picture went: the TUI acknowledges none
        return None
    if sent:
        return ("raise", *error)
    send(("raise", *error))
    return None


def serve(
    supervisor: _Sweeps,
    requests: IO[bytes],
    send: Callable[[tuple[object, ...]], None],
    *,
    pump: EventPump | None = None,
    live: Callable[[], bool] | None = None,
    inbox: Inbox | None = None,
) -> None:
    """Answer each request byte on ``requests`` with a sweep's picture (or the error a sweep
    raised) until the input ends; once the TUI asks to follow, also sweep whenever ``pump``
    (fed by this process's pane events) fires and push the picture, one at a time, each after
    the TUI handled the one before and after the sweep's share of the time (SWEEP_DUTY). A
    picture goes with the panes that drew since the last one (the TUI re-reads the selected
    agent's preview when its pane drew); ``("live", bool)`` goes whenever ``live()`` (pane
    events arrive) changes. The picture is sent as soon as it is whole, before the sweep
    writes its record of prompts seen (the TUI's approval waits for that write on the prompts
    lock; the new prompt's way to the screen does not).

    A full garbage collection walks every object and stops every thread: in a process that
    holds 200 agents' records, observations and captures, a sweep waits behind it. After the
    first picture what survives a collection is frozen, as the TUI does (paw.supervisor.gcpause)."""
    from paw.supervisor.gcpause import LongLived

    inbox = inbox or Inbox()
    reader = threading.Thread(
        target=inbox.read, args=(requests,), name="paw-sweeper-requests", daemon=True
    )
    reader.start()
    long_lived = LongLived()
    was_live: bool | None = None
    try:
        failed: tuple[object, ...] | None = None  # a write that failed after its picture
        while (kind := inbox.next()) is not None:
            if failed is not None and kind == "snapshot":  # this request's answer is the failure
                send(failed)
                failed = None
                continue
            touched = tuple(sorted(pump.drain())) if pump is not None else ()
            sent: list[Snapshot] = []

            def publish(
                snapshot: Snapshot,
                sent: list[Snapshot] = sent,
                kind: str = kind,
                touched: tuple[str, ...] = touched,
            ) -> None:
                send((kind, snapshot, touched))
                sent.append(snapshot)

            started = time.monotonic()
            try:
                snapshot = supervisor.poll_once(publish=publish)
            except PawError as err:  # (TmuxError is one)
                failed = _failure(err, kind, sent=bool(sent), inbox=inbox, send=send)
            else:
                if not sent:
                    send((kind, snapshot, touched))
                if pump is not None and snapshot.tmux_ok:
                    pump.only(agent_panes(snapshot))
                if kind == "pushed":  # the feed's duty cycle, on this sweep's own CPU
                    cost = duty_rest(snapshot.cpu_s, time.monotonic() - started)
                    with inbox.cond:
                        inbox.rest_until = time.monotonic() + cost
                long_lived.install()  # (once)
            if live is not None and (now_live := live()) != was_live:
                was_live = now_live
                send(("live", now_live))
            long_lived.tick()
    finally:
        long_lived.uninstall()


if __name__ == "__main__":
    raise SystemExit(main())
