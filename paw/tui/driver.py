"""Textual's terminal driver, asking the terminal for its size before the environment."""

from __future__ import annotations

import os
import sys

from textual.drivers.linux_driver import LinuxDriver


class TerminalSizeDriver(LinuxDriver):
    """Textual's driver reads the size from ``COLUMNS``/``LINES`` first when they are set
    (``shutil.get_terminal_size``). Those are often stale: a process that imported readline
    exports them (80x24 when it had no terminal), and a tmux server started by it hands them to
    every pane. paw then drew 80x24 in any terminal and ignored resizes. The terminal itself
    knows its size; the environment is the fallback."""

    def _get_terminal_size(self) -> tuple[int, int]:
        for stream in (sys.__stdout__, sys.__stdin__, sys.__stderr__):
            try:
                columns, lines = os.get_terminal_size(stream.fileno())  # type: ignore[union-attr]
            except (AttributeError, ValueError, OSError):
                continue
            if columns > 0 and lines > 0:
                return columns, lines
        return super()._get_terminal_size()
