"""paw's command line: the composition root (builds adapters and injects them).

Each sub-command lives in its own module under ``paw.cli`` and exposes
``register(subparsers) -> None``; the parser sets ``func`` to a handler ``(args) -> int``.

Exit codes (also in docs/cli.md):
  0 success (for ``paw check``: allow)
  1 a paw error (message on stderr as ``paw: …``)
  2 usage error or invalid input (bad name, bad config)
  130 interrupted
``paw check`` adds 10 (confirm) and 20 (block); see ``paw check --help``.

With ``--json`` every command prints exactly one JSON object on stdout, errors included:
``{"error": {"message": …, "hint": …, "exit_code": …}}`` (docs/cli.md, "JSON output").
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from paw import __version__
from paw.errors import PawError

if TYPE_CHECKING:
    from types import ModuleType

    from paw.cli.result import Result

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

Handler = Callable[[argparse.Namespace], "int | Result"]


class UsageError(PawError):
    """Invalid input from the user: exit code 2."""


class _ParseError(Exception):
    """argparse found bad arguments (raised instead of printing and exiting)."""

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser = parser
        self.message = message


class PawArgumentParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors reach ``main`` (so ``--json`` can report them as JSON).

    Sub-command parsers inherit the class (``add_subparsers`` uses the parent's class)."""

    def error(self, message: str) -> NoReturn:
        """Raise instead of printing usage and exiting."""
        raise _ParseError(self, message)


# Which module registers each sub-command: `paw ls` imports paw.cli.supervise alone, not
# the modules (and their imports: the wave runner, ssh hosts, the guard's CLI) of the others.
# tests/cli/test_commands.py checks the map against what each module registers.
COMMAND_MODULES = {
    "check": "check", "detect": "detect", "archive": "archive", "doctor": "doctor",
    "wave": "wave", "host": "hosts", "tui": "tui", "demo": "demo", "serve": "serve",
    **dict.fromkeys(
        ("init", "config", "spawn", "ls", "attach", "send", "stop", "rm", "adopt", "prompts",
         "approve", "deny", "log", "stats"),
        "supervise",
    ),
}  # fmt: skip


def _command_modules(*, tui_only: bool = False, command: str | None = None) -> list[ModuleType]:
    # Imported lazily so `paw check` never pays for Textual or libtmux, and `paw tui` (or bare
    # `paw`) never pays for the other commands: its first frame is on a budget. A known
    # ``command`` imports its own module alone.
    import importlib

    if command in COMMAND_MODULES and not tui_only:
        return [importlib.import_module(f"paw.cli.{COMMAND_MODULES[command]}")]
    from paw.cli import tui

    if tui_only:
        return [tui]
    from paw.cli import archive, check, demo, detect, doctor, hosts, serve, supervise, wave

    return [check, detect, supervise, archive, tui, demo, doctor, wave, hosts, serve]


