"""A `#!` script caught before `env` execs its interpreter is not yet the agent (pure)."""

from __future__ import annotations

import pytest

from paw.core.agents import BUILTIN_PROFILES, matches_process, still_starting
from paw.core.ports import ProcInfo

KILO = BUILTIN_PROFILES["kilocode"].match
SCRIPT = "/home/u/.npm/node_modules/.bin/kilo"


def _proc(name: str, exe: str, *argv: str) -> ProcInfo:
    return ProcInfo(4242, name, exe, argv, 100.0)


@pytest.mark.parametrize(
    "proc",
    [
        _proc("kilo", "/usr/bin/env", "/usr/bin/env", "node", SCRIPT, "--prompt=x"),
        _proc("kilo", "/usr/bin/env"),  # mid-exec: the argv reads empty
        _proc("kilo", "/usr/bin/env", "node", SCRIPT, "--prompt=x"),  # exec between two reads
    ],
    ids=["env", "empty-argv", "torn"],
)
def test_a_script_before_its_interpreter_runs_is_still_starting(proc: ProcInfo) -> None:
    assert matches_process(KILO, proc)  # it matches by its name (the kernel's, the script's)
    assert still_starting(KILO, proc)


@pytest.mark.parametrize(
    "proc",
    [
        _proc("node", "/usr/bin/node", "node", SCRIPT, "--prompt=x"),  # after env's exec
        _proc("kilo", "/usr/bin/node", "/usr/bin/node", SCRIPT),  # #!/usr/bin/node
        _proc(".kilo", "/opt/kilo/bin/.kilo", ".kilo"),  # the native binary it spawns
        _proc("kilo", "/opt/kilo/versions/7.7.7", "kilo"),  # a native binary via a symlink
        _proc("bash", "/bin/bash", "bash"),  # not the agent at all
    ],
    ids=["node", "direct-shebang", "native", "symlinked", "other"],
)
def test_a_running_agent_or_another_program_is_not_still_starting(proc: ProcInfo) -> None:
    assert not still_starting(KILO, proc)
