"""paw's command line: the composition root (builds adapters and injects them).

Each sub-command lives in its own module under ``paw.cli`` and exposes
``register(subparsers) -> None``; the parser sets ``func`` to a handler ``(args) -> int``.

Exit codes (also in docs/cli.md):
  0 success (for ``paw check``: allow)
  1 a paw error (message on stderr as ``paw: …``)
  2 usage error or invalid input (bad name, bad config)
  130 interrupted
``paw check`` adds 10 (confirm) and 20 (block); see ``paw check --help``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from paw import __version__
from paw.errors import PawError

if TYPE_CHECKING:
    from types import ModuleType

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

Handler = Callable[[argparse.Namespace], int]


class UsageError(PawError):
    """Invalid input from the user: exit code 2."""


def _command_modules(*, tui_only: bool = False) -> list[ModuleType]:
    # Imported lazily so `paw check` never pays for Textual or libtmux, and `paw tui` (or bare
    # `paw`) never pays for the other commands: its first frame is on a budget.
    from paw.cli import tui

    if tui_only:
        return [tui]
    from paw.cli import check, detect, doctor, supervise

    return [check, detect, supervise, tui, doctor]


def build_parser(*, tui_only: bool = False) -> argparse.ArgumentParser:
    """Build the ``paw`` argument parser with every sub-command (or only ``tui`` and ``demo``,
    enough to parse ``paw`` alone and ``paw tui …``)."""
    parser = argparse.ArgumentParser(
        prog="paw",
        description=(
            "paw supervises parallel coding agents in tmux: a git worktree and a pane per agent, "
            "live permission prompts with a guard verdict, approval only when you ask."
        ),
        epilog="Run `paw COMMAND --help` for the options of one command.",
    )
    parser.add_argument("--version", action="version", version=f"paw {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _command_modules(tui_only=tui_only):
        module.register(sub)
    from paw.cli import tui

    parser.set_defaults(func=tui.cmd_tui)  # bare `paw` opens the TUI
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run paw with ``argv``; return the exit code (never raises for user errors)."""
    args_list = list(argv) if argv is not None else sys.argv[1:]
    parser = build_parser(tui_only=not args_list or args_list[0] == "tui")
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code) if isinstance(exc.code, int) else EXIT_USAGE
    func: Handler | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return EXIT_OK
    try:
        return func(args)
    except UsageError as err:
        _print_error(err)
        return EXIT_USAGE
    except PawError as err:
        _print_error(err)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK


def _print_error(err: PawError) -> None:
    print(f"paw: {err.message}", file=sys.stderr)
    if err.hint:
        print(f"hint: {err.hint}", file=sys.stderr)


def run() -> None:
    """Console-script entry point."""
    sys.exit(main(sys.argv[1:]))
