"""The lander's journal (``.paw/waves/<wave>.land.json``): each task's place in the queue and
the one attempt in flight, enough to go on after ``kill -9``."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from paw.core.wave.schema import agent_name

LAND_SUFFIX = ".land"  # the journal: .paw/waves/<wave>.land.json
SCRATCH_DIR = "land"  # scratch worktrees: .paw/land/<wave>/<task>-<attempt>


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
    saved: str | None = None  # the file holding the failed check's whole output (if saved)
    why: str | None = None  # one line: why it is parked, or what it waits for
    # each attempt that did not land, oldest first: {"kind": "conflict" | "check-failed",
    # "problem", "files", "check", "exit_code", "at"} (kept when it lands: its history)
    setbacks: list[dict[str, object]] = Field(default_factory=list)
    commits: list[str] = Field(default_factory=list)  # what the base gained (oldest first)
    base_before: str | None = None
    base_after: str | None = None
    prompt_told: str | None = None  # the prompt of its sent-back agent already told of
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

    def agent_of(self, name: str) -> str:
        """The agent that ran task ``name``: its landing's, else the wave's name for it
        (``<wave>-<task>``, :func:`~paw.core.wave.schema.agent_name`)."""
        landing = self.task(name)
        return landing.agent if landing is not None else agent_name(self.wave, name)


def note_event(
    land: LandState, task: str, status: LandStatus, text: str, now: float, *, kind: str = ""
) -> None:
    """One state change of the queue, in the journal (told as a message once it is saved; its
    ``id`` keys the message's delivery marks, see paw.supervisor.land_outbox). ``kind``:
    ``prompt`` for a sent-back agent waiting on a prompt (a message that needs a human)."""
    key = f"{land.wave}-land-{len(land.events) + 1}"
    event: dict[str, object] = {
        "id": key, "at": now, "task": task, "status": status.value, "text": text
    }  # fmt: skip
    if kind:
        event["kind"] = kind
    land.events.append(event)


def task_landing(land: LandState, task: str) -> TaskLanding:
    """The landing of ``task``, which entered the queue (KeyError otherwise)."""
    found = land.task(task)
    if found is None:
        raise KeyError(task)
    return found
