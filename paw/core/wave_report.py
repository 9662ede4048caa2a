"""What a wave tells people: escalation messages and the end report (pure)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from paw.core.redact import redact
from paw.core.wave import FINAL, Phase

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from paw.core.wave import PromptState, TaskState, WaveState


@dataclass(frozen=True, slots=True)
class Message:
    """One escalation: a title and a body, the full (local) and the redacted (outgoing) text."""

    event: str
    wave: str
    task: str | None
    prompt_id: str | None
    title: str
    body: str  # full text: the local audit and the terminal
    outgoing_title: str
    outgoing_body: str  # secrets redacted, and says so when it did
    redacted: bool
    level: str = "info"  # apprise's notify type: info, success, warning or failure
    # (label, one-occurrence link): a service with actions (ntfy) offers each as a button that
    # opens the link's page; never one that decides
    opens: tuple[tuple[str, str], ...] = ()


# How much each event matters to someone reading a phone: a failure reads as one.
LEVELS = {
    "task-failed": "failure", "wave-failed": "failure",
    "task-done": "success", "wave-done": "success",
    "parked": "warning", "reminder": "warning", "digest": "warning", "dialog": "warning",
    "stuck": "warning", "stuck-reminder": "warning", "wave-over-budget": "warning",
    "budget-warning": "warning", "budget-parked": "warning", "wave-budget-warning": "warning",
}  # fmt: skip


REDACTION_NOTE = "(paw redacted what looked like secrets; the full text is in .paw/audit.jsonl)"


def _age(seconds: float) -> str:
    s = max(0, int(seconds))
    if s < 120:
        return f"{s}s"
    if s < 7200:
        return f"{s // 60}m"
    return f"{s // 3600}h{(s % 3600) // 60:02d}m"


def plural(n: int, word: str) -> str:
    """``1 follow-up``, ``2 follow-ups``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def compose_message(
    event: str,
    wave: str,
    task: str | None,
    prompt_id: str | None,
    title: str,
    lines: list[str],
    repo: str = "",
    links: Sequence[str] = (),
    opens: Sequence[tuple[str, str]] = (),
    host: str = "",
) -> Message:
    """One message of a wave (or its landing): ``repo`` named in the title and the body, on
    ``host`` (the machine paw runs on: someone with several reads which one), the outgoing text
    redacted, the level its event has; ``links`` (one-occurrence links: a credential paw made,
    not text to redact) are added after the redaction, unchanged; ``opens``: the same links as
    (label, URL) for a service's buttons."""
    if repo:  # which checkout, for someone reading it away from the terminal
        name = repo.rstrip("/").rsplit("/", 1)[-1] or repo
        where = f"{name} on {host}" if host else name
        title = title.replace(f"paw wave {wave}:", f"paw wave {wave} ({where}):", 1)
        lines = [*lines, f"repo: {host}:{repo}" if host else f"repo: {repo}"]
    elif host:
        title = title.replace(f"paw wave {wave}:", f"paw wave {wave} (on {host}):", 1)
        lines = [*lines, f"host: {host}"]
    body = "\n".join(lines)
    out_title, t_changed = redact(title)
    out_body, b_changed = redact(body)
    changed = t_changed or b_changed
    if changed:
        out_body = f"{out_body}\n{REDACTION_NOTE}"
    if links:
        body = "\n".join([body, *links])
        out_body = "\n".join([out_body, *links])
    level = LEVELS.get(event, "info")
    return Message(event, wave, task, prompt_id, title, body, out_title, out_body, changed, level,
                   tuple(opens))  # fmt: skip


def prompt_lines(task: TaskState, prompt: PromptState, now: float) -> list[str]:
    """The lines that say exactly what waits and how to answer it."""
    lines = [
        f"agent: {task.agent}",
        f"task: {task.name}",
        f"prompt: {prompt.kind}",
        f"subject: {prompt.subject or '(none)'}",
        f"question: {prompt.question}",
        f"guard: {prompt.verdict}" + (f" ({'; '.join(prompt.reasons)})" if prompt.reasons else ""),
        f"why a human: {prompt.why}",
        f"waiting for: {_age(now - prompt.first_seen)}",
    ]
    if prompt.kind in ("trust", "question", "other"):
        lines.append(f"answer it in the agent's pane: paw attach {task.agent}")
    else:
        lines += [f"approve: paw approve {prompt.id}", f"deny:    paw deny {prompt.id}"]
    return lines


