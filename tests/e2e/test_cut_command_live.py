"""A command with an empty line, live (issue 33): paw lists it whole, or marked incomplete and
never ``allow`` — never the part before or after the empty line as the whole.

One real agent CLI at a time, spawned by paw against the stub model with the command as its
task (``shell_blank``: ``ls``, an empty line, ``touch …``). paw reads the screen alone
(``[channels] enabled = false``: a channel would list its exact input). Its listings are held to
the rule of tests/e2e/cut_rule.py (the first and the settled one: the whole command, or the
guard's ``approve.incomplete-subject`` finding with a verdict other than ``allow``; or nothing
listed while paw shows the agent ``unknown`` or ``waiting``), then it is denied and nothing
runs. The 20-line command (``shell_long``) is the same rule's step in every agent's session of
test_agents_live.py, at both sizes.

Needs the CLIs from ``scripts/install-agents``; fails (never skips) without them.
"""

from __future__ import annotations

import os
from typing import NamedTuple, NoReturn

import pytest

from tests.e2e import capture, cut_rule, paw_run
from tests.support.budget import budget

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(int(budget(1200)))]

START_TIMEOUT = budget(240.0)
# The agents to run (docs/e2e.md, "A command a dialog may cut"): all ten were run live;
# ``PAW_CUT_AGENTS="AGENT …"`` picks others than the default two.
AGENTS = tuple(os.environ.get("PAW_CUT_AGENTS", "opencode kilocode").split())
SIZES = ((120, 40), (80, 24))
SCENARIO = "shell_blank"


class CutCase(NamedTuple):
    test_id: str
    agent: str
    cols: int
    rows: int


CASES = [CutCase(f"{a}-{c}x{r}", a, c, r) for a in AGENTS for c, r in SIZES]


def _fail(run: paw_run.PawRun, case: CutCase, message: str) -> NoReturn:
    pane = run.pane
    shot = capture.Shot(pane.capture(), pane.capture_ansi(), pane.info())
    path = capture.save_failure(f"cut-{case.test_id}", shot, message)
    pytest.fail(f"{message}\nscreen saved to {path}:\n{shot.text}", pytrace=False)


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_a_command_with_an_empty_line_is_whole_or_incomplete(
    installed_agents: object, case: CutCase
) -> None:
    run = paw_run.start(case.agent, case.cols, case.rows)

    def fail(message: str) -> NoReturn:
        _fail(run, case, message)

    try:
        # The screen alone: with the agent's channel on, paw lists the channel's exact input.
        with (run.ws.repo / "paw.toml").open("a", encoding="utf-8") as toml:
            toml.write("[channels]\nenabled = false\n")
        paw_run.spawn(run, f"SCENARIO {SCENARIO}")
        prompt_id = cut_rule.check_listings(run, SCENARIO, START_TIMEOUT, fail)
        cut_rule.deny(run, SCENARIO, prompt_id, fail)
    finally:
        paw_run.stop(run)
