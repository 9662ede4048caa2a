"""A command some dialogs cannot show whole (issue 33): the rule its live listings are held to.

paw lists such a command whole, or marked incomplete and never ``allow``: never a part of it as
the whole. Every listing ``paw prompts --json`` gives while the dialog is up (the first, and again
once the screen has settled) must hold the whole command, or the guard's
``approve.incomplete-subject`` finding with a verdict other than ``allow``; or paw lists nothing
and shows the agent ``unknown`` or ``waiting`` (what it asks is folded or off screen: a human
looks). The prompt is then denied (``paw deny``, or ``Escape`` in the pane for one paw did not
list) and nothing it would write may exist.

Used by ``test_agents_live.py`` (``shell_long``, every agent at both sizes, in the session each
agent already runs) and ``test_cut_command_live.py`` (``shell_blank``). Failures go through the
caller's ``fail``, which saves the screen the way that test does.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from tests.e2e import paw_run
from tests.e2e.pane import POLL
from tests.e2e.scenarios import SCENARIOS, Action, effect_done
from tests.support.budget import budget

Fail = Callable[[str], NoReturn]

INCOMPLETE_RULE = "approve.incomplete-subject"
SETTLE_TIMEOUT = budget(90.0)
# How long a listing or a denial waits for the screen to stop changing before it is read anyway
# (90 s as SETTLE_TIMEOUT would cost three minutes a case on a screen that never settles).
STABLE_AT_MOST = budget(30.0)
# Unlisted while paw shows the agent unknown/waiting this long, on a settled screen once the
# call was sent: what the dialog asks is folded or off screen, and a human looks.
UNLISTED_FOR = budget(15.0)
# A listing that stays the same this long is the settled one (an animated screen, a spinner or
# a clock, never stops changing: waiting for the whole pane cost 30 s a step on some agents).
LISTING_QUIET = 2.0
HUMAN_LOOKS = ("unknown", "waiting")
_WRITES = re.compile(r"(?:>>?|\btouch)\s+(\S+)")


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


def written_files(command: str) -> list[str]:
    """The files ``command`` would create or append to (``> F``, ``>> F``, ``touch F``)."""
    return list(dict.fromkeys(_WRITES.findall(command)))


def nothing_ran(action: Action, repo: Path) -> bool:
    """Whether none of a shell action's effects exist in ``repo`` (no line of it ran)."""
    written = written_files(action.command)
    return not effect_done(action, repo) and not any((repo / f).exists() for f in written)


def status(run: paw_run.PawRun) -> str:
    """The agent's status in ``paw ls --json``."""
    done = paw_run.paw(run, "ls", "--json")
    agents = json.loads(done.stdout).get("agents") or [{}]
    return str(agents[0].get("status", ""))


def first_reading(
    run: paw_run.PawRun, scenario: str, timeout: float, fail: Fail
) -> dict[str, Any] | None:
    """The first listing of the gated call's prompt; None when paw lists none but shows the
    agent ``unknown`` or ``waiting`` for ``UNLISTED_FOR`` seconds once the call was sent."""
    deadline = time.monotonic() + timeout
    unlisted_since: float | None = None
    while time.monotonic() < deadline:
        listed = paw_run.prompts(run)
        if listed:
            return listed[0]
        shown = status(run) if run.stub.gated_issued(scenario) else ""
        if shown in HUMAN_LOOKS:
            if unlisted_since is None:
                unlisted_since = time.monotonic()
            elif time.monotonic() - unlisted_since > UNLISTED_FOR:
                return None
        else:
            unlisted_since = None
        time.sleep(POLL)
    return fail(f"{scenario}: paw listed no prompt and never showed a human must look")


def _listed(prompts: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (p.get("id"), p.get("subject"), tuple(p.get("rules") or ()), p.get("verdict"))
        for p in prompts
    ]


def _until_quiet(run: paw_run.PawRun, quiet: float, done: Callable[[], bool]) -> None:
    """Until ``done()``, or the pane has not changed for ``quiet`` seconds; at most
    ``STABLE_AT_MOST`` (an agent whose screen animates never stops changing)."""
    deadline = time.monotonic() + STABLE_AT_MOST
    screen, since = run.pane.capture(), time.monotonic()
    while time.monotonic() < deadline and not done():
        time.sleep(POLL)
        now = run.pane.capture()
        if now != screen:
            screen, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return


def settled_listing(run: paw_run.PawRun) -> list[dict[str, Any]]:
    """paw's listing once the dialog has settled: the later of two listings ``LISTING_QUIET``
    seconds apart that agree (a dialog still drawing may list a part first); else, once the
    pane has not changed for 2 s or after ``STABLE_AT_MOST``, a fresh listing."""
    listed = paw_run.prompts(run)
    since = time.monotonic()
    agreeing: list[list[dict[str, Any]]] = []

    def agreed() -> bool:
        nonlocal listed, since
        if time.monotonic() - since < LISTING_QUIET:
            return False
        again = paw_run.prompts(run)
        if _listed(again) == _listed(listed):
            agreeing.append(again)
            return True
        listed, since = again, time.monotonic()
        return False

    _until_quiet(run, 2.0, agreed)
    return agreeing[0] if agreeing else paw_run.prompts(run)


def check_listings(run: paw_run.PawRun, scenario: str, timeout: float, fail: Fail) -> str:
    """Hold the first listing and the one once the screen has settled to
    :func:`listing_problem`; the prompt's id, or "" when paw lists none and shows that a human
    must look (and still does once the screen has settled)."""
    action = SCENARIOS[scenario]
    assert action is not None
    first = first_reading(run, scenario, timeout, fail)
    if first is None:
        if settled_listing(run) or status(run) not in HUMAN_LOOKS:
            fail(f"{scenario}: an unlisted dialog became listed or read otherwise")
        return ""
    problem = listing_problem(first, action.command)
    if problem:
        fail(f"{scenario} (first listing): {problem}: {json.dumps(first)}")
    settled = settled_listing(run)
    if not settled:
        fail(f"{scenario}: the prompt was no longer listed once the screen settled")
    problem = listing_problem(settled[0], action.command)
    if problem:
        fail(f"{scenario} (settled): {problem}: {json.dumps(settled[0])}")
    return str(settled[0]["id"])


def deny(run: paw_run.PawRun, scenario: str, prompt_id: str, fail: Fail) -> None:
    """``paw deny`` the listed prompt; an unlisted one is answered in the pane as a human
    would (``Escape``: these agents' dialogs cancel on it). Then nothing of it may have run."""
    action = SCENARIOS[scenario]
    assert action is not None
    if prompt_id:
        decision = paw_run.decide(run, "deny", prompt_id)
        if decision.get("outcome") not in ("sent", "sent-unconfirmed"):
            fail(f"{scenario}: paw deny did not send: {decision}")
    else:
        run.pane.send_keys("Escape")
    try:
        paw_run.wait_no_prompt(run, SETTLE_TIMEOUT)
    except TimeoutError as err:
        fail(f"{scenario}: {err} after the deny")
    # until the agent told the model the call was refused, or its screen stopped changing
    # (an agent that ends its turn on a refusal tells the model nothing)
    _until_quiet(run, 1.5, lambda: bool(run.stub.gated_results(scenario)))
    if not nothing_ran(action, run.worktree):
        fail(f"{scenario}: denied, but it ran")
