"""The commands that read the picture: `paw ls`, `paw prompts`, `paw log` and `paw stats`, and
the tables and JSON objects they print."""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING

from paw.cli import EXIT_ERROR, error_object
from paw.cli.repo_supervisor import counting_supervisor, supervisor_of
from paw.cli.result import Lines, json_of, lines_of
from paw.core.channels.fuse import source_label, source_text
from paw.supervisor.model import AgentStatus
from paw.supervisor.stats import COLUMNS

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from paw.cli.result import Result
    from paw.core.usage import UsageReading
    from paw.supervisor.api import Operations
    from paw.supervisor.model import AgentView, LivePrompt, Snapshot


def agent_json(view: AgentView, *, tmux_ok: bool = True) -> dict[str, object]:
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
    """List the agents.

    TOKENS: what each agent used, read from its own records (Claude Code, Codex, Gemini CLI,
    Qwen Code, opencode, Kilo Code: paw.core.usage; `?` where none is found yet, no column when
    no agent's are read).
    --json: `usage` per agent (tokens in, out, cached; null when unknown) and
    `usage_unknown` (why it, or its price, is not known)."""
    with counting_supervisor(args) as sup:
        snap = sup.poll_once()
    views = snap.agents
    down = sup.unreachable()
    usages = _usages(sup, views)
    if args.json:
        return _ls_json(snap, down, usages)
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
            "TOKENS",
        )
    ]
    for v in views:
        s = v.stat
        counts = (s.uncommitted, s.untracked, s.ahead, s.behind) if s.counted else ("?",) * 4
        alive = _ALIVE[v.alive] if snap.tmux_ok else _ALIVE[None]
        status = v.status.value if snap.tmux_ok else AgentStatus.UNKNOWN.value
        row = (v.name, v.kind, v.pane_id or "-", alive, status, v.branch or "-")
        rows.append(row + tuple(str(c) for c in counts) + (_tokens_cell(usages.get(v.name)),))
    if all(r[-1] == "-" for r in rows[1:]):
        rows = [r[:-1] for r in rows]  # no agent whose usage paw reads: no TOKENS column
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


def _usages(sup: Operations, views: Sequence[AgentView]) -> dict[str, UsageReading]:
    """Each agent's usage, read from its agent's own records (see paw.cli.cost)."""
    from paw.cli.cost import agent_usages
    from paw.errors import PawError

    if not views:
        return {}
    ctx = sup.ctx
    try:
        return agent_usages(
            ctx.repo_root, ctx.config, [(v.name, v.kind, v.worktree, v.host) for v in views]
        )
    except (PawError, OSError):
        return {}  # said per agent as unknown


def _tokens_cell(reading: UsageReading | None) -> str:
    """TOKENS in `paw ls`: the total, ``?`` where paw reads the agent's records but found no
    usage, ``-`` where it does not read them."""
    from paw.core.usage import compact_tokens

    if reading is None or reading.source is None:
        return "-"
    return "?" if reading.usage is None else compact_tokens(reading.usage.total_tokens)


def _ls_json(snap: Snapshot, down: dict[str, str], usages: dict[str, UsageReading]) -> Result:
    from paw.core.usage import UsageReading as Reading
    from paw.core.usage import unknown_reason, usage_json

    agents = []
    for v in snap.agents:
        data = agent_json(v, tmux_ok=snap.tmux_ok)
        reading = usages.get(v.name) or Reading(None, unknown="its usage could not be read")
        data["usage"] = usage_json(reading)
        data["usage_unknown"] = unknown_reason(reading)
        agents.append(data)
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


def _prompt_json(p: LivePrompt, now: float) -> dict[str, object]:
    return {
        "id": p.id, "agent": p.agent, "kind": p.kind, "pane": p.pane_id,
        "prompt_kind": p.prompt.kind.value, "subject": p.prompt.subject,
        "question": p.prompt.question, "age_s": round(now - p.first_seen, 1),
        "waiting": p.only_in_the_pane,
        **p.source.to_dict(),
        **p.verdict.to_dict(),
    }  # fmt: skip


def cmd_prompts(args: argparse.Namespace) -> Result:
    """List live prompts with the guard's verdict."""
    sup = supervisor_of(args, counts=False)
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


def cmd_log(args: argparse.Namespace) -> Result:
    """Show the last audit records."""
    records = supervisor_of(args).audit_tail(args.n)
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
    table = supervisor_of(args).stats()
    if args.json:
        return json_of({"stats": table})
    rows = [("AGENT", *(c.upper() for c in COLUMNS))]
    rows += [(name, *(str(row[c]) for c in COLUMNS)) for name, row in table.items()]
    return lines_of(*_table(rows))
