"""Landing a wave (pure): the local merge queue's order, its journal and every decision of it.

``paw wave land`` takes the wave's done tasks in ``depends_on`` order, then finishing order, and
for each one brings its branch onto the current base (rebase, or a merge commit) in a scratch
worktree, runs the task's check and the wave's ``land_check`` there, and fast-forwards the base
only when they pass. A conflict or a failing check goes back to the task's agent as a follow-up
(up to the task's ``retries``); after that the task is parked for a human. Tasks that do not
depend on it keep landing.

Nothing here touches git, tmux or the clock: :mod:`paw.supervisor.land` observes, asks this
module, records the journal (``.paw/waves/<wave>.land.json``) and only then acts, so that a
lander killed at any step and started again lands no task twice and moves no base by a
half-finished step.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from paw.core.detect.screen import strip_ansi
from paw.core.land_respawn import Respawn, may_respawn
from paw.core.printable import printable_line
from paw.core.wave import Phase, rule_matches
from paw.core.wave_report import Message
from paw.core.wave_report import _message as compose_message

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from paw.core.wave import WaveFile, WaveState, WaveTask

LAND_SUFFIX = ".land"  # the journal: .paw/waves/<wave>.land.json
SCRATCH_DIR = "land"  # scratch worktrees: .paw/land/<wave>/<task>-<attempt>
FOLLOWUP_TAIL_LINES = 15
FOLLOWUP_MAX_CHARS = 1200
PARKED_TAIL_LINES = 30


class LandStatus(StrEnum):
    """A task's place in the merge queue."""

    QUEUED = "queued"  # waiting its turn (or its dependencies)
    SENT_BACK = "sent-back"  # a conflict or a failing check went back to its agent
    LANDED = "landed"  # the base holds its work
    PARKED = "parked"  # a human decides


class Step(StrEnum):
    """How far the attempt in flight got (written before each effect)."""

    SCRATCH = "scratch"  # a scratch worktree is being made at the base
    APPLIED = "applied"  # the branch is on top of the base in the scratch worktree
    MOVING = "moving"  # the checks passed; the base is being fast-forwarded


class _State(BaseModel):
    model_config = ConfigDict(extra="ignore")


class Attempt(_State):
    """The one landing in flight (at most one: the queue lands one task at a time)."""

    task: str
    number: int
    step: Step = Step.SCRATCH
    scratch: str
    base_sha: str
    head_sha: str
    result_sha: str | None = None
    started_at: float


class TaskLanding(_State):
    """One task in the queue."""

    name: str
    agent: str
    status: LandStatus = LandStatus.QUEUED
    queued_at: float
    finished_at: float | None = None  # landed or parked
    attempts: int = 0
    followups: int = 0  # follow-ups counted (before typing: never typed twice)
    followup_text: str | None = None  # a follow-up not typed yet
    followup_why: str | None = None  # why it was not typed (yet)
    sent_head: str | None = None  # the branch's head when it was sent back
    sent_at: float | None = None
    problem: str | None = None  # "conflict", "check failed after rebase", "…"
    files: list[str] = Field(default_factory=list)  # the conflicting files
    check: str | None = None  # the check that failed
    tail: str = ""  # its output's tail
    why: str | None = None  # one line: why it is parked, or what it waits for
    commits: list[str] = Field(default_factory=list)  # what the base gained (oldest first)
    base_before: str | None = None
    base_after: str | None = None
    respawns: int = 0  # new agents on its branch, its agent gone (paw.core.land_respawn)
    respawn_pending: bool = False  # a respawn counted, its agent not up yet
    respawn_kind: str | None = None  # the gone agent's kind (its record is forgotten first)


class LandState(_State):
    """The lander's journal: enough to go on after ``kill -9``."""

    wave: str
    into: str
    strategy: str
    started_at: float
    tasks: list[TaskLanding] = Field(default_factory=list)
    current: Attempt | None = None
    events: list[dict[str, object]] = Field(default_factory=list)  # one per state change

    def task(self, name: str) -> TaskLanding | None:
        """The landing of task ``name``, if it entered the queue."""
        return next((t for t in self.tasks if t.name == name), None)


# -- the queue ---------------------------------------------------------------------------------


