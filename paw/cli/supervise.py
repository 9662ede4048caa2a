"""`paw` sub-commands of the supervisor: init, config check, spawn, ls, attach, send, stop, rm,
adopt, prompts, approve, deny, log, stats. Handlers return a :class:`~paw.cli.result.Result`
that the one renderer prints (`paw attach` execs tmux; docs/cli.md)."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from paw.cli import EXIT_ERROR, EXIT_USAGE, UsageError, error_object
from paw.cli.result import Lines, Result, json_of, lines_of
from paw.core.channels.fuse import source_label, source_text
from paw.core.detect.registry import agent_kinds
from paw.core.names import name_problem
from paw.errors import PawError
from paw.supervisor.model import AgentStatus, Outcome
from paw.supervisor.stats import COLUMNS

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from paw.supervisor.api import Operations
    from paw.supervisor.model import AgentView, Decision, LivePrompt, Snapshot
    from paw.supervisor.spawn import Startup

Sub = "argparse._SubParsersAction[argparse.ArgumentParser]"
EXIT_NEEDS_CONFIRMATION = 3
EXIT_NEEDS_OVERRIDE = 4
EXIT_WAITING_FOR_YOU = 5
EXIT_DELIVERY_UNKNOWN = 6  # approve/deny: the keys may have reached the agent (a host's link)


def _supervisor(args: argparse.Namespace, *, counts: bool = True) -> Operations:
    """The supervisor of ``-C DIR``'s repository (a fleet with hosts); ``counts=False`` for
    commands that show no worktree counts (their sweep runs no git)."""
    from paw.cli.compose import build_fleet

    return build_fleet(args.repo, counts=counts)


@contextlib.contextmanager
def _counting_supervisor(args: argparse.Namespace) -> Iterator[Operations]:
    """:func:`_supervisor` for a command whose first sweep counts every worktree and shows
    no prompt (`paw ls`): the agents' `git status` start before paw.toml's models and the
    rest of the supervisor are even imported (:class:`~paw.adapters.git.runner.EarlyStatuses`),
    and run meanwhile; prompts already seen are not judged again (see ``build_fleet``)."""
    from paw.adapters.git.runner import EarlyStatuses
    from paw.cli.common import find_repo_root

    root = find_repo_root(args.repo)
    early = EarlyStatuses(_counted_worktrees(root))
    try:
        from paw.cli.compose import build_fleet

        yield build_fleet(args.repo, prompts=False, root=root, early=early)
    finally:
        early.close()


def _counted_worktrees(root: str) -> list[str]:
    """The worktrees a first sweep counts (agents paw created, with no spawn or removal under
    way), read from ``.paw/agents.json`` without the records' models (pydantic is not even
    imported yet). Only which statuses start early depends on it: the sweep reads the
    records properly and counts whatever this missed ([] when the file cannot be read)."""
    from paw.adapters.state import StateStore
    from paw.cli.common import STATE_DIR

    try:
        data = StateStore(Path(root) / STATE_DIR).read("agents") or {}
    except (PawError, OSError):
        return []
    items = data.get("agents")
    if not isinstance(items, list):
        return []
    return [
        item["worktree"]
        for item in items
        if isinstance(item, dict)
        and isinstance(item.get("worktree"), str)
        and not item.get("adopted")
        and item.get("pending") is None
    ]


def _check_name(name: str) -> None:
    problem = name_problem(name)
    if problem is not None:
        raise UsageError(problem)


# -- handlers ----------------------------------------------------------------------------------


def cmd_init(args: argparse.Namespace) -> Result:
    """Write a commented paw.toml at the repository root."""
    from paw.adapters.config_file import write_default_config
    from paw.cli.compose import CONFIG_NAME, find_repo_root

    path = Path(find_repo_root(args.repo)) / CONFIG_NAME
    replaced = path.exists()
    write_default_config(path, overwrite=args.force)
    if args.json:
        return json_of({"file": str(path), "written": True, "replaced": replaced})
    return lines_of(
        f"{'replaced' if replaced else 'wrote'} {path} (every setting commented out)",
        "  check it with: paw config check",
    )


def cmd_config_check(args: argparse.Namespace) -> Result:
    """List every problem of paw.toml."""
    from paw.cli.compose import CONFIG_NAME, config_problems, find_repo_root

    root = find_repo_root(args.repo)
    path = Path(root) / CONFIG_NAME
    if not path.exists():
        if args.json:
            return json_of({"file": str(path), "exists": False, "problems": []})
        return lines_of(f"{path.name}: not found (paw uses its defaults; `paw init` writes one)")
    problems = config_problems(path, root)
    code = EXIT_USAGE if problems else 0
    if args.json:
        data: dict[str, object] = {"file": str(path), "exists": True, "problems": problems}
        if problems:
            data["error"] = error_object(
                f"{len(problems)} problem(s) in {path.name}", code=EXIT_USAGE
            )
        return json_of(data, code=code)
    return lines_of("\n".join(problems) if problems else f"{path.name}: ok", code=code)


def _task(args: argparse.Namespace) -> str | None:
    if args.task_file is None:
        return str(args.task) if args.task is not None else None
    try:
        return Path(args.task_file).read_text(encoding="utf-8").strip()
    except OSError as err:
        raise UsageError(f"cannot read task file {args.task_file}: {err.strerror}") from err


def cmd_spawn(args: argparse.Namespace) -> Result:
    """Create a worktree and a pane, launch the agent, and wait until it is up."""
    _check_name(args.name)
    from paw.core.agents import profile_for, unknown_kind_hint

    sup = _supervisor(args)
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
        data = {"agent": _agent_json(view), "startup": _startup_json(startup)}
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


def _agent_json(view: AgentView, *, tmux_ok: bool = True) -> dict[str, object]:
    data = dataclasses.asdict(view)
    data["status"] = view.status.value if tmux_ok else AgentStatus.UNKNOWN.value
    if not tmux_ok:
        data["alive"] = None  # unknown: the pane cannot be read
    return data


_ALIVE = {True: "yes", False: "no", None: "?"}  # None: unknown (tmux or the host unreadable)


def _tmux_gone(snap: Snapshot) -> str:
    """One sentence, the same for `ls` and `prompts`, when tmux cannot be read."""
    return f"{snap.error or 'tmux cannot be reached'}; the agents' state is unknown"


TMUX_HINT = "`tmux ls` (or `tmux -L NAME ls` for a private socket) shows whether it runs"


def cmd_ls(args: argparse.Namespace) -> Result:
    """List the agents."""
    with _counting_supervisor(args) as sup:
        snap = sup.poll_once()
    views = snap.agents
    down = sup.unreachable()
    if args.json:
        return _ls_json(snap, down)
    if not views:
        return lines_of("no agents (start one with `paw spawn NAME --agent KIND`)")
    rows: list[tuple[str, ...]] = [
        (
            "NAME",
            "KIND",
            "PANE",
            "ALIVE",
            "STATE",
            "BRANCH",
            "UNCOMMITTED",
            "UNTRACKED",
            "AHEAD",
            "BEHIND",
        )
    ]
    for v in views:
        s = v.stat
        counts = (s.uncommitted, s.untracked, s.ahead, s.behind) if s.counted else ("?",) * 4
        alive = _ALIVE[v.alive] if snap.tmux_ok else _ALIVE[None]
        status = v.status.value if snap.tmux_ok else AgentStatus.UNKNOWN.value
        row = (v.name, v.kind, v.pane_id or "-", alive, status, v.branch or "-")
        rows.append(row + tuple(str(c) for c in counts))
    said = Lines()
    for line in _table(_with_hosts(rows, views)):
        said.out(line)
    for v in views:
        if v.status is AgentStatus.WAITING and snap.tmux_ok:
            said.out(f"{v.name} {v.note}; answer it in the pane: paw attach {v.name}")
        elif v.operation is not None:
            said.out(f"{v.name} {v.note}")
        if v.version_note:
            said.out(f"{v.name} {v.version_note}")
    if not snap.tmux_ok:
        said.err(f"paw: {_tmux_gone(snap)}\nhint: {TMUX_HINT}")
        return said.result(EXIT_ERROR)
    if down:
        said.err(f"paw: {_hosts_down(down)}\nhint: {HOST_HINT}")
        return said.result(EXIT_ERROR)
    return said.result()


def _ls_json(snap: Snapshot, down: dict[str, str]) -> Result:
    agents = [_agent_json(v, tmux_ok=snap.tmux_ok) for v in snap.agents]
    return _report_json("agents", agents, snap, down)


def _report_json(
    key: str, items: list[dict[str, object]], snap: Snapshot, down: dict[str, str]
) -> Result:
    """Print ``{key: items}`` with the hosts that did not answer and the error object (tmux
    gone, or hosts down); exit 1 when any part of the picture is missing."""
    data: dict[str, object] = {key: items}
    if down:
        data["unreachable"] = down
    if not snap.tmux_ok:
        data["error"] = error_object(_tmux_gone(snap), hint=TMUX_HINT)
    elif down:
        data["error"] = error_object(_hosts_down(down), hint=HOST_HINT)
    return json_of(data, code=0 if snap.tmux_ok and not down else EXIT_ERROR)


def _with_hosts(rows: list[tuple[str, ...]], views: Sequence[AgentView]) -> list[tuple[str, ...]]:
    """A HOST column after NAME when paw drives hosts (none otherwise)."""
    if all(v.host is None for v in views):
        return rows
    return [(rows[0][0], "HOST", *rows[0][1:])] + [
        (r[0], v.host or "local", *r[1:]) for r, v in zip(rows[1:], views, strict=True)
    ]


HOST_HINT = "`paw host check NAME` tries the connection; agents there keep running meanwhile"


def _hosts_down(down: dict[str, str]) -> str:
    """One sentence naming the hosts paw cannot reach."""
    said = "; ".join(f"host {name} unreachable ({why})" for name, why in down.items())
    return f"{said}; its agents' state is unknown"


def _table(rows: Sequence[tuple[str, ...]]) -> list[str]:
    """The rows as lines, each column as wide as its widest cell."""
    from paw.cli.output import cell  # escaped before measuring: columns line up on what shows

    rows = [tuple(cell(c) for c in row) for row in rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows
    ]


def cmd_attach(args: argparse.Namespace) -> int | Result:
    """Attach the terminal to the agent's pane."""
    argv = _supervisor(args).attach_argv(args.name)
    if args.print:
        return lines_of(" ".join(argv))
    if "switch-client" not in argv and not sys.stdin.isatty():
        # tmux itself would only say "open terminal failed: not a terminal"
        raise PawError(
            "`paw attach` needs a terminal: its input is not one",
            hint=f"run it in a terminal; `paw attach {args.name} --print` prints the tmux command",
        )
    if os.environ.get("TMUX") and "switch-client" not in argv:
        print(NESTED_NOTE, file=sys.stderr)
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

    sup = _supervisor(args)
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
    sup = _supervisor(args)
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
    said = _supervisor(args).remove(args.name, force=args.force)
    if args.json:
        return json_of({"agent": args.name, "removed": True, "message": said})
    return lines_of(said)


