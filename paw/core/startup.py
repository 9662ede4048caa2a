"""When a freshly spawned agent is up: the pure rules of ``paw spawn``'s start-up watch.

The supervisor looks at the new pane again and again (on the wall clock, up to the agent's
start-up budget) and feeds each look to a :class:`StartupWatch`, which says when to stop:

- **ready**: the agent shows its idle input (its detector says so, or ``ready_pattern``
  matches); with the task passed on its command line, also when it is busy with the task or
  asks to run something for it. A kind without a detector or ``ready_pattern`` is ready once
  its screen shows something and stays the same for :data:`SETTLE_S` seconds.
- **waiting**: the agent waits for the human before it can start: a start-up dialog (trust
  this folder, sign in, pick a theme: a prompt of kind ``trust`` or ``other``, or with a typed
  task any prompt) that stayed on screen for :data:`SETTLE_S`, or, when the budget runs out,
  any screen that is neither the idle input nor busy.
- **starting**: the budget ran out while the agent was still busy starting.
- **died**: the agent's program ended (the pane is dead or gone).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from paw.core.models import Detection, DetectionState, Prompt, PromptKind

SETTLE_S = 1.0
"""Seconds a screen (or a start-up dialog) must stay unchanged to count as settled."""

DEAD_STATUS_WAIT_S = 10.0
"""How long a dead pane may go without tmux's "Pane is dead (status N)" line before its end
is reported without a status (tmux draws it once it has reaped the process: on a loaded
two-core machine 3 s was seen to be too short). Only a start-up that already failed waits."""

SCREEN_LINES = 8
"""How many of the screen's last non-blank lines a report quotes."""

_DEAD = re.compile(r"^Pane is dead \((?:status (\d+)|signal (\d+))")
_STARTUP_DIALOGS = frozenset({PromptKind.TRUST, PromptKind.OTHER})


class StartupState(StrEnum):
    """How a spawn's start-up watch ended."""

    READY = "ready"
    WAITING = "waiting"
    STARTING = "starting"
    DIED = "died"


@dataclass(frozen=True, slots=True)
class Look:
    """One look at the new pane: when (wall clock), its screen (None: pane gone), whether its
    program has ended (tmux keeps the pane), and what the agent's detector made of it."""

    at: float
    text: str | None
    dead: bool
    detection: Detection
    wait_status: int | None = None  # a dead pane's program, ended but not reaped (a zombie)


@dataclass(frozen=True, slots=True)
class StartupOutcome:
    """The end of a start-up watch: its state, one line saying why, the screen's last lines."""

    state: StartupState
    detail: str
    screen: tuple[str, ...] = ()
    exit_status: int | None = None
    signal: int | None = None
    prompt: Prompt | None = None


def screen_tail(text: str | None, lines: int = SCREEN_LINES) -> tuple[str, ...]:
    """The last ``lines`` non-blank lines of ``text`` (right-stripped), without tmux's
    ``Pane is dead`` line.

    >>> screen_tail("a\\n\\nb  \\n\\nPane is dead (status 1, Mon)\\n\\n")
    ('a', 'b')
    """
    kept = [ln.rstrip() for ln in (text or "").splitlines() if ln.strip()]
    kept = [ln for ln in kept if not _DEAD.match(ln)]
    return tuple(kept[-lines:])


def dead_status(text: str | None) -> tuple[int | None, int | None]:
    """(exit status, signal) from tmux's ``Pane is dead (status N, …)`` line, if shown.

    >>> dead_status("x\\nPane is dead (status 127, Mon Nov 30 2026)")
    (127, None)
    >>> dead_status("Pane is dead (signal 9, Mon)"), dead_status("x")
    ((None, 9), (None, None))
    """
    for line in reversed((text or "").splitlines()):
        found = _DEAD.match(line.strip())
        if found:
            status, signal = found.groups()
            return (int(status) if status else None, int(signal) if signal else None)
    return (None, None)


def decode_wait_status(raw: int) -> tuple[int | None, int | None]:
    """(exit status, signal) from a ``waitpid`` status word.

    >>> decode_wait_status(127 << 8), decode_wait_status(9), decode_wait_status(0x137f)
    ((127, None), (None, 9), (None, None))
    """
    low = raw & 0x7F
    if low == 0:
        return ((raw >> 8) & 0xFF, None)
    if low != 0x7F:  # 0x7f: stopped, not ended
        return (None, low)
    return (None, None)


