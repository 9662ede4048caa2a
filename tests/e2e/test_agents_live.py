"""The ten real agent CLIs, supervised by paw, against the scripted stub model.

For each agent and pane size, one paw-spawned agent goes through: a shell command approved with
``paw approve`` (the file appears, the stub gets the tool result), a twin shell command denied
with ``paw deny`` (nothing happens), the same for a file edit (aider: a new file), a 20-line
command some dialogs cannot show whole (listed whole, or marked incomplete and never ``allow``,
then denied: tests/e2e/cut_rule.py), and a final answer that quotes prompt text (``paw prompts``
lists nothing). Every prompt must be listed by ``paw prompts --json`` with the right kind and
subject.

Needs the CLIs from ``scripts/install-agents``; fails (never skips) without them.
Set ``PAW_E2E_CAPTURE=1`` to record the screens under tests/fixtures/screens-live/.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple, NoReturn

import pytest

from paw.core.detect import detect
from paw.core.models import DetectionState
from tests.e2e import capture, cut_rule, diagnose, paw_run
from tests.e2e.agents import AGENT_IDS
from tests.e2e.pane import wait_until
from tests.e2e.scenarios import SCENARIOS, Action, effect_done, subject_of
from tests.support.budget import budget

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(int(budget(1500)))]

# Wall-clock budgets (tests/support/budget.py): a node CLI under load takes tens of seconds.
PROMPT_TIMEOUT = budget(180.0)
# The first prompt waits for the agent to start too: kilo takes over a minute to come up on a
# loaded two-core machine.
START_TIMEOUT = budget(240.0)
EFFECT_TIMEOUT = budget(90.0)
SEND_GRACE = budget(45.0)
SIZES = ((120, 40), (80, 24))
# Agents driven at once (tests/e2e run them in threads, see LivePool).
JOBS_ENV = "PAW_E2E_JOBS"
DEFAULT_JOBS = 3
# aider edits existing files only once they are in the chat; a new file is its file prompt.
FILE_SCENARIO = {"aider": "write"}
# Commands a dialog may cut (issue 33), held to tests/e2e/cut_rule.py's rule and denied: a step
# of every agent's session at both sizes (docs/e2e.md has what it costs).
CUT_STEPS = ("shell_long",)


class LiveCase(NamedTuple):
    test_id: str
    agent: str
    cols: int
    rows: int


CASES = [LiveCase(f"{a}-{c}x{r}", a, c, r) for a in AGENT_IDS for c, r in SIZES]


class Step(NamedTuple):
    scenario: str
    verb: str  # approve | deny


def _steps(agent: str) -> list[Step]:
    file_kind = FILE_SCENARIO.get(agent, "edit")
    return [
        Step("shell", "approve"),
        Step("shell_deny", "deny"),
        Step(file_kind, "approve"),
        Step(f"{file_kind}_deny", "deny"),
    ]


def _shot(run: paw_run.PawRun) -> capture.Shot:
    pane = run.pane
    return capture.Shot(pane.capture(), pane.capture_ansi(), pane.info())


def _fail(run: paw_run.PawRun, test_id: str, message: str) -> NoReturn:
    shot = _shot(run)
    path = capture.save_failure(test_id, shot, message)
    dump = [[p, b] for p, b in run.stub.requests]
    (path.parent / "requests.json").write_text(json.dumps(dump, indent=1), encoding="utf-8")
    pytest.fail(f"{message}\nscreen saved to {path}:\n{shot.text}", pytrace=False)


def _trigger(run: paw_run.PawRun, scenario: str, first: bool) -> None:
    text = f"SCENARIO {scenario}"
    if first:
        paw_run.spawn(run, text)
        return
    # `paw send` waits for the echo before Enter, so a TUI that reads a burst plus Enter as a
    # paste (codex) still submits the line: no second Enter here.
    paw_run.send(run, text)
    assert wait_until(lambda: run.stub.scenario_requests(scenario), SEND_GRACE), (
        f"the model never received {text!r} typed by `paw send`"
    )


def _settle(run: paw_run.PawRun) -> str:
    paw_run.wait_no_prompt(run, EFFECT_TIMEOUT)
    return run.pane.wait_stable(quiet=1.5, timeout=EFFECT_TIMEOUT)


def _check_prompt(
    run: paw_run.PawRun, case: LiveCase, action: Action, timeout: float
) -> dict[str, Any]:
    try:
        prompt = paw_run.wait_prompt(run, timeout)
    except TimeoutError as err:
        _fail(run, case.test_id, f"{err} (expected a {action.kind} prompt)")
    subject = str(prompt.get("subject") or "")
    if prompt["prompt_kind"] != action.kind or not subject.rstrip().endswith(subject_of(action)):
        _fail(
            run,
            case.test_id,
            f"paw listed {prompt['prompt_kind']!r} {subject!r}; "
            f"expected {action.kind!r} {subject_of(action)!r}",
        )
    return prompt


def _verify_effect(
    run: paw_run.PawRun, case: LiveCase, step: Step, action: Action, outcome: object
) -> None:
    repo = run.worktree
    if step.verb == "approve":
        if not wait_until(lambda: effect_done(action, repo), EFFECT_TIMEOUT):
            _fail(
                run,
                case.test_id,
                f"approved {step.scenario} ({outcome}) but its effect never showed",
            )
        if case.agent != "aider" and not wait_until(
            lambda: run.stub.gated_results(step.scenario), EFFECT_TIMEOUT
        ):
            _fail(run, case.test_id, f"the stub never got the tool result of {step.scenario}")
        _settle(run)
        return
    _settle(run)
    if effect_done(action, repo):
        _fail(run, case.test_id, f"denied {step.scenario} but it took effect")


def _run_step(
    run: paw_run.PawRun, case: LiveCase, step: Step, first: bool, shots: dict[str, Any]
) -> None:
    action = SCENARIOS[step.scenario]
    assert action is not None
    _trigger(run, step.scenario, first)
    prompt = _check_prompt(run, case, action, START_TIMEOUT if first else PROMPT_TIMEOUT)
    shot = _shot(run)
    decision = paw_run.decide(run, step.verb, prompt["id"])
    if decision.get("outcome") not in ("sent", "sent-unconfirmed"):
        _fail(run, case.test_id, f"paw {step.verb} did not send: {decision}")
    _verify_effect(run, case, step, action, decision.get("outcome"))
    shots[step.scenario] = (shot, prompt, decision)


def _check_cut(run: paw_run.PawRun, case: LiveCase, scenario: str) -> None:
    """A command the dialog may cut: every listing is the whole command, or marked incomplete
    and never ``allow`` (or nothing listed while paw shows that a human must look); denied,
    nothing of it runs."""

    def fail(message: str) -> NoReturn:
        _fail(run, case.test_id, message)

    _trigger(run, scenario, first=False)
    prompt_id = cut_rule.check_listings(run, scenario, PROMPT_TIMEOUT, fail)
    cut_rule.deny(run, scenario, prompt_id, fail)


def _check_quote(run: paw_run.PawRun, case: LiveCase, shots: dict[str, Any]) -> None:
    _trigger(run, "quote", first=False)
    if not wait_until(lambda: "Nothing to approve here" in run.pane.capture(), PROMPT_TIMEOUT):
        _fail(run, case.test_id, "the quoting final answer never showed")
    screen = _settle(run)
    listed = paw_run.prompts(run)
    if listed:
        _fail(run, case.test_id, f"quoted prompt text was listed as a live prompt: {listed}")
    found = detect(screen, case.agent)
    if found.state is DetectionState.PROMPT and found.prompt and found.prompt.approve_keys:
        _fail(run, case.test_id, f"detect() offers approval on a quoting answer: {found}")
    shots["quote"] = (_shot(run), None, None)


def _record(run: paw_run.PawRun, case: LiveCase, shots: dict[str, Any]) -> None:
    approve: list[str] = next(
        (d["keys"] for s, (_, _, d) in shots.items() if d and "deny" not in s), []
    )
    deny: list[str] = next((d["keys"] for s, (_, _, d) in shots.items() if d and "deny" in s), [])
    size = f"{case.cols}x{case.rows}"
    for scenario, (shot, prompt, decision) in shots.items():
        action = SCENARIOS[scenario]
        meta = _meta(scenario, action, prompt, decision, approve, deny)
        capture.save_case(case.agent, f"{scenario}_{size}", shot, meta, run.ws.root)


def _meta(
    scenario: str,
    action: Action | None,
    prompt: dict[str, Any] | None,
    decision: dict[str, Any] | None,
    approve: list[str],
    deny: list[str],
) -> dict[str, Any]:
    if action is None or prompt is None or decision is None:
        note = "Final answer quoting prompt text (a negative case): paw listed no prompt."
        return {
            "state": "done",
            "prompt_kind": None,
            "subject": None,
            "approve_keys": [],
            "deny_keys": [],
            "verified": True,
            "notes": note,
        }
    note = (
        f"Live run through paw (spawn/prompts/{decision['reason']}). This screen was "
        f"{'approved' if 'deny' not in scenario else 'denied'} with {decision['keys']} and the "
        "effect checked; its twin scenario verified the other decision in the same session."
    )
    return {
        "state": "permission_prompt",
        "prompt_kind": action.kind,
        "subject": subject_of(action),
        "approve_keys": approve,
        "deny_keys": deny,
        "verified": bool(approve and deny),
        "notes": note,
    }


def run_case(case: LiveCase) -> None:
    """One agent at one size, start to finish (raises ``pytest.fail``'s exception on failure)."""
    run = paw_run.start(case.agent, case.cols, case.rows)
    # The screen's own round: what paw reads off each agent's pane and the keys it types. The
    # structured channels (Claude's hook, opencode's and Kilo's server) have live tests of their
    # own (tests/e2e/test_channel_*_live.py); here they are off, so every agent is answered by
    # keys and the captured screens record the keys that worked.
    toml = run.ws.repo / "paw.toml"
    toml.write_text(toml.read_text("utf-8") + "\n[channels]\nenabled = false\n", "utf-8")
    shots: dict[str, Any] = {}
    try:
        with diagnose.on_failure(run, case.test_id, paw_run.AGENT_NAME):
            for index, step in enumerate(_steps(case.agent)):
                _run_step(run, case, step, index == 0, shots)
            for scenario in CUT_STEPS:
                _check_cut(run, case, scenario)
            _check_quote(run, case, shots)
    finally:
        if capture.capturing() and shots:
            _record(run, case, shots)
        paw_run.stop(run)


def jobs() -> int:
    """How many agents run at once (``PAW_E2E_JOBS``, default 3; 1 runs them one by one)."""
    try:
        return max(1, int(os.environ.get(JOBS_ENV, str(DEFAULT_JOBS))))
    except ValueError:
        return DEFAULT_JOBS


class LivePool:
    """The selected cases, run ``jobs()`` at a time in threads; each test waits for its own.

    The agents mostly wait (on the stub model, on their UI, on paw's polling), so several can
    share a loaded two-core machine: each has its own stub server on port 0, its own tmux socket,
    HOME and scratch repository, and Cline its own hub port.
    """

    def __init__(self, cases: list[LiveCase], workers: int) -> None:
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="e2e-agent")
        self._futures: dict[str, Future[None]] = {
            case.test_id: self._executor.submit(run_case, case) for case in cases
        }

    def result(self, case: LiveCase) -> None:
        """Wait for ``case``; re-raises its failure in the calling test."""
        future = self._futures.get(case.test_id)
        if future is None:  # not among the selected items (e.g. a plugin re-runs it): run here
            run_case(case)
            return
        future.result()

    def close(self) -> None:
        """Drop cases not started yet, wait for the running ones to clean up."""
        self._executor.shutdown(wait=True, cancel_futures=True)


@pytest.fixture(scope="module")
def live_pool(request: pytest.FixtureRequest, installed_agents: Path) -> Iterator[LivePool]:
    """Starts every selected case of this module at once (``jobs()`` at a time)."""
    del installed_agents
    selected: list[LiveCase] = []
    for item in request.session.items:
        callspec = getattr(item, "callspec", None)
        name = getattr(item, "originalname", "")
        if name == test_agent_live_prompts_approve_deny_through_paw.__name__ and callspec:
            selected.append(callspec.params["case"])
    pool = LivePool(selected, jobs())
    try:
        yield pool
    finally:
        pool.close()


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_agent_live_prompts_approve_deny_through_paw(case: LiveCase, live_pool: LivePool) -> None:
    """paw spawn → paw prompts (kind, subject) → paw approve / paw deny → effect checked."""
    live_pool.result(case)
