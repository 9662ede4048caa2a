"""Record a held-out set of real agent screens: sizes and turns the fixtures paw was tuned on lack.

``python -m tests.e2e.heldout AGENT COLSxROWS [AGENT COLSxROWS ...] [--trust] [--out=DIR]``
starts each agent with the stub model in a private tmux server (the driver in
tests/e2e/driver.py, no paw) and captures, once each screen has settled:

- ``idle``: the input after start-up;
- ``busy``: mid-turn, while the stub holds its answer (scenario ``slow``);
- ``done``: the input after that turn finished;
- ``shell_pipe``: a command with quotes and a pipe; ``write_subdir``: a new file in a subfolder;
  ``edit_long``: an edit of a file with a long path; ``fetch``: a fetch of a URL (each a
  permission prompt; the first three are approved with the keys of the agent's verified 80x24
  live case and must take effect before the next, the fetch is denied);
- ``trust`` (``--trust``, agents whose folder-trust gate the workspace can leave on): the start-up
  screen of a folder nobody trusted yet.

``--batch=3`` records the third batch's turns instead (tests/fixtures/heldout2): ``shell_chain``
(a heredoc and an ``&&`` chain over several lines), ``write_deep`` (a new file in a deep new
folder), ``edit_space`` (an edit of a path with spaces in it), ``fetch`` and ``ask``.

Screens go to ``tests/fixtures/heldout/<agent>/<case>_<cols>x<rows>/`` (``screen.txt``,
``screen.ansi``, ``meta.json`` in the format of tests/fixtures/corpus, scratch paths scrubbed).
The label in ``meta.json`` is what the step asked for; a human then reads every screen and
corrects it (``labelled_by``). ``--out=DIR`` writes a new batch elsewhere, to be measured
before it joins the set. Prints one line per case. The figures of paw's detectors on this
set: ``scripts/measure_fidelity.py tests/fixtures/heldout``.
"""

from __future__ import annotations

import json
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from tests.e2e import agents, capture, driver, narrow
from tests.e2e.pane import Pane, wait_until
from tests.e2e.scenarios import (
    EDIT_NEW,
    EDIT_OLD,
    LONG_EDIT_FILE,
    README_TEXT,
    SCENARIOS,
    WRITE_CONTENT,
    Action,
    effect_done,
    subject_of,
)
from tests.e2e.stub_model import StubModel
from tests.support.budget import budget

OUT = Path(__file__).resolve().parent.parent / "fixtures" / "heldout"
PROMPTS = ("shell_pipe", "write_subdir", "edit_long", "fetch", "ask")
# The third batch (``--batch=3``, tests/fixtures/heldout2): a heredoc and an ``&&`` chain over
# several lines, a new file in a deep new folder, an edit of a path with spaces in it, and the
# fetch and question turns (its marker file is the command's last word, see ``effect_done``).
SPACE_EDIT_FILE = "docs/meeting notes/paw plan for q3.md"
CHAIN_COMMAND = (
    "mkdir -p build/out && cat > build/out/paw-heredoc.txt <<'EOF'\n"
    "alpha beta\n"
    "gamma && delta\n"
    "EOF\n"
    "test -s build/out/paw-heredoc.txt && \\\n"
    "  touch paw-chain.txt"
)
DEEP_WRITE_FILE = "src/new_area/level_one/level_two/level_three/paw-deep-new.txt"
SCENARIOS.update(
    {
        "shell_chain": Action("shell", command=CHAIN_COMMAND),
        "write_deep": Action("write", path=DEEP_WRITE_FILE, content=WRITE_CONTENT),
        "edit_space": Action("edit", path=SPACE_EDIT_FILE, old=EDIT_OLD, new=EDIT_NEW),
    }
)
PROMPTS_3 = ("shell_chain", "write_deep", "edit_space", "fetch", "ask")
KEYS_OF = {"shell": "shell", "edit": "edit", "write": "edit", "fetch": "shell", "question": "shell"}
TRUST_AGENTS = ("claude-code", "codex", "gemini-cli", "qwen-code")
STEP_TIMEOUT = budget(120.0)


