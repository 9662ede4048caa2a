"""`paw` sub-commands of the supervisor: init, config check, spawn, ls, attach, send, stop, rm,
adopt, prompts, approve, deny, log, stats: their parsers. The handlers live by their job
(:mod:`paw.cli.config_commands`, :mod:`paw.cli.agent_commands`, :mod:`paw.cli.listing`,
:mod:`paw.cli.decide`) and return a :class:`~paw.cli.result.Result` that the one renderer
prints (`paw attach` execs tmux; docs/cli.md)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from paw.cli.agent_commands import (
    cmd_adopt,
    cmd_attach,
    cmd_rm,
    cmd_send,
    cmd_spawn,
    cmd_stop,
)
from paw.cli.config_commands import cmd_config_check, cmd_init
from paw.cli.decide import cmd_approve, cmd_deny
from paw.cli.listing import cmd_log, cmd_ls, cmd_prompts, cmd_stats
from paw.cli.supervise_help import EPILOGS
from paw.core.detect.registry import agent_kinds

if TYPE_CHECKING:
    from collections.abc import Callable

    from paw.cli.result import Result


# -- parser ------------------------------------------------------------------------------------


def _add(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    func: Callable[[argparse.Namespace], int | Result],
    *,
    json_flag: bool = True,
) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        name, help=_short_help(func), description=func.__doc__,
        epilog=EPILOGS[name] + (JSON_NOTE if json_flag else ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    parser.add_argument(
        "-C", dest="repo", metavar="DIR", help="run as if in DIR (any directory of the repository)"
    )
    if json_flag:
        parser.add_argument(
            "--json", action="store_true", help="print one JSON object (errors too; docs/cli.md)"
        )
    parser.set_defaults(func=func)
    return parser


JSON_NOTE = """

--json: one JSON object on stdout; a failure adds {"error": {"message", "hint", "exit_code"}}
(docs/cli.md, "JSON output"). Exit codes: 0 done, 1 paw error or refusal, 2 bad input."""

KINDS_HELP = f"{', '.join(agent_kinds())}, or a kind of your own from [agents.KIND] in paw.toml"


def _short_help(func: Callable[[argparse.Namespace], int | Result]) -> str:
    first = (func.__doc__ or "").splitlines()[0].rstrip(".")
    return first[:1].lower() + first[1:]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the supervisor's sub-commands."""
    p = _add(sub, "init", cmd_init)
    p.add_argument("--force", action="store_true", help="replace an existing paw.toml")
    cfg = sub.add_parser("config", help="inspect paw.toml", description="Inspect paw.toml.")
    cfg_sub = cfg.add_subparsers(dest="config_command", metavar="COMMAND", required=True)
    _add(cfg_sub, "check", cmd_config_check)
    _register_spawn(_add(sub, "spawn", cmd_spawn))
    _add(sub, "ls", cmd_ls)
    p = _add(sub, "attach", cmd_attach, json_flag=False)
    p.add_argument("name")
    p.add_argument("--print", action="store_true", help="print the tmux command, do not run it")
    p = _add(sub, "send", cmd_send)
    p.add_argument("name")
    p.add_argument("text")
    p = _add(sub, "stop", cmd_stop)
    p.add_argument("name")
    p = _add(sub, "rm", cmd_rm)
    p.add_argument("name")
    p.add_argument(
        "--force", action="store_true", help="archive unsaved work to a ref, then remove"
    )
    p = _add(sub, "adopt", cmd_adopt)
    p.add_argument("pane", help="tmux pane id, e.g. %%12")
    p.add_argument("--agent", metavar="KIND", help="expected kind (default: any known kind)")
    p.add_argument("--name", help="agent name (default: KIND-PANE)")
    _add(sub, "prompts", cmd_prompts)
    _register_approve(_add(sub, "approve", cmd_approve))
    p = _add(sub, "deny", cmd_deny)
    p.add_argument("id", help="prompt id from `paw prompts`")
    p = _add(sub, "log", cmd_log)
    p.add_argument("-n", type=_count, default=20, help="how many records (default 20)")
    _add(sub, "stats", cmd_stats)


def _register_spawn(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", help="the agent's name (also its worktree and branch suffix)")
    p.add_argument("--agent", required=True, metavar="KIND", help=f"agent kind: {KINDS_HELP}")
    task = p.add_mutually_exclusive_group()
    task.add_argument("--task", help="the task text")
    task.add_argument("--task-file", metavar="FILE", help="read the task from FILE")
    p.add_argument("--base", metavar="REF", help="base of the new branch (default: checked out)")
    p.add_argument(
        "--host", metavar="NAME",
        help="run the agent on a host added with `paw host add` (default: this machine)",
    )  # fmt: skip
    p.add_argument(
        "--resume", action="store_true",
        help="start it in NAME's existing worktree (one `paw archive restore` put back)",
    )  # fmt: skip
    p.add_argument(
        "--startup-timeout", type=_seconds, metavar="SECONDS",
        help="how long to wait for the agent to come up (default: its startup_timeout_s, 60)",
    )  # fmt: skip


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"not a positive whole number: {text!r}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"not a positive number of seconds: {text!r}")
    return value


def _register_approve(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", help="prompt id from `paw prompts`")
    p.add_argument("--always", action="store_true", help="pick the prompt's 'always' option")
    p.add_argument("--yes", action="store_true", help="confirm a confirm-verdict without asking")
    p.add_argument("--override", metavar="REASON", help="send despite a block; REASON is recorded")
