"""Record an agent's permission prompts at given sizes into a fixtures folder, proven live.

``python -m tests.e2e.record OUT AGENT [--scenarios shell,edit] [--sizes 120x40,80x24]
[--tag TAG]`` starts AGENT with the stub model in a private tmux server (the driver in
tests/e2e/driver.py, no paw), asks for each scenario and captures its prompt once the screen has
settled. The capture is proven live like the narrow ones (tests/e2e/narrow.py): nothing took
effect before any key, then the agent's approve keys (those its verified 80x24 case recorded)
make the effect show on disk. Proven screens go to ``OUT/<agent>/[TAG-]<scenario>_<cols>x<rows>/``
(``screen.txt``, ``screen.ansi``, ``meta.json`` in the corpus format, ``agent_version`` read from
the binary's ``--version``). Every distinct frame seen between the gated call and the settled
screen is also kept under ``$PAW_AGENTS_HOME/frames/`` (outside the repository) for a look at
what the pane showed first.

The binary is ``$PAW_AGENTS_HOME``'s (tests/e2e/agents.py): point that variable at another
npm prefix to record an older release without touching the pinned cache.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

from paw.core.detect import detect
from paw.core.models import DetectionState
from tests.e2e import agents, capture, driver
from tests.e2e.narrow import EFFECT_TIMEOUT, PROMPT_TIMEOUT, _keys, _send
from tests.e2e.pane import POLL, wait_until
from tests.e2e.scenarios import SCENARIOS, effect_done, subject_of

SIZES = ((120, 40), (80, 24))
_VERSION = re.compile(r"\d+\.\d+\.\d+")
# What ticks or blinks while a prompt waits: timers, spinners, a tool call's bullet.
_DIGITS = re.compile(r"\d+|[\u2800-\u28ff●⏺○◉✻✽✶✳✢·*]")


def binary_version(agent: str) -> str:
    """The version the installed binary reports."""
    out = subprocess.run(
        [str(agents.binary_path(agent)), "--version"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    found = _VERSION.search(out.stdout + out.stderr)
    return found.group(0) if found else "unknown"


def _frames(run: driver.Run, scenario: str) -> list[tuple[float, capture.Shot]]:
    """Every distinct frame from the gated call until the screen stays the same for 3 s (20 s
    while paw does not read it as a prompt: a loaded machine can freeze a spinner for seconds
    before the agent draws its dialog)."""
    issued = wait_until(lambda: run.stub.gated_issued(scenario), PROMPT_TIMEOUT)
    print(f"{run.agent} {scenario}: gated call issued: {issued}", file=sys.stderr, flush=True)
    if not issued and run.agent != "aider":
        raise TimeoutError(f"the stub never sent {scenario}'s gated call")
    start = time.monotonic()
    frames: list[tuple[float, capture.Shot]] = []
    last, since = "", start
    while time.monotonic() - start < PROMPT_TIMEOUT:
        text = run.pane.capture()
        if text != (frames[-1][1].text if frames else ""):
            shot = capture.Shot(text, run.pane.capture_ansi(), run.pane.info())
            frames.append((time.monotonic() - start, shot))
        if _DIGITS.sub("#", text) != last:  # a ticking timer, a spinner is not a change
            last, since = _DIGITS.sub("#", text), time.monotonic()
        elif time.monotonic() - since > (3.0 if _prompt(run.agent, text) else 20.0):
            return frames
        time.sleep(POLL)
    return frames


def _prompt(agent: str, text: str) -> bool:
    return detect(text, agent).state is DetectionState.PROMPT


def _save(
    out: Path, agent: str, case: str, shot: capture.Shot, meta: dict[str, object], scratch: Path
) -> Path:
    target = out / agent / case
    target.mkdir(parents=True, exist_ok=True)
    (target / "screen.txt").write_text(capture.scrub(shot.text, scratch), encoding="utf-8")
    (target / "screen.ansi").write_text(capture.scrub(shot.ansi, scratch), encoding="utf-8")
    full = {
        "agent": agent,
        "cols": int(shot.info.get("pane_width", 0)),
        "rows": int(shot.info.get("pane_height", 0)),
        **meta,
        "tmux": {k: shot.info.get(k) for k in ("alternate_on", "cursor_x", "cursor_y")},
    }
    (target / "meta.json").write_text(json.dumps(full, indent=2) + "\n", encoding="utf-8")
    return target


def record_case(
    run: driver.Run, out: Path, scenario: str, cols: int, rows: int, version: str, tag: str
) -> str:
    """Trigger, capture, prove by approving, save; returns a one-line report."""
    action = SCENARIOS[scenario]
    assert action is not None
    approve, deny = _keys(run.agent, "shell" if action.kind in ("shell", "mcp") else scenario)
    _send(run, scenario)
    frames = _frames(run, scenario)
    name = f"{tag}-{scenario}_{cols}x{rows}" if tag else f"{scenario}_{cols}x{rows}"
    keep = agents.agents_home() / "frames" / run.agent / name
    keep.mkdir(parents=True, exist_ok=True)
    for at, shot in frames:
        (keep / f"{at:07.2f}.txt").write_text(shot.text, encoding="utf-8")
    if not frames:
        return f"{run.agent} {name}: no frame"
    shot = frames[-1][1]
    if effect_done(action, run.ws.repo):
        return f"{run.agent} {name}: took effect before any key, not saved"
    run.pane.send_keys(*approve)
    if not wait_until(lambda: effect_done(action, run.ws.repo), EFFECT_TIMEOUT):
        return f"{run.agent} {name}: approve keys {approve} had no effect"
    meta: dict[str, object] = {
        "agent_version": version,
        "state": "permission_prompt",
        "prompt_kind": action.kind,
        "subject": subject_of(action),
        "approve_keys": approve,
        "deny_keys": deny,
        "verified": False,
        "notes": (
            f"Live capture of {run.agent} {version} at {cols}x{rows} (tests/e2e/record.py, no "
            f"paw): the screen had settled and {approve} then made it take effect, so the prompt "
            "was live. Deny keys are those verified at 80x24 on the pinned version."
        ),
    }
    if scenario == "shell_multiline":
        meta["command"] = action.command
    path = _save(out, run.agent, name, shot, meta, run.ws.root)
    wait_until(
        lambda: bool(run.stub.gated_results(scenario)) or run.agent == "aider", EFFECT_TIMEOUT
    )
    run.pane.wait_stable(quiet=2.0, timeout=EFFECT_TIMEOUT)
    return f"{run.agent} {name}: saved {path} ({len(frames)} frames in {keep})"


def record_agent(
    agent: str, out: Path, scenarios: list[str], cols: int, rows: int, tag: str
) -> list[str]:
    """The scenarios of one agent at one size; report lines (failures start with ``!``)."""
    version = binary_version(agent)
    run = driver.start_run(agent, f"pawrec-{uuid.uuid4().hex[:8]}", cols, rows)
    lines: list[str] = []
    try:
        driver.wait_ready(run)
        for scenario in scenarios:
            line = record_case(run, out, scenario, cols, rows, version, tag)
            lines.append(line if "saved" in line else f"! {line}")
            if "saved" not in line:
                break
    except (TimeoutError, RuntimeError) as err:
        lines.append(f"! {agent} {cols}x{rows}: {str(err)[:2000]}")
    finally:
        driver.stop_run(run)
    return lines


class _Registry(BaseHTTPRequestHandler):
    """A stand-in npm registry: every package's ``latest`` is the version paw pins (newer than
    the release being recorded), with no tarball to install."""

    def do_GET(self) -> None:
        name = unquote(self.path.strip("/").split("/-/")[0])
        agent = name.rpartition("/")[2]  # @qwen-code/qwen-code, @anthropic-ai/claude-code
        latest = agents.VERSIONS.get(agent, "99.0.0")
        body = json.dumps(
            {
                "name": name,
                "dist-tags": {"latest": latest},
                "versions": {latest: {"name": name, "version": latest}},
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return


def start_registry() -> ThreadingHTTPServer:
    """The stand-in registry on 127.0.0.1 (port 0), serving in a thread."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Registry)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main(argv: list[str]) -> int:
    """Record the given agent's scenarios at the given sizes under OUT."""
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # clean up on kill too
    args = list(argv)
    if "--update-notice" in args:  # the agent's update check sees a newer release
        args.remove("--update-notice")
        registry = start_registry()
        os.environ[agents.REGISTRY_ENV] = f"http://127.0.0.1:{registry.server_address[1]}/"
    options = {"--scenarios": "shell,edit", "--sizes": "", "--tag": ""}
    for key in options:
        if key in args:
            at = args.index(key)
            options[key] = args[at + 1]
            del args[at : at + 2]
    out, agent = Path(args[0]), args[1]
    sizes = [tuple(int(n) for n in s.split("x")) for s in options["--sizes"].split(",") if s]
    ok = True
    for cols, rows in sizes or SIZES:
        for line in record_agent(
            agent, out, options["--scenarios"].split(","), cols, rows, options["--tag"]
        ):
            print(line, flush=True)
            ok = ok and not line.startswith("!")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
