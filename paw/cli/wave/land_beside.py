"""``[land] as_tasks_finish = true``: ``paw wave run`` lands each task as it is done.

The runner starts ``paw wave land`` beside itself, as a process of its own (the lander runs
checks that may take minutes; the runner's sweeps must not wait for them). That lander follows
the runner (it lands each task as the runner marks it done, and ends once the wave has ended and
its queue is through), and it is bound to die with the runner, even by ``kill -9``. Both are
crash-safe on their own: ``paw wave run`` (or ``paw wave land``) again goes on from their
journals: no task lands twice, the base moves by fast-forward only, the scratch worktrees of a
killed lander are removed by the next one.

A lander killed by a signal while the runner runs is started again (its journal says where it
was); one that ended on its own (an error it printed) is not: one line says so and
``paw wave land`` lands the rest. While another lander of the wave runs (a ``paw wave land``
started by hand, or one left by a killed runner where paw cannot bind it), none is started; the
runner starts its own once that one has ended.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from typing import TYPE_CHECKING

from paw.cli.result import ERR, write_live
from paw.cli.wave.store import RunnerLock

if TYPE_CHECKING:
    from paw.adapters.state import StateStore

MAX_RESTARTS = 50  # a lander killed again and again: given up on, said once
NOT_LANDED = 1


class LanderBeside:
    """The ``paw wave land`` process beside a runner (see the module's docstring)."""

    def __init__(self, docs: StateStore, name: str, repo: str, *, quiet: bool, json: bool):
        """Nothing starts until :meth:`ensure`."""
        self.docs = docs
        self.name = name
        self.argv = [sys.executable, "-m", "paw", "wave", "land", name, "-C", repo]
        if quiet or json:
            self.argv.append("--quiet")
        self.json = json
        self.repo = repo
        self.process: subprocess.Popen[bytes] | None = None
        self.restarts = 0
        self.code: int | None = None  # how the last lander ended
        self.given_up = False

    def ensure(self) -> None:
        """Between the runner's sweeps: a lander runs, unless it ended on its own or another
        lander of the wave runs."""
        if self.given_up or (self.process is not None and self.process.poll() is None):
            return
        if self.process is not None:
            self.code = self.process.returncode
            self.process = None
            if self.code >= 0:
                self._give_up(f"the lander ended (exit {self.code})")
                return
            if self.restarts >= MAX_RESTARTS:
                self._give_up(f"the lander was killed {self.restarts + 1} times")
                return
            self.restarts += 1
            write_live(f"paw: the lander was killed (signal {-self.code}); started again", ERR)
        if RunnerLock(self.docs, f"{self.name}.land").held_by_other():
            return  # another lander of the wave: ours starts once it has ended
        from paw.adapters.proc import start_beside

        self.process = start_beside(self.argv, cwd=self.repo, quiet=self.json)

    def _give_up(self, why: str) -> None:
        self.given_up = True
        write_live(f"paw: {why}; `paw wave land {self.name}` lands the rest", ERR)

    def finish(self, *, stop: bool, poll_s: float) -> int:
        """After the runner's end: wait for the lander to land the wave's last tasks and end
        (``stop``: the wave was stopped, so is the lander: SIGINT, its journal holds where it
        was). Returns its exit code (0: every done task landed)."""
        import time

        if stop:
            if self.process is not None and self.process.poll() is None:
                self.process.send_signal(signal.SIGINT)
                self.process.wait()
            return NOT_LANDED
        while not self.given_up:
            self.ensure()
            if self.process is None:  # another lander holds the wave: it finishes the queue
                if not RunnerLock(self.docs, f"{self.name}.land").held_by_other():
                    continue
                time.sleep(poll_s)
                continue
            self.process.wait()
            if self.process.returncode >= 0:
                self.code = self.process.returncode
                self.process = None
                return self.code
        return self.code if self.code else NOT_LANDED

    def close(self) -> None:
        """The runner is ending by an error: its lander ends too (SIGINT)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
