"""paw's state under faults: parallel paw processes never lose a record (scenario 13); a
read-only `.paw/` stops paw with one line before anything is created or removed (scenario 10).
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.adversarial.conftest import Rig, one_line_error
from tests.support.readonly import read_only

pytestmark = [pytest.mark.tmux, pytest.mark.git]

SLEEPER = """\
[agents.sleeper]
command = ["sh", "-c", "echo sleeper ready; exec sleep 3600"]
task_mode = "none"
ready_pattern = "sleeper ready"
[agents.sleeper.match]
executables = ["sleep", "sh"]
"""  # a light agent: ready at once (start-up watch), so 50 of them fit a loaded machine


@pytest.mark.timeout(900)
def test_fifty_parallel_spawns_keep_fifty_records(rig: Rig) -> None:
    """50 `paw spawn` processes, 8 at a time: every record survives (the agents file is
    rewritten under the state lock)."""
    (rig.repo / "paw.toml").write_text(SLEEPER, encoding="utf-8")
    names = [f"a{i:02d}" for i in range(50)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda n: rig.paw("spawn", n, "--agent", "sleeper"), names))
    failed = [(n, r.stderr) for n, r in zip(names, results, strict=True) if r.returncode]
    assert failed == []
    assert sorted(rig.records()) == names
    assert all(r["pending"] is None for r in rig.records().values())
    listed = json.loads(rig.ok("ls", "--json"))["agents"]
    assert sorted(a["name"] for a in listed) == names
    assert len(rig.worktrees()) == 51
    assert [r["event"] for r in rig.audit()].count("spawn") == 50


def test_parallel_spawns_of_one_name_make_one_agent(rig: Rig) -> None:
    (rig.repo / "paw.toml").write_text(SLEEPER, encoding="utf-8")
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: rig.paw("spawn", "same", "--agent", "sleeper"), range(4)))
    assert sorted(r.returncode for r in results) == [0, 1, 1, 1]
    for r in results:
        if r.returncode:
            one_line_error(r.stderr)
    assert list(rig.records()) == ["same"]
    assert len(rig.worktrees()) == 2


def test_read_only_state_stops_spawn_and_rm_with_one_line_and_nothing_changed(rig: Rig) -> None:
    rig.ok("spawn", "alice", "--agent", "scripted")
    wt = rig.worktree("alice")
    (wt / "work.txt").write_text("unsaved\n", encoding="utf-8")
    with read_only(rig.repo / ".paw"):
        done = rig.paw("spawn", "bob", "--agent", "scripted")
        assert done.returncode == 1
        assert "not writable" in one_line_error(done.stderr)
        assert "paw/bob" not in rig.branches()
        assert not rig.worktree("bob").exists()

        done = rig.paw("rm", "--force", "alice")
        assert done.returncode == 1
        assert "not writable" in one_line_error(done.stderr)
        assert (wt / "work.txt").read_text(encoding="utf-8") == "unsaved\n"
        assert "paw/alice" in rig.branches()
        assert rig.archives() == []
    rig.ok("rm", "--force", "alice")  # writable again: it works
    assert not wt.exists()