def cmd_adopt(args: argparse.Namespace) -> Result:
    """Supervise an existing agent pane."""
    if args.name is not None:
        _check_name(args.name)
    view = _supervisor(args).adopt(args.pane, name=args.name, kind=args.agent)
    if args.json:
        return json_of({"agent": _agent_json(view)})
    return lines_of(f"adopted pane {view.pane_id} as {view.name} ({view.kind})")


def _prompt_json(p: LivePrompt, now: float) -> dict[str, object]:
    return {
        "id": p.id, "agent": p.agent, "kind": p.kind, "pane": p.pane_id,
        "prompt_kind": p.prompt.kind.value, "subject": p.prompt.subject,
        "question": p.prompt.question, "age_s": round(now - p.first_seen, 1),
        "waiting": p.prompt.needs_human,
        **p.source.to_dict(),
        **p.verdict.to_dict(),
    }  # fmt: skip


def cmd_prompts(args: argparse.Namespace) -> Result:
    """List live prompts with the guard's verdict."""
    sup = _supervisor(args, counts=False)
    snap = sup.poll_once()
    items = [_prompt_json(p, snap.taken_at) for p in snap.prompts]
    down = sup.unreachable()
    if args.json:
        return _report_json("prompts", items, snap, down)
    said = Lines()
    if down:
        said.err(f"paw: {_hosts_down(down)}\nhint: {HOST_HINT}")
    if not snap.tmux_ok:  # (as a PawError raised here would say it)
        said.err(f"paw: {_tmux_gone(snap)}")
        said.err(f"hint: {TMUX_HINT}")
        return said.result(EXIT_ERROR)
    if not items:
        said.out("no live prompts")
        return said.result(EXIT_ERROR if down else 0)
    rows = [("ID", "AGENT", "PROMPT", "VERDICT", "FROM", "AGE", "SUBJECT")]
    rows += [
        (p.id, p.agent, p.prompt.kind.value, p.verdict.action.value, source_label(p.source),
         f"{i['age_s']}s", str(i["subject"] or i["question"]))
        for p, i in zip(snap.prompts, items, strict=True)
    ]  # fmt: skip
    for line in _table(rows):
        said.out(line)
    for p, i in zip(snap.prompts, items, strict=True):
        if p.source.name not in ("screen", "agree"):  # (FROM says these two)
            said.out(f"{p.id}: {source_text(p.source)}")
        reasons = i["reasons"] if isinstance(i["reasons"], list) else []
        if i["waiting"]:
            said.out(f"{i['id']}: a dialog, not a tool permission: answer it in the pane "
                     f"(paw attach {i['agent']})")  # fmt: skip
        elif reasons:
            said.out(f"{i['id']}: " + "; ".join(str(r) for r in reasons))
    return said.result(EXIT_ERROR if down else 0)


