"""Typing text into an agent's input: the only place paw types free text (``paw send``, a typed
task, a wave's follow-up), held to the same proof as an approval.

Order: fold the text to one line (a line break would submit what precedes it and hand the rest
to the agent as a command of its own) and refuse control characters; under the agent's typing
lock, prove the agent can take text — its own pane, the process paw launched, and a fresh
capture that its detector reads as idle or busy with an EMPTY input line (a prompt, a dialog,
a screen it cannot read, an input it cannot read or that already holds text: refused); record
the send (fsync) BEFORE typing; type; wait for the echo in the input line (never there: the
text went somewhere else, so no Enter, ever); prove it all again on a fresh capture, the input
holding exactly the typed text; press Enter; record the outcome. Every refusal is recorded and
raised as :class:`~paw.errors.TypingRefused` with a ``reason`` code a caller can act on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

from paw.core.detect.options import ENTER
from paw.core.models import Detection, DetectionState
from paw.core.typed_text import control_problem, echo_shown, one_line, pattern_input, squeeze
from paw.errors import PawError, TypingRefused
from paw.supervisor.observe import agent_process, detect_text, explain, pane_for
from paw.supervisor.waiting import poll

if TYPE_CHECKING:
    from paw.supervisor.context import Context
    from paw.supervisor.records import AgentRecord

# Wall clock: how long the typed text may take to show before Enter. opencode on a loaded
# two-core machine drew a typed follow-up about 40 s after its keys arrived; a shorter budget
# refused it as lost while it was on its way (no Enter, and the text then sat in the input).
ECHO_TIMEOUT_S = 90.0
POLL_S = 0.05
SETTLE_S = 0.15  # after the echo: longer than a terminal's paste-detection window
# A capture may land mid-redraw (agents that redraw on every tick of a timer): a screen or an
# input that cannot be read is looked at again this many times before paw refuses.
TORN_FRAME_RETRIES = 3
TORN_FRAME_INTERVAL_S = 0.1
TYPABLE = frozenset({DetectionState.IDLE, DetectionState.BUSY})


def typing_lock(agent: str) -> str:
    """The lock two paw processes typing into one agent take in turn (texts never mix)."""
    return f"typing-{agent}"


def type_text(ctx: Context, agent: AgentRecord, text: str, *, via: str = "send") -> str:
    """Type ``text`` into ``agent``'s input and press Enter, only as the module says; return
    the line typed (``text`` folded to one line). Raises :class:`TypingRefused` otherwise.
    ``via`` names the caller in the audit (``send``, ``task``, ``followup``)."""
    line = one_line(text)
    problem = control_problem(line)
    if problem is not None:
        _refuse(ctx, agent, None, via, "control-character",
                f"text for agent {agent.name!r} was not typed: {problem}")  # fmt: skip
    if not squeeze(line):
        _refuse(ctx, agent, None, via, "empty", f"no text to type into {agent.name!r}")
    with ctx.state.lock(typing_lock(agent.name)):
        pane_id, proc = _prove(ctx, agent, line, via, typed=False)
        ctx.record("send", agent=agent.name, pane=pane_id, text=line, via=via)
        ctx.fault("send:recorded")
        try:
            ctx.terminal.send_text(pane_id, line)
        except PawError as err:
            _outcome(ctx, agent, pane_id, via, "send-failed", error=err.message)
            raise
        ctx.fault("send:typed")
        _await_echo(ctx, agent, pane_id, line, via)
        ctx.sleep(SETTLE_S)
        _prove(ctx, agent, line, via, typed=True, same=(pane_id, proc))
        try:
            ctx.terminal.send_keys(pane_id, (ENTER,))
        except PawError as err:
            _outcome(ctx, agent, pane_id, via, "enter-failed", error=err.message)
            raise
        _outcome(ctx, agent, pane_id, via, "sent")
    return line


def _prove(
    ctx: Context,
    agent: AgentRecord,
    line: str,
    via: str,
    *,
    typed: bool,
    same: tuple[str, tuple[int, float]] | None = None,
) -> tuple[str, tuple[int, float]]:
    """The agent's pane id and process (pid, start time) when everything holds (before
    typing: an empty input; before the Enter: the input holds ``line``, in the ``same`` pane
    and process as before typing); else record and raise the refusal."""
    pane = pane_for(ctx, agent, ctx.terminal.list_panes(None))
    if pane is None or pane.dead:
        gone = f"agent {agent.name!r} is not running (its pane is gone)"
        _refuse(ctx, agent, None, via, "no-pane", gone, typed=typed)
    proc = agent_process(ctx, agent, pane)
    identity = (proc.pid, proc.create_time) if proc is not None else None
    if identity is None or (same is not None and (pane.pane_id, identity) != same):
        ended = f"agent {agent.name!r} is not running in its pane any more"
        if identity is None:  # say why the proof failed (a flake is then a finding)
            ended += f" ({explain(ctx, agent, pane)['why']})"
        _refuse(ctx, agent, pane.pane_id, via, "not-running", ended, typed=typed)
    for attempt in range(TORN_FRAME_RETRIES + 1):
        detection, content = _look(ctx, agent, pane.pane_id)
        if detection.state is DetectionState.PROMPT or (
            detection.state in TYPABLE and content is not None
        ):
            break
        if attempt < TORN_FRAME_RETRIES:
            ctx.sleep(TORN_FRAME_INTERVAL_S)
    profile = ctx.profile(agent.kind)
    if content is None and not profile.has_detector:
        _refuse(
            ctx, agent, pane.pane_id, via, "input-unreadable",
            f"paw cannot read agent {agent.name!r}'s input: {agent.kind} has no detector"
            + (" and its last line does not match ready_pattern" if profile.ready_pattern else ""),
            hint=(
                f"set ready_pattern under [agents.{agent.kind}] in paw.toml to its input "
                "prompt (paw reads the input line after it), or type it yourself: "
                f"`paw attach {agent.name}`"
            ),
            typed=typed,
        )  # fmt: skip
    refusal = _judge(agent, detection, content, line, typed=typed)
    if refusal is not None:
        code, message, hint = refusal
        _refuse(ctx, agent, pane.pane_id, via, code, message, hint=hint, typed=typed)
    return pane.pane_id, identity


def _look(ctx: Context, agent: AgentRecord, pane_id: str) -> tuple[Detection, str | None]:
    """A fresh capture of the pane: what the detector reads, and what the input line holds."""
    captures = ctx.terminal.sweep([pane_id], ansi=True)
    text = captures[0].text if captures else None
    detection = detect_text(ctx, agent, text)
    profile = ctx.profile(agent.kind)
    if text is not None and not profile.has_detector and profile.ready_pattern:
        # No detector reads it: its ready_pattern on the last line is its input, else unknown.
        content = pattern_input(text, profile.ready_pattern)
        if content is not None:
            return Detection(DetectionState.IDLE, profile.detector_id), content
    if text is None or detection.state not in TYPABLE:
        return detection, None
    return detection, ctx.read_input(text, profile.detector_id)


def _judge(
    agent: AgentRecord, detection: Detection, content: str | None, line: str, *, typed: bool
) -> tuple[str, str, str | None] | None:
    """Why the pane cannot take text (or, ``typed``, its Enter) now: (code, message, hint)."""
    name = agent.name
    if detection.state is DetectionState.PROMPT:
        prompt = detection.prompt
        if prompt is not None and prompt.needs_human:
            what = f"waits on a dialog only you can answer ({prompt.question})"
        else:
            what = "shows a permission prompt; text could answer it"
        return (
            "not-idle",
            f"agent {name!r} {what}",
            (
                "answer it first (`paw prompts`, then `paw approve ID` or `paw deny ID`; "
                f"a dialog in `paw attach {name}`)"
            ),
        )
    if detection.state not in TYPABLE:
        notes = "; ".join(detection.notes)
        return (
            "not-idle",
            (
                f"agent {name!r} shows a screen paw cannot read"
                + (f" ({notes})" if notes else "")
                + "; text could answer a dialog there"
            ),
            f"look at it with `paw attach {name}`; a pane under 60 columns may be too narrow",
        )
    if content is None:
        return (
            "input-unreadable",
            (
                f"paw cannot read agent {name!r}'s input line ({agent.kind}): it types only into "
                "an input it can read"
            ),
            f"type it yourself: `paw attach {name}`",
        )
    if not typed and content:
        return (
            "input-not-empty",
            (
                f"agent {name!r}'s input line already holds text ({content[:60]!r}): someone is "
                "typing there; paw would submit it with its own"
            ),
            f"finish or clear that line in `paw attach {name}`, then send again",
        )
    if typed and not echo_shown(content, line):
        return (
            "changed-before-enter",
            (
                f"agent {name!r}'s input changed before the Enter (it holds {content[:60]!r}); "
                "the text was typed but not submitted"
            ),
            f"look at it with `paw attach {name}`",
        )
    return None


def _await_echo(ctx: Context, agent: AgentRecord, pane_id: str, line: str, via: str) -> None:
    """Wait until the input line shows ``line``. A prompt drawn meanwhile, or no echo within
    :data:`ECHO_TIMEOUT_S`, is refused: the text went somewhere else, no Enter may follow.

    Some agents (codex) read a burst of text followed at once by Enter as a paste and keep
    the Enter as a newline in their input; an Enter sent after the echo submits the line."""
    last: list[tuple[Detection, str | None]] = []

    def echoed() -> bool | None:
        seen = _look(ctx, agent, pane_id)
        last[:] = [seen]
        if seen[0].state is DetectionState.PROMPT:
            return False
        return True if echo_shown(seen[1], line) else None

    shown = poll(ctx, ECHO_TIMEOUT_S, POLL_S, echoed)
    if shown:
        return
    detection, content = last[0] if last else (None, None)
    if detection is not None and detection.state is DetectionState.PROMPT:
        refusal = _judge(agent, detection, content, line, typed=True)
        if refusal is not None:
            code, message, hint = refusal
            _refuse(ctx, agent, pane_id, via, code, message + "; no Enter was pressed",
                    hint=hint, typed=True)  # fmt: skip
    seen = "nothing readable" if content is None else repr(content[:60])
    _refuse(
        ctx, agent, pane_id, via, "echo-missing",
        f"the text typed into agent {agent.name!r} never showed in its input line (it shows "
        f"{seen} after {ECHO_TIMEOUT_S:.0f}s): it may have gone into something else; "
        "no Enter was pressed",
        hint=f"look at it with `paw attach {agent.name}`", typed=True,
    )  # fmt: skip


def _outcome(
    ctx: Context, agent: AgentRecord, pane_id: str, via: str, outcome: str, **more: object
) -> None:
    ctx.record("outcome", action="send", outcome=outcome, agent=agent.name, pane=pane_id,
               via=via, **more)  # fmt: skip


def _refuse(
    ctx: Context,
    agent: AgentRecord,
    pane_id: str | None,
    via: str,
    code: str,
    message: str,
    *,
    hint: str | None = None,
    typed: bool = False,
) -> NoReturn:
    """Record the refusal, then raise it."""
    if typed:
        _outcome(ctx, agent, pane_id or "", via, "refused", refusal=code, reason=message)
    else:
        ctx.record("send", decision="refuse", reason=message, refusal=code, agent=agent.name,
                   pane=pane_id, via=via)  # fmt: skip
    raise TypingRefused(message, reason=code, hint=hint, typed=typed)
