"""PsutilInspector.trees: every requested tree from one pass over the process table."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import psutil
import pytest
from libtmux.test.retry import retry_until

from paw.adapters import pstree
from paw.adapters.pstree import PsutilInspector
from tests.support.budget import budget

# a parent with a child that has a grandchild, plus a second direct child
_FAMILY = (
    "import subprocess, sys, time\n"
    'inner = \'import subprocess, time; subprocess.Popen(["sleep", "31"]); time.sleep(60)\'\n'
    "subprocess.Popen([sys.executable, '-c', inner])\n"
    "subprocess.Popen(['sleep', '32'])\n"
    "time.sleep(60)\n"
)


@pytest.fixture
def families() -> Iterator[list[int]]:
    """Two process families started by this test; each is killed (by pid) afterwards."""
    parents = [subprocess.Popen([sys.executable, "-c", _FAMILY]) for _ in range(2)]
    try:
        yield [p.pid for p in parents]
    finally:
        for parent in parents:
            for child in psutil.Process(parent.pid).children(recursive=True):
                child.kill()
            parent.kill()
            parent.wait()


def _psutil_tree(pid: int) -> list[int]:
    root = psutil.Process(pid)
    return [pid, *(c.pid for c in root.children(recursive=True))]


def _sleeps(tree: Any) -> int:
    return sum(1 for p in tree if p.name == "sleep" and p.cmdline[:1] == ("sleep",))


def test_procs_trees_match_psutil_children_from_one_table_pass(
    families: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    inspector = PsutilInspector()
    # four processes each, and both sleeps past their exec: a child forked but not yet exec'd
    # still shows its parent's name (python), and psutil would then name it differently
    retry_until(lambda: all(_sleeps(inspector.tree(pid)) == 2 for pid in families), budget(30))
    retry_until(lambda: all(len(inspector.tree(pid)) == 4 for pid in families), budget(30))
    passes: list[object] = []
    real_map, real_walk = pstree._children_map, pstree._walk_children

    def counting(*args: Any, **kwargs: Any) -> Any:
        passes.append(args)
        return real_map(*args, **kwargs)

    def walking(*args: Any, **kwargs: Any) -> Any:
        passes.append(args)
        return real_walk(*args, **kwargs)

    monkeypatch.setattr(pstree, "_children_map", counting)
    monkeypatch.setattr(pstree, "_walk_children", walking)
    trees = inspector.trees([*families, families[0]])
    # a few trees: walked down from their roots (one walk), else one pass over the table
    assert len(passes) == 1 or (len(passes) == 2 and passes[0] and real_walk(families) is None)
    assert list(trees) == families
    for pid in families:
        assert [p.pid for p in trees[pid]] == _psutil_tree(pid)
        assert sorted(p.cmdline[:2] for p in trees[pid] if p.name == "sleep") == [
            ("sleep", "31"),
            ("sleep", "32"),
        ]
        assert trees[pid][0].create_time > 0


def test_procs_trees_gone_and_empty(families: list[int]) -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    inspector = PsutilInspector()
    trees = inspector.trees([gone.pid, families[0]])
    assert trees[gone.pid] == []
    assert trees[families[0]][0].pid == families[0]
    assert inspector.trees([]) == {}


def test_procs_trees_walked_or_from_the_table_are_the_same(
    families: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    inspector = PsutilInspector()
    retry_until(lambda: all(len(inspector.tree(pid)) == 4 for pid in families), budget(30))
    seen: list[object] = []

    def same() -> bool:
        # A child between its fork and its exec still shows the parent's command: on a loaded
        # machine the two reads may straddle an exec. Read both ways again until they agree;
        # two ways that disagree for good fail at the budget's end.
        monkeypatch.setattr(pstree, "FEW_ROOTS", pstree_few)
        walked = inspector.trees(families)
        monkeypatch.setattr(pstree, "FEW_ROOTS", 0)
        table = inspector.trees(families)
        seen[:] = [walked, table]
        return walked == table

    pstree_few = pstree.FEW_ROOTS
    assert retry_until(same, budget(30), raises=False), seen


def test_procs_children_from_proc_match_psutil(families: list[int]) -> None:
    """The /proc fast path sees the same parent links as psutil (where /proc exists)."""
    # every family's children started (else a child forked between the two reads fails this)
    inspector = PsutilInspector()
    retry_until(lambda: all(len(inspector.tree(pid)) == 4 for pid in families), budget(30))
    try:
        fast = pstree._proc_children()
    except OSError:
        pytest.skip("no /proc on this platform: the psutil path is the only one")
    for pid in families:
        kids = {c.pid for c in psutil.Process(pid).children()}
        assert kids <= set(fast.get(pid, [])), (pid, kids, fast.get(pid))


def test_exit_status_reads_a_zombies_wait_status_and_nothing_of_a_running_process() -> None:
    """A child that ended but is not reaped yet is a zombie: its status is read from /proc
    (what paw does when tmux missed a pane program's exit)."""
    ended = subprocess.Popen(["sh", "-c", "exit 7"])  # a real child, not reaped
    running = subprocess.Popen(["sleep", "30"])
    try:
        inspector = PsutilInspector()
        assert retry_until(lambda: psutil.Process(ended.pid).status() == "zombie", budget(10))
        assert inspector.exit_status(ended.pid) == 7 << 8
        assert inspector.exit_status(running.pid) is None
    finally:
        running.kill()
        running.wait()
        ended.wait()
    assert inspector.exit_status(ended.pid) is None  # reaped: gone


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread's own nice is Linux's")
def test_a_lowered_thread_and_what_it_starts_run_nicer_and_the_rest_does_not() -> None:
    """The count workers of a long-running sweeper lower their own priority: the git they
    start inherits it; the process's other threads keep theirs."""
    import threading

    from paw.adapters.pstree import BACKGROUND_NICE, lower_thread_priority

    before = os.getpriority(os.PRIO_PROCESS, 0)
    seen: dict[str, int] = {}

    def worker() -> None:
        lower_thread_priority()
        seen["thread"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        child = subprocess.run(
            [sys.executable, "-c", "import os; print(os.getpriority(os.PRIO_PROCESS, 0))"],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        seen["child"] = int(child.stdout)

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    expected = min(19, before + BACKGROUND_NICE)
    assert seen == {"thread": expected, "child": expected}
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == before  # this thread
