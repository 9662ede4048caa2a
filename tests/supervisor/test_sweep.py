"""poll_once over fake ports: one terminal call and one process-table read per sweep, and a
lost tmux server reported as such."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest
from libtmux.test.retry import retry_until

from paw.core.models import Action, Finding, Verdict
from paw.core.ports import StatusCounts
from paw.supervisor.model import AgentStatus
from paw.supervisor.sweep.counts import HOST_STAT_TTL_S, STAT_REFRESH_PER_SWEEP, STAT_TTL_S
from tests.support.budget import budget
from tests.support.supervision import (
    IDLE_SCREEN,
    REPO,
    Rig,
    demo_screen,
    make_rig,
    spawn_demo,
    table_shell_guard,
    with_ports,
    with_settings,
)


def test_poll_once_is_one_terminal_call_and_one_table_read() -> None:
    rig = make_rig()
    for i in range(12):
        spawn_demo(rig, f"a{i}", demo_screen("shell", f"echo {i}") if i % 2 else IDLE_SCREEN)
    rig.terminal.sweeps = rig.procs.scans = 0
    snapshot = rig.sup.poll_once()
    assert (rig.terminal.sweeps, rig.procs.scans) == (1, 1)
    assert snapshot.tmux_ok
    assert sorted(p.prompt.subject or "" for p in snapshot.prompts) == [
        f"echo {i}" for i in (1, 11, 3, 5, 7, 9)
    ]
    assert {v.status for v in snapshot.agents} == {AgentStatus.PROMPT, AgentStatus.IDLE}


def test_poll_once_finds_an_agent_whose_pane_id_changed() -> None:
    rig = make_rig()
    old = spawn_demo(rig, "alice", IDLE_SCREEN)
    moved = rig.terminal.panes.pop(old)
    info = replace(moved.info, pane_id="%77")  # same tags, same launched process
    rig.terminal.panes["%77"] = replace(moved, info=info, screen=demo_screen("shell", "ls"))
    rig.terminal.sweeps = 0
    [prompt] = rig.sup.poll_once().prompts
    assert (prompt.pane_id, prompt.prompt.subject) == ("%77", "ls")
    assert rig.terminal.sweeps == 2  # the recorded id missed: one more capture


def test_poll_once_server_gone_is_not_every_agent_exited() -> None:
    rig = make_rig()
    spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    assert len(rig.sup.poll_once().prompts) == 1
    rig.terminal.server_gone = True
    snapshot = rig.sup.poll_once()
    assert not snapshot.tmux_ok
    assert "server is gone" in (snapshot.error or "")
    assert snapshot.prompts == ()
    assert [v.name for v in snapshot.agents] == ["alice"]


def test_a_server_answering_with_no_pane_at_all_is_not_every_agent_exited() -> None:
    """kill-server: for a moment the dying server still answers, with no pane. One pane gone
    is `exited`; every pane gone at once is not proof of anything."""
    rig = make_rig()
    spawn_demo(rig, "alice", IDLE_SCREEN)
    spawn_demo(rig, "bob", IDLE_SCREEN)
    rig.terminal.panes.pop(rig.sup.agent("bob").pane_id or "")
    views = {v.name: v.status for v in rig.sup.poll_once().agents}
    assert views == {"alice": AgentStatus.IDLE, "bob": AgentStatus.EXITED}
    rig.terminal.panes.clear()
    views = {v.name: v.status for v in rig.sup.poll_once().agents}
    assert views == {"alice": AgentStatus.LOST, "bob": AgentStatus.LOST}


def test_poll_once_without_agents_calls_no_tmux() -> None:
    rig = make_rig()
    rig.terminal.server_gone = True
    snapshot = rig.sup.poll_once()
    assert (snapshot.tmux_ok, snapshot.agents, rig.terminal.sweeps) == (True, (), 0)


def test_poll_once_refreshes_few_stale_worktree_counts_per_sweep(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rig = make_rig()
    for i in range(20):
        spawn_demo(rig, f"a{i:02d}", IDLE_SCREEN)
    counted: list[str] = []
    real = rig.vcs.status_counts

    def counting(worktree: str, base: str) -> StatusCounts:
        counted.append(worktree.rsplit("/", 1)[-1])
        return real(worktree, base)

    monkeypatch.setattr(rig.vcs, "status_counts", counting)
    rig.sup.ctx.memory.stat_cache.clear()
    rig.sup.poll_once()
    assert len(counted) == 20  # never counted: all of them, once
    rig.vcs.counts[f"{REPO}-paw/a19"] = StatusCounts(4, 0, 0, 0, 0)
    marks = rig.sup.ctx.memory.stat_marks
    marks["a19"] = replace(marks["a19"], time=rig.now[0] - 100)
    counted.clear()
    rig.now[0] += STAT_TTL_S + 1
    first = rig.sup.poll_once()
    assert "a19" in counted  # the oldest first (counted side by side: any order)
    assert len(counted) == STAT_REFRESH_PER_SWEEP
    assert {v.name: v.stat.uncommitted for v in first.agents}["a19"] == 4
    batch = set(counted)
    counted.clear()
    rig.sup.poll_once()
    rig.sup.poll_once()
    assert len(counted) == 20 - STAT_REFRESH_PER_SWEEP  # the rest, each once
    assert set(counted) == {f"a{i:02d}" for i in range(20)} - batch


def test_first_poll_counts_every_worktree_side_by_side(monkeypatch: pytest.MonkeyPatch) -> None:
    rig = make_rig()
    for i in range(12):
        spawn_demo(rig, f"a{i:02d}", IDLE_SCREEN)
        rig.vcs.counts[f"{REPO}-paw/a{i:02d}"] = StatusCounts(i, 0, 0, 0, 0)
    threads: set[str] = set()
    real = rig.vcs.status_counts

    def counting(worktree: str, base: str) -> StatusCounts:
        threads.add(threading.current_thread().name)
        time.sleep(0.01)  # a git process: long enough for the workers to overlap
        return real(worktree, base)

    monkeypatch.setattr(rig.vcs, "status_counts", counting)
    rig.sup.ctx.memory.stat_cache.clear()
    snapshot = rig.sup.poll_once()
    assert {v.name: v.stat.uncommitted for v in snapshot.agents} == {
        f"a{i:02d}": i for i in range(12)
    }
    assert len(threads) > 1


def test_poll_once_surveys_steady_and_approval_never_does() -> None:
    rig = make_rig()
    pane = spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    [prompt] = rig.sup.poll_once().prompts
    assert set(rig.terminal.survey_fresh) == {False}  # every poll is steady
    rig.terminal.survey_fresh.clear()
    rig.terminal.sweeps = 0
    decision = rig.sup.approve(prompt.id)
    assert rig.terminal.sweeps >= 1  # re-verified with a capture of its own
    assert False not in rig.terminal.survey_fresh
    assert [pane for pane, _keys in rig.terminal.sent] == ([pane] if decision.keys else [])


def captures_of(rig: Rig) -> list[list[str]]:
    """The pane ids of every capture call from now on."""
    captured: list[list[str]] = []
    real = rig.terminal.sweep

    def sweep_spy(pane_ids: list[str], **kwargs: bool) -> object:
        captured.append(list(pane_ids))
        return real(pane_ids, **kwargs)

    rig.terminal.sweep = sweep_spy  # type: ignore[method-assign,assignment]
    return captured


def test_a_sweep_of_one_agent_captures_it_alone_and_keeps_the_others_prompts() -> None:
    """A spawn's result and `paw send` sweep their one agent: the others are neither captured
    nor judged, and their open prompt occurrences stay as they are (same ids, still open)."""
    from paw.core.occurrence import OPEN
    from paw.supervisor import sweep
    from paw.supervisor.records import load_prompts

    rig = make_rig()
    asking = spawn_demo(rig, "asking", demo_screen("shell", "ls"))
    spawn_demo(rig, "quiet", IDLE_SCREEN)
    [prompt] = rig.sup.poll_once().prompts
    rig.now[0] += 7200.0  # older than any closed occurrence is kept
    captured = captures_of(rig)
    snapshot = sweep.poll_once(rig.sup.ctx, only="quiet")
    assert [v.name for v in snapshot.agents] == ["quiet"]
    assert snapshot.prompts == ()
    assert asking not in [p for call in captured for p in call]  # not even captured
    table = load_prompts(rig.state)
    assert table[prompt.id].state == OPEN  # neither ended nor dropped
    assert [p.id for p in rig.sup.poll_once().prompts] == [prompt.id]  # the same occurrence
    assert sweep.poll_once(rig.sup.ctx, only="nobody").agents == ()


def test_spawn_sweeps_only_the_new_agent() -> None:
    """Spawning the 13th agent captures its pane only (a spawn used to sweep every agent:
    it grew with their number)."""
    rig = make_rig()
    for i in range(12):
        spawn_demo(rig, f"a{i}", IDLE_SCREEN)
    captured = captures_of(rig)
    new = spawn_demo(rig, "new", IDLE_SCREEN)
    assert captured
    assert all(call == [new] for call in captured), captured


def test_a_sweep_notes_what_it_saw_without_waiting_for_the_disk_and_decisions_are_synced() -> None:
    """prompt-seen and prompt-ended are observations (no fsync of their own: a new prompt is
    shown without waiting for the disk); an approval is a decision, fsync'd before the keys."""
    rig = make_rig()
    pane = spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    [prompt] = rig.sup.poll_once().prompts
    rig.terminal.panes[pane] = replace(rig.terminal.panes[pane], screen=IDLE_SCREEN)
    rig.sup.poll_once()
    assert rig.audit.unsynced == ["prompt-seen", "prompt-ended"]
    rig.terminal.panes[pane] = replace(rig.terminal.panes[pane], screen=demo_screen("shell", "pwd"))
    [prompt] = rig.sup.poll_once().prompts
    rig.sup.approve(prompt.id)
    events = [r["event"] for r in rig.audit.records]
    assert "approve" in events
    assert set(rig.audit.unsynced) == {"prompt-seen", "prompt-ended"}


