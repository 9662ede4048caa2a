"""The one typing path over fakes: the echo wait, its budget, the proof before the Enter, the
records. The same rules on real tmux: tests/supervisor/test_typing_proof.py."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from paw.core.ports import PaneCapture
from paw.core.typed_text import control_problem, echo_shown, one_line
from paw.errors import TypingRefused
from paw.supervisor.keyboard import ECHO_TIMEOUT_S, POLL_S, SETTLE_S
from tests.support.supervision import (
    IDLE_SCREEN,
    Rig,
    demo_proc,
    demo_screen,
    make_rig,
    spawn_demo,
    with_ports,
)

TEXT = "fix the flaky test in the parser module"


def typing_rig(
    lag: int, *, cost: float = 0.0, after_echo: Callable[[str], str] | None = None
) -> tuple[Rig, str, list[str]]:
    """A rig whose idle demo agent echoes typed text only ``lag`` captures after it was typed
    (a busy agent redrawing its input); each capture costs ``cost`` seconds of the clock;
    ``after_echo`` changes the screen once the echo was seen (someone else acts)."""
    rig = make_rig()
    pane = spawn_demo(rig, "alice", IDLE_SCREEN)
    events: list[str] = []
    terminal = rig.terminal
    typed: list[str] = []
    since = [0]
    real_sweep = terminal.sweep

    def send_text(pane_id: str, text: str) -> None:
        del pane_id
        events.append(f"text:{text}")
        typed.append(text)

    def sweep(pane_ids: Sequence[str], *, ansi: bool = False) -> list[PaneCapture]:
        rig.now[0] += cost
        if typed:
            since[0] += 1
            if since[0] == lag + 1:
                terminal.panes[pane].screen = IDLE_SCREEN.rstrip("\n") + typed[0] + "\n"
                events.append("capture:echo")
            elif since[0] > lag + 1 and after_echo is not None:
                terminal.panes[pane].screen = after_echo(terminal.panes[pane].screen)
            else:
                events.append("capture:" + ("blank" if since[0] <= lag else "echo"))
        return real_sweep(pane_ids, ansi=ansi)

    def send_keys(pane_id: str, keys: Sequence[str]) -> None:
        events.append("keys:" + " ".join(keys))
        terminal.sent.append((pane_id, tuple(keys)))

    terminal.send_text = send_text  # type: ignore[method-assign]
    terminal.sweep = sweep  # type: ignore[method-assign]
    terminal.send_keys = send_keys  # type: ignore[method-assign]
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        rig.now[0] += seconds

    with_ports(rig.sup, sleep=sleep)
    return rig, pane, events


def sends(rig: Rig) -> list[dict[str, object]]:
    return [r for r in rig.audit.records if r["event"] in ("send", "outcome")]


def test_enter_only_after_the_echo_and_the_outcome_recorded_after_it() -> None:
    rig, _, events = typing_rig(lag=3)
    rig.sup.send("alice", TEXT)
    assert events[0] == f"text:{TEXT}"
    assert events[-1] == "keys:Enter"
    assert events.count("capture:blank") == 3
    assert [(r["event"], r.get("text"), r.get("outcome")) for r in sends(rig)] == [
        ("send", TEXT, None),
        ("outcome", None, "sent"),
    ]


def test_an_echo_that_never_comes_is_refused_and_no_enter_follows() -> None:
    rig, _, events = typing_rig(lag=10_000)
    with pytest.raises(TypingRefused) as refused:
        rig.sup.send("alice", "hello")
    assert (refused.value.reason, refused.value.typed) == ("echo-missing", True)
    assert "keys:Enter" not in events
    assert rig.terminal.sent == []
    assert [(r["event"], r.get("outcome"), r.get("refusal")) for r in sends(rig)] == [
        ("send", None, None),
        ("outcome", "refused", "echo-missing"),
    ]


def test_the_echo_wait_counts_the_time_captures_take() -> None:
    """Under load a capture can take longer than the poll interval: the budget is wall-clock
    time, so slow captures end the wait after ECHO_TIMEOUT_S, not after N sleeps."""
    rig, _, events = typing_rig(lag=10_000, cost=1.0)
    with pytest.raises(TypingRefused):
        rig.sup.send("alice", "hello")
    waited = events.count("capture:blank")
    assert waited == pytest.approx(ECHO_TIMEOUT_S / (1.0 + POLL_S), abs=2)


def test_a_slow_echo_within_the_budget_is_still_awaited() -> None:
    """An echo that takes several seconds (a loaded machine) is waited for."""
    rig, _, events = typing_rig(lag=60)  # 60 captures x 0.05 s = 3 s
    rig.sup.send("alice", "hello")
    assert events[-1] == "keys:Enter"
    assert SETTLE_S > 0


def test_an_echo_drawn_tens_of_seconds_late_is_still_awaited() -> None:
    """opencode on a loaded two-core machine drew a wave's typed follow-up about 40 s after
    its keys arrived (recorded live): a budget of a few seconds refused it as lost while it
    was on its way, and the text then sat in the input with no Enter."""
    rig, _, events = typing_rig(lag=45, cost=1.0)  # 45 captures of 1 s each, and the polls
    rig.sup.send("alice", "hello")
    assert events.count("capture:blank") == 45
    assert events[-1] == "keys:Enter"


def test_a_prompt_drawn_after_the_echo_gets_no_enter() -> None:
    rig, _, events = typing_rig(lag=0, after_echo=lambda _s: demo_screen("shell", "rm -rf ~"))
    with pytest.raises(TypingRefused) as refused:
        rig.sup.send("alice", "hello")
    assert (refused.value.reason, refused.value.typed) == ("not-idle", True)
    assert "keys:Enter" not in events


def test_keys_typed_by_someone_else_before_the_enter_get_no_enter() -> None:
    rig, _, events = typing_rig(lag=0, after_echo=lambda s: s.rstrip("\n") + " --force\n")
    with pytest.raises(TypingRefused) as refused:
        rig.sup.send("alice", "git push origin main")
    assert (refused.value.reason, refused.value.typed) == ("changed-before-enter", True)
    assert "keys:Enter" not in events


def test_nothing_is_typed_into_a_prompt_a_dialog_or_a_line_in_progress() -> None:
    for screen, code in (
        (demo_screen("shell", "ls"), "not-idle"),
        (demo_screen("question", "Which table should I drop?"), "not-idle"),
        (IDLE_SCREEN.rstrip("\n") + "git push --force origin ma\n", "input-not-empty"),
        ("paw demo agent\nsomething paw does not know\n", "not-idle"),
    ):
        rig = make_rig()
        spawn_demo(rig, "alice", screen)
        with pytest.raises(TypingRefused) as refused:
            rig.sup.send("alice", "1 please")
        assert (refused.value.reason, refused.value.typed) == (code, False)
        assert (rig.terminal.typed, rig.terminal.sent) == ([], [])
        [record] = [r for r in rig.audit.records if r["event"] == "send"]
        assert (record["decision"], record["refusal"]) == ("refuse", code)


def test_typed_text_is_one_line_of_text() -> None:
    assert one_line("a\n/run x\r\nb\u2028c\td") == "a /run x b c d"
    assert control_problem("ok \u00e9\u4e2d") is None
    for key in ("\x1b", "\x03", "\x7f", "\x9b", "\x00"):
        assert control_problem(f"a{key}b") is not None
    assert echo_shown("please update the\ndocs", "please update the docs")
    assert not echo_shown("xplease update the docs", "please update the docs")
    assert echo_shown(
        "in short, bring the update of the docs", "please, in short, bring the update of the docs"
    )
    assert not echo_shown("docs", "please update the docs")


def test_an_agent_restarted_in_its_pane_before_the_enter_gets_no_enter() -> None:
    rig, _, events = typing_rig(lag=0)
    settle = rig.sup.ctx.sleep

    def sleep(seconds: float) -> None:  # the agent restarts while paw lets the echo settle
        if seconds == SETTLE_S:
            [pid] = rig.procs.trees_by_root
            rig.procs.trees_by_root[pid] = [demo_proc(pid, create_time=999.0)]
        settle(seconds)

    with_ports(rig.sup, sleep=sleep)
    with pytest.raises(TypingRefused) as refused:
        rig.sup.send("alice", "hello")
    assert (refused.value.reason, refused.value.typed) == ("not-running", True)
    assert "keys:Enter" not in events
