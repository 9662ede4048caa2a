"""Pure formatting for the TUI: durations, diff stats, ordering and counts.

No Textual here beyond Rich ``Text``; everything takes the time as a parameter so screens are
deterministic (ages are measured against the sweep's ``taken_at``, not a clock).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rich.text import Text

from paw.core.models import Action
from paw.core.printable import printable_line
from paw.supervisor.model import LOCAL_HOST, AgentStatus

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from paw.supervisor.model import AgentView, LivePrompt, WorktreeStat

VERDICT_STYLE = {
    Action.ALLOW: "bold green",
    Action.CONFIRM: "bold yellow",
    Action.BLOCK: "bold red",
}

STATUS_STYLE = {
    AgentStatus.PROMPT: "bold yellow",
    AgentStatus.WAITING: "bold yellow",
    AgentStatus.BUSY: "cyan",
    AgentStatus.IDLE: "green",
    AgentStatus.UNKNOWN: "magenta",
    AgentStatus.EXITED: "dim",
    AgentStatus.LOST: "bold red",
    AgentStatus.SERVER_RESTARTED: "bold red",
    AgentStatus.REPLACED: "bold red",
}

# Waiting agents first, then those working, then the quiet ones.
_STATUS_ORDER = {
    AgentStatus.PROMPT: 0,
    AgentStatus.WAITING: 0,
    AgentStatus.BUSY: 1,
    AgentStatus.UNKNOWN: 2,
    AgentStatus.IDLE: 3,
    AgentStatus.REPLACED: 4,
    AgentStatus.SERVER_RESTARTED: 4,
    AgentStatus.LOST: 4,
    AgentStatus.EXITED: 5,
}

_UNITS = ((86400, "d"), (3600, "h"), (60, "m"))


def format_duration(seconds: float) -> str:
    """A short human duration: ``"42s"``, ``"3m"``, ``"2h05m"``, ``"1d"``.

    >>> format_duration(42), format_duration(185), format_duration(7500), format_duration(90000)
    ('42s', '3m', '2h05m', '1d')
    """
    total = max(0, int(seconds))
    if total < 60:
        return f"{total}s"
    if total < 3600:
        return f"{total // 60}m"
    if total < 86400:
        hours, rest = divmod(total, 3600)
        return f"{hours}h{rest // 60:02d}m"
    return f"{total // 86400}d"


def format_stat(stat: WorktreeStat) -> str:
    """A short diff stat: ``+12 -3 ~2 ?1 ↑1 ↓0`` with zero parts left out; ``clean`` when empty;
    ``-`` when there is no count (never "clean" for a worktree paw could not count).

    >>> from paw.supervisor.model import WorktreeStat
    >>> format_stat(WorktreeStat(uncommitted=2, insertions=12, deletions=3, ahead=1))
    '+12 -3 ~2 ↑1'
    >>> format_stat(WorktreeStat())
    'clean'
    >>> format_stat(WorktreeStat(counted=False))
    '-'
    """
    if not stat.counted:
        return "-"
    parts = [
        (stat.insertions, "+"),
        (stat.deletions, "-"),
        (stat.uncommitted, "~"),
        (stat.untracked, "?"),
        (stat.ahead, "↑"),
        (stat.behind, "↓"),
    ]
    shown = [f"{mark}{count}" for count, mark in parts if count]
    return " ".join(shown) if shown else "clean"


def format_status(agent: AgentView, now: float) -> Text:
    """The agent's status with the time it has been in it, coloured. The same label is the
    same Text (never to be changed in place): a table compares a cell that did not change by
    identity, two hundred of them a sweep."""
    label = f"{agent.status.value} {format_duration(now - agent.status_since)}"
    text = _STATUS_TEXTS.get(label)
    if text is None:
        if len(_STATUS_TEXTS) >= 4096:
            _STATUS_TEXTS.clear()
        text = _STATUS_TEXTS[label] = Text(label, style=STATUS_STYLE.get(agent.status, ""))
    return text


_STATUS_TEXTS: dict[str, Text] = {}  # label -> its Text (the label starts with the status)


def format_verdict(prompt: LivePrompt, width: int = 34) -> Text:
    """The verdict word, coloured, then its first reason cut to fit ``width`` cells."""
    action = prompt.verdict.action
    text = Text(action.value, style=VERDICT_STYLE[action])
    reasons = prompt.verdict.reasons
    if reasons:
        more = f" +{len(reasons) - 1}" if len(reasons) > 1 else ""
        room = width - len(action.value) - 1 - len(more)
        text.append(" " + shorten(reasons[0], room))
        text.append(more, style="dim")
    return text


def shorten(text: str, width: int) -> str:
    """``text`` on one line, cut with an ellipsis to at most ``width`` characters; control,
    bidi and zero-width characters show as escapes (:mod:`paw.core.printable`).

    >>> shorten("git  push   origin main", 12)
    'git push or…'
    >>> shorten("echo \\u202eexe.txt", 40)
    'echo \\\\u202eexe.txt'
    """
    one_line = printable_line(" ".join(text.split()))
    if len(one_line) <= width:
        return one_line
    return one_line[: max(width - 1, 0)] + "…"


def sort_agents(agents: Iterable[AgentView]) -> list[AgentView]:
    """Waiting agents first (longest waiting first), then busy, unknown, idle, exited.

    Within the other statuses agents are sorted by name, so rows do not jump around.
    """

    def key(agent: AgentView) -> tuple[int, float, str]:
        waits = agent.status in (AgentStatus.PROMPT, AgentStatus.WAITING)
        waited = agent.status_since if waits else 0.0
        return (_STATUS_ORDER.get(agent.status, 9), waited, agent.name)

    return sorted(agents, key=key)


def sort_prompts(prompts: Iterable[LivePrompt]) -> list[LivePrompt]:
    """Oldest first (ties broken by agent name)."""
    return sorted(prompts, key=lambda p: (p.first_seen, p.agent))


def count_statuses(agents: Sequence[AgentView]) -> dict[str, int]:
    """Counts for the header: running (busy or unknown), waiting, idle, exited, and (only when
    there are any) lost: agents paw cannot prove (server gone or restarted, process replaced)."""
    counts = Counter(a.status for a in agents)
    lost = sum(counts[s] for s in _UNPROVEN)
    found = {
        "running": counts[AgentStatus.BUSY] + counts[AgentStatus.UNKNOWN],
        "waiting": counts[AgentStatus.PROMPT] + counts[AgentStatus.WAITING],
        "idle": counts[AgentStatus.IDLE],
        "exited": counts[AgentStatus.EXITED],
    }
    return {**found, "lost": lost} if lost else found


# Agents paw cannot prove: never counted as exited, never approvable.
_UNPROVEN = (AgentStatus.LOST, AgentStatus.SERVER_RESTARTED, AgentStatus.REPLACED)


def matches_filter(agent: AgentView, needle: str) -> bool:
    """Whether ``needle`` (case-insensitive) appears in the agent's name, kind, branch, status,
    task or host."""
    if not needle:
        return True
    low = needle.lower()
    fields = (
        agent.name, agent.kind, agent.branch, agent.status.value, agent.task or "",
        agent.host or "",
    )  # fmt: skip
    return any(low in f.lower() for f in fields)


def format_name(agent: AgentView) -> str | Text:
    """The agent's name, and where paw also drives hosts, the host of one that runs on one
    (``api @gpu1``; this machine's agents keep their bare name)."""
    if agent.host in (None, LOCAL_HOST):
        return agent.name
    return Text.assemble(agent.name, (f" @{agent.host}", "dim"))


def render_diff(diff: str) -> Text:
    """Colour a unified diff: additions green, deletions red, hunks cyan, headers bold."""
    text = Text()
    for line in diff.splitlines():
        text.append(line + "\n", style=_diff_line_style(line))
    return text


def _diff_line_style(line: str) -> str:
    if line.startswith(("+++", "---", "diff ", "index ")):
        return "bold"
    if line.startswith("+"):
        return "green"
    if line.startswith("-"):
        return "red"
    if line.startswith("@@"):
        return "cyan"
    return ""
