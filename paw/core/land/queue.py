"""The merge queue: its order, and the lander's next step (land, send back, wait, finished)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from paw.core.land.journal import LandState, LandStatus, TaskLanding, note_event, task_landing
from paw.core.land_respawn import Respawn, may_respawn
from paw.core.wave.state import Phase

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from paw.core.wave.schema import WaveFile
    from paw.core.wave.state import WaveState


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
            note_event(land, name, LandStatus.QUEUED, "entered the queue", now)
            added.append(name)
    rank = {n: i for i, n in enumerate(order)}
    land.tasks.sort(key=lambda t: rank.get(t.name, len(rank)))
    return added


# -- what the lander sees and decides ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AgentSeen:
    """A sent-back task's agent and branch as the lander saw them."""

    head: str | None  # the task branch's head commit (None: the branch is gone)
    status: str  # the agent's status: idle, busy, prompt, waiting, unknown, exited, gone
    # the prompt or dialog it shows (status prompt/waiting): its id, and how to answer it
    prompt_id: str | None = None
    prompt: str | None = None


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
        _tell_prompt(land, t, agent, now)
        if t.followup_text is not None:
            if agent.status == "idle":
                return SendBack(t.name, t.followup_text)
        elif agent.head != t.sent_head and agent.status == "idle":
            t.status, t.why = LandStatus.QUEUED, None
            note_event(
                land, t.name, LandStatus.QUEUED, "its agent committed again: back in the queue", now
            )
            continue
        if t.sent_at is not None and now - t.sent_at > wave.land.wait_s:
            waited = "its follow-up was never typed" if t.followup_text else "no new commit"
            _park(land, t, f"sent back ({t.problem}); {waited} within {wave.land.wait_s:g}s", now)
    blocked = blocked_tasks(wave, land)
    for t in land.tasks:
        if t.status is LandStatus.QUEUED and t.name not in blocked:
            deps = _deps(wave, t.name)
            if all(_landed(land, d) for d in deps):
                return Land(t.name)
    waiting = tuple(t.name for t in land.tasks if t.status is LandStatus.SENT_BACK)
    if waiting:
        return Wait(waiting)
    return Finished({n: w for n, w in blocked.items() if _status(land, n) is LandStatus.QUEUED})


PROMPT_STATUSES = frozenset({"prompt", "waiting"})


def _tell_prompt(land: LandState, t: TaskLanding, agent: AgentSeen, now: float) -> None:
    """A sent-back task's agent stopped at a prompt or a dialog: the lander waits on a human,
    and says so once per prompt (it would otherwise wait silently until ``wait_s`` parks it,
    the runner having ended). Nothing is answered: that is the human's."""
    if agent.status not in PROMPT_STATUSES:
        if agent.status in ("idle", "busy"):  # answered (not a blind look: said once)
            t.prompt_told = None
        return
    key = agent.prompt_id or agent.status
    if t.prompt_told == key:
        return
    t.prompt_told = key
    what = agent.prompt or ("a dialog" if agent.status == "waiting" else "a prompt")
    note_event(
        land, t.name, LandStatus.SENT_BACK, f"waiting on a prompt: its agent shows {what}", now,
        kind="prompt",
    )  # fmt: skip


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


def blocked_tasks(wave: WaveFile, land: LandState) -> dict[str, str]:
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
    _park(land, task_landing(land, task), why, now)


def _park(land: LandState, t: TaskLanding, why: str, now: float) -> None:
    t.status, t.why, t.finished_at = LandStatus.PARKED, why, now
    t.followup_text = None
    note_event(land, t.name, LandStatus.PARKED, why, now)