def _decision_json(d: Decision) -> dict[str, object]:
    data: dict[str, object] = {
        "outcome": d.outcome.value, "prompt_id": d.prompt_id, "reason": d.reason,
        "keys": list(d.keys), "verdict": d.verdict.to_dict() if d.verdict else None,
        "confirmation": d.confirmation,
    }  # fmt: skip
    if _EXIT[d.outcome]:
        data["error"] = error_object(
            f"{d.outcome.value}: {d.reason}", hint=_hint(d), code=_EXIT[d.outcome]
        )
    return data


def _ask_yes(text: str) -> bool:
    if not sys.stdin.isatty():
        return False
    print(text)
    return input("approve? [y/N] ").strip().lower() in ("y", "yes")


def cmd_approve(args: argparse.Namespace) -> Result:
    """Approve a live prompt (after re-verifying it)."""
    sup = _supervisor(args, counts=False)
    options = {"always": args.always, "override": args.override}
    decision = sup.approve(args.id, confirmed=args.yes, **options)
    needs = decision.outcome is Outcome.NEEDS_CONFIRMATION and not args.json
    if needs and _ask_yes(decision.confirmation or decision.reason):
        decision = sup.approve(args.id, confirmed=True, **options)
    return _report(args, decision)


def cmd_deny(args: argparse.Namespace) -> Result:
    """Deny a live prompt (after re-verifying it)."""
    return _report(args, _supervisor(args, counts=False).deny(args.id))


