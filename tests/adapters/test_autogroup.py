"""A niced paw gives its nice to the sessions it starts (Linux's autogroup scheduling): the tmux
server it starts, each pane, a wave's check and a helper in a session of its own (the sweeper),
read back from ``/proc/PID/autogroup`` on a real tmux server; never the group of a server paw
did not start; nothing where paw is not niced."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from paw.adapters.autogroup import group_nice, parse_autogroup
from tests.support.budget import budget

if TYPE_CHECKING:
    from libtmux.server import Server

NICE = 7
WAIT = budget(20.0)

# paw's adapters in a process niced by NICE (as `nice -n 7 paw …`): a session on the tmux
# server (started by it unless one runs), an agent's pane, and helpers in a session of their own
# (the sweeper's way: bound to paw's life where setpriv is, so this process waits for its input
# to end); prints their pids.
PROGRAM = """
import json, os, sys
from paw.adapters import proc
from paw.adapters.tmux.terminal import TmuxTerminal

os.nice(int(sys.argv[1]))
term = TmuxTerminal(socket_name=sys.argv[2])
term.ensure_session(sys.argv[3], sys.argv[4])
first = proc.run([*term._base, "display-message", "-p", "-t", f"={sys.argv[3]}:",
                  "#{pid} #{pane_pid}"]).stdout.split()
pane = term.new_pane(sys.argv[3], sys.argv[4], ["sleep", "600"], {}, {"paw_agent": "alice"})
helper = proc.spawn(["sleep", "600"], new_session=True, die_with_paw=False)
sweeper = proc.spawn(["sleep", "600"], new_session=True, die_with_paw=True)
print(json.dumps({"server": int(first[0]), "first": int(first[1]), "pane": pane.pane_pid,
                  "helper": helper.pid, "sweeper": sweeper.pid}), flush=True)
sys.stdin.read()
proc.finish(sweeper, grace_s=0)
"""

# a wave's check, run by a niced paw: it waits (within the budget) until its own session's
# group has the nice expected, then prints its group (the group is niced right after the check
# started: its first look may come before)
CHECK = """
import os, sys
from paw.adapters.checks import run_check

os.nice(int(sys.argv[1]))
budget = float(sys.argv[3])
wait = (
    "i=0; while [ $i -lt {n} ] && ! grep -q ' nice {nice}$' /proc/self/autogroup; do "
    "sleep 0.05; i=$((i+1)); done; cat /proc/self/autogroup"
).format(n=int(budget / 0.05), nice=int(sys.argv[2]))
print(run_check(wait, ".", budget * 2).output)
"""

pytestmark = pytest.mark.skipif(
    group_nice("self") is None, reason="no autogroup scheduling here (/proc/PID/autogroup)"
)


def _env(tmp_path: Path) -> dict[str, str]:
    """The environment of a process run in ``tmp_path`` (``PWD`` too): what it starts is the
    test's own, not taken for the checkout's (a machine may renice those)."""
    return {**os.environ, "PWD": str(tmp_path)}


def _niced(nice: int) -> int:
    """The nice of a process niced by ``nice`` from this one."""
    return min(os.nice(0) + nice, 19)


@contextlib.contextmanager
def _started(server: Server, tmp_path: Path, nice: int, session: str) -> Iterator[dict[str, int]]:
    """PROGRAM's pids, while it runs."""
    assert server.socket_name is not None
    argv = [sys.executable, "-c", PROGRAM, str(nice), server.socket_name, session, str(tmp_path)]
    child = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        cwd=tmp_path, env=_env(tmp_path),
    )  # fmt: skip
    assert child.stdin is not None
    assert child.stdout is not None
    pids: dict[str, int] = {}
    try:
        pids = json.loads(child.stdout.readline())
        yield pids
    finally:
        child.stdin.close()
        child.wait(WAIT)
        child.stdout.close()
        if "helper" in pids:
            _end(pids["helper"])


