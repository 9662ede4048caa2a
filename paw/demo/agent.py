"""A scripted stand-in for a coding agent CLI, for demos and tests.

Run as ``python -m paw.demo.agent [--task TEXT] [--script FILE | STEP …]``. It prints a header,
then for each step "works" (a spinner line), draws a permission prompt box at the bottom of the
screen (the format :mod:`paw.core.detect.agents.scripted` reads), reads ONE key in raw mode and
prints what it received and what it did. It ends idle, echoing lines typed at ``demo>``.

A step is ``KIND[@TIMEOUT] SUBJECT`` (KIND: shell, edit, write, fetch, mcp, question, trust,
dialog), ``busy SECONDS``, or ``wait PATH`` (sit idle at ``demo>`` until PATH exists, then go on:
a prompt that comes up after the agent looked finished). ``dialog`` draws a selection paw's
detector cannot read (a new release's layout): its highlighted "Yes" is taken by Enter alone.
With ``@TIMEOUT`` an unanswered prompt gives up after that many seconds and the next step
starts. Approving ``write``/``edit`` writes the file (inside the working directory only);
approving ``shell`` runs the command only if it is harmless (echo, touch, ls, pwd, date, true,
mkdir, with no shell syntax); anything else is only described. Each answer is appended as a JSON
line to the file named by ``PAW_DEMO_RECORD``, if set; the time each prompt was drawn, to the
file named by ``PAW_DEMO_DRAWN`` (for latency benchmarks); the time, subject and working
directory of each prompt box, to ``PAW_DEMO_STAMP``, if set.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import shlex
import subprocess
import sys
import termios
import time
import tty
from dataclasses import dataclass
from pathlib import Path

DEFAULT_STEPS = (
    "busy 1",
    "shell ls -la",
    "shell git push origin main",
    "shell rm -rf /",
    "write NOTES.md",
)
HARMLESS = frozenset({"echo", "touch", "ls", "pwd", "date", "true", "mkdir"})
_SHELL_SYNTAX = set(";|&<>`$(){}*?\\\n")
_KEYS = {"y": "approve", "a": "always", "n": "deny", "\x1b": "deny"}
_QUESTIONS = {
    "shell": "Run this command?",
    "edit": "Edit this file?",
    "write": "Create this file?",
    "fetch": "Fetch this URL?",
    "mcp": "Call this MCP tool?",
    "question": "Which option?",
    "trust": "Trust this folder?",
    "dialog": "Go ahead?",
}
_SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


@dataclass(frozen=True, slots=True)
class Step:
    """One scripted step."""

    kind: str
    subject: str
    timeout: float | None = None


def parse_step(text: str) -> Step:
    """``KIND[@TIMEOUT] SUBJECT`` → Step (ValueError on nonsense)."""
    head, _, subject = text.strip().partition(" ")
    kind, _, timeout = head.partition("@")
    if kind not in ("busy", "wait") and kind not in _QUESTIONS:
        raise ValueError(f"unknown step kind {kind!r} in {text!r}")
    return Step(kind, subject.strip(), float(timeout) if timeout else None)


def _out(text: str = "") -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def busy(seconds: float) -> None:
    """Show a spinner line for ``seconds``, then end the line."""
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        sys.stdout.write(f"\r{_SPINNER[i % len(_SPINNER)]} working…")
        sys.stdout.flush()
        time.sleep(0.1)
        i += 1
    sys.stdout.write("\r✓ done working   \n")
    sys.stdout.flush()


def render_box(step: Step) -> list[str]:
    """The permission prompt box for ``step``, line by line (pure)."""
    options = {"question": "[1] first  [2] second", "trust": "[y] yes  [n] no"}.get(
        step.kind, "[y] yes  [a] always  [n] no"
    )
    body = [_QUESTIONS[step.kind], f"  {step.subject}", options]
    width = max(len(line) for line in body) + 2
    title = f"╭─ paw-demo permission: {step.kind} "
    lines = [title + "─" * max(1, width - len(title) + 1) + "╮"]
    lines += ["│ " + line.ljust(width - 1) + "│" for line in body]
    return [*lines, "╰" + "─" * width + "╯"]


def render_dialog(step: Step) -> list[str]:
    """A selection the detector does not know, line by line (pure): Enter takes "Yes"."""
    return [f"{_QUESTIONS[step.kind]} {step.subject}", "  ❯ Yes", "    No", "  (Enter selects)"]


def draw_box(step: Step) -> None:
    """Draw the permission prompt box (or a dialog) as the last thing on the screen."""
    for line in render_dialog(step) if step.kind == "dialog" else render_box(step):
        _out(line)


def read_key(timeout: float | None) -> str | None:
    """One key from stdin in raw mode (None on timeout or end of input)."""
    fd = sys.stdin.fileno()
    if not os.isatty(fd):
        ready, _, _ = select.select([fd], [], [], timeout)
        return os.read(fd, 1).decode(errors="replace") if ready else None
    saved = termios.tcgetattr(fd)
    try:
        tty.setraw(fd)
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return None
        return os.read(fd, 1).decode(errors="replace") or None
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def effect(step: Step, cwd: Path) -> str:
    """Carry out an approved step (harmless things only) and describe what happened."""
    if step.kind in ("write", "edit"):
        target = (cwd / step.subject).resolve()
        if not target.is_relative_to(cwd.resolve()):
            return f"refused: {step.subject} is outside {cwd}"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("written by the paw demo agent\n", encoding="utf-8")
        return f"wrote {step.subject}"
    if step.kind == "shell":
        return _run_harmless(step.subject, cwd)
    return f"did: {step.kind} {step.subject} (simulated)"


def _run_harmless(command: str, cwd: Path) -> str:
    try:
        argv = shlex.split(command)
    except ValueError:
        argv = []
    if not argv or argv[0] not in HARMLESS or any(c in _SHELL_SYNTAX for c in command):
        return f"would run: {command} (simulated, not run)"
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)  # noqa: S603 - allow-listed
    return f"ran: {command} (exit {done.returncode})"


def record(step_no: int, step: Step, key: str | None, decision: str) -> None:
    """Append the answer to ``$PAW_DEMO_RECORD`` (one JSON line)."""
    path = os.environ.get("PAW_DEMO_RECORD")
    if not path:
        return
    line = {"step": step_no, "kind": step.kind, "subject": step.subject, "key": key}
    with Path(path).open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({**line, "decision": decision}) + "\n")


def stamp(step: Step, cwd: Path) -> None:
    """Append when the prompt box was drawn to ``$PAW_DEMO_STAMP`` (one JSON line; for
    benchmarks of prompt-drawn to prompt-shown latency)."""
    path = os.environ.get("PAW_DEMO_STAMP")
    if not path:
        return
    line = {"drawn": time.time(), "subject": step.subject, "cwd": str(cwd)}
    with Path(path).open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(line) + "\n")


def ask(step_no: int, step: Step, cwd: Path) -> None:
    """Draw one prompt, wait for an answer key, act on it."""
    draw_box(step)
    drawn = os.environ.get("PAW_DEMO_DRAWN")
    if drawn:
        with Path(drawn).open("a", encoding="utf-8") as fh:
            fh.write(json.dumps({"step": step_no, "subject": step.subject, "time": time.time()}))
            fh.write("\n")
    stamp(step, cwd)
    while True:
        key = read_key(step.timeout)
        if key is None:
            _out("(no answer: the prompt timed out)")
            record(step_no, step, None, "timeout")
            return
        decision = _decision(step, key)
        if decision is None:
            continue  # not an answer: real agent UIs ignore such keys too
        _out(f"received key {key!r}: {decision}")
        _out(effect(step, cwd) if decision in ("approve", "always", "answer") else "skipped")
        record(step_no, step, key, decision)
        return


def _decision(step: Step, key: str) -> str | None:
    if step.kind == "question":
        return "answer" if key in ("1", "2") else None
    if step.kind == "dialog":
        return "approve" if key in ("\r", "\n") else None
    return _KEYS.get(key)


def wait_for(path: Path) -> None:
    """Look idle (the ``demo>`` input) until ``path`` exists; what is typed meanwhile stays
    unread until a later step reads it."""
    sys.stdout.write("demo> ")
    sys.stdout.flush()
    while not path.exists():
        time.sleep(0.1)
    _out()


def idle(on_line: str | None = None) -> None:
    """The idle input line: echo what is typed until end of input; with ``on_line``, run that
    shell command in the working directory after each line (a scripted "fix", for tests)."""
    while True:
        sys.stdout.write("demo> ")
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            return
        _out(f"received: {line.rstrip()}")
        if on_line:
            busy(0.3)
            done = subprocess.run(  # noqa: S602 - the demo's own command line, for tests
                on_line, shell=True, cwd=Path.cwd(), capture_output=True, check=False
            )
            _out(f"ran the on-line command (exit {done.returncode})")


def main(argv: list[str] | None = None) -> int:
    """Run the script; return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m paw.demo.agent", description=__doc__)
    parser.add_argument("--task", help="the task (shown in the header)")
    parser.add_argument("--script", type=Path, help="a file with one step per line")
    parser.add_argument("steps", nargs="*", help="steps, e.g. 'shell ls' 'write notes.txt'")
    parser.add_argument(
        "--on-line", metavar="COMMAND", help="a shell command run after each line typed at idle"
    )
    args = parser.parse_args(argv)
    texts = _step_texts(args.script, args.steps)
    try:
        steps = [parse_step(t) for t in texts]
    except ValueError as err:
        parser.error(str(err))
    _out(f"paw demo agent — task: {args.task or '(none)'}")
    cwd = Path.cwd()
    for number, step in enumerate(steps, 1):
        if step.kind == "busy":
            busy(float(step.subject or 1))
        elif step.kind == "wait":
            wait_for(cwd / step.subject)
        else:
            busy(0.2)
            ask(number, step, cwd)
    idle(args.on_line)
    return 0


def _step_texts(script: Path | None, steps: list[str]) -> list[str]:
    if script is not None:
        lines = script.read_text(encoding="utf-8").splitlines()
        return [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    return steps or list(DEFAULT_STEPS)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