def build_parser(*, tui_only: bool = False, command: str | None = None) -> argparse.ArgumentParser:
    """Build the ``paw`` argument parser with every sub-command (or only ``tui`` and ``demo``,
    enough to parse ``paw`` alone and ``paw tui …``; or, given a known ``command``, that
    command and those of its module, enough to parse ``paw COMMAND …``)."""
    parser = PawArgumentParser(
        prog="paw",
        description=(
            "paw supervises parallel coding agents in tmux: a git worktree and a pane per agent, "
            "live permission prompts with a guard verdict, approval only when you ask."
        ),
        epilog=(
            "Run `paw COMMAND --help` for the options of one command. -C DIR and --json go "
            "before or after COMMAND alike: `paw -C ../api ls` is `paw ls -C ../api`."
        ),
    )
    parser.add_argument("--version", action="version", version=f"paw {__version__}")
    parser.add_argument(
        "-C", dest="global_repo", metavar="DIR",
        help="run as if paw was started in DIR (before or after COMMAND, like git's -C)",
    )  # fmt: skip
    parser.add_argument(
        "--json", dest="global_json", action="store_true",
        help="print one JSON object (before or after COMMAND; docs/cli.md)",
    )  # fmt: skip
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _command_modules(tui_only=tui_only, command=command):
        module.register(sub)
    if command not in COMMAND_MODULES or tui_only:  # `paw` alone may be parsed: the TUI
        from paw.cli import tui

        parser.set_defaults(func=tui.cmd_tui)  # bare `paw` opens the TUI
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run paw with ``argv``; return the exit code (never raises for user errors)."""
    args_list = list(argv) if argv is not None else sys.argv[1:]
    first = command_word(args_list)
    asks_help = first is None and bool({"-h", "--help"} & set(args_list))
    parser = build_parser(tui_only=first in (None, "tui") and not asks_help, command=first)
    as_json = "--json" in args_list
    try:
        args = apply_global_options(parser, parser.parse_args(args_list), first or "tui")
    except _ParseError as err:
        if as_json:
            hint = f"see `paw {first} --help`" if first else "see `paw --help`"
            return report_error(err.message, hint=hint, code=EXIT_USAGE)
        err.parser.print_usage(sys.stderr)
        print(f"paw: {err.message}", file=sys.stderr)
        return EXIT_USAGE
    except SystemExit as exc:  # --help and --version exit 0
        return int(exc.code) if isinstance(exc.code, int) else EXIT_USAGE
    func: Handler | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return EXIT_OK
    as_json = bool(getattr(args, "json", False))
    if getattr(func, "__module__", "") in TUI_MODULES:  # Textual draws; its widgets escape
        return _call(func, args, as_json=as_json)
    from paw.cli.output import escaped_output

    with escaped_output():  # text paw did not write reaches the terminal escaped
        return _call(func, args, as_json=as_json)


TUI_MODULES = frozenset({"paw.cli.tui", "paw.cli.demo"})  # `paw`, `paw tui`, `paw demo`


def _call(func: Handler, args: argparse.Namespace, *, as_json: bool) -> int:
    try:
        outcome = func(args)
        if isinstance(outcome, int):  # (a handler that printed itself)
            return outcome
        from paw.cli.result import render

        return render(outcome)
    except UsageError as err:
        return report_error(err.message, hint=err.hint, code=EXIT_USAGE, as_json=as_json)
    except PawError as err:
        return report_error(err.message, hint=err.hint, code=EXIT_ERROR, as_json=as_json)
    except KeyboardInterrupt:
        return report_error("interrupted", code=EXIT_INTERRUPTED, as_json=as_json)
    except BrokenPipeError:
        return EXIT_OK
    except OSError as err:  # the file system refused something no adapter expected: one line
        where = f" ({err.filename})" if err.filename else ""
        return report_error(f"{err.strerror or err}{where}", code=EXIT_ERROR, as_json=as_json)


def command_word(args: Sequence[str]) -> str | None:
    """The sub-command named in ``args``, after any global options (``-C DIR``, ``--json``)."""
    i = 0
    while i < len(args):
        word = args[i]
        if word == "-C":
            i += 2
        elif word == "--json" or (word.startswith("-C") and len(word) > 2):
            i += 1
        else:
            return None if word.startswith("-") else word
    return None


def apply_global_options(
    parser: argparse.ArgumentParser, args: argparse.Namespace, command: str
) -> argparse.Namespace:
    """Give the sub-command the ``-C DIR`` and ``--json`` written before it (as git does):
    a ``-C`` after the command is read relative to one before it; a command without
    ``--json`` (or a repository) refuses the option instead of ignoring it."""
    where: str | None = getattr(args, "global_repo", None)
    if where is not None:
        if not hasattr(args, "repo") and command == "tui":
            args.repo = None  # bare `paw`: the TUI
        if hasattr(args, "repo"):
            args.repo = str(Path(where) / args.repo) if args.repo else where
        else:
            raise _ParseError(parser, f"`paw {command}` reads no repository: -C does not apply")
    if getattr(args, "global_json", False):
        if not hasattr(args, "json"):
            raise _ParseError(parser, f"`paw {command}` has no --json")
        args.json = True
    return args


def error_object(
    message: str, *, hint: str | None = None, code: int = EXIT_ERROR
) -> dict[str, object]:
    """The ``error`` member of a ``--json`` result (docs/cli.md)."""
    return {"message": message, "hint": hint, "exit_code": code}


def report_error(
    message: str, *, hint: str | None = None, code: int = EXIT_ERROR, as_json: bool = True
) -> int:
    """Report a failure, as ``{"error": …}`` on stdout under ``--json``, else as ``paw: …``
    (and ``hint: …``) on stderr; return ``code``. (Through the one renderer.)"""
    from paw.cli.result import ERR, Result, render

    if as_json:
        return render(
            Result(data={"error": error_object(message, hint=hint, code=code)}, code=code)
        )
    said = [(ERR, f"paw: {message}")] + ([(ERR, f"hint: {hint}")] if hint else [])
    return render(Result(lines=tuple(said), code=code))


def run() -> None:
    """Console-script entry point."""
    sys.exit(main(sys.argv[1:]))