def _save(run: driver.Run, case: str, shot: capture.Shot, meta: dict[str, Any]) -> str:
    cols, rows = shot.info.get("pane_width", "0"), shot.info.get("pane_height", "0")
    folder = OUT / run.agent / f"{case}_{cols}x{rows}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "screen.txt").write_text(capture.scrub(shot.text, run.ws.root), encoding="utf-8")
    (folder / "screen.ansi").write_text(capture.scrub(shot.ansi, run.ws.root), encoding="utf-8")
    full = {
        "agent": run.agent,
        "agent_version": agents.VERSIONS[run.agent],
        "cols": int(cols),
        "rows": int(rows),
        "prompt_kind": None,
        "subject": None,
        **meta,
        "labelled_by": "capture step (to be read by a human)",
        "notes": f"held-out capture by tests/e2e/heldout.py ({case}) against the stub model",
    }
    (folder / "meta.json").write_text(json.dumps(full, indent=2) + "\n", encoding="utf-8")
    return f"{run.agent} {case} {cols}x{rows}: saved"


def _shot(pane: Pane, quiet: float = 3.0) -> capture.Shot:
    text = pane.wait_stable(quiet=quiet, timeout=20.0)  # a clock may tick: take it then
    return capture.Shot(text, pane.capture_ansi(), pane.info())


def _quiet_turns(run: driver.Run) -> list[str]:
    lines = [_save(run, "idle", _shot(run.pane), {"state": "idle"})]
    narrow._send(run, "slow")
    time.sleep(4.0)  # well inside the stub's hold: the agent shows it is working
    busy = capture.Shot(run.pane.capture(), run.pane.capture_ansi(), run.pane.info())
    lines.append(_save(run, "busy", busy, {"state": "busy"}))
    flat = "Finished scenario slow"
    run.pane.wait_for(lambda s: flat in " ".join(s.split()), STEP_TIMEOUT, "the slow turn")
    lines.append(_save(run, "done", _shot(run.pane), {"state": "done"}))
    return lines


def _asked(run: driver.Run, scenario: str) -> bool:
    """The gated call is out (aider, which has no tools: its reply is in)."""
    if run.agent == "aider":
        return run.stub.scenario_requests(scenario) > 0
    return run.stub.gated_issued(scenario)


def _prompt(run: driver.Run, scenario: str) -> str:
    action = SCENARIOS[scenario]
    assert action is not None
    keys = KEYS_OF[action.kind]
    if not (capture.LIVE_DIR / run.agent / f"{keys}_80x24").is_dir():
        keys = "write"  # aider: its file prompts are new files
    approve, deny = narrow._keys(run.agent, keys)
    narrow._send(run, scenario)
    deadline = time.monotonic() + STEP_TIMEOUT
    while not _asked(run, scenario) and not run.stub.errors:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the stub never sent {scenario}'s gated call")
        time.sleep(0.25)
    if run.stub.errors:
        error = run.stub.errors[-1]
        run.stub.errors.clear()
        run.pane.wait_stable(quiet=2.0, timeout=20.0)
        return f"! {run.agent} {scenario}: {error}"
    shot = _shot(run.pane)
    meta = {
        "state": "dialog" if action.kind == "question" else "permission_prompt",
        "prompt_kind": action.kind,
        "subject": subject_of(action),
        "approve_keys": approve,
        "deny_keys": deny,
    }
    line = _save(run, scenario, shot, meta)
    if action.kind in ("fetch", "question"):
        run.pane.send_keys(*deny)
    else:
        run.pane.send_keys(*approve)
        if not wait_until(lambda: effect_done(action, run.ws.repo), STEP_TIMEOUT):
            line += f" (! approve keys {approve} had no effect)"
    if run.agent != "aider":  # aider has no tool result, so no final text
        finished = f"Finished scenario {scenario}"
        wait_until(lambda: finished in run.pane.capture(), STEP_TIMEOUT)
    run.pane.wait_stable(quiet=2.0, timeout=20.0)
    return line


