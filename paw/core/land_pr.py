"""One pull request per landed task (``paw wave land --pr``, ``[land] pull_requests``): pure.

The journal ``.paw/waves/<wave>.land-pr.json`` holds each task's pull request: ``opening``
is written before its branch is pushed and ``gh pr create`` runs, ``opened`` (with the URL)
after. A lander killed in between asks ``gh`` for an open pull request of that branch before
it creates one: a task never gets two.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from paw.core.printable import printable_line

if TYPE_CHECKING:
    from paw.core.land import LandState, TaskLanding

PR_SUFFIX = ".land-pr"  # the journal: .paw/waves/<wave>.land-pr.json
GH_HINT = "install the GitHub CLI (https://cli.github.com) and `gh auth login`"


class _State(BaseModel):
    model_config = ConfigDict(extra="ignore")


class PullRequest(_State):
    """One task's pull request."""

    task: str
    branch: str
    state: str = "opening"  # opening, opened, failed
    url: str | None = None
    error: str | None = None


class PrJournal(_State):
    """Every pull request the wave's landing opened."""

    wave: str
    prs: list[PullRequest] = Field(default_factory=list)

    def of(self, task: str) -> PullRequest | None:
        """The pull request of ``task``, if one was begun."""
        return next((p for p in self.prs if p.task == task), None)


def pr_tasks(land: LandState, journal: PrJournal) -> list[TaskLanding]:
    """The landed tasks without an opened pull request, in landing order."""
    done = {p.task for p in journal.prs if p.state == "opened"}
    return [t for t in land.tasks if t.status.value == "landed" and t.name not in done]


def pr_blocker(gh_found: bool, remote: str | None, into: str) -> str | None:
    """Why no pull request can be opened at all (said once, not per task); None: they can."""
    if not gh_found:
        return "`gh` is not installed (no `gh` on PATH)"
    if remote is None:
        return f"{into} has no remote to push to (`git remote add origin URL`)"
    return None


def pr_title(land: LandState, t: TaskLanding) -> str:
    """The pull request's title."""
    return printable_line(f"{land.wave}: {t.name}")


def pr_body(land: LandState, t: TaskLanding) -> str:
    """The pull request's body: where it comes from and what passed."""
    n = len(t.commits)
    where = f"`paw wave land` put it on top of `{land.into}` ({land.strategy})"
    passed = f"its checks passed there: {n} commit{'' if n == 1 else 's'}."
    return "\n".join([f"Task `{t.name}` of wave `{land.wave}`, by agent `{t.agent}`.", "",
                      f"{where} and {passed}"])  # fmt: skip


def opening(journal: PrJournal, task: str, branch: str) -> PullRequest:
    """Record a pull request about to be opened (before the push)."""
    found = journal.of(task)
    if found is None:
        found = PullRequest(task=task, branch=branch)
        journal.prs.append(found)
    found.state, found.error, found.branch = "opening", None, branch
    return found