def prompt_message(
    event: str, wave: str, task: TaskState, prompt: PromptState, now: float, *, repo: str = "",
    link: str | None = None, host: str = "",
) -> Message:  # fmt: skip
    """A parked prompt, a reminder about it, or the news that it was answered; ``link``: the
    `paw serve` page of this one occurrence (``[serve] public_url``)."""
    head = {
        "parked": "needs a human",
        "reminder": f"still waiting ({_age(now - prompt.first_seen)})",
        "answered": f"answered ({prompt.answered or 'answered'})",
    }.get(event, event)
    title = f"paw wave {wave}: {task.name} {head}: {prompt.kind} {prompt.subject or ''}".rstrip()
    lines = prompt_lines(task, prompt, now)
    if event == "answered":
        lines = [
            *lines[:5],
            f"answered after {_age((prompt.answered_at or now) - prompt.first_seen)}",
        ]
    opens = [("Open", link)] if link and event != "answered" else []
    links = [f"open: {url}" for _, url in opens]
    return compose_message(event, wave, task.name, prompt.id, title, lines, repo, links, opens,
                           host)  # fmt: skip


def digest_message(
    wave: str, items: Sequence[tuple[TaskState, PromptState]], now: float, *, repo: str = "",
    links: Mapping[str, str] | None = None, host: str = "",
) -> Message:  # fmt: skip
    """Many prompts at once: one message listing them all (``links``: prompt id -> its
    one-occurrence link)."""
    need = "needs" if len(items) == 1 else "need"
    title = f"paw wave {wave}: {plural(len(items), 'prompt')} {need} a human"
    lines: list[str] = []
    for task, prompt in items:
        lines += [
            f"- {line}" if i == 0 else f"  {line}"
            for i, line in enumerate(prompt_lines(task, prompt, now))
        ]
    found = links or {}
    opens = [(f"Open {t.name}", found[p.id]) for t, p in items if p.id in found]
    said = [f"open {label.removeprefix('Open ')}: {url}" for label, url in opens]
    return compose_message("digest", wave, None, None, title, lines, repo, said, opens, host)


def _spend_message(event: str, wave: str, task: TaskState, repo: str, host: str) -> Message:
    """A task's agent used 80 % of its token or dollar budget, or all of it (parked)."""
    used = [f"{task.used_tokens:,} tokens" if task.used_tokens is not None else "",
            f"${task.used_usd:.2f}" if task.used_usd is not None else ""]  # fmt: skip
    lines = [f"agent: {task.agent}", f"task: {task.name}",
             "used: " + ", ".join(u for u in used if u)]  # fmt: skip
    if event == "budget-parked":
        title = f"paw wave {wave}: {task.name} is parked: {task.budget_parked}"
        lines += [
            (
                "its agent is left running and its work kept; paw types nothing more to it "
                "and runs no check"
            ),
            f"look at it: paw attach {task.agent}",
        ]
    else:
        title = f"paw wave {wave}: {task.name} has used 80 % of its budget"
    return compose_message(event, wave, task.name, None, title, lines, repo, host=host)


def task_message(
    event: str, wave: str, task: TaskState, now: float, *, repo: str = "", host: str = ""
) -> Message:
    """A task stuck, failed or done, a dialog, or a follow-up that waits (``parked``)."""
    if event == "parked":
        title = f"paw wave {wave}: {task.name} needs a human: its follow-up waits"
        lines = [
            f"agent: {task.agent}",
            f"task: {task.name}",
            f"why: {task.followup_why or 'the agent is not idle at an empty input'}",
            (
                "the check failed; paw types its follow-up only once the agent is idle at an "
                "empty input, never into a prompt, a dialog or a half-typed line"
            ),
            f"look at it: paw attach {task.agent}",
        ]
        return compose_message(event, wave, task.name, None, title, lines, repo, host=host)
    if event in ("budget-warning", "budget-parked"):
        return _spend_message(event, wave, task, repo, host)
    if event == "dialog":
        title = f"paw wave {wave}: {task.name} waits on a dialog only a human can answer"
        lines = [
            f"agent: {task.agent}",
            f"task: {task.name}",
            f"answer it in the agent's pane: paw attach {task.agent}",
        ]
        return compose_message(event, wave, task.name, None, title, lines, repo, host=host)
    if event in ("stuck", "stuck-reminder"):
        since = now - (task.last_change or now)
        title = f"paw wave {wave}: {task.name} is stuck"
        lines = [
            f"agent: {task.agent}",
            f"task: {task.name}",
            f"nothing changed for {_age(since)} (screen, worktree and commits) while not busy",
            (
                "paw never kills or nudges it: look at it with "
                f"`paw attach {task.agent}`, or `paw send {task.agent} TEXT`"
            ),
        ]
        return compose_message(event, wave, task.name, None, title, lines, repo, host=host)
    title = f"paw wave {wave}: {task.name} {task.phase.value}: {task.outcome or ''}".rstrip()
    lines = [f"agent: {task.agent}", f"task: {task.name}", f"outcome: {task.outcome}"]
    if task.checks:
        last = task.checks[-1]
        lines += [f"check: exit {last.exit_code}", last.tail[-800:]]
    return compose_message(event, wave, task.name, None, title, lines, repo, host=host)


