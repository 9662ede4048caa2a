"""Record the real agents' prompts on narrow panes (tiled layouts): 40x15 and 30x20 by default.

``python -m tests.e2e.narrow [AGENT ...] [--sizes 40x15,30x20]`` starts each agent with the
stub model in a private tmux server of that size (the driver in tests/e2e/driver.py, no paw),
asks for a shell command and then a file change (aider: a new file), and captures each
permission prompt once the screen has settled. The capture is then proven live: the agent's
approve keys (the ones its 80x24 live case recorded) are sent, and the command's or edit's
effect has to show on disk. Only proven screens are written, to
``tests/fixtures/screens-live/<agent>/<scenario>_<cols>x<rows>/`` with ``"narrow": true`` in
their meta; tests/detect/test_narrow_live.py reads them (the right prompt or unknown, never a
false prompt, never idle). Prints one line per case; exits 1 when a case could not be proven.
"""

from __future__ import annotations

import json
import sys
import time
import uuid

from tests.e2e import capture, driver
from tests.e2e.agents import AGENT_IDS
from tests.e2e.pane import POLL, wait_until
from tests.e2e.scenarios import SCENARIOS, Action, effect_done, subject_of
from tests.support.budget import budget

SIZES = ((40, 15), (30, 20))
FILE_SCENARIO = {"aider": "write"}
READY_TIMEOUT = budget(240.0)
PROMPT_TIMEOUT = budget(180.0)
EFFECT_TIMEOUT = budget(90.0)


def _keys(agent: str, scenario: str) -> tuple[list[str], list[str]]:
    """The approve and deny keys recorded by the agent's verified 80x24 live case."""
    meta = json.loads((capture.LIVE_DIR / agent / f"{scenario}_80x24" / "meta.json").read_text())
    return list(meta["approve_keys"]), list(meta["deny_keys"])


def _wait_ready(run: driver.Run) -> None:
    """The agent's ready mark, or (marks can be cut on a narrow pane) a screen that has shown
    something and then not changed for five seconds."""
    marks = driver.READY_MARKS[run.agent]
    deadline = time.monotonic() + READY_TIMEOUT
    last, since = "", time.monotonic()
    while time.monotonic() < deadline:
        screen = run.pane.capture()
        flat = " ".join(screen.split())
        if any(m in flat for m in marks):
            run.pane.wait_stable(quiet=1.5, timeout=budget(60))
            return
        if screen != last:
            last, since = screen, time.monotonic()
        elif last.strip() and time.monotonic() - since > 5.0:
            return
        time.sleep(POLL)
    raise TimeoutError(f"{run.agent} never became ready; screen:\n{run.pane.capture()}")


def _prompt_shot(run: driver.Run, scenario: str) -> capture.Shot:
    """The settled screen once the gated call is out (aider: once its reply is in)."""
    if run.agent == "aider":
        ok = wait_until(lambda: run.stub.scenario_requests(scenario), PROMPT_TIMEOUT)
    else:
        ok = wait_until(lambda: run.stub.gated_issued(scenario), PROMPT_TIMEOUT)
    if not ok:
        raise TimeoutError(f"the stub never sent {scenario}'s gated call")
    text = run.pane.wait_stable(quiet=3.0, timeout=PROMPT_TIMEOUT)
    return capture.Shot(text, run.pane.capture_ansi(), run.pane.info())


def _send(run: driver.Run, scenario: str) -> None:
    """Type ``SCENARIO <name>`` and press Enter once; once more only while the line still
    sits in the input and the model has not seen it (a second Enter could answer a prompt)."""
    text = f"SCENARIO {scenario}"
    deadline = time.monotonic() + budget(120)
    shown = False
    while not shown and time.monotonic() < deadline:
        run.pane.type_text(text)  # again when an input that was not ready yet dropped it
        shown = wait_until(lambda: text in " ".join(run.pane.capture().split()), budget(15))
    if not shown:
        raise TimeoutError(f"{text!r} never showed; screen:\n{run.pane.capture()}")
    run.pane.send_keys(driver.ENTER)
    if wait_until(lambda: run.stub.scenario_requests(scenario), budget(60)):
        return
    if run.pane.capture().rstrip().endswith(text):
        run.pane.send_keys(driver.ENTER)
    if not wait_until(lambda: run.stub.scenario_requests(scenario), budget(60)):
        raise TimeoutError(f"{run.agent} never sent {text!r}")