def test_a_context_that_shows_no_prompt_judges_only_new_ones_and_lists_none() -> None:
    """``show_prompts`` off (`paw ls`): a prompt never seen is still recorded and audited with
    its verdict; one already seen is not judged again; the snapshot lists no prompt, and the
    occurrences stay the same for every other paw process."""
    rig = make_rig()
    spawn_demo(rig, "alice", demo_screen("shell", "rm -rf /"))
    spawn_demo(rig, "bob", IDLE_SCREEN)
    [seen] = rig.sup.poll_once().prompts
    judged: list[str] = []

    def counting(command: str, cwd: str, config: object) -> Verdict:
        judged.append(command)
        return table_shell_guard(command, cwd, config)

    with_ports(rig.sup, shell=counting)
    with_settings(rig.sup, show_prompts=False)
    bob = rig.sup.agent("bob").pane_id or ""
    rig.terminal.panes[bob].screen = demo_screen("shell", "git push")
    snapshot = rig.sup.poll_once()
    assert snapshot.prompts == ()
    assert {v.name: v.status for v in snapshot.agents} == {
        "alice": AgentStatus.PROMPT, "bob": AgentStatus.PROMPT,
    }  # fmt: skip
    assert judged == ["git push"]  # bob's prompt is new; alice's was judged when first seen
    [audited] = [r for r in rig.audit.records if r.get("agent") == "bob" and "verdict" in r]
    assert audited["event"] == "prompt-seen"
    assert (
        audited["verdict"]
        == Verdict.from_findings((Finding("git.push", Action.CONFIRM, "pushes"),)).to_dict()
    )
    with_settings(rig.sup, show_prompts=True)
    shown = {p.agent: p for p in rig.sup.poll_once().prompts}
    assert shown["alice"].id == seen.id
    assert shown["alice"].verdict.action is Action.BLOCK


