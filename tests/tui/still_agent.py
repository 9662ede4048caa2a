"""A scripted agent whose screen never moves, for the TUI's snapshots (run as a script).

``python still_agent.py [--task TEXT] LINE…`` prints the demo agent's header and the lines,
the last one without a newline (``⠿ working…`` reads as busy to the scripted detector), then
stays as it is until it is killed. The demo agent (``paw.demo.agent``) animates a spinner while
it is busy: a snapshot of its screen would catch it at any frame.
"""

from __future__ import annotations

import argparse
import sys
import time


def main(argv: list[str] | None = None) -> int:
    """Draw the lines and stay."""
    parser = argparse.ArgumentParser(prog="still_agent.py")
    parser.add_argument("--task")
    parser.add_argument("lines", nargs="*")
    args = parser.parse_args(argv)
    sys.stdout.write("\n".join([f"paw demo agent — task: {args.task or '(none)'}", *args.lines]))
    sys.stdout.flush()
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    sys.exit(main())
