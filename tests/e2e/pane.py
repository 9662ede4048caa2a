"""A tmux pane on a private socket, driven the way a human would: type, wait, read, press keys."""

from __future__ import annotations

import shlex
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from paw.cli.demo import kill_tmux_server
from tests.support.budget import budget

POLL = 0.25


class Pane:
    """One agent pane in its own tmux server (``tmux -L <socket>``)."""

    def __init__(self, socket: str, target: str) -> None:
        self.socket = socket
        self.target = target

    @classmethod
    def start(cls, socket: str, argv: list[str], cwd: Path, cols: int, rows: int) -> Pane:
        """Start a detached session of ``cols``x``rows`` running ``argv`` in ``cwd``."""
        command = shlex.join(argv)
        out = _tmux(
            socket,
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-P",
            "-F",
            "#{pane_id}",
            "-x",
            str(cols),
            "-y",
            str(rows),
            "-c",
            str(cwd),
            command,
        )
        pane = cls(socket, out.strip())
        _tmux(socket, "set-option", "-g", "remain-on-exit", "on")
        return pane

    def capture(self) -> str:
        """The visible frame, as ``tmux capture-pane -p`` gives it."""
        return _tmux(self.socket, "capture-pane", "-p", "-t", self.target)

    def capture_ansi(self) -> str:
        """The visible frame with colours (``-e``)."""
        return _tmux(self.socket, "capture-pane", "-p", "-e", "-t", self.target)

    def info(self) -> dict[str, str]:
        """Cursor position, size, alternate screen and liveness of the pane."""
        fmt = (
            "#{alternate_on} #{cursor_x} #{cursor_y} #{pane_width} #{pane_height} #{pane_dead}"
            " #{pane_pid}"
        )
        values = _tmux(self.socket, "display-message", "-p", "-t", self.target, fmt).split()
        keys = (
            "alternate_on",
            "cursor_x",
            "cursor_y",
            "pane_width",
            "pane_height",
            "pane_dead",
            "pane_pid",
        )
        return dict(zip(keys, values, strict=False))

    def send_keys(self, *keys: str) -> None:
        """One ``send-keys`` call with tmux key names."""
        _tmux(self.socket, "send-keys", "-t", self.target, *keys)

    def type_text(self, text: str) -> None:
        """Type ``text`` literally (no key-name lookup)."""
        _tmux(self.socket, "send-keys", "-t", self.target, "-l", text)

    def wait_for(self, predicate: Callable[[str], bool], timeout: float, what: str) -> str:
        """Poll the screen until ``predicate`` holds; raise with the last screen on timeout."""
        deadline = time.monotonic() + timeout
        screen = self.capture()
        while not predicate(screen):
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"timed out after {timeout:.0f}s waiting for {what}; screen:\n{screen}"
                )
            time.sleep(POLL)
            screen = self.capture()
        return screen

    def wait_stable(self, quiet: float = 1.2, timeout: float = budget(90.0)) -> str:
        """Poll until the screen has not changed for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        last, since = self.capture(), time.monotonic()
        while time.monotonic() - since < quiet:
            if time.monotonic() > deadline:
                return last
            time.sleep(POLL)
            screen = self.capture()
            if screen != last:
                last, since = screen, time.monotonic()
        return last

    def kill_server(self) -> None:
        """End this pane's private tmux server and remove its socket file."""
        kill_tmux_server(self.socket)


def _tmux(socket: str, *args: str) -> str:
    out = subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"tmux {' '.join(args[:3])}: {out.stderr.strip()}")
    return out.stdout


def wait_until(predicate: Callable[..., object], timeout: float) -> bool:
    """Whether ``predicate()`` came true within ``timeout`` seconds, looked at every ``POLL``."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(POLL)
    return True