_EXIT = {
    Outcome.SENT: 0,
    Outcome.SENT_UNCONFIRMED: 0,
    Outcome.REFUSED: 1,
    Outcome.NEEDS_CONFIRMATION: EXIT_NEEDS_CONFIRMATION,
    Outcome.NEEDS_OVERRIDE: EXIT_NEEDS_OVERRIDE,
    Outcome.DELIVERY_UNKNOWN: EXIT_DELIVERY_UNKNOWN,
}


_HINTS = {
    Outcome.NEEDS_CONFIRMATION: "to confirm, run `paw approve {id} --yes`",
    Outcome.NEEDS_OVERRIDE: '`paw approve {id} --override "REASON"` sends anyway (recorded)',
    Outcome.DELIVERY_UNKNOWN: (
        "do not answer it in the pane blind: `paw log` shows the outcome once the host answers "
        "(not-delivered: the prompt is offered again; sent: it was answered)"
    ),
}


def _hint(d: Decision) -> str | None:
    hint = _HINTS.get(d.outcome)
    return hint.format(id=d.prompt_id or "ID") if hint else None


def _report(args: argparse.Namespace, d: Decision) -> Result:
    code = _EXIT[d.outcome]
    if args.json:
        return json_of(_decision_json(d), code=code)
    said = Lines()
    if d.outcome in (Outcome.SENT, Outcome.SENT_UNCONFIRMED):
        note = "" if d.outcome is Outcome.SENT else " (the prompt still shows; check the pane)"
        said.out(f"sent {' '.join(d.keys)} to prompt {d.prompt_id}: {d.reason}{note}")
    else:
        # the reason already names the outcome ("needs confirmation: …"): say it once
        head = d.outcome.value.replace("-", " ")
        reason = d.reason if d.reason.startswith(head) else f"{head}: {d.reason}"
        said.err(f"paw: {reason}")
        if d.confirmation:
            said.err(d.confirmation)
        hint = _hint(d)
        if hint:  # last, where the eye lands: what actually answers this (not a "YES" reply)
            said.err(f"hint: {hint}")
    return said.result(code)


def cmd_log(args: argparse.Namespace) -> Result:
    """Show the last audit records."""
    records = _supervisor(args).audit_tail(args.n)
    if args.json:
        return json_of({"records": records})
    if not records:
        return lines_of("no audit records yet (.paw/audit.jsonl)")
    rows = [("TIME", "EVENT", "AGENT", "DECISION", "DETAIL")]
    for r in records:
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(str(r.get("time", 0)))))
        detail = r.get("reason") or r.get("outcome") or r.get("subject") or r.get("text") or ""
        rows.append(
            (when, str(r.get("event", "-")), str(r.get("agent") or "-"),
             str(r.get("decision") or "-"), str(detail).replace("\n", " "))
        )  # fmt: skip
    return lines_of(*_table(rows))