def queue_order(wave: WaveFile, state: WaveState) -> list[str]:
    """The done tasks in landing order: a task after its dependencies, then by when it finished
    (then by its place in the file)."""
    place = {t.name: i for i, t in enumerate(wave.tasks)}
    done = {t.name: t for t in state.tasks if t.phase is Phase.DONE and t.name in place}
    order: list[str] = []
    left = sorted(done, key=lambda n: (done[n].ended_at or 0.0, place[n]))
    while left:
        ready = [n for n in left if all(d in order or d not in done for d in _deps(wave, n))]
        pick = ready[0] if ready else left[0]  # (a cycle is refused by the wave file)
        order.append(pick)
        left.remove(pick)
    return order


def _deps(wave: WaveFile, name: str) -> tuple[str, ...]:
    return next((t.depends_on for t in wave.tasks if t.name == name), ())


def enqueue(
    land: LandState, order: Sequence[str], agents: Mapping[str, str], now: float
) -> list[str]:
    """Add the done tasks not in the queue yet (in ``order``); return their names."""
    added = []
    for name in order:
        if land.task(name) is None:
            land.tasks.append(TaskLanding(name=name, agent=agents.get(name, name), queued_at=now))
            _event(land, name, LandStatus.QUEUED, "entered the queue", now)
            added.append(name)
    rank = {n: i for i, n in enumerate(order)}
    land.tasks.sort(key=lambda t: rank.get(t.name, len(rank)))
    return added


def _event(land: LandState, task: str, status: LandStatus, text: str, now: float) -> None:
    land.events.append({"at": now, "task": task, "status": status.value, "text": text})


# -- what the lander sees and decides ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AgentSeen:
    """A sent-back task's agent and branch as the lander saw them."""

    head: str | None  # the task branch's head commit (None: the branch is gone)
    status: str  # the agent's status: idle, busy, prompt, waiting, unknown, exited, gone


@dataclass(frozen=True, slots=True)
class Land:
    """Land this task now (one attempt)."""

    task: str


@dataclass(frozen=True, slots=True)
class SendBack:
    """Type the task's pending follow-up into its agent."""

    task: str
    text: str


@dataclass(frozen=True, slots=True)
class Wait:
    """Nothing can land now: tasks were sent back to their agents."""

    tasks: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Finished:
    """Every task is landed, parked, or waits on one that is (``blocked``: task -> why)."""

    blocked: dict[str, str] = field(default_factory=dict)


Decision = Land | SendBack | Respawn | Wait | Finished
GONE = frozenset({"exited", "gone", "lost", "server-restarted", "replaced"})


def decide(wave: WaveFile, land: LandState, seen: Mapping[str, AgentSeen], now: float) -> Decision:
    """The lander's next step (may update ``land``: sent-back tasks that came back or timed
    out). Sent-back tasks first (their follow-up, their return), then the first queued task
    whose dependencies have all landed."""
    respawn = _gone(wave, land, seen, now)
    if respawn is not None:
        return respawn
    for t in land.tasks:
        if t.status is not LandStatus.SENT_BACK:
            continue
        agent = seen.get(t.name, AgentSeen(None, "gone"))
        if t.followup_text is not None:
            if agent.status == "idle":
                return SendBack(t.name, t.followup_text)
        elif agent.head != t.sent_head and agent.status == "idle":
            t.status, t.why = LandStatus.QUEUED, None
            _event(
                land, t.name, LandStatus.QUEUED, "its agent committed again: back in the queue", now
            )
            continue
        if t.sent_at is not None and now - t.sent_at > wave.land.wait_s:
            waited = "its follow-up was never typed" if t.followup_text else "no new commit"
            _park(land, t, f"sent back ({t.problem}); {waited} within {wave.land.wait_s:g}s", now)
    blocked = _blocked(wave, land)
    for t in land.tasks:
        if t.status is LandStatus.QUEUED and t.name not in blocked:
            deps = _deps(wave, t.name)
            if all(_landed(land, d) for d in deps):
                return Land(t.name)
    waiting = tuple(t.name for t in land.tasks if t.status is LandStatus.SENT_BACK)
    if waiting:
        return Wait(waiting)
    return Finished({n: w for n, w in blocked.items() if _status(land, n) is LandStatus.QUEUED})


