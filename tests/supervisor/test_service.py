"""The Supervisor over fake ports: sweep, the approval path's proofs and refusals, cleanup."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from paw.core.config import PawConfig
from paw.core.ports import PaneCapture, StatusCounts
from paw.errors import GitError, PawError, TmuxError
from paw.supervisor.approve import PROMPT_SETTLE_S
from paw.supervisor.model import AgentStatus, Outcome
from paw.supervisor.service import Supervisor
from tests.support.fakes import FakeTerminal
from tests.support.supervision import (
    IDLE_SCREEN,
    REPO,
    Rig,
    demo_proc,
    demo_screen,
    make_rig,
    shell_proc,
    spawn_demo,
    with_ports,
)


def _answer_clears(terminal: FakeTerminal, pane_id: str, keys: tuple[str, ...]) -> None:
    del keys
    terminal.set_screen(pane_id, IDLE_SCREEN)


def _one_prompt(rig: Rig) -> str:
    prompts = rig.sup.poll_once().prompts
    assert len(prompts) == 1
    return prompts[0].id


def raising(error: Exception) -> Callable[..., None]:
    """A stand-in for a port method that fails with ``error``."""

    def fail(*args: object, **kwargs: object) -> None:
        del args, kwargs
        raise error

    return fail


def _events(rig: Rig, event: str) -> list[dict[str, object]]:
    return [r for r in rig.audit.records if r["event"] == event]


def test_supervisor_spawn_creates_worktree_branch_and_tagged_pane() -> None:
    rig = make_rig()
    pane_id = spawn_demo(rig, "alice", IDLE_SCREEN)
    assert rig.vcs.worktrees == {"/src/app-paw/alice": "paw/alice"}
    tags = rig.terminal.panes[pane_id].info.tags
    assert tags["paw_agent"] == "alice"
    assert tags["paw_kind"] == "scripted"
    assert rig.terminal.panes[pane_id].argv == ("/usr/bin/python3", "-m", "paw.demo.agent")
    assert rig.sup.session.startswith("pawd-app-")
    [view] = rig.sup.ls()
    assert (view.status, view.alive, view.branch) == (AgentStatus.IDLE, True, "paw/alice")


def test_supervisor_spawn_refuses_existing_name_and_unknown_kind() -> None:
    rig = make_rig()
    spawn_demo(rig, "alice", IDLE_SCREEN)
    with pytest.raises(PawError, match="already exists"):
        rig.sup.spawn("alice", "scripted", None)
    with pytest.raises(PawError, match="unknown agent kind"):
        rig.sup.spawn("bob", "no-such-agent", None)
    with pytest.raises(PawError, match="invalid agent name"):
        rig.sup.spawn("a;b", "scripted", None)


def test_spawn_without_a_pane_takes_back_worktree_branch_and_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rig = make_rig()

    no_pane = raising(TmuxError("tmux: cannot create pane: no space for new pane"))
    monkeypatch.setattr(rig.terminal, "new_pane", no_pane)
    with pytest.raises(PawError, match="cannot start alice: tmux: cannot create pane") as caught:
        rig.sup.spawn("alice", "scripted", None)
    assert "nothing was left behind" in str(caught.value.hint)
    assert (rig.vcs.worktrees, rig.vcs.branches) == ({}, set())
    assert rig.sup.ls() == ()
    [failed] = _events(rig, "spawn-failed")
    assert failed["left"] == []
    rig.terminal.new_pane = FakeTerminal.new_pane.__get__(rig.terminal)  # type: ignore[method-assign]
    assert spawn_demo(rig, "alice", IDLE_SCREEN)  # the name is free again


def test_a_resumed_spawn_without_a_pane_keeps_the_worktree_it_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`spawn --resume` made no worktree: when its pane cannot be made, only the record goes
    (issue 30: the worktree is the one `paw archive restore` put back)."""
    from paw.supervisor import spawn

    rig = make_rig()
    rig.vcs.worktrees["/src/app-paw/alice"] = "paw/alice"
    rig.vcs.branches.add("paw/alice")
    monkeypatch.setattr(rig.terminal, "new_pane", raising(TmuxError("tmux: cannot create pane")))
    with pytest.raises(PawError, match="cannot start alice") as caught:
        spawn.spawn(rig.sup.ctx, "alice", "scripted", None, resume=True)
    assert "stays as it was" in str(caught.value.hint)
    assert rig.vcs.worktrees == {"/src/app-paw/alice": "paw/alice"}
    assert rig.vcs.branches == {"paw/alice"}
    assert rig.sup.ls() == ()
    [failed] = _events(rig, "spawn-failed")
    assert failed["left"] == ["/src/app-paw/alice"]


