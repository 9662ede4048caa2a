"""The commands on one agent: `paw spawn`, `attach`, `send`, `stop`, `rm` and `adopt`."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from paw.cli import UsageError, error_object
from paw.cli.listing import agent_json
from paw.cli.repo_supervisor import supervisor_of
from paw.cli.result import ERR, Lines, json_of, lines_of, write_live
from paw.core.names import name_problem
from paw.errors import PawError

if TYPE_CHECKING:
    import argparse

    from paw.cli.result import Result
    from paw.supervisor.spawn import Startup

EXIT_WAITING_FOR_YOU = 5  # spawn: the agent shows a start-up dialog a human answers


def check_name(name: str) -> None:
    problem = name_problem(name)
    if problem is not None:
        raise UsageError(problem)


def _task(args: argparse.Namespace) -> str | None:
    if args.task_file is None:
        return str(args.task) if args.task is not None else None
    try:
        return Path(args.task_file).read_text(encoding="utf-8").strip()
    except OSError as err:
        raise UsageError(f"cannot read task file {args.task_file}: {err.strerror}") from err


def cmd_spawn(args: argparse.Namespace) -> Result:
    """Create a worktree and a pane, launch the agent, and wait until it is up."""
    check_name(args.name)
    from paw.core.agents import profile_for, unknown_kind_hint

    sup = supervisor_of(args)
    if profile_for(sup.ctx.config, args.agent) is None:
        hint = unknown_kind_hint(sup.ctx.config, args.agent)  # one line: a usage error
        raise UsageError(f"unknown agent kind {args.agent!r}: {hint}")
    options = {"startup_timeout_s": args.startup_timeout, "resume": args.resume}
    if args.host not in (None, "local") and not sup.hosts():
        raise UsageError(f"no host named {args.host!r} (add one with `paw host add`)")
    view, startup = sup.spawn_agent(
        args.name, args.agent, _task(args), args.base, host=args.host, **options
    )
    waiting = startup.outcome.state.value == "waiting"
    if args.json:
        data = {"agent": agent_json(view), "startup": _startup_json(startup)}
        return json_of(data, code=EXIT_WAITING_FOR_YOU if waiting else 0)
    said = Lines()
    where = f" on host {view.host}" if view.host not in (None, "local") else ""
    said.out(f"spawned {view.name} ({view.kind}) in pane {view.pane_id}{where} on {view.branch}")
    said.out(f"  worktree: {view.worktree}\n  attach:   paw attach {view.name}")
    if startup.task_typed:
        said.out("  task:     typed into its input")
    for note in startup.notes:
        said.err(f"warning: {note}")
    if not waiting:
        said.out(f"  ready:    {startup.outcome.detail} ({startup.waited_s:g}s)")
        return said.result()
    said.err(f"waiting for you ({view.name}): {startup.outcome.detail}")
    for line in startup.outcome.screen:
        said.err(f"  | {line}")
    then = (
        f"; then `paw send {view.name} TEXT` (its task was not typed)"
        if startup.task_typed is False
        else ""
    )
    said.err(f"hint: answer it in its pane: paw attach {view.name}{then}")
    return said.result(EXIT_WAITING_FOR_YOU)


def _startup_json(startup: Startup) -> dict[str, object]:
    out = startup.outcome
    return {
        "state": out.state.value, "detail": out.detail, "screen": list(out.screen),
        "task_typed": startup.task_typed, "waited_s": startup.waited_s,
        "notes": list(startup.notes),
    }  # fmt: skip


def cmd_attach(args: argparse.Namespace) -> int | Result:
    """Attach the terminal to the agent's pane."""
    argv = supervisor_of(args).attach_argv(args.name)
    if args.print:
        return lines_of(" ".join(argv))
    if "switch-client" not in argv and not sys.stdin.isatty():
        # tmux itself would only say "open terminal failed: not a terminal"
        raise PawError(
            "`paw attach` needs a terminal: its input is not one",
            hint=f"run it in a terminal; `paw attach {args.name} --print` prints the tmux command",
        )
    if os.environ.get("TMUX") and "switch-client" not in argv:
        write_live(NESTED_NOTE, ERR)
    _exec(argv)
    return 1  # only reached if exec returned


NESTED_NOTE = (
    "paw: attaching inside your own tmux (a nested client, paw's agents live on another tmux "
    "server): your prefix key goes to your tmux, so prefix d would detach YOUR session. To "
    "leave the agent's pane, press the prefix twice, then d (C-b C-b d with tmux's defaults)."
)


def _exec(argv: list[str]) -> None:
    os.execvp(argv[0], argv)  # noqa: S606 - replaces paw with tmux attach by design


def cmd_send(args: argparse.Namespace) -> Result:
    """Type text into the agent's input (one line) and press Enter, only into an empty input
    of an agent paw reads as idle or busy."""
    from paw.core.typed_text import one_line
    from paw.errors import TypingRefused

    sup = supervisor_of(args)
    try:
        sup.send(args.name, args.text)
    except TypingRefused as err:
        if not args.json:
            raise
        return json_of({
            "agent": args.name, "refused": err.reason, "typed": err.typed, "enter": False,
            "error": error_object(err.message, hint=err.hint),
        }, code=1)  # fmt: skip
    line = one_line(args.text)
    pane = sup.agent(args.name).pane_id
    if args.json:
        return json_of({"agent": args.name, "pane_id": pane, "text": line, "enter": True})
    shown = line if len(line) <= 60 else line[:57] + "..."
    return lines_of(
        f"typed {shown!r} and Enter into {args.name} (pane {pane}); recorded in `paw log`"
    )


def cmd_stop(args: argparse.Namespace) -> Result:
    """End the agent and its pane; keep the work."""
    sup = supervisor_of(args)
    record = sup.agent(args.name)
    sup.stop(args.name)
    if args.json:
        return json_of(
            {"agent": args.name, "stopped": True, "worktree": record.worktree,
             "branch": record.branch}
        )  # fmt: skip
    return lines_of(
        f"stopped {args.name} (worktree and branch kept; `paw rm {args.name}` removes them)"
    )


def cmd_rm(args: argparse.Namespace) -> Result:
    """Remove the agent's worktree and branch."""
    said = supervisor_of(args).remove(args.name, force=args.force)
    if args.json:
        return json_of({"agent": args.name, "removed": True, "message": said})
    return lines_of(said)


def cmd_adopt(args: argparse.Namespace) -> Result:
    """Supervise an existing agent pane."""
    if args.name is not None:
        check_name(args.name)
    view = supervisor_of(args).adopt(args.pane, name=args.name, kind=args.agent)
    if args.json:
        return json_of({"agent": agent_json(view)})
    return lines_of(f"adopted pane {view.pane_id} as {view.name} ({view.kind})")