def _gone(
    wave: WaveFile, land: LandState, seen: Mapping[str, AgentSeen], now: float
) -> Respawn | None:
    """Sent-back tasks whose agent or branch is gone: the first whose agent may be replaced
    by a new one on its branch (:mod:`paw.core.land_respawn`); the others are parked."""
    for t in land.tasks:
        agent = seen.get(t.name, AgentSeen(None, "gone"))
        if t.status is not LandStatus.SENT_BACK:
            continue
        if agent.head is not None and may_respawn(t, agent.status, wave.task(t.name).retries):
            return Respawn(t.name)
        if agent.status in GONE or agent.head is None:
            gone = "agent is gone" if agent.head is not None else "branch is gone"
            _park(land, t, f"sent back ({t.problem}), but its {gone}", now)
    return None


def _landed(land: LandState, name: str) -> bool:
    t = land.task(name)
    return t is not None and t.status is LandStatus.LANDED


def _status(land: LandState, name: str) -> LandStatus | None:
    t = land.task(name)
    return None if t is None else t.status


def _blocked(wave: WaveFile, land: LandState) -> dict[str, str]:
    """Queued tasks that cannot land: a dependency is parked, not done, or blocked itself."""
    blocked: dict[str, str] = {}
    changed = True
    while changed:
        changed = False
        for t in land.tasks:
            if t.name in blocked or t.status is not LandStatus.QUEUED:
                continue
            for dep in _deps(wave, t.name):
                status = _status(land, dep)
                if status is None:
                    why = f"depends on {dep}, which is not done"
                elif status is LandStatus.PARKED or dep in blocked:
                    word = "blocked" if dep in blocked else "parked"
                    why = f"depends on {dep}, which is {word}"
                else:
                    continue
                blocked[t.name] = why
                changed = True
                break
    return blocked


def park(land: LandState, task: str, why: str, now: float) -> None:
    """Park ``task`` for a human, saying why."""
    _park(land, _get(land, task), why, now)


def _park(land: LandState, t: TaskLanding, why: str, now: float) -> None:
    t.status, t.why, t.finished_at = LandStatus.PARKED, why, now
    t.followup_text = None
    _event(land, t.name, LandStatus.PARKED, why, now)


# -- an attempt --------------------------------------------------------------------------------


def scratch_name(task: str, number: int) -> str:
    """The scratch worktree's folder name (under ``.paw/land/<wave>/``)."""
    return f"{task}-{number}"


def begin(land: LandState, task: str, scratch: str, base: str, head: str, now: float) -> Attempt:
    """Record the attempt about to start (before its scratch worktree exists)."""
    t = _get(land, task)
    t.attempts += 1
    attempt = Attempt(
        task=task, number=t.attempts, scratch=scratch, base_sha=base, head_sha=head, started_at=now
    )
    land.current = attempt
    return attempt


