"""A task's dollar budget, read from the cost its agent states (issue 36): the wave runner over
fakes, the usage read from a real opencode database on disk (the tables opencode 1.18.33 wrote,
tests/fixtures/usage/), one response more at each look."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path

from paw.core.wave import Phase, TaskState
from tests.supervisor.test_wave_runner import Collect, _panes, _runner, _wave
from tests.support.supervision import IDLE_SCREEN, Rig, make_rig

SCHEMA = Path(__file__).resolve().parent.parent / "fixtures" / "usage" / "opencode-1.18.33"


class OpencodeDb:
    """opencode's database below ``home`` with one session in the worktree of ``night-t0``,
    and the usage paw reads from it for a task (a runner's ``usage_of``)."""

    def __init__(self, rig: Rig, home: Path) -> None:
        self.rig, self.home = rig, home
        self.path = home / ".local" / "share" / "opencode" / "opencode.db"
        self.path.parent.mkdir(parents=True)
        dump = json.loads((SCHEMA / "opencode.json").read_text(encoding="utf-8"))
        session = dict(zip(dump["tables"]["session"]["columns"],
                           dump["tables"]["session"]["rows"][0], strict=True))  # fmt: skip
        session["directory"] = rig.sup.ctx.worktree_path("night-t0")
        with contextlib.closing(sqlite3.connect(self.path)) as db:
            for create in dump["schema"]:
                db.execute(create)
            marks = ", ".join("?" for _ in session)
            db.execute(f"INSERT INTO session VALUES ({marks})", list(session.values()))  # noqa: S608
            db.commit()
        self.session = str(session["id"])
        self.responses = 0

    def usage_of(self, task: TaskState) -> tuple[int | None, float | None]:
        from paw.adapters.usage import read_usage

        worktree = self.rig.sup.ctx.worktree_path(task.agent)
        found = read_usage("opencode", worktree, {"HOME": str(self.home)}, None).usage
        return (None, None) if found is None else (found.total_tokens, found.cost_usd)

    def respond(self, cost: float) -> None:
        """One more response of the agent, for which opencode states ``cost`` dollars."""
        self.responses += 1
        data = {"role": "assistant", "cost": cost, "time": {"created": 1, "completed": 2},
                "tokens": {"input": 12, "output": 8, "reasoning": 0,
                           "cache": {"read": 0, "write": 0}}}  # fmt: skip
        with contextlib.closing(sqlite3.connect(self.path)) as db:
            db.execute(
                "INSERT INTO message VALUES (?, ?, ?, ?, ?)",
                (f"msg_{self.responses}", self.session, 1, 2, json.dumps(data)),
            )
            db.commit()


def test_a_task_over_its_dollar_budget_is_warned_at_80_then_parked_never_killed(
    tmp_path: Path,
) -> None:
    rig = make_rig()
    notes = Collect()
    checks: list[str] = []
    wave = _wave(1, task_budget_usd=1.0)
    runner = _runner(rig, wave, notes, checks)
    db = OpencodeDb(rig, tmp_path / "home")
    runner.usage_of = db.usage_of
    runner.tick()  # starts t0
    # $0.70 in all (70 %), $0.85 (85 %: warned), $0.90, $1.20 (parked), $1.50
    for cost, events in ((0.7, []), (0.15, ["budget-warning"]), (0.05, []),
                         (0.3, ["budget-parked"]), (0.3, [])):  # fmt: skip
        db.respond(cost)
        seen = len(notes.messages)
        rig.now[0] += 1
        runner.tick()
        assert [m.event for m in notes.messages[seen:]] == events, cost
    warned = next(m for m in notes.messages if m.event == "budget-warning")
    assert "t0 has used 80 % of its budget" in warned.title
    assert "used: 40 tokens, $0.85" in warned.body
    parked = next(m for m in notes.messages if m.event == "budget-parked")
    assert "over its budget: $1.20 of $1.00" in parked.title
    # parked: idle at its input, it is not checked nor finished, and its agent still runs
    rig.terminal.set_screen(_panes(rig)["night-t0"], IDLE_SCREEN)
    for _ in range(5):
        rig.now[0] += 30
        runner.tick()
    task = runner.state.task("t0")
    assert (task.phase, checks) == (Phase.RUNNING, [])
    assert task.budget_parked == "over its budget: $1.20 of $1.00"
    assert task.used_usd is not None
    assert abs(task.used_usd - 1.5) < 1e-9
    assert "night-t0" in _panes(rig)