def wave_message(event: str, state: WaveState, *, repo: str = "", host: str = "") -> Message:
    """The wave finished, failed, was stopped or ran over its budget."""
    counts = _counts(state)
    summary = ", ".join(f"{n} {k}" for k, n in counts.items() if n)
    title = f"paw wave {state.name}: {event.replace('wave-', '')} ({summary})"
    lines = [f"wave: {state.name}", f"tasks: {summary}", "report: paw wave report " + state.name]
    return compose_message(event, state.name, None, None, title, lines, repo, host=host)


def _counts(state: WaveState) -> dict[str, int]:
    counts = {p.value: 0 for p in Phase}
    for t in state.tasks:
        counts[t.phase.value] += 1
    return counts


# -- the report --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HumanAnswers:
    """A task's prompts answered by a human (from the audit)."""

    approved: int = 0
    denied: int = 0


def report_data(
    state: WaveState, human: Mapping[str, HumanAnswers], now: float
) -> dict[str, object]:
    """The report as JSON-ready data (``paw wave report --json``)."""
    tasks = []
    for t in state.tasks:
        answers = human.get(t.name, HumanAnswers())
        end = t.ended_at if t.phase in FINAL else now
        last = t.checks[-1] if t.checks else None
        tasks.append(
            {
                "task": t.name,
                "agent": t.agent,
                "status": _status(t),
                "outcome": t.outcome,
                "duration_s": _duration(t.started_at, end),
                "prompts": len(t.prompts),
                "waiting": [p.id for p in t.prompts if p.live and p.route == "human"],
                "approved_by_rule": sum(
                    1 for p in t.prompts if p.answered and p.answered.startswith("approved by rule")
                ),
                "approved_by_human": answers.approved,
                "denied": answers.denied,
                "followups": t.followups,
                "budget_parked": t.budget_parked,
                "commits": t.commits,
                "diffstat": f"+{t.insertions} -{t.deletions}",
                "uncommitted": t.uncommitted,
                "untracked": t.untracked,
                "check": None
                if last is None
                else {"exit_code": last.exit_code, "runs": len(t.checks), "tail": last.tail},
            }
        )
    return {
        "wave": state.name,
        "file": state.file,
        "sha256": state.sha256,
        "status": state.status,
        "over_budget": state.over_budget,
        "started_at": state.started_at,
        "ended_at": state.ended_at,
        "counts": _counts(state),
        "tasks": tasks,
    }


def _duration(start: float | None, end: float | None) -> float | None:
    return round(end - start, 1) if start is not None and end is not None else None


def _status(t: TaskState) -> str:
    if t.phase in FINAL:
        return t.phase.value
    if t.budget_parked is not None:
        return "parked"  # (over its budget: first, even with a prompt waiting)
    if any(p.live and p.route == "human" for p in t.prompts):
        return "waiting"
    if t.stuck:
        return "stuck"
    return t.phase.value


def _diff_text(task: Mapping[str, object]) -> str:
    """The diff stat, and the work not committed yet (a new file counts no diff line)."""
    extra = [f"{task.get(key) or 0} {key}" for key in ("uncommitted", "untracked") if task.get(key)]
    return f"{task['diffstat']}" + (f" ({', '.join(extra)})" if extra else "")


def report_markdown(data: Mapping[str, object]) -> str:
    """The report as Markdown (``paw wave report``)."""
    tasks = data["tasks"]
    if not isinstance(tasks, list):
        raise TypeError("report data without a task list")
    lines = [
        f"# Wave {data['wave']}: {data['status']}",
        "",
        f"File: `{data['file']}` (sha256 {str(data['sha256'])[:12]})"
        + (" — over its budget" if data["over_budget"] else ""),
        "",
        (
            "| task | status | duration | prompts | by human | by rule | denied | follow-ups "
            "| commits | diff | check |"
        ),
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for t in tasks:
        check = t["check"]
        check_text = (
            "—"
            if check is None
            else f"exit {check['exit_code']} ({plural(int(check['runs']), 'run')})"
        )
        duration = "—" if t["duration_s"] is None else _age(float(t["duration_s"]))
        lines.append(
            f"| {t['task']} | {t['status']} | {duration} | {t['prompts']} | "
            f"{t['approved_by_human']} | {t['approved_by_rule']} | {t['denied']} | "
            f"{t['followups']} | {t['commits']} | {_diff_text(t)} | {check_text} |"
        )
    for t in tasks:
        details = []
        if t["outcome"]:
            details.append(f"- outcome: {t['outcome']}")
        if t.get("budget_parked") and t["status"] == "parked":
            details.append(
                f"- parked: {t['budget_parked']} (its agent is left running: "
                f"`paw attach {t['agent']}`)"
            )
        if t["waiting"]:
            details += [f"- waiting: `paw approve {i}` / `paw deny {i}`" for i in t["waiting"]]
        check = t["check"]
        if check is not None and check["tail"]:
            details += ["- check output (tail):", "", "```", check["tail"], "```"]
        if details:
            lines += ["", f"## {t['task']} ({t['agent']})", "", *details]
    return "\n".join(lines) + "\n"
