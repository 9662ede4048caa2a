"""A command some dialogs cannot show whole, live (issue 33): paw lists it whole, or marked
incomplete and never ``allow`` — never a part of it as the whole.

One real agent CLI at a time, spawned by paw against the stub model, is asked for a 20-line
command (``shell_long``: taller than opencode's and Kilo Code's boxes, which cut it without a
mark) and then a command with an empty line (``shell_blank``: ``ls``, an empty line, ``touch
…``). paw reads the screen alone (``[channels] enabled = false``: a channel would list its
exact input). Every listing ``paw prompts --json`` gives while the dialog is up (the first, and
again once the screen has settled) must hold the whole command, or the guard's
``approve.incomplete-subject`` finding with a verdict other than ``allow``; or paw lists
nothing and shows the agent ``unknown`` or ``waiting`` (what it asks is folded or off screen: a
human looks). The prompt is then denied (``paw deny``, or ``Escape`` in the pane for one paw did
not list) and nothing runs.

Needs the CLIs from ``scripts/install-agents``; fails (never skips) without them.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any, NamedTuple, NoReturn

import pytest

from tests.e2e import capture, paw_run
from tests.e2e.pane import POLL, wait_until
from tests.e2e.scenarios import SCENARIOS, effect_done
from tests.support.budget import budget

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(int(budget(1200)))]

START_TIMEOUT = budget(240.0)
PROMPT_TIMEOUT = budget(180.0)
SETTLE_TIMEOUT = budget(90.0)
SEND_GRACE = budget(45.0)
UNLISTED_FOR = budget(15.0)
INCOMPLETE_RULE = "approve.incomplete-subject"
# The agents to run (docs/e2e.md, "A command a dialog may cut"): all ten were run live;
# ``PAW_CUT_AGENTS="AGENT …"`` picks others than the default two.
AGENTS = tuple(os.environ.get("PAW_CUT_AGENTS", "opencode kilocode").split())
SIZES = ((120, 40), (80, 24))
STEPS = ("shell_long", "shell_blank")


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


def listing_problem(prompt: dict[str, Any], command: str) -> str | None:
    """What is wrong with one listing of a shell prompt for ``command``, or None: it must be
    the whole command, or marked incomplete with a verdict other than ``allow``."""
    if prompt.get("prompt_kind") != "shell":
        return f"listed as {prompt.get('prompt_kind')!r}, not a shell command"
    subject = prompt.get("subject")
    marked = INCOMPLETE_RULE in (prompt.get("rules") or [])
    if subject == command:
        return None
    if not marked:
        return f"listed {subject!r} as the whole command (it is {command!r}), not incomplete"
    if prompt.get("verdict") == "allow":
        return f"an incomplete command {subject!r} was judged allow"
    return None


def _status(run: paw_run.PawRun) -> str:
    """The agent's status in ``paw ls --json``."""
    done = paw_run.paw(run, "ls", "--json")
    agents = json.loads(done.stdout).get("agents") or [{}]
    return str(agents[0].get("status", ""))


def _first_reading(
    run: paw_run.PawRun, case: CutCase, scenario: str, timeout: float
) -> dict[str, Any] | None:
    """The first listing of the gated call's prompt; None when paw lists none but shows the
    agent ``unknown`` or ``waiting`` (a human looks) for ``UNLISTED_FOR`` seconds on a settled
    screen once the call was sent: what is asked is folded or off screen."""
    deadline = time.monotonic() + timeout
    unlisted_since: float | None = None
    while time.monotonic() < deadline:
        listed = paw_run.prompts(run)
        if listed:
            return listed[0]
        status = _status(run) if run.stub.gated_issued(scenario) else ""
        if status in ("unknown", "waiting"):
            if unlisted_since is None:
                unlisted_since = time.monotonic()
            elif time.monotonic() - unlisted_since > UNLISTED_FOR:
                return None
        else:
            unlisted_since = None
        time.sleep(POLL)
    _fail(run, case, f"{scenario}: paw listed no prompt and never showed a human must look")


def _check_listings(run: paw_run.PawRun, case: CutCase, scenario: str, timeout: float) -> str:
    """Check the first listing and the one once the screen has settled; the prompt's id, or
    "" when paw lists none and shows that a human must look."""
    action = SCENARIOS[scenario]
    assert action is not None
    first = _first_reading(run, case, scenario, timeout)
    if first is None:
        run.pane.wait_stable(quiet=2.0, timeout=SETTLE_TIMEOUT)
        if paw_run.prompts(run) or _status(run) not in ("unknown", "waiting"):
            _fail(run, case, f"{scenario}: an unlisted dialog became listed or read otherwise")
        return ""
    problem = listing_problem(first, action.command)
    if problem:
        _fail(run, case, f"{scenario} (first listing): {problem}: {json.dumps(first)}")
    run.pane.wait_stable(quiet=2.0, timeout=SETTLE_TIMEOUT)
    settled = paw_run.prompts(run)
    if not settled:
        _fail(run, case, f"{scenario}: the prompt was no longer listed once the screen settled")
    problem = listing_problem(settled[0], action.command)
    if problem:
        _fail(run, case, f"{scenario} (settled): {problem}: {json.dumps(settled[0])}")
    return str(settled[0]["id"])


def _deny(run: paw_run.PawRun, case: CutCase, scenario: str, prompt_id: str) -> None:
    """``paw deny`` the listed prompt; an unlisted one is answered in the pane as a human
    would (``Escape``: these agents' dialogs cancel on it)."""
    action = SCENARIOS[scenario]
    assert action is not None
    if prompt_id:
        decision = paw_run.decide(run, "deny", prompt_id)
        if decision.get("outcome") not in ("sent", "sent-unconfirmed"):
            _fail(run, case, f"{scenario}: paw deny did not send: {decision}")
    else:
        run.pane.send_keys("Escape")
    try:
        paw_run.wait_no_prompt(run, SETTLE_TIMEOUT)
    except TimeoutError as err:
        _fail(run, case, f"{scenario}: {err} after the deny")
    run.pane.wait_stable(quiet=1.5, timeout=SETTLE_TIMEOUT)
    if effect_done(action, run.worktree):
        _fail(run, case, f"{scenario}: denied, but it ran")


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_a_command_the_dialog_may_cut_is_whole_or_incomplete(
    installed_agents: object, case: CutCase
) -> None:
    run = paw_run.start(case.agent, case.cols, case.rows)
    try:
        # The screen alone: with the agent's channel on, paw lists the channel's exact input.
        with (run.ws.repo / "paw.toml").open("a", encoding="utf-8") as toml:
            toml.write("[channels]\nenabled = false\n")
        for index, scenario in enumerate(STEPS):
            text = f"SCENARIO {scenario}"
            if index == 0:
                paw_run.spawn(run, text)
            else:
                paw_run.send(run, text)
                if not wait_until(lambda s=scenario: run.stub.scenario_requests(s), SEND_GRACE):
                    _fail(run, case, f"the model never received {text!r}")
            timeout = START_TIMEOUT if index == 0 else PROMPT_TIMEOUT
            prompt_id = _check_listings(run, case, scenario, timeout)
            _deny(run, case, scenario, prompt_id)
    finally:
        paw_run.stop(run)
