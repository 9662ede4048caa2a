"""`paw wave`: run a batch of tasks unattended, park every prompt, escalate to a human.

    paw wave check FILE          validate a wave file (file:line: key: problem)
    paw wave run FILE [--detach] run it (foreground progress, or in a tmux window)
    paw wave status [NAME]       where each task is (--json)
    paw wave report [NAME]       the Markdown report (--json)
    paw wave resume [NAME]       continue a wave whose runner ended or was killed
    paw wave stop [NAME]         end the runner after its current sweep (agents keep running)
    paw wave land [NAME]         land the done tasks: rebase, check, fast-forward the base

See docs/waves.md for the wave file.
"""

from __future__ import annotations

import argparse

from paw.cli.common import add_json_flag
from paw.cli.wave.check import cmd_check
from paw.cli.wave.files import load_wave, wave_problems
from paw.cli.wave.land import register as register_land
from paw.cli.wave.run import cmd_resume, cmd_run
from paw.cli.wave.status import cmd_report, cmd_status, cmd_stop
from paw.cli.wave.store import RunnerLock

__all__ = ["RunnerLock", "load_wave", "register", "wave_problems"]


EXAMPLES = {
    "check": "example:\n  paw wave check night.toml\n  paw wave check night.toml --json",
    "run": """examples:
  paw wave run night.toml            (foreground: a progress line per change)
  paw wave run night.toml --detach   (the runner in a window of paw's tmux session)

With `[land] as_tasks_finish = true` in the wave file, each task is landed on the base as it
is done (a `paw wave land` beside the runner; see `paw wave land --help`).

Exit codes: 0 every task done (or stopped) and, with as_tasks_finish, landed; 1 a task failed
(or, with as_tasks_finish, did not land); 2 a bad wave file.""",
    "resume": "examples:\n  paw wave resume\n  paw wave resume night --detach",
    "status": "examples:\n  paw wave status\n  paw wave status night --json",
    "report": "examples:\n  paw wave report > night.md\n  paw wave report night --json",
    "stop": "example:\n  paw wave stop night   (agents keep running; `paw wave resume` goes on)",
}


def _verb(
    verbs: argparse._SubParsersAction[argparse.ArgumentParser], name: str, text: str
) -> argparse.ArgumentParser:
    p = verbs.add_parser(
        name, help=text, description=text, epilog=EXAMPLES[name],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    p.add_argument(
        "-C", dest="repo", metavar="DIR", help="run as if in DIR (any directory of the repository)"
    )
    add_json_flag(p)
    return p


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``paw wave`` and its sub-commands."""
    wave = sub.add_parser(
        "wave",
        help="run a batch of tasks unattended, escalating prompts to a human",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    verbs = wave.add_subparsers(dest="wave_command", metavar="VERB", required=True)

    p = _verb(verbs, "check", "validate a wave file")
    p.add_argument("file", help="the wave file (TOML)")
    p.set_defaults(func=cmd_check)

    p = _verb(verbs, "run", "run a wave (foreground, or --detach into a tmux window)")
    p.add_argument("file", help="the wave file (TOML)")
    p.add_argument(
        "--detach", action="store_true", help="run the runner in a tmux window of paw's session"
    )
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=cmd_run)

    p = _verb(verbs, "resume", "continue a wave (after its runner stopped or was killed)")
    p.add_argument("name", nargs="?", help="the wave (default: the latest)")
    p.add_argument("--detach", action="store_true", help="run the runner in a tmux window")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=cmd_resume)

    for verb, func, text in (
        ("status", cmd_status, "where each task of a wave is"),
        ("report", cmd_report, "the wave's report (Markdown; --json for scripts)"),
        ("stop", cmd_stop, "end the runner after its current sweep (agents keep running)"),
    ):
        p = _verb(verbs, verb, text)
        p.add_argument("name", nargs="?", help="the wave (default: the latest)")
        p.set_defaults(func=func)

    register_land(verbs)