def test_spawn_rollback_keeps_what_git_will_not_remove(monkeypatch: pytest.MonkeyPatch) -> None:
    rig = make_rig()

    no_pane = raising(TmuxError("tmux: cannot create pane"))
    refuse = raising(
        GitError("fatal: contains modified or untracked files, use --force to delete it")
    )

    monkeypatch.setattr(rig.terminal, "new_pane", no_pane)
    monkeypatch.setattr(rig.vcs, "remove_worktree", refuse)
    with pytest.raises(PawError, match="cannot start alice") as caught:
        rig.sup.spawn("alice", "scripted", None)
    assert "paw rm alice" in str(caught.value.hint)
    assert rig.vcs.worktrees == {"/src/app-paw/alice": "paw/alice"}  # never forced
    assert [v.name for v in rig.sup.ls()] == ["alice"]  # still known, so `paw rm` can act


def test_spawn_rollback_names_a_branch_git_will_not_delete(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rig = make_rig()

    no_pane = raising(TmuxError("tmux: cannot create pane"))
    refuse = raising(GitError("error: the branch 'paw/alice' is not fully merged"))

    monkeypatch.setattr(rig.terminal, "new_pane", no_pane)
    monkeypatch.setattr(rig.vcs, "delete_branch", refuse)
    with pytest.raises(PawError, match="cannot start alice") as caught:
        rig.sup.spawn("alice", "scripted", None)
    assert "git branch -D paw/alice" in str(caught.value.hint)
    assert rig.vcs.worktrees == {}
    assert rig.vcs.branches == {"paw/alice"}  # never forced
    assert rig.sup.ls() == ()  # no worktree: nothing for paw to manage


def test_spawn_refuses_an_agent_program_not_on_path() -> None:
    rig = make_rig()
    looked: list[str] = []

    def which(program: str) -> str | None:
        looked.append(program)
        return None

    with_ports(rig.sup, which=which)
    with pytest.raises(PawError, match="scripted: /usr/bin/python3 is not installed") as caught:
        rig.sup.spawn("alice", "scripted", None)
    assert "paw doctor" in str(caught.value.hint)
    assert looked == ["/usr/bin/python3"]
    assert (rig.vcs.worktrees, rig.terminal.sessions, rig.sup.ls()) == ({}, set(), ())


def test_spawn_does_not_check_a_program_relative_to_the_worktree() -> None:
    config = PawConfig.model_validate({"agents": {"local": {"command": ["./bin/agent"]}}})
    rig = make_rig(config)
    with_ports(rig.sup, which=lambda program: None)
    view = rig.sup.spawn("alice", "local", None)
    assert view.pane_id is not None


def test_spawn_refuses_a_branch_left_without_an_agent() -> None:
    rig = make_rig()
    rig.vcs.add_worktree(REPO, "/src/app-paw/alice", "paw/alice", "main")  # interrupted spawn
    with pytest.raises(PawError, match="branch paw/alice already exists") as caught:
        rig.sup.spawn("alice", "scripted", None)
    assert "git worktree list" in str(caught.value.hint)
    assert rig.vcs.worktrees == {"/src/app-paw/alice": "paw/alice"}  # untouched
    assert rig.sup.ls() == ()


def test_spawn_creates_nothing_when_tmux_is_unreachable(monkeypatch: pytest.MonkeyPatch) -> None:
    rig = make_rig()

    no_tmux = raising(TmuxError("tmux is not installed (no `tmux` on PATH)"))
    monkeypatch.setattr(rig.terminal, "ensure_session", no_tmux)
    with pytest.raises(TmuxError, match="not installed"):
        rig.sup.spawn("alice", "scripted", None)
    assert (rig.vcs.worktrees, rig.vcs.branches, rig.sup.ls()) == ({}, set(), ())


def test_supervisor_second_instance_sees_the_same_picture() -> None:
    rig = make_rig()
    spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    first = rig.sup.poll_once()
    other = Supervisor(
        rig.sup.ctx.config, REPO, rig.terminal, rig.vcs, rig.procs, rig.audit, rig.state,
        lambda: 2000.0,
    )  # fmt: skip
    second = other.poll_once()
    assert [a.name for a in second.agents] == ["alice"]
    assert [p.id for p in second.prompts] == [p.id for p in first.prompts]
    assert second.prompts[0].first_seen == first.prompts[0].first_seen


def test_approve_sends_keys_records_then_verifies() -> None:
    rig = make_rig()
    pane = spawn_demo(rig, "alice", demo_screen("shell", "ls -la"))
    rig.terminal.on_keys = _answer_clears
    prompt_id = _one_prompt(rig)
    rig.state.locks.clear()
    decision = rig.sup.approve(prompt_id)
    assert decision.outcome is Outcome.SENT
    assert rig.terminal.sent == [(pane, ("y",))]
    events = [r["event"] for r in rig.audit.records]
    assert events[-2:] == ["approve", "outcome"]
    assert _events(rig, "approve")[-1]["keys"] == ["y"]
    # serialised by the approval lock; the occurrence marked sending, then answered
    locks = [n for n in rig.state.locks if n in ("approval", "prompts")]
    assert locks == ["approval", "prompts", "prompts"]


@pytest.mark.parametrize(("age", "wait"), [(0.25, 0.75), (0.0, 1.0), (5.0, None)])
def test_keys_go_only_to_a_prompt_shown_for_a_second_and_the_proof_follows_the_wait(
    age: float, wait: float | None
) -> None:
    rig = make_rig()
    steps: list[tuple[str, float]] = []  # ("sleep", seconds), ("capture", when), ("keys", when)

    def sleep(seconds: float) -> None:
        steps.append(("sleep", seconds))
        rig.now[0] += seconds

    def answer(terminal: FakeTerminal, pane_id: str, keys: tuple[str, ...]) -> None:
        steps.append(("keys", rig.now[0]))
        _answer_clears(terminal, pane_id, keys)

    with_ports(rig.sup, sleep=sleep)
    spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    rig.terminal.on_keys = answer
    prompt_id = _one_prompt(rig)  # first seen now
    first_seen = rig.now[0]
    rig.now[0] += age
    sweep = rig.terminal.sweep

    def noted(pane_ids: Sequence[str], *, ansi: bool = False) -> list[PaneCapture]:
        steps.append(("capture", rig.now[0]))
        return sweep(pane_ids, ansi=ansi)

    rig.terminal.sweep = noted  # type: ignore[method-assign]
    assert rig.sup.approve(prompt_id).outcome is Outcome.SENT
    keys = next(when for step, when in steps if step == "keys")
    assert keys >= first_seen + PROMPT_SETTLE_S
    proof = steps.index(next(s for s in steps if s[0] == "capture"))
    if wait is None:  # shown long enough: the proof at once
        assert steps[0] == ("capture", first_seen + age)
    else:  # the wait, then the proof capture, then the keys
        assert steps[0][0] == "sleep"
        assert steps[0][1] == pytest.approx(wait)
        assert steps[proof][1] == pytest.approx(first_seen + PROMPT_SETTLE_S)
    assert [s for s, _ in steps].count("keys") == 1


def test_approve_reports_unconfirmed_when_prompt_stays_and_never_retries() -> None:
    rig = make_rig()
    spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    decision = rig.sup.approve(_one_prompt(rig))
    assert decision.outcome is Outcome.SENT_UNCONFIRMED
    assert len(rig.terminal.sent) == 1


def test_approve_refuses_unknown_id_with_audit_record() -> None:
    rig = make_rig()
    spawn_demo(rig, "alice", IDLE_SCREEN)
    decision = rig.sup.approve("0123456789")
    assert decision.outcome is Outcome.REFUSED
    assert "unknown prompt id" in decision.reason
    assert _events(rig, "approve")[-1]["decision"] == "refuse"
    assert rig.terminal.sent == []


def test_approve_refuses_when_agent_exited_and_shell_shows_same_text() -> None:
    rig = make_rig()
    pane = spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    prompt_id = _one_prompt(rig)
    pid = rig.terminal.panes[pane].info.pane_pid
    rig.procs.trees_by_root[pid] = [shell_proc(pid)]  # same pane, same text, no agent
    decision = rig.sup.approve(prompt_id)
    assert decision.outcome is Outcome.REFUSED
    assert "no longer runs" in decision.reason
    assert rig.terminal.sent == []


def test_approve_refuses_when_agent_restarted_with_new_process() -> None:
    rig = make_rig()
    pane = spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    prompt_id = _one_prompt(rig)
    pid = rig.terminal.panes[pane].info.pane_pid
    # pid reused, other start time
    rig.procs.trees_by_root[pid] = [demo_proc(pid, create_time=555.0)]
    assert rig.sup.approve(prompt_id).outcome is Outcome.REFUSED
    assert rig.terminal.sent == []


def test_approve_refuses_when_prompt_changed() -> None:
    rig = make_rig()
    pane = spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    prompt_id = _one_prompt(rig)
    rig.terminal.set_screen(pane, demo_screen("shell", "rm -rf build"))
    decision = rig.sup.approve(prompt_id)
    assert (decision.outcome, decision.reason) == (
        Outcome.REFUSED,
        "the prompt changed since it was listed",
    )
    assert rig.terminal.sent == []


def test_approve_refuses_when_pane_killed_and_another_program_took_a_pane() -> None:
    rig = make_rig()
    pane = spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    prompt_id = _one_prompt(rig)
    rig.terminal.kill_pane(pane)
    other = rig.terminal.add_pane(demo_screen("shell", "ls"))
    rig.procs.trees_by_root[other.pane_pid] = [demo_proc(other.pane_pid)]
    decision = rig.sup.approve(prompt_id)
    assert decision.outcome is Outcome.REFUSED
    assert "pane is gone" in decision.reason
    assert rig.terminal.sent == []


def test_approve_refuses_quoted_prompt_that_is_not_at_live_position() -> None:
    rig = make_rig()
    history = "\n".join(demo_screen("shell", "ls").splitlines()[2:])
    spawn_demo(rig, "alice", IDLE_SCREEN.replace("demo> ", history + "\ndemo> "))
    assert rig.sup.poll_once().prompts == ()


def test_approve_block_needs_override_and_records_it() -> None:
    rig = make_rig()
    rig.terminal.on_keys = _answer_clears
    spawn_demo(rig, "alice", demo_screen("shell", "rm -rf /"))
    prompt_id = _one_prompt(rig)
    blocked = rig.sup.approve(prompt_id, confirmed=True)
    assert blocked.outcome is Outcome.NEEDS_OVERRIDE
    assert rig.terminal.sent == []
    sent = rig.sup.approve(prompt_id, override="disposable container")
    assert sent.outcome is Outcome.SENT
    assert _events(rig, "approve")[-1]["override"] == "disposable container"
    assert rig.sup.stats()["alice"]["overrides"] == 1
    assert rig.sup.stats()["alice"]["guard_refused"] == 1


def test_approve_confirm_verdict_needs_confirmation_text() -> None:
    rig = make_rig()
    rig.terminal.on_keys = _answer_clears
    spawn_demo(rig, "alice", demo_screen("shell", "git push origin main"))
    prompt_id = _one_prompt(rig)
    asked = rig.sup.approve(prompt_id)
    assert asked.outcome is Outcome.NEEDS_CONFIRMATION
    assert asked.confirmation is not None
    assert "git push origin main" in asked.confirmation
    assert rig.sup.approve(prompt_id, confirmed=True).outcome is Outcome.SENT
    assert rig.sup.stats()["alice"]["git_writes_confirmed"] == 1


def test_approve_write_outside_worktree_is_blocked() -> None:
    rig = make_rig()
    spawn_demo(rig, "alice", demo_screen("write", "../../etc/passwd"))
    decision = rig.sup.approve(_one_prompt(rig))
    assert decision.outcome is Outcome.NEEDS_OVERRIDE
    assert decision.verdict is not None
    assert decision.verdict.rule == "approve.path-outside-worktree"


def test_approve_always_uses_always_keys() -> None:
    rig = make_rig()
    rig.terminal.on_keys = _answer_clears
    pane = spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    prompt_id = _one_prompt(rig)
    first = rig.sup.approve(prompt_id, always=True)
    assert first.outcome is Outcome.NEEDS_CONFIRMATION  # "always" remembers more than `ls`
    assert first.confirmation is not None
    assert "'always' makes the agent remember" in first.confirmation
    assert rig.terminal.sent == []
    assert rig.sup.approve(prompt_id, always=True, confirmed=True).outcome is Outcome.SENT
    assert rig.terminal.sent == [(pane, ("a",))]


def test_deny_sends_deny_keys() -> None:
    rig = make_rig()
    rig.terminal.on_keys = _answer_clears
    pane = spawn_demo(rig, "alice", demo_screen("shell", "rm -rf /"))
    assert rig.sup.deny(_one_prompt(rig)).outcome is Outcome.SENT
    assert rig.terminal.sent == [(pane, ("n",))]
    assert rig.sup.stats()["all"]["denied"] == 1


def test_question_prompt_has_no_generic_approve() -> None:
    rig = make_rig()
    spawn_demo(rig, "alice", demo_screen("question", "pick one"))
    decision = rig.sup.approve(_one_prompt(rig), confirmed=True)
    assert decision.outcome is Outcome.REFUSED
    assert rig.terminal.sent == []


def test_send_refused_while_prompt_is_live() -> None:
    rig = make_rig()
    pane = spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    with pytest.raises(PawError, match="permission prompt"):
        rig.sup.send("alice", "y")
    rig.terminal.set_screen(pane, IDLE_SCREEN)
    rig.sup.send("alice", "C-c; kill-server")
    assert rig.terminal.typed == [(pane, "C-c; kill-server")]


def test_remove_refuses_unsaved_work_and_force_snapshots_first() -> None:
    rig = make_rig()
    spawn_demo(rig, "alice", IDLE_SCREEN)
    rig.vcs.counts["/src/app-paw/alice"] = StatusCounts(1, 2, 0, 3, 0)
    with pytest.raises(PawError, match="1 uncommitted, 2 untracked, 3 commits on no other"):
        rig.sup.remove("alice")
    assert "/src/app-paw/alice" in rig.vcs.worktrees
    message = rig.sup.remove("alice", force=True)
    [ref] = rig.vcs.snapshots
    assert ref.startswith("refs/paw/archive/alice-")
    assert ref.removeprefix("refs/paw/archive/") in message
    assert rig.vcs.worktrees == {}
    assert rig.sup.ls() == ()


def test_remove_with_nothing_to_keep_leaves_no_archive_ref() -> None:
    rig = make_rig()
    spawn_demo(rig, "alice", IDLE_SCREEN)
    rig.vcs.ignored["/src/app-paw/alice"] = ("node_modules/", "pkg/__pycache__/")
    message = rig.sup.remove("alice", force=True)
    assert "no archive" in message
    assert rig.vcs.snapshots == {}
    assert rig.vcs.worktrees == {}


def test_remove_refuses_ignored_files_outside_the_disposable_list() -> None:
    rig = make_rig()
    spawn_demo(rig, "alice", IDLE_SCREEN)
    rig.vcs.ignored["/src/app-paw/alice"] = ("node_modules/", ".env", "build/")
    with pytest.raises(PawError, match=r"2 ignored \(.env, build/\)"):
        rig.sup.remove("alice")
    assert "/src/app-paw/alice" in rig.vcs.worktrees


def test_stop_kills_pane_keeps_worktree() -> None:
    rig = make_rig()
    rig.terminal.add_pane("$ ")  # paw's session keeps its first window, as in tmux
    pane = spawn_demo(rig, "alice", IDLE_SCREEN)
    rig.sup.stop("alice")
    assert pane not in rig.terminal.panes
    [view] = rig.sup.ls()
    assert (view.alive, view.status) == (False, AgentStatus.EXITED)
    assert "/src/app-paw/alice" in rig.vcs.worktrees


def test_adopt_requires_a_resolved_agent_process() -> None:
    rig = make_rig()
    shell = rig.terminal.add_pane("$ ")
    rig.procs.trees_by_root[shell.pane_pid] = [shell_proc(shell.pane_pid)]
    with pytest.raises(PawError, match="does not run a known agent"):
        rig.sup.adopt(shell.pane_id)
    agent = rig.terminal.add_pane(IDLE_SCREEN)
    rig.procs.trees_by_root[agent.pane_pid] = [
        shell_proc(agent.pane_pid),
        demo_proc(agent.pane_pid + 1),
    ]
    view = rig.sup.adopt(agent.pane_id)
    assert (view.kind, view.alive) == ("scripted", True)
    assert view.name == f"scripted-{agent.pane_id[1:]}"


def test_approve_records_a_failed_send_and_does_not_retry() -> None:
    rig = make_rig()
    pane = spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    prompt_id = _one_prompt(rig)

    def vanish(terminal: FakeTerminal, pane_id: str, keys: tuple[str, ...]) -> None:
        del keys
        raise PawError(f"tmux: pane {pane_id} vanished")

    rig.terminal.on_keys = vanish
    with pytest.raises(PawError, match="vanished"):
        rig.sup.approve(prompt_id)
    assert [r["event"] for r in rig.audit.records][-2:] == ["approve", "outcome"]
    assert rig.audit.records[-1]["outcome"] == "send-failed"
    assert rig.terminal.sent == [(pane, ("y",))]


def test_capture_ansi_of_a_stopped_agent_is_empty() -> None:
    rig = make_rig()
    spawn_demo(rig, "alice", IDLE_SCREEN)
    assert "demo>" in rig.sup.capture_ansi("alice")
    rig.sup.stop("alice")
    assert rig.sup.capture_ansi("alice") == ""


def test_rm_looks_again_after_stopping_the_agent() -> None:
    rig = make_rig()
    spawn_demo(rig, "alice", IDLE_SCREEN)
    [worktree] = list(rig.vcs.worktrees)
    kill = rig.terminal.kill_pane

    def write_on_exit(pane_id: str) -> None:  # the agent saves a file as it is stopped
        rig.vcs.counts[worktree] = StatusCounts(0, 1, 0, 0, 0)
        kill(pane_id)

    rig.terminal.kill_pane = write_on_exit  # type: ignore[method-assign]  # hook the fake
    with pytest.raises(PawError, match="unsaved work: 1 untracked"):
        rig.sup.remove("alice")
    assert worktree in rig.vcs.worktrees
    assert rig.vcs.snapshots == {}


def test_approve_retakes_a_proof_capture_that_caught_a_half_drawn_dialog() -> None:
    """An inline agent redraws its dialog on every timer tick: a capture can land mid-redraw.
    paw captures again (briefly) and sends only once a full, matching prompt shows."""
    rig = make_rig()
    full = demo_screen("shell", "ls -la")
    pane = spawn_demo(rig, "alice", full)
    rig.terminal.on_keys = _answer_clears
    prompt_id = _one_prompt(rig)
    torn = "\n".join(full.splitlines()[:2])
    real_sweep = rig.terminal.sweep
    frames = [torn, torn]

    def sweep(pane_ids: Sequence[str], *, ansi: bool = False) -> list[PaneCapture]:
        if frames:
            rig.terminal.set_screen(pane, frames.pop(0))
        elif rig.terminal.panes[pane].screen == torn:
            rig.terminal.set_screen(pane, full)
        return real_sweep(pane_ids, ansi=ansi)

    rig.terminal.sweep = sweep  # type: ignore[method-assign]
    decision = rig.sup.approve(prompt_id)
    assert decision.outcome is Outcome.SENT
    assert rig.terminal.sent == [(pane, ("y",))]


def test_approve_refuses_when_every_proof_capture_is_half_drawn() -> None:
    rig = make_rig()
    full = demo_screen("shell", "ls -la")
    pane = spawn_demo(rig, "alice", full)
    prompt_id = _one_prompt(rig)
    rig.terminal.set_screen(pane, "\n".join(full.splitlines()[:2]))
    decision = rig.sup.approve(prompt_id)
    assert (decision.outcome, decision.reason) == (
        Outcome.REFUSED,
        "the pane shows no live prompt now",
    )
    assert rig.terminal.sent == []
