"""The lander: carries out :mod:`paw.core.land`'s decisions on git and the agents.

Each step is written to the journal (``.paw/waves/<wave>.land.json``, fsync'd) BEFORE it is
carried out, and the base only moves by one fast-forward recorded as ``moving``: a lander
killed at any step and started again finds the attempt it left, throws its scratch worktree
away, counts it as landed only when the base holds its result, and otherwise does it again.
A follow-up is counted before it is typed (through :func:`~paw.supervisor.keyboard.type_text`,
the same proof as every typed text), so a crash never types it twice.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import TYPE_CHECKING

from paw.core.land import (
    LAND_SUFFIX,
    SCRATCH_DIR,
    AgentSeen,
    Land,
    LandState,
    LandStatus,
    Outcome,
    SendBack,
    Step,
    Wait,
    after_attempt,
    begin,
    decide,
    enqueue,
    followup_counted,
    followup_refused,
    followup_typed,
    park,
    push_refusal,
    queue_order,
    recover,
    redo,
    scratch_name,
)
from paw.core.land_respawn import Respawn
from paw.core.printable import printable_line
from paw.core.wave import CheckRunner, WaveState
from paw.errors import PawError
from paw.supervisor.followup_room import tail_room
from paw.supervisor.land_git import LandGit
from paw.supervisor.land_outbox import LandOutbox
from paw.supervisor.land_respawn import finish_cut_respawns, respawn
from paw.supervisor.records import load_agents

if TYPE_CHECKING:
    from paw.core.land import Decision
    from paw.core.output_tail import TailRoom
    from paw.core.wave import WaveFile, WaveTask
    from paw.supervisor.model import LivePrompt
    from paw.supervisor.records import StateStore
    from paw.supervisor.service import Supervisor
    from paw.supervisor.wave.outbox import Notifier

LAND_STEPS = (
    "land:begun",  # the attempt is recorded; no scratch worktree yet
    "land:scratch",  # the scratch worktree exists at the base
    "land:applied",  # the branch is on top of the base there (recorded); checks not run
    "land:moving",  # the checks passed; `moving` is recorded; the base has not moved
    "land:moved",  # the base moved; the landing is not recorded yet
    "land:recorded",  # the landing is recorded; the scratch worktree is still there
    "land:followup",  # a follow-up is counted; nothing typed
)  # proven by tests/supervisor/test_land_real.py (kill -9 at each)
LAND_MESSAGE_STEPS = (
    "land:noted",  # a change is in the journal (written); its message not handed to a channel
)  # proven by tests/supervisor/test_land_real.py (kill -9, real apprise: sent once after)


def prompt_words(live: LivePrompt, agent: str) -> str:
    """A sent-back agent's prompt in a message: its kind and subject (pane text: one printable
    line, cut short) and how to answer it."""
    prompt = live.prompt
    subject = printable_line(prompt.subject or prompt.question or "")[:120]
    what = f"{prompt.kind.value} {subject}".strip()
    if live.only_in_the_pane:
        return f"{what} (answer it in its pane: paw attach {agent})"
    return f"{what} (paw approve {live.id} / paw deny {live.id})"


def land_into(wave: WaveFile, git: LandGit, repo: str) -> str:
    """The branch the wave lands on: ``[land] into``, else the wave's base; ``HEAD`` is the
    branch checked out. Anything that is not a branch is refused (a base moves by
    fast-forward of a branch, never by a detached HEAD or a tag)."""
    name = wave.land.into or wave.base
    if name == "HEAD":
        current = git.current_branch(repo)
        if current is None:
            raise PawError(
                "the repository's HEAD is detached: nothing to land onto",
                hint='check out the branch to land onto, or set `[land] into = "main"`',
            )
        return current
    short = name.removeprefix("refs/heads/")
    if not git.is_branch(repo, short):
        raise PawError(
            f"{name!r} is not a branch: the wave lands by fast-forwarding a branch",
            hint='set `[land] into = "BRANCH"` in the wave file',
        )
    return short


class Lander:
    """Land one wave's done tasks: :meth:`run`."""

    def __init__(
        self,
        sup: Supervisor,
        wave: WaveFile,
        read_wave: Callable[[], WaveState],
        *,
        store: StateStore,
        git: LandGit,
        run_check: CheckRunner,
        on_change: Callable[[LandState, str, str], None] | None = None,
        notifier: Notifier | None = None,
    ) -> None:
        """``read_wave`` reads the wave's state (the runner may still be writing it);
        ``on_change(land, task, text)`` hears of every state change as it is written;
        ``notifier`` gets a message for each, owed until its channels have it
        (:mod:`paw.supervisor.land_outbox`)."""
        self.sup = sup
        self.ctx = sup.ctx
        self.wave = wave
        self.read_wave = read_wave
        self.store = store
        self.git = git
        self.run_check = run_check
        self.on_change = on_change
        self.repo = self.ctx.repo_root
        # one folder per wave: a lander never touches another wave's scratch worktrees
        self.scratch_root = posixpath.join(self.repo, ".paw", SCRATCH_DIR, wave.name)
        self.doc = f"{wave.name}{LAND_SUFFIX}"
        self.state = self._load()
        self._told = len(self.state.events)  # the messages of older ones: resend_undelivered
        self.outbox = (
            LandOutbox(self.ctx, store, self.doc, notifier) if notifier is not None else None
        )

    # -- the journal -----------------------------------------------------------------------

    def _load(self) -> LandState:
        data = self.store.read(self.doc)
        if data is not None:
            return LandState.model_validate(data)
        into = land_into(self.wave, self.git, self.repo)
        return LandState(
            wave=self.wave.name, into=into, strategy=self.wave.land.strategy,
            started_at=self.ctx.clock(),
        )  # fmt: skip

    def save(self) -> None:
        """Write the journal (atomically, fsync'd), then tell of the changes it holds (their
        messages are owed from this write on: a lander killed before they leave sends them
        when started again, :meth:`resend_undelivered`)."""
        self.store.write(self.doc, self.state.model_dump(mode="json"))
        new = self.state.events[self._told :]
        if not new:
            return
        self.ctx.fault("land:noted")
        for event in new:
            if self.on_change is not None:
                self.on_change(self.state, str(event["task"]), str(event["text"]))
            if self.outbox is not None:
                self.outbox.send(self.state, event)
        self._told = len(self.state.events)

    def resend_undelivered(self) -> None:
        """The messages a killed lander owed: sent now, once (at most once: one whose delivery
        was cut off is not sent again)."""
        if self.outbox is not None and self.outbox.resend_undelivered(self.state):
            self.save()

    # -- the loop --------------------------------------------------------------------------

    def run(
        self,
        sleep: Callable[[float], None],
        *,
        wait: bool,
        poll_s: float = 1.0,
        follow: Callable[[], bool] | None = None,
    ) -> Decision:
        """Land until every done task is landed or parked (``wait``: also wait for the agents
        of tasks sent back; ``follow``: and, while it says the wave still runs, for tasks
        still to finish); return the last decision (:class:`Wait` when it stopped waiting)."""
        self.resend_undelivered()
        self.recover()
        last_look = False  # the wave ended: one more look, for the tasks that finished last
        while True:
            now = self.ctx.clock()
            wave_state = self.read_wave()
            agents = {t.name: t.agent for t in wave_state.tasks}
            if enqueue(self.state, queue_order(self.wave, wave_state), agents, now):
                self.save()
            before = len(self.state.events)
            seen = self._observe()
            finish_cut_respawns(self, seen, now)
            decision = decide(self.wave, self.state, seen, now)
            if len(self.state.events) != before:
                self.save()
            if isinstance(decision, Land):
                self._land(decision.task)
            elif isinstance(decision, Respawn):
                respawn(self, decision.task)  # its follow-up is typed once the agent is up
            elif isinstance(decision, SendBack):
                if not self._send_back(decision):  # refused: it waits for a later look
                    if not wait:
                        return Wait((decision.task,))
                    sleep(poll_s)
            elif isinstance(decision, Wait) and wait:
                sleep(poll_s)
            elif follow is not None and follow():
                sleep(poll_s)  # the wave runs: tasks still to finish land as they do
            elif follow is not None and not last_look:
                last_look = True  # it ended since this look read its state: read it again
            else:
                return decision

    def recover(self) -> None:
        """Finish what a killed lander left: its attempt (landed only if the base holds its
        result), and every scratch worktree of this wave."""
        found = recover(self.state, self.git.resolve(self.repo, f"refs/heads/{self.state.into}"))
        now = self.ctx.clock()
        if found is not None:
            attempt = found.attempt
            self.ctx.record(
                "land-recover", wave=self.wave.name, task=attempt.task, step=attempt.step.value,
                outcome=found.kind,
            )  # fmt: skip
            if found.kind == "landed" and attempt.result_sha is not None:
                commits = self.git.commits(self.repo, attempt.base_sha, attempt.result_sha)
                outcome = Outcome(
                    "landed", commits=tuple(commits), base_before=attempt.base_sha,
                    base_after=attempt.result_sha,
                )  # fmt: skip
                spec = self.wave.task(attempt.task)
                after_attempt(spec, self.state, outcome, attempt.head_sha, now, self.state.strategy)
            else:
                redo(self.state, attempt, now)
            self.save()
        self._clean_scratch()

    def _clean_scratch(self) -> None:
        for path in self.git.scratch_paths(self.scratch_root, ""):
            self.git.remove_scratch(self.repo, path)

    def _observe(self) -> dict[str, AgentSeen]:
        """Sent-back tasks: their branch's head and their agent's status."""
        sent = [t for t in self.state.tasks if t.status is LandStatus.SENT_BACK]
        if not sent:
            return {}
        snap = self.sup.poll_once()
        views = {v.name: v for v in snap.agents}
        prompts = {p.agent: p for p in snap.prompts}
        seen: dict[str, AgentSeen] = {}
        for t in sent:
            view = views.get(t.agent)
            head = self.git.resolve(self.repo, f"refs/heads/{self._branch(t.agent)}")
            if not snap.tmux_ok:
                status = "unknown"  # blind: decide nothing about it
            elif view is None:
                status = "gone"
            else:
                status = "exited" if view.alive is False else view.status.value
            live = prompts.get(t.agent)
            if live is not None and status in ("prompt", "waiting"):
                seen[t.name] = AgentSeen(head, status, live.id, prompt_words(live, t.agent))
            else:
                seen[t.name] = AgentSeen(head, status)
        return seen

    def branch_of(self, agent: str) -> str:
        """The branch of the task agent ``agent`` (its record's, else the one paw names)."""
        return self._branch(agent)

    def _branch(self, agent: str) -> str:
        record = load_agents(self.ctx.state).get(agent)
        return record.branch if record is not None else self.ctx.branch_for(agent)

    # -- one attempt -----------------------------------------------------------------------

    def _land(self, task: str) -> None:
        spec = self.wave.task(task)
        landing = self.state.task(task)
        assert landing is not None  # noqa: S101 - decide() only names queued tasks
        into = self.state.into
        base = self.git.resolve(self.repo, f"refs/heads/{into}")
        if base is None:
            raise PawError(f"the branch {into!r} is gone", hint="restore it, then `paw wave land`")
        head = self.git.resolve(self.repo, f"refs/heads/{self._branch(landing.agent)}")
        now = self.ctx.clock()
        if head is None:
            park(self.state, task, "its branch is gone", now)
            self.save()
            return
        scratch = posixpath.join(self.scratch_root, scratch_name(task, landing.attempts + 1))
        attempt = begin(self.state, task, scratch, base, head, now)
        self.ctx.record(
            "land-begin", wave=self.wave.name, task=task, attempt=attempt.number, base=base,
            head=head, into=into,
        )  # fmt: skip
        self.save()
        self.ctx.fault("land:begun")
        try:
            self._attempt(spec, into, base, head, scratch)
        except PawError:
            # Nobody's conflict (git failed, the checkout of the base has changes in the way):
            # the attempt stays recorded (the next `paw wave land` reads from git whether the
            # base holds its result), and its scratch worktree goes now.
            self.git.remove_scratch(self.repo, scratch)
            raise

    def _attempt(self, spec: WaveTask, into: str, base: str, head: str, scratch: str) -> None:
        task = spec.name
        attempt = self.state.current
        assert attempt is not None  # noqa: S101 - begin() recorded it
        self.git.add_scratch(self.repo, scratch, base)
        self.ctx.fault("land:scratch")
        result, files = self.git.apply(
            scratch, head, base, self.state.strategy,
            f"Merge {self.wave.name} task {task} (paw wave land)",
        )  # fmt: skip
        if result is None:
            self._after(task, Outcome("conflict", files=files), head)
            return
        attempt.step, attempt.result_sha = Step.APPLIED, result
        self.save()
        self.ctx.fault("land:applied")
        for command in (spec.check, self.wave.land_check):
            if command is None:
                continue
            ran = self.run_check(command, scratch, self.wave.check_timeout_s)
            self.ctx.record(
                "land-check", wave=self.wave.name, task=task, command=command,
                exit_code=ran.exit_code, duration_s=round(ran.duration_s, 3),
            )  # fmt: skip
            if ran.exit_code != 0:
                failed = Outcome(
                    "check-failed", check=command, exit_code=ran.exit_code, output=ran.output
                )
                room = tail_room(
                    self.ctx,
                    self.state.agent_of(task),
                    ran.output,
                    self.wave.name,
                    task,
                    "land",
                    attempt.number,
                    respawn_kind=self._respawn_kind(spec),
                )
                self._after(task, failed, head, room)
                return
        attempt.step = Step.MOVING
        self.save()  # recorded before the base moves: a crash after it is read from git
        self.ctx.fault("land:moving")
        moved = self.git.fast_forward(self.repo, into, base, result)
        self.ctx.fault("land:moved")
        if not moved:
            self._after(task, Outcome("base-moved"), head)
            return
        commits = tuple(self.git.commits(self.repo, base, result))
        self.ctx.record(
            "land-moved", wave=self.wave.name, task=task, into=into, old=base, new=result,
            commits=len(commits),
        )  # fmt: skip
        landed = Outcome("landed", commits=commits, base_before=base, base_after=result)
        self._after(task, landed, head)
        self.ctx.fault("land:recorded")
        self.git.remove_scratch(self.repo, scratch)

    def _respawn_kind(self, spec: WaveTask) -> str:
        """The kind of agent a respawn would start for ``spec`` when its record is gone."""
        landing = self.state.task(spec.name)
        kept = landing.respawn_kind if landing is not None else None
        return kept or spec.agent or self.wave.agent

    def _after(self, task: str, outcome: Outcome, head: str, room: TailRoom | None = None) -> None:
        spec = self.wave.task(task)
        attempt = self.state.current
        now = self.ctx.clock()
        after_attempt(spec, self.state, outcome, head, now, self.state.strategy, room)
        self.save()
        if outcome.kind != "landed" and attempt is not None:
            self.git.remove_scratch(self.repo, attempt.scratch)

    # -- sending back ----------------------------------------------------------------------

    def _send_back(self, decision: SendBack) -> bool:
        landing = self.state.task(decision.task)
        assert landing is not None  # noqa: S101 - decide() only names tasks in the queue
        now = self.ctx.clock()
        followup_counted(self.state, decision.task, now)
        self.save()  # counted before typing: never typed twice
        self.ctx.record(
            "land-followup", wave=self.wave.name, task=decision.task, agent=landing.agent,
            number=landing.followups, text=decision.text,
        )  # fmt: skip
        self.ctx.fault("land:followup")
        try:
            self.sup.send(landing.agent, decision.text, via="land-followup")
        except PawError as err:
            self.ctx.record(
                "land-followup-refused", wave=self.wave.name, task=decision.task,
                agent=landing.agent, error=err.message,
            )  # fmt: skip
            followup_refused(self.state, decision.task, decision.text, err.message, now)
            self.save()
            return False
        followup_typed(self.state, decision.task, self.ctx.clock())
        self.save()
        return True

    # -- pushing ---------------------------------------------------------------------------

    def push(self) -> tuple[bool, str]:
        """Push the landed base (the human asked: ``--push``), through the guard's rule for
        pushes. Returns (pushed, one line saying what happened)."""
        into = self.state.into
        remote = self.git.remote_for(self.repo, into)
        protected = self.ctx.config.guard.protected_branches
        refusal = push_refusal(self.wave, into, remote, protected)
        if refusal is not None:
            self.ctx.record("land-push-refused", wave=self.wave.name, into=into, why=refusal)
            return False, f"not pushed: {refusal}"
        assert remote is not None  # noqa: S101 - push_refusal() said so
        self.ctx.record("land-push", wave=self.wave.name, into=into, remote=remote)
        failed = self.git.push(self.repo, remote, into)
        self.ctx.record(
            "outcome", action="land-push", outcome="failed" if failed else "pushed",
            wave=self.wave.name, into=into, remote=remote, error=failed,
        )  # fmt: skip
        if failed is not None:
            return False, f"not pushed to {remote}: {failed}"
        return True, f"pushed {into} to {remote}"