def test_a_worktree_git_cannot_count_shows_no_count_not_a_clean_one() -> None:
    """A worktree removed by hand: its count fails. The view says it has no count (the TUI
    shows "-", `paw ls` "?"), never zeros that read as "clean", nor the count before."""
    from paw.core.ports import StatusCounts
    from paw.errors import GitError

    rig = make_rig()
    spawn_demo(rig, "alice", IDLE_SCREEN)
    worktree = rig.sup.agent("alice").worktree
    rig.vcs.counts[worktree] = StatusCounts(3, 1, 0, 0, 0)
    rig.now[0] += STAT_TTL_S + 1  # (its mark is read again, found changed, recounted)
    [view] = rig.sup.poll_once().agents
    assert view.stat.counted
    assert view.stat.uncommitted == 3

    def gone(worktree: str, base: str) -> StatusCounts:
        raise GitError(f"cannot count {worktree}: no such directory")

    rig.vcs.status_counts = gone  # type: ignore[method-assign]
    rig.vcs.counts[worktree] = StatusCounts(0, 0, 0, 0, 0)
    rig.now[0] += STAT_TTL_S + 1
    [view] = rig.sup.poll_once().agents
    assert not view.stat.counted


def test_a_long_running_sweeper_counts_worktrees_beside_its_sweeps() -> None:
    """The TUI's sweeps never wait for git: a count runs on a worker (one per agent at a
    time), the sweep that started it shows the count before (or none yet), the worker asks
    for the next sweep when it ends, and that sweep shows the new count."""
    from paw.core.ports import StatusCounts

    rig = make_rig()
    spawn_demo(rig, "alice", IDLE_SCREEN)
    worktree = rig.sup.agent("alice").worktree
    ctx = with_settings(rig.sup, count_in_background=True)
    asked = threading.Event()
    rig.sup.listen_counts(asked.set)
    release = threading.Event()
    counted = rig.vcs.status_counts
    calls: list[str] = []

    counted_on: list[str] = []

    def slow(path: str, base: str) -> StatusCounts:
        calls.append(path)
        counted_on.append(threading.current_thread().name)
        assert release.wait(budget(30))
        return counted(path, base)

    rig.vcs.status_counts = slow  # type: ignore[method-assign,assignment]
    rig.vcs.counts[worktree] = StatusCounts(2, 0, 0, 0, 0)
    rig.now[0] += STAT_TTL_S + 1  # the count is due
    started = time.monotonic()
    [view] = rig.sup.poll_once().agents
    # the sweep did not wait for git: it returned while the count is held (a sweep that
    # waited would sit out the whole hold; a loaded machine's slow sweep is far below it)
    assert time.monotonic() - started < budget(20)
    assert not release.is_set()
    assert view.stat.uncommitted == 0  # the count before
    [again] = rig.sup.poll_once().agents  # a sweep while it runs starts no second count
    assert again.stat.uncommitted == 0
    assert retry_until(lambda: len(calls) == 1, budget(10), raises=False)
    release.set()
    assert asked.wait(budget(30))  # the worker asked for a sweep
    assert retry_until(lambda: "alice" not in ctx.memory.counting, budget(10), raises=False)
    [after] = rig.sup.poll_once().agents
    assert after.stat.uncommitted == 2
    assert calls == [worktree]
    assert counted_on[0].startswith("paw-count")  # counted beside the sweep
    rig.sup.close()