class StartupWatch:
    """Decide, look by look, when a new agent is up (see the module docstring)."""

    def __init__(
        self,
        *,
        typed: bool,
        has_detector: bool,
        ready_pattern: str | None = None,
        settle_s: float = SETTLE_S,
    ) -> None:
        """``typed``: the task waits to be typed into the agent's input (``stdin-typed``)."""
        self.typed = typed
        self.has_detector = has_detector
        self.ready = re.compile(ready_pattern) if ready_pattern else None
        self.settle_s = settle_s
        self._steady: tuple[str, float] | None = None  # (what stays the same, since when)
        self._dead_since: float | None = None  # first look at a dead pane without its status

    def _died(self, look: Look, tail: tuple[str, ...]) -> StartupOutcome | None:
        """A dead pane: its exit status or signal, or None to look again for it. tmux marks a
        pane dead when its terminal closes and draws "Pane is dead (status N)" once it has
        reaped the process, a moment later on a busy machine. tmux can miss the child's
        exit altogether (seen with tmux 3.3a under load: the program stays a zombie and the
        line never comes); the zombie's own status (``look.wait_status``) then says it."""
        status, signal = dead_status(look.text)
        if status is None and signal is None and look.wait_status is not None:
            status, signal = decode_wait_status(look.wait_status)
        if status is None and signal is None:
            self._dead_since = self._dead_since if self._dead_since is not None else look.at
            if look.at - self._dead_since < DEAD_STATUS_WAIT_S:
                return None
        how = f"exit status {status}" if status is not None else "ended"
        how = f"killed by signal {signal}" if signal is not None else how
        return StartupOutcome(StartupState.DIED, how, tail, status, signal)

    def look(self, look: Look) -> StartupOutcome | None:
        """The outcome this look settles, or None to look again."""
        if look.text is None:
            return StartupOutcome(StartupState.DIED, "its pane is gone")
        tail = screen_tail(look.text)
        if look.dead:
            return self._died(look, tail)
        if self.ready is not None and tail and self.ready.search(tail[-1]):
            return StartupOutcome(StartupState.READY, "its screen matches ready_pattern", tail)
        detection = look.detection
        if detection.state is DetectionState.IDLE:
            return StartupOutcome(StartupState.READY, "it shows its input", tail)
        prompt = detection.prompt if detection.state is DetectionState.PROMPT else None
        if not self.typed:
            if detection.state is DetectionState.BUSY:
                return StartupOutcome(StartupState.READY, "it is busy", tail)
            if prompt is not None and prompt.kind not in _STARTUP_DIALOGS:
                detail = f"it asks: {_describe(prompt)} (see `paw prompts`)"
                return StartupOutcome(StartupState.READY, detail, tail, prompt=prompt)
        if prompt is not None:
            if self._settled(f"prompt {prompt.fingerprint}", look.at):
                detail = f"it shows a dialog: {_describe(prompt)}"
                return StartupOutcome(StartupState.WAITING, detail, tail, prompt=prompt)
            return None
        if not self.has_detector and self.ready is None and tail:
            if self._settled(f"screen {look.text}", look.at):
                return StartupOutcome(StartupState.READY, "its screen settled", tail)
            return None
        self._steady = None
        return None

    def give_up(self, last: Look | None, waited: float) -> StartupOutcome:
        """The outcome when the budget ran out after ``waited`` seconds; ``last`` is the last
        look (None when there was none)."""
        if last is None:
            return StartupOutcome(StartupState.STARTING, f"no look at its pane in {waited:.0f}s")
        tail = screen_tail(last.text)
        if last.detection.state is DetectionState.BUSY:
            return StartupOutcome(StartupState.STARTING, f"still busy after {waited:.0f}s", tail)
        if last.detection.prompt is not None:
            detail = f"it shows a dialog: {_describe(last.detection.prompt)}"
            return StartupOutcome(StartupState.WAITING, detail, tail, prompt=last.detection.prompt)
        if not tail:
            return StartupOutcome(
                StartupState.WAITING, f"its screen stayed blank for {waited:.0f}s"
            )
        if self.ready is not None:
            detail = f"ready_pattern did not match its last line within {waited:.0f}s"
        elif self.has_detector:
            detail = f"it shows a screen paw does not recognise (after {waited:.0f}s)"
        else:
            detail = f"its screen kept changing for {waited:.0f}s"
        return StartupOutcome(StartupState.WAITING, detail, tail)

    def _settled(self, key: str, at: float) -> bool:
        if self._steady is None or self._steady[0] != key:
            self._steady = (key, at)
            return False
        return at - self._steady[1] >= self.settle_s


def _describe(prompt: Prompt) -> str:
    subject = f" ({prompt.subject})" if prompt.subject else ""
    question = " ".join(prompt.question.split()) or prompt.kind.value
    return f"{question}{subject}"