def _end(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, 9)


def test_parse_autogroup() -> None:
    assert parse_autogroup("/autogroup-42 nice 5\n") == 5
    assert parse_autogroup("/autogroup-1 nice -3") == -3
    assert parse_autogroup("") is None
    assert parse_autogroup("nice") is None


def test_a_niced_paw_gives_its_nice_to_the_server_panes_and_helpers_it_starts(
    server: Server, tmp_path: Path
) -> None:
    expected = _niced(NICE)
    assert expected > 0
    with _started(server, tmp_path, NICE, "pawnice") as pids:
        for role in ("server", "first", "pane", "helper", "sweeper"):
            assert group_nice(pids[role]) == expected, role
        # each is a session of its own, whose group this process does not share
        mine = Path("/proc/self/autogroup").read_text(encoding="ascii").split()[0]
        groups = {Path(f"/proc/{p}/autogroup").read_text("ascii").split()[0] for p in pids.values()}
        assert mine not in groups
        assert len(groups) == len(pids)


def test_a_niced_paw_leaves_a_server_it_did_not_start_alone(server: Server, tmp_path: Path) -> None:
    """The user's own tmux server (paw did not start it) keeps its group's nice; the panes
    paw starts there get paw's."""
    assert server.socket_name is not None
    users = ["tmux", "-L", server.socket_name, "new-session", "-d", "-s", "users"]
    subprocess.run(users, check=True, timeout=WAIT, cwd=tmp_path, env=_env(tmp_path))
    before = server.cmd("display-message", "-p", "#{pid}").stdout[0]
    assert group_nice(int(before)) == 0  # (a session of its own: a new group)
    with _started(server, tmp_path, NICE, "pawnice") as pids:
        assert pids["server"] == int(before)
        assert group_nice(pids["server"]) == 0
        assert group_nice(pids["first"]) == _niced(NICE)
        assert group_nice(pids["pane"]) == _niced(NICE)


def test_an_unniced_paw_changes_no_group(server: Server, tmp_path: Path) -> None:
    if os.nice(0) != 0:
        pytest.skip("the tests run niced")
    with _started(server, tmp_path, 0, "pawplain") as pids:
        assert {role: group_nice(pid) for role, pid in pids.items()} == dict.fromkeys(pids, 0)


def test_a_niced_paws_wave_check_runs_with_its_nice(tmp_path: Path) -> None:
    argv = [sys.executable, "-c", CHECK, str(NICE), str(_niced(NICE)), str(WAIT)]
    done = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        timeout=WAIT * 3,
        check=True,
        cwd=tmp_path,
        env=_env(tmp_path),
    )
    assert parse_autogroup(done.stdout.strip().splitlines()[-1]) == _niced(NICE)


# a process in a session of its own starts a child that stays in that session (as a pane's
# process is in the tmux server's session until its setsid) and asks paw to nice the child's
# group; prints what paw said and the nice of its own group afterwards
NOT_A_LEADER = """
import json, subprocess, sys
from paw.adapters import autogroup
child = subprocess.Popen(["sleep", "600"])
try:
    shared = autogroup._leads_its_session(child.pid, 0.2) or autogroup.share_nice(child.pid, 5)
    print(json.dumps({"shared": shared, "mine": autogroup.group_nice("self")}), flush=True)
finally:
    child.kill()
    child.wait()
"""


def test_a_process_that_does_not_lead_its_session_gets_no_nice_and_its_group_stays(
    tmp_path: Path,
) -> None:
    """Writing a nice for a process before its ``setsid`` would nice the group it is still in
    (a user's tmux server under load): paw writes nothing for a process not leading a session."""
    done = subprocess.run(
        [sys.executable, "-c", NOT_A_LEADER], capture_output=True, text=True, timeout=WAIT,
        cwd=tmp_path, env=_env(tmp_path), start_new_session=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"shared": False, "mine": 0}