def test_a_long_running_sweepers_sweep_reads_no_status_mark() -> None:
    """Marks due to be read again (a screen changed, or the last read is old) are read on the
    count workers: a sweep that carries a burst of prompts does not wait for a score of stat()
    calls per agent. A mark found changed there still leads to a count, and the sweep after it
    shows the new count; a mark found unchanged counts nothing and asks for no sweep."""
    from paw.supervisor.sweep.counts import MARK_EVERY_S

    rig = make_rig()
    spawn_demo(rig, "alice", IDLE_SCREEN)
    worktree = rig.sup.agent("alice").worktree
    ctx = with_settings(rig.sup, count_in_background=True)
    rig.sup.poll_once()  # the first count (never made: always on the workers)
    assert retry_until(lambda: "alice" not in ctx.memory.counting, budget(10), raises=False)
    asked: list[float] = []
    rig.sup.listen_counts(lambda: asked.append(time.monotonic()))
    release = threading.Event()
    read_on: list[str] = []
    marked = rig.vcs.status_mark

    def slow_mark(path: str, base: str) -> tuple[object, ...]:
        read_on.append(threading.current_thread().name)
        assert release.wait(budget(30))
        return marked(path, base)

    rig.vcs.status_mark = slow_mark  # type: ignore[method-assign,assignment]
    rig.now[0] += MARK_EVERY_S + 1  # the mark is due to be read again; the count stands
    started = time.monotonic()
    [view] = rig.sup.poll_once().agents
    assert time.monotonic() - started < budget(20)  # did not wait for the mark (held 30 s)
    assert view.stat.uncommitted == 0
    assert retry_until(lambda: len(read_on) == 1, budget(10), raises=False)
    assert read_on[0].startswith("paw-count")  # read beside the sweep
    release.set()
    assert retry_until(lambda: "alice" not in ctx.memory.counting, budget(10), raises=False)
    assert asked == []  # unchanged: nothing counted, no sweep asked for
    rig.vcs.counts[worktree] = StatusCounts(4, 0, 0, 0, 0)  # git would stamp a new mark
    rig.now[0] += MARK_EVERY_S + 1
    rig.sup.poll_once()
    assert retry_until(lambda: len(asked) == 1, budget(30), raises=False)  # counted, asked
    [after] = rig.sup.poll_once().agents
    assert after.stat.uncommitted == 4
    assert all(name.startswith("paw-count") for name in read_on)
    rig.sup.close()


