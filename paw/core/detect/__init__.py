"""Live-prompt detection: screen text in, :class:`~paw.core.models.Detection` out.

``detect(screen, agent)`` is pure: no I/O, no clock. Only a prompt at the live position of the
agent's UI counts (see docs/agents.md); busy indicators are checked before prompts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from paw.core.detect.dialogs import mark_dialog
from paw.core.detect.live_dialog import find_live_dialog, framed_bottom
from paw.core.detect.prompts import incomplete_notes, make_prompt
from paw.core.detect.registry import InputReader, agent_kinds, load_detector, load_input_reader
from paw.core.detect.screen import parse_screen
from paw.core.models import Detection, DetectionState, PromptKind

AGENTS: tuple[str, ...] = agent_kinds()

__all__ = ["AGENTS", "detect", "is_unrecognised_dialog", "read_input"]


def detect(screen: str, agent: str) -> Detection:
    """Detect what ``agent``'s pane shows in ``screen`` (a capture, escape sequences allowed).

    Unknown agents, and agents whose detector is not installed, give state ``unknown``.
    """
    detector = load_detector(agent)
    if detector is None:
        return Detection(
            state=DetectionState.UNKNOWN, agent=agent, notes=(f"no detector for {agent!r}",)
        )
    found = detector(screen)
    if found.state in (DetectionState.IDLE, DetectionState.BUSY):
        return _unless_dialog(screen, agent, found)
    prompt = mark_dialog(found.prompt) if found.prompt is not None else None
    extra = incomplete_notes(prompt) if prompt is not None else ()
    extra = tuple(note for note in extra if note not in found.notes)
    if found.agent != agent or prompt is not found.prompt or extra:
        notes = found.notes + extra
        return Detection(state=found.state, agent=agent, prompt=prompt, notes=notes)
    return found


UNKNOWN_DIALOG_NOTE = "a dialog paw does not recognise is open ({}): answer it in the pane"
NESTED_DIALOG_NOTE = (
    "what looks like a dialog ({}) is drawn under other text at the bottom: it may be a quote "
    "or a dialog paw does not recognise"
)
FRAMED_NOTE = (
    "a framed block is drawn at the bottom where the agent's input is not readable: a dialog "
    "paw cannot read may be open"
)


def is_unrecognised_dialog(found: Detection) -> bool:
    """``found`` is a dialog that the agent's detector did not recognise, told from the
    structure of the screen's bottom alone (another agent's detector may know it)."""
    prefix = UNKNOWN_DIALOG_NOTE.split("(", 1)[0]
    return found.state is DetectionState.PROMPT and any(n.startswith(prefix) for n in found.notes)


def _unless_dialog(screen: str, agent: str, found: Detection) -> Detection:
    """``found`` (idle or busy) unless the bottom of ``screen`` shows a dialog the agent's
    detector does not know (see :mod:`paw.core.detect.live_dialog`): then a dialog only a
    human answers (``waiting``, no keys), or ``unknown`` when it may be a quote.

    Idle also needs the agent's input: a framed block at the bottom where the agent's input
    reader reads none is ``unknown`` (a box drawn over or instead of the input)."""
    parsed = parse_screen(screen)
    reader = load_input_reader(agent)
    dialog = find_live_dialog(parsed.lines, parsed.pane_width, _input_below(parsed.lines, reader))
    if dialog is None:
        if (
            found.state is DetectionState.IDLE
            and reader is not None
            and framed_bottom(parsed.lines)
            and reader(screen) is None
        ):
            return Detection(DetectionState.UNKNOWN, agent, None, (*found.notes, FRAMED_NOTE))
        return found if found.agent == agent else Detection(found.state, agent, None, found.notes)
    if dialog.nested:
        return Detection(
            DetectionState.UNKNOWN, agent, None, (NESTED_DIALOG_NOTE.format(dialog.evidence),)
        )
    prompt = make_prompt(
        PromptKind.OTHER,
        None,
        dialog.question or "a dialog paw does not recognise",
        approve=(),
        deny=(),
        options=dialog.options,
        selected=dialog.selected,
    )
    note = UNKNOWN_DIALOG_NOTE.format(dialog.evidence)
    return Detection(
        DetectionState.PROMPT, agent, dataclasses.replace(prompt, dialog=True), (note,)
    )


def _input_below(lines: tuple[str, ...], reader: InputReader | None) -> Callable[[int], bool]:
    def below(row: int) -> bool:
        rest = lines[row:]
        if reader is None or not any(line.strip() for line in rest):
            return False
        return reader("\n".join(rest)) is not None

    return below


def read_input(screen: str, agent: str) -> str | None:
    """What ``agent``'s input line holds in ``screen``: "" when it is empty, the text typed
    into it otherwise, None when paw cannot read it (no reader for the agent, no input line
    where the agent draws it, a layout the reader does not know). Fail closed: only "" is
    an empty input."""
    reader = load_input_reader(agent)
    if reader is None:
        return None
    return reader(screen)