def record(agent: str, cols: int, rows: int, prompts: tuple[str, ...] = PROMPTS) -> list[str]:
    """The quiet screens and the prompts of one agent at one size."""
    run = driver.start_run(agent, f"pawheld-{uuid.uuid4().hex[:8]}", cols, rows)
    for name in (LONG_EDIT_FILE, SPACE_EDIT_FILE):
        target = run.ws.repo / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(README_TEXT, encoding="utf-8")
    lines: list[str] = []
    try:
        narrow._wait_ready(run)
        lines += _quiet_turns(run)
        for scenario in prompts:
            if agent == "aider" and scenario in ("fetch", "ask"):
                continue
            lines.append(_prompt(run, scenario))
    except (TimeoutError, RuntimeError) as err:
        lines.append(f"! {agent} {cols}x{rows}: {str(err)[:1500]}")
    finally:
        driver.stop_run(run)
    return lines


def _untrust(agent: str, ws: agents.Workspace) -> None:
    """Undo the workspace's folder trust so the agent asks at start-up."""
    if agent == "claude-code":
        path = ws.home / ".claude.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        data["projects"] = {}
        path.write_text(json.dumps(data), encoding="utf-8")
    elif agent == "codex":
        path = ws.home / ".codex" / "config.toml"
        keep = [
            line
            for line in path.read_text(encoding="utf-8").splitlines()
            if not line.startswith("[projects.") and not line.startswith("trust_level")
        ]
        path.write_text("\n".join(keep) + "\n", encoding="utf-8")
    else:
        folder = ".gemini" if agent == "gemini-cli" else ".qwen"
        path = ws.home / folder / "settings.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        data["security"]["folderTrust"] = {"enabled": True}
        path.write_text(json.dumps(data), encoding="utf-8")


def record_trust(agent: str, cols: int, rows: int) -> str:
    """The start-up screen of an untrusted folder."""
    ws = agents.make_workspace(agent)
    stub = StubModel(str(ws.repo)).start()
    socket = f"pawheld-{uuid.uuid4().hex[:8]}"
    pane: Pane | None = None
    try:
        argv = agents.launch_argv(agent, ws, stub.url)
        _untrust(agent, ws)
        pane = Pane.start(socket, argv, ws.repo, cols, rows)
        run = driver.Run(agent, ws, stub, pane)
        pane.wait_for(lambda s: len(s.split()) > 5, budget(120), f"{agent} to draw")
        time.sleep(3.0)
        return _save(run, "trust", _shot(pane, quiet=3.0), {"state": "dialog"})
    except (TimeoutError, RuntimeError) as err:
        return f"! {agent} trust {cols}x{rows}: {str(err)[:1500]}"
    finally:
        if pane is not None:
            driver.stop_run(driver.Run(agent, ws, stub, pane))
        else:
            stub.stop()
            agents.remove_workspace(ws)


def main(argv: list[str]) -> int:
    """Record the given agents at the given sizes."""
    global OUT
    trust = "--trust" in argv
    prompts = PROMPTS_3 if "--batch=3" in argv else PROMPTS
    for arg in argv:
        if arg.startswith("--out="):  # a new batch apart, to be measured before it joins the set
            OUT = Path(arg.split("=", 1)[1]).resolve()
    words = [a for a in argv if not a.startswith("--")]
    ok = True
    for agent, size in zip(words[::2], words[1::2], strict=True):
        cols, rows = (int(n) for n in size.split("x"))
        lines = [record_trust(agent, cols, rows)] if trust else record(agent, cols, rows, prompts)
        for line in lines:
            print(line, flush=True)
            ok = ok and not line.startswith("!") and "(!" not in line
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