def _subject_path(run: driver.Run, action: Action) -> dict[str, str]:
    """For a file prompt: the file's full path as the screen shows it (scrubbed), which a
    subject cut short on a narrow pane is a piece of."""
    if action.kind == "shell":
        return {}
    path = str(run.ws.repo / action.path)
    return {"subject_path": capture.scrub_wrapped(path, *capture.scratch_stand_in())}


def record_case(run: driver.Run, scenario: str, cols: int, rows: int) -> str:
    """Trigger, capture, prove by approving, save; returns a one-line report."""
    action = SCENARIOS[scenario]
    assert action is not None
    approve, deny = _keys(run.agent, scenario)
    _send(run, scenario)
    shot = _prompt_shot(run, scenario)
    if effect_done(action, run.ws.repo):
        return f"{run.agent} {scenario} {cols}x{rows}: took effect before any key, not saved"
    if run.pane.capture() != shot.text:  # an animated dialog (a timer): the frame before keys
        shot = capture.Shot(run.pane.capture(), run.pane.capture_ansi(), run.pane.info())
    run.pane.send_keys(*approve)
    if not wait_until(lambda: effect_done(action, run.ws.repo), EFFECT_TIMEOUT):
        return f"{run.agent} {scenario} {cols}x{rows}: approve keys {approve} had no effect"
    meta = {
        "state": "permission_prompt",
        "prompt_kind": action.kind,
        "subject": subject_of(action),
        "approve_keys": approve,
        "deny_keys": deny,
        **_subject_path(run, action),
        "verified": False,
        "narrow": True,
        "notes": (
            f"Live capture at {cols}x{rows} (tests/e2e/narrow.py, no paw): the screen had settled "
            f"and {approve} then made it take effect, so the prompt was live. A detector may read "
            "it as this prompt or as unknown, never as another prompt or idle. Deny keys are "
            "those verified at 80x24."
        ),
    }
    path = capture.save_case(run.agent, f"{scenario}_{cols}x{rows}", shot, meta, run.ws.root)
    wait_until(
        lambda: bool(run.stub.gated_results(scenario)) or run.agent == "aider", EFFECT_TIMEOUT
    )
    run.pane.wait_stable(quiet=2.0, timeout=EFFECT_TIMEOUT)
    return f"{run.agent} {scenario} {cols}x{rows}: saved {path.relative_to(capture.LIVE_DIR)}"


def record_agent(agent: str, cols: int, rows: int) -> list[str]:
    """Both prompts of one agent at one size; report lines (failures start with ``!``)."""
    socket = f"pawnarrow-{uuid.uuid4().hex[:8]}"
    run = driver.start_run(agent, socket, cols, rows)
    lines: list[str] = []
    try:
        _wait_ready(run)
        for scenario in ("shell", FILE_SCENARIO.get(agent, "edit")):
            line = record_case(run, scenario, cols, rows)
            lines.append(line if "saved" in line else f"! {line}")
            if "saved" not in line:
                break
    except (TimeoutError, RuntimeError) as err:
        lines.append(f"! {agent} {cols}x{rows}: {str(err)[:2000]}")
    finally:
        driver.stop_run(run)
    return lines


def main(argv: list[str]) -> int:
    """Record the narrow cases of the given agents (default: all) at the given sizes."""
    sizes = list(SIZES)
    if "--sizes" in argv:
        at = argv.index("--sizes")
        sizes = [tuple(int(n) for n in s.split("x")) for s in argv[at + 1].split(",")]  # type: ignore[misc]
        argv = argv[:at] + argv[at + 2 :]
    ok = True
    for agent in argv or list(AGENT_IDS):
        for cols, rows in sizes:
            for line in record_agent(agent, cols, rows):
                print(line, flush=True)
                ok = ok and not line.startswith("!")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
