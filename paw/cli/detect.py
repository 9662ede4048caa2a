"""`paw detect`: read a saved screen (``tmux capture-pane -p`` output) and report what it shows.

Exit codes:
  0   a live prompt (or dialog) is on the screen
  1   the file could not be read
  2   usage error (e.g. an unknown ``--agent``)
  10  no live prompt: the agent is busy or idle
  11  unknown: empty screen, or no detector recognised it
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from paw.cli import UsageError
from paw.cli.result import JsonLayout, Result, lines_of
from paw.core.detect import AGENTS, detect, is_unrecognised_dialog
from paw.core.detect.registry import all_specs
from paw.core.models import Detection, DetectionState
from paw.errors import PawError

EXIT_PROMPT = 0
EXIT_NO_PROMPT = 10
EXIT_UNKNOWN = 11
_EPILOG = """\
Without --agent, paw tries every detector: a live prompt found by one of them is reported with
that agent (detectors anchor on their own agent's frames); otherwise the state is reported
without an agent. Name the agent whenever you know it: keys and busy markers are per agent.

exit codes: 0 live prompt, 1 unreadable file, 2 usage error, 10 busy or idle (no prompt),
11 unknown (empty screen or no detector recognised it)

examples:
  tmux capture-pane -p -t %3 | paw detect --agent claude-code -
  paw detect --agent codex --json screen.txt
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``paw detect``."""
    parser = sub.add_parser(
        "detect",
        help="detect the live prompt in a saved screen",
        description="Detect the live prompt in a saved screen (tmux capture-pane -p output).",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--agent", metavar="ID", help=f"agent id: {', '.join(AGENTS)}")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("file", metavar="FILE", help="the saved screen, or - for stdin")
    parser.set_defaults(func=cmd_detect)


def cmd_detect(args: argparse.Namespace) -> Result:
    """Detect the screen in ``args.file`` and print the result."""
    text = _read(args.file)
    if args.agent is not None:
        if args.agent not in AGENTS:
            raise UsageError(
                f"unknown agent {args.agent!r}", hint=f"choose one of: {', '.join(AGENTS)}"
            )
        found = detect(text, args.agent)
    else:
        found = guess(text)
    if found.state is DetectionState.PROMPT:
        code = EXIT_PROMPT
    else:
        code = EXIT_UNKNOWN if found.state is DetectionState.UNKNOWN else EXIT_NO_PROMPT
    if args.json:
        return Result(data=to_json(found), code=code, layout=JsonLayout.ASCII)
    return lines_of(render(found), code=code)


def _read(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8", errors="replace")
    except OSError as err:
        raise PawError(f"cannot read {name}: {err.strerror or err}") from err


def guess(text: str) -> Detection:
    """The answer of every detector combined, when the agent is not known.

    A live prompt wins (the first detector in registry order that claims one, the original
    before its fork; detectors anchor on their own agent's frames, so rivals are rare and
    noted). Otherwise the agent stays
    unnamed: busy if a detector saw a busy marker, idle if any recognised the screen.
    """
    found = [detect(text, agent) for agent in AGENTS]
    prompts = [d for d in found if d.state is DetectionState.PROMPT]
    claimed = {d.agent for d in prompts}
    forks = {s.kind for s in all_specs() if s.fork_of in claimed}
    # a detector's own prompt before a dialog told from the screen's structure alone; a fork
    # drawing the same dialog yields
    prompts.sort(key=lambda d: (is_unrecognised_dialog(d), d.agent in forks))
    notes: tuple[str, ...] = ("agent guessed: no --agent given",)
    if prompts:
        best = prompts[0]
        if len(prompts) > 1:
            notes += (f"also claimed by: {', '.join(d.agent for d in prompts[1:])}",)
        return Detection(best.state, best.agent, best.prompt, best.notes + notes)
    states = {d.state for d in found if not d.notes}
    for state in (DetectionState.BUSY, DetectionState.IDLE):
        if state in states:
            return Detection(state, "", None, notes)
    return Detection(DetectionState.UNKNOWN, "", None, notes)


def to_json(found: Detection) -> dict[str, object]:
    """The JSON shape of ``paw detect --json``."""
    prompt = found.prompt
    return {
        "agent": found.agent or None,
        "state": found.state.value,
        "prompt": None
        if prompt is None
        else {
            "kind": prompt.kind.value,
            "subject": prompt.subject,
            "question": prompt.question,
            "approve_keys": list(prompt.approve_keys),
            "deny_keys": list(prompt.deny_keys),
            "always_keys": list(prompt.always_keys) if prompt.always_keys else None,
            "fingerprint": prompt.fingerprint,
            "waiting": prompt.needs_human,
        },
        "notes": list(found.notes),
    }


def render(found: Detection) -> str:
    """A short human-readable report."""
    lines = [f"{found.agent or '(agent not known)'}: {found.state.value}"]
    prompt = found.prompt
    if prompt is not None:
        lines += [
            f"  kind:     {prompt.kind.value}",
            f"  question: {prompt.question}",
        ]
        if prompt.subject:
            subject = prompt.subject.replace("\n", "\n            ")
            lines.append(f"  subject:  {subject}")
        lines += [
            f"  approve:  {' '.join(prompt.approve_keys) or '(none: answer it yourself)'}",
            f"  deny:     {' '.join(prompt.deny_keys) or '(none)'}",
        ]
        if prompt.always_keys:
            lines.append(f"  always:   {' '.join(prompt.always_keys)}")
        lines.append(f"  fingerprint: {prompt.fingerprint}")
    lines += [f"  note: {note}" for note in found.notes]
    return "\n".join(lines)
