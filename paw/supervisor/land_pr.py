"""The lander's pull requests: push each landed task's branch, then ``gh pr create``.

Asked for by the human (``paw wave land --pr``, or ``[land] pull_requests = true`` in the
wave file they wrote), and still through the guard's rule for pushes: a protected branch is
pushed only when a standing rule of the wave file names that push (:func:`push_refusal`),
and never forced. Each pull request is journalled ``opening`` before its push and ``opened``
after; a lander killed in between asks ``gh`` for the branch's open pull request before it
creates one. Where ``gh`` or a remote is missing, one line says so (not one per task).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from paw.core.land import push_refusal
from paw.core.land_pr import (
    PR_SUFFIX,
    PrJournal,
    opening,
    pr_blocker,
    pr_body,
    pr_tasks,
    pr_title,
)

if TYPE_CHECKING:
    from paw.core.land import TaskLanding
    from paw.supervisor.land import Lander

PR_STEPS = (
    "land:pr-begun",  # the pull request is journalled `opening`; nothing pushed
    "land:pr-pushed",  # the branch is pushed; no pull request yet
    "land:pr-created",  # gh opened it; not journalled yet
)  # proven by tests/supervisor/test_land_pr_real.py (kill -9 at each)


class PullRequests(Protocol):
    """What the lander needs of ``gh`` (paw.adapters.git.pr.GhCli)."""

    def found(self) -> bool:
        """True when ``gh`` is installed."""
        ...

    def existing(self, repo: str, branch: str) -> str | None:
        """The URL of an open pull request from ``branch``."""
        ...

    def create(
        self, repo: str, base: str, branch: str, title: str, body: str
    ) -> tuple[str | None, str | None]:
        """Open one: (URL, None) or (None, why)."""
        ...


@dataclass
class PrOutcome:
    """What ``--pr`` did: one line per pull request, and the problems (each said once)."""

    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    prs: list[dict[str, object]] = field(default_factory=list)


def open_pull_requests(lander: Lander, gh: PullRequests) -> PrOutcome:
    """One pull request per landed task that has none yet."""
    out = PrOutcome()
    doc = f"{lander.wave.name}{PR_SUFFIX}"
    data = lander.store.read(doc)
    journal = (
        PrJournal.model_validate(data) if data is not None else PrJournal(wave=lander.wave.name)
    )
    tasks = pr_tasks(lander.state, journal)
    into = lander.state.into
    remote = lander.git.remote_for(lander.repo, into)
    blocker = pr_blocker(gh.found(), remote, into) if tasks else None
    if blocker is not None:
        lander.ctx.record("land-pr-refused", wave=lander.wave.name, why=blocker)
        out.problems.append(f"not opening pull requests: {blocker}")
    else:
        assert remote is not None or not tasks  # noqa: S101 - pr_blocker() said so
        for t in tasks:
            _open(lander, gh, journal, doc, t, str(remote), out)
    out.prs = [p.model_dump(mode="json") for p in journal.prs]
    return out


def _open(
    lander: Lander,
    gh: PullRequests,
    journal: PrJournal,
    doc: str,
    t: TaskLanding,
    remote: str,
    out: PrOutcome,
) -> None:
    ctx, repo, into = lander.ctx, lander.repo, lander.state.into
    branch = lander.branch_of(t.agent)
    refusal = push_refusal(lander.wave, branch, remote, ctx.config.guard.protected_branches)
    pr = opening(journal, t.name, branch)
    if refusal is not None:
        pr.state, pr.error = "failed", refusal
        lander.store.write(doc, journal.model_dump(mode="json"))
        out.problems.append(f"no pull request for {t.name}: {refusal}")
        return
    lander.store.write(doc, journal.model_dump(mode="json"))  # before the push
    ctx.fault("land:pr-begun")
    ctx.record("land-pr-push", wave=lander.wave.name, task=t.name, branch=branch, remote=remote)
    failed = lander.git.push(repo, remote, branch)
    if failed is None:
        ctx.fault("land:pr-pushed")
        url = gh.existing(repo, branch)  # a lander cut off after gh opened it
        if url is None:
            ctx.record("land-pr-create", wave=lander.wave.name, task=t.name, branch=branch,
                       base=into)  # fmt: skip
            url, failed = gh.create(
                repo, into, branch, pr_title(lander.state, t), pr_body(lander.state, t)
            )
        ctx.fault("land:pr-created")
    else:
        url, failed = None, f"git push {remote} {branch}: {failed}"
    pr.url, pr.error = url, failed
    pr.state = "opened" if url is not None else "failed"
    lander.store.write(doc, journal.model_dump(mode="json"))
    ctx.record("outcome", action="land-pr", outcome=pr.state, wave=lander.wave.name,
               task=t.name, url=url, error=failed)  # fmt: skip
    if url is not None:
        out.lines.append(f"{t.name}: pull request {url}")
    else:
        out.problems.append(f"no pull request for {t.name}: {failed}")