def test_a_long_running_sweeper_recounts_few_stale_worktrees_per_sweep(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The TTL falls due for every worktree at once: a long-running sweeper (marks read on its
    count workers) still recounts at most a few per sweep, oldest first, each once; reading a
    mark again counts nothing when the mark is unchanged, and a recount that finds the same
    numbers asks for no sweep (each used to ask for one, which started the next few)."""
    rig = make_rig()
    for i in range(20):
        spawn_demo(rig, f"a{i:02d}", IDLE_SCREEN)
    ctx = with_settings(rig.sup, count_in_background=True)
    counted: list[str] = []
    real = rig.vcs.status_counts

    def counting(worktree: str, base: str) -> StatusCounts:
        counted.append(worktree.rsplit("/", 1)[-1])
        return real(worktree, base)

    def sweep() -> None:
        rig.sup.poll_once()
        assert retry_until(lambda: not ctx.memory.counting, budget(10), raises=False)

    monkeypatch.setattr(rig.vcs, "status_counts", counting)
    ctx.memory.stat_cache.clear()
    sweep()
    assert len(counted) == 20  # never counted: all of them, once
    asked: list[int] = []
    rig.sup.listen_counts(lambda: asked.append(1))
    counted.clear()
    rig.now[0] += STAT_TTL_S + 1  # every count is due, every mark is to be read again
    sweep()
    assert len(counted) == STAT_REFRESH_PER_SWEEP
    sweep()
    sweep()
    assert len(counted) == 20  # the rest in the next sweeps
    assert sorted(counted) == [f"a{i:02d}" for i in range(20)]  # each once
    sweep()
    assert len(counted) == 20  # nothing more: every count is fresh, every mark unchanged
    assert asked == []  # recounts that found the same numbers asked for no sweep
    rig.sup.close()


@pytest.mark.parametrize("host", [None, "box"], ids=["local", "on-a-host"])
def test_a_quiet_worktree_is_recounted_after_its_safety_net(
    monkeypatch: pytest.MonkeyPatch, host: str | None
) -> None:
    """With nothing happening a local worktree is recounted only every STAT_TTL_S (no git
    every minute); a host's worktree has no status mark, so its net stays HOST_STAT_TTL_S."""
    rig = make_rig()
    spawn_demo(rig, "alice", IDLE_SCREEN)
    with_ports(rig.sup, host=host)
    counted: list[str] = []
    real = rig.vcs.status_counts

    def counting(worktree: str, base: str) -> StatusCounts:
        counted.append(worktree)
        return real(worktree, base)

    monkeypatch.setattr(rig.vcs, "status_counts", counting)
    rig.sup.poll_once()
    first = len(counted)
    rig.now[0] += HOST_STAT_TTL_S + 1
    rig.sup.poll_once()
    assert len(counted) == first + (1 if host else 0)
    rig.now[0] += STAT_TTL_S
    rig.sup.poll_once()
    assert len(counted) == first + (2 if host else 1)


def test_an_agent_that_shows_the_same_keeps_its_view_object_while_its_screen_changes() -> None:
    """The sweeper sends a view it sent before as a number (paw.cli.sweep_child): a busy
    agent whose screen changes but whose row shows the same keeps the very view object."""
    rig = make_rig()
    pane = spawn_demo(rig, "alice", IDLE_SCREEN)
    spawn_demo(rig, "bob", IDLE_SCREEN)
    [alice, bob] = rig.sup.poll_once().agents
    shown = rig.terminal.panes[pane]
    rig.terminal.panes[pane] = replace(shown, screen=IDLE_SCREEN.replace("'y'", "'n'"))
    [alice2, bob2] = rig.sup.poll_once().agents
    assert alice2 is alice
    assert bob2 is bob
    rig.terminal.panes[pane] = replace(shown, screen=demo_screen("shell", "ls"))
    [alice3, bob3] = rig.sup.poll_once().agents
    assert alice3 is not alice
    assert alice3.status is AgentStatus.PROMPT
    assert bob3 is bob


def test_a_prompt_offered_again_unchanged_is_the_same_object() -> None:
    rig = make_rig()
    pane = spawn_demo(rig, "alice", demo_screen("shell", "ls"))
    [first] = rig.sup.poll_once().prompts
    [again] = rig.sup.poll_once().prompts
    assert again is first
    shown = rig.terminal.panes[pane]
    rig.terminal.panes[pane] = replace(shown, screen=demo_screen("shell", "ls -la"))
    [other] = rig.sup.poll_once().prompts
    assert other is not first
    assert other.prompt.subject == "ls -la"