def cmd_stats(args: argparse.Namespace) -> Result:
    """Counts per agent and overall from the audit log."""
    table = _supervisor(args).stats()
    if args.json:
        return json_of({"stats": table})
    rows = [("AGENT", *(c.upper() for c in COLUMNS))]
    rows += [(name, *(str(row[c]) for c in COLUMNS)) for name, row in table.items()]
    return lines_of(*_table(rows))


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

EPILOGS = {
    "init": """examples:
  paw init
  paw init --force   (replace an existing paw.toml)

Lines "# text" explain; delete the "#" of a "#key = value" line to use that setting.""",
    "check": "example:\n  paw config check\n\nexit 2 when paw.toml has problems",
    "spawn": """examples:
  paw spawn alice --agent claude-code --task 'fix the flaky test'
  paw spawn bob --agent aider --task-file TASK.md --base develop
  paw spawn carol --agent my-agent --startup-timeout 120   (a kind from [agents.my-agent])
  paw spawn alice --agent claude-code --resume   (alice's worktree, after `paw archive restore`)

paw waits (on the wall clock, up to the kind's startup_timeout_s, default 60 s) until the
agent is up: it shows its input (a stdin-typed task is typed then), works on its task, or asks
for something. Exit 0 up, 1 died on start (its last lines are shown), 5 waiting for you (a
start-up dialog such as trust-this-folder or sign-in: answer it with `paw attach NAME`).

Names: letters, digits, '-' and '_' (no spaces, quotes, ';', '..', ':' or '%').""",
    "ls": """examples:
  paw ls
  paw ls --json | jq -r '.agents[] | select(.status == "prompt") | .name'

Without the tmux server the state is "unknown" (not "exited") and paw ls exits 1.""",
    "attach": """example:
  paw attach alice   (detach again with your tmux prefix + d)

Inside tmux on paw's own server it switches your client to the agent's pane. Inside another
tmux server it nests a client (and says so): your prefix then goes to your outer tmux, so
detach from the agent's pane with the prefix twice, then d (C-b C-b d with tmux's defaults).""",
    "send": """example:
  paw send alice 'also update the changelog'
  paw send alice 'run the tests again' --json

The text is typed literally (never read as tmux key names) as ONE line (line breaks become
spaces; other control characters refuse it), then Enter. Only into an agent whose screen paw
reads as idle or busy with an empty input line, proven on a fresh capture right before typing
and again before the Enter; refused (exit 1, recorded in `paw log`) while it shows a prompt or
a dialog (use approve/deny, or answer it in `paw attach`), a screen or an input paw cannot
read, or a line someone is typing; and when the typed text never shows in the input (then no
Enter is pressed). --json reports a refusal as {"refused": REASON, "typed": BOOL, "error": …}.""",
    "stop": """examples:
  paw stop alice   (worktree and branch stay; `paw rm` removes them)
  paw stop alice --json""",
    "rm": """examples:
  paw rm alice
  paw rm --force alice   (archives everything to refs/paw/archive/... first)

An adopted agent has no paw worktree: rm stops supervising it and leaves the pane you
started running (`paw stop NAME` first ends it).""",
    "adopt": "examples:\n  paw adopt %12\n  paw adopt %12 --agent codex --name reviewer",
    "prompts": """examples:
  paw prompts
  paw prompts --json | jq -r '.prompts[] | select(.verdict == "allow") | .id'""",
    "approve": """examples:
  paw approve 3f9c2a1b0d
  paw approve 3f9c2a1b0d --yes
  paw approve 3f9c2a1b0d --override 'reviewed: pushes to my fork'

Exit codes: 0 sent, 1 refused, 3 needs confirmation (--yes), 4 blocked (--override),
6 delivery unknown (a host's link dropped after the keys were handed to ssh: they may have
arrived; paw reconciles from the host's screen once it answers and sends nothing meanwhile).""",
    "deny": """examples:
  paw deny 3f9c2a1b0d
  paw deny 3f9c2a1b0d --json

A prompt already answered is refused: "already answered", nothing sent.
Exit 6: delivery unknown (a host's link dropped while the keys were on their way).""",
    "log": "examples:\n  paw log -n 50\n  paw log --json",
    "stats": "examples:\n  paw stats\n  paw stats --json | jq .stats.all",
}
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
