"""The ``[land]`` table of a wave file: how ``paw wave land`` brings done tasks onto a branch."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


class LandSettings(BaseModel):
    """How the done tasks of a wave are landed (``paw wave land``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    strategy: Literal["rebase", "merge"] = "rebase"
    """``rebase``: each task's commits are replayed onto the current base (a straight line);
    ``merge``: one merge commit per task on top of the base. Either way the base only moves by
    fast-forward, and the task's own branch is never rewritten."""

    into: str | None = None
    """The branch the tasks land on (default: the wave's ``base``, which must then name a
    branch; ``HEAD`` is the branch checked out in the repository)."""

    wait_s: float = Field(default=1800.0, gt=0, allow_inf_nan=False)
    """How long a task sent back to its agent (a conflict, a check failing after the rebase)
    may take to come back with a new commit before it is parked for a human."""

    pull_requests: bool = False
    """After landing, push each landed task's branch to the remote (never forced) and open one
    pull request per task onto ``into`` with ``gh pr create`` (as ``paw wave land --pr``). A
    protected task branch is pushed only when a standing rule names that push. Where ``gh`` or
    a remote is missing, paw says so once."""

    as_tasks_finish: bool = False
    """``paw wave run`` lands each task as it is done: it starts ``paw wave land`` beside its
    runner (started again if it is killed) and waits for it once the wave has ended."""

    @field_validator("into")
    @classmethod
    def _check_into(cls, value: str | None) -> str | None:
        if value is not None and (not value.strip() or value.startswith("-")):
            raise ValueError(f"{value!r} is not a branch name")
        return value