def _get(land: LandState, task: str) -> TaskLanding:
    found = land.task(task)
    if found is None:
        raise KeyError(task)
    return found


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an attempt came to."""

    kind: str  # landed, conflict, check-failed, base-moved
    files: tuple[str, ...] = ()
    check: str | None = None
    exit_code: int = 0
    output: str = ""
    commits: tuple[str, ...] = ()  # landed: the base's new commits, oldest first
    base_before: str | None = None
    base_after: str | None = None


def after_attempt(
    spec: WaveTask, land: LandState, outcome: Outcome, head: str, now: float, strategy: str
) -> TaskLanding:
    """Record what the attempt came to: landed, sent back with a follow-up, or parked. The
    attempt in flight is over (``land.current`` is cleared)."""
    t = _get(land, spec.name)
    land.current = None
    if outcome.kind == "landed":
        t.status, t.finished_at, t.why = LandStatus.LANDED, now, None
        t.commits = list(outcome.commits)
        t.base_before, t.base_after = outcome.base_before, outcome.base_after
        t.problem, t.files, t.check, t.tail = None, [], None, ""
        n = len(outcome.commits)
        _event(land, t.name, LandStatus.LANDED, f"landed: {n} commit{'' if n == 1 else 's'}", now)
        return t
    if outcome.kind == "base-moved":
        _event(land, t.name, LandStatus.QUEUED, "the base moved meanwhile: tried again", now)
        return t
    verb = "rebase" if strategy == "rebase" else "merge"
    if outcome.kind == "conflict":
        t.problem, t.files, t.check, t.tail = f"conflict on {verb}", list(outcome.files), None, ""
    else:
        t.problem = f"check failed after the {verb}"
        t.files, t.check = [], outcome.check
        t.tail = _tail(outcome.output, PARKED_TAIL_LINES)
    if t.followups < spec.retries:
        t.status, t.sent_at, t.sent_head = LandStatus.SENT_BACK, now, head
        t.followup_text = followup_text(t, outcome, land.into, verb)
        t.followup_why = None
        t.why = f"sent back to its agent: {t.problem}"
        _event(land, t.name, LandStatus.SENT_BACK, t.why, now)
        return t
    count = f"{t.followups} follow-up{'' if t.followups == 1 else 's'}"
    detail = f" in {', '.join(t.files)}" if t.files else f" (exit {outcome.exit_code})"
    _park(land, t, f"{t.problem}{detail} after {count}", now)
    return t


def followup_text(t: TaskLanding, outcome: Outcome, into: str, verb: str) -> str:
    """The follow-up: what went wrong when the work was put on top of ``into``, on ONE line
    and without control characters (it is typed; a newline would submit early)."""
    if outcome.kind == "conflict":
        files = ", ".join(printable_line(f) for f in outcome.files[:20]) or "(unknown files)"
        what = f"Your branch conflicts with {into} ({verb}): {files}."
    else:
        clean = strip_ansi(outcome.output)
        lines = [printable_line(ln.strip()) for ln in clean.splitlines() if ln.strip()]
        tail = " | ".join(lines[-FOLLOWUP_TAIL_LINES:])[-FOLLOWUP_MAX_CHARS:]
        what = (
            f"On top of {into} ({verb}) the check `{printable_line(outcome.check or '')}` "
            f"failed (exit {outcome.exit_code}). Output tail: {tail}."
        )
    how = f"git rebase {into}" if verb == "rebase" else f"git merge {into}"
    return f"{what} Please bring {into} into your branch ({how}), fix this, commit, and finish."


def followup_counted(land: LandState, task: str, now: float) -> TaskLanding:
    """A follow-up is about to be typed: counted first (a crash never types it twice)."""
    del now  # (the event is told once it was typed: followup_typed)
    t = _get(land, task)
    t.followups += 1
    t.followup_text = None
    return t


def followup_typed(land: LandState, task: str, now: float) -> TaskLanding:
    """The follow-up reached the agent's input (proven, Enter pressed)."""
    t = _get(land, task)
    t.followup_why = None
    _event(land, task, LandStatus.SENT_BACK, f"follow-up {t.followups} typed", now)
    return t


def followup_refused(land: LandState, task: str, text: str, why: str, now: float) -> TaskLanding:
    """The follow-up was not typed (paw could not prove an idle, empty input): not counted; it
    waits for a later look, until ``wait_s`` parks the task."""
    t = _get(land, task)
    t.followups = max(0, t.followups - 1)
    told = t.followup_why == why  # the same refusal again: said once
    t.followup_text, t.followup_why = text, why
    if not told:
        _event(land, task, LandStatus.SENT_BACK, f"follow-up not typed: {why}", now)
    return t


def _tail(text: str, lines: int) -> str:
    return "\n".join(strip_ansi(text).rstrip().splitlines()[-lines:])[-4000:]


# -- after a crash -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Recovery:
    """What to do with the attempt a dead lander left: ``landed`` (the base holds its result:
    record it) or ``redo`` (nothing moved: throw the scratch away and try again)."""

    kind: str
    attempt: Attempt


def recover(land: LandState, base_now: str | None) -> Recovery | None:
    """The attempt in flight when the lander died, judged from where the base is now. Only a
    step recorded as ``moving`` whose result the base now holds counts as landed; anything
    else moved no base and is done again from the start."""
    attempt = land.current
    if attempt is None:
        return None
    if attempt.step is Step.MOVING and base_now is not None and base_now == attempt.result_sha:
        return Recovery("landed", attempt)
    return Recovery("redo", attempt)


def redo(land: LandState, attempt: Attempt, now: float) -> None:
    """Forget an attempt cut off before it moved the base (its task stays queued)."""
    land.current = None
    _event(land, attempt.task, LandStatus.QUEUED, f"attempt {attempt.number} cut off: again", now)


# -- messages ----------------------------------------------------------------------------------

_LAND_EVENTS = {
    LandStatus.QUEUED: "land-queued",
    LandStatus.SENT_BACK: "land-sent-back",
    LandStatus.LANDED: "land-landed",
    LandStatus.PARKED: "land-parked",
}


def land_message(land: LandState, task: str, text: str, *, repo: str = "") -> Message:
    """One state change of the queue as a message (redacted for the channels)."""
    t = land.task(task)
    status = t.status if t is not None else LandStatus.QUEUED
    lines = [f"task: {task}", f"landing: {status.value}", text, f"onto: {land.into}"]
    if t is not None and status is LandStatus.PARKED:
        if t.files:
            lines.append("conflicting files: " + ", ".join(t.files))
        if t.tail:
            lines += [f"`{t.check}`, last lines:", t.tail]
        lines.append(f"see: paw wave report {land.wave}")
    title = f"paw wave {land.wave}: {task} {status.value}: {text}"
    message = compose_message(_LAND_EVENTS[status], land.wave, task, None, title, lines, repo)
    if status is LandStatus.PARKED:
        return replace(message, level="warning")
    return replace(message, level="success") if status is LandStatus.LANDED else message


# -- the report --------------------------------------------------------------------------------


def landing_rows(land: LandState, wave: WaveFile | None, now: float) -> list[dict[str, object]]:
    """One row per task for ``paw wave report`` and ``--json``."""
    blocked = _blocked(wave, land) if wave is not None else {}
    rows: list[dict[str, object]] = []
    for t in land.tasks:
        end = t.finished_at if t.finished_at is not None else now
        row: dict[str, object] = {
            "task": t.name,
            "status": "blocked" if t.name in blocked else t.status.value,
            "problem": t.problem,
            "why": blocked.get(t.name, t.why),
            "attempts": t.attempts,
            "followups": t.followups,
            "queued_s": round(max(0.0, end - t.queued_at), 1),
            "commits": list(t.commits),
            "files": list(t.files),
            "check": t.check,
            "tail": t.tail,
        }
        rows.append(row)
    return rows


def landing_data(land: LandState, wave: WaveFile | None, now: float) -> dict[str, object]:
    """The landing as data: the base, the strategy, the tasks."""
    base_commits = [c for t in land.tasks for c in t.commits]
    return {
        "into": land.into,
        "strategy": land.strategy,
        "in_flight": land.current.task if land.current is not None else None,
        "base_commits": base_commits,
        "tasks": landing_rows(land, wave, now),
    }


def landing_markdown(data: Mapping[str, object]) -> str:
    """The report's ``## Landing`` section."""
    rows = data.get("tasks")
    lines = [
        "## Landing",
        "",
        f"Onto `{data.get('into')}` by {data.get('strategy')}, fast-forward only.",
        "",
        "| task | landing | attempts | follow-ups | in the queue | commits |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows if isinstance(rows, list) else []:
        status = str(row["status"])
        if row.get("problem") and status != "landed":
            status += f": {row['problem']}"
        commits = row.get("commits") or []
        shas = ", ".join(str(c)[:10] for c in commits) if isinstance(commits, list) else ""
        lines.append(
            f"| {row['task']} | {status} | {row['attempts']} | {row['followups']} "
            f"| {float(str(row['queued_s'])):.0f}s | {shas or '-'} |"
        )
    for row in rows if isinstance(rows, list) else []:
        if row["status"] in ("parked", "blocked", "sent-back") and row.get("why"):
            lines += ["", f"**{row['task']}** ({row['status']}): {row['why']}"]
            if row.get("files"):
                lines.append("conflicting files: " + ", ".join(map(str, row["files"])))
            if row.get("tail"):
                lines += [f"`{row.get('check')}`, last lines:", "```", str(row["tail"]), "```"]
    return "\n".join(lines) + "\n"


# -- pushing the landed base -------------------------------------------------------------------


def push_command(remote: str, into: str) -> str:
    """The push paw makes, as a standing rule names it (never a force)."""
    return f"git push {remote} {into}"


def push_refusal(
    wave: WaveFile, into: str, remote: str | None, protected: Sequence[str]
) -> str | None:
    """Why the landed base may not be pushed (None: push it). Asked for by the human (``--push``),
    it still goes through the guard's rule for pushes: a protected branch is pushed only when a
    standing rule of the wave file names that very push."""
    if remote is None:
        return f"{into} has no remote to push to (`git remote add origin URL`)"
    if into in protected:
        command = push_command(remote, into)
        if not any(rule_matches(rule, "shell", command, "") for rule in wave.rules):
            return (
                f"{into} is a protected branch: a standing rule naming `{command}` "
                '([[rules]] kind = "shell") in the wave file allows it'
            )
    return None
