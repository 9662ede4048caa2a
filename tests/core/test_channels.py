"""Claude's hook records and the fusion of a channel with the screen (pure)."""

from __future__ import annotations

import json

import pytest

from paw.core.channels import claude
from paw.core.channels.fuse import Fusion, fuse, is_rendering
from paw.core.channels.request import ChannelAnswer, ChannelRequest, ChannelState
from paw.core.detect import UNKNOWN_DIALOG_NOTE
from paw.core.detect.prompts import WRAP_NOTE, incomplete_note
from paw.core.models import Detection, DetectionState, Prompt, PromptKind

SECRET = b"s" * 32
LONG = "touch paw-long.txt && echo " + "word " * 30 + "&& ls -la"


def _event(tool: str = "Bash", **tool_input: object) -> dict[str, object]:
    return {
        "hook_event_name": "PermissionRequest",
        "tool_name": tool,
        "tool_input": tool_input or {"command": "ls -la"},
        "session_id": "sess",
    }


def _record(rid: str = "r1", **kw: object) -> dict[str, object]:
    args: dict[str, object] = {
        "secret": SECRET, "agent": "a", "spawn": "s", "request_id": rid,
        "event": _event(), "hook_pid": 1234, "written_at": 1.0,
    }  # fmt: skip
    args.update(kw)
    return claude.make_record(**args)  # type: ignore[arg-type]


def _parse(doc: object, **kw: object) -> ChannelRequest | str:
    args: dict[str, object] = {
        "secret": SECRET,
        "agent": "a",
        "spawn": "s",
        "request_id": "r1",
        "seen_at": 5.0,
    }
    args.update(kw)
    return claude.parse_record(doc, **args)  # type: ignore[arg-type]


def test_a_record_parses_to_the_exact_input() -> None:
    doc = json.loads(json.dumps(_record(event=_event(command=LONG))))
    req = _parse(doc)
    assert isinstance(req, ChannelRequest)
    assert (req.kind, req.subject, req.tool, req.can_answer) == (
        PromptKind.SHELL, LONG, "Bash", True
    )  # fmt: skip
    assert req.state is ChannelState.PENDING
    assert req.seen_at == 5.0


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"secret": b"x" * 32}, "signature"),  # another spawn's secret (another agent)
        ({"agent": "b"}, "names agent"),
        ({"spawn": "t"}, "names agent"),
        ({"request_id": "r2"}, "copy"),  # a replay under another name
    ],
)
def test_a_record_of_another_agent_spawn_or_name_is_refused(
    change: dict[str, object], why: str
) -> None:
    assert why in str(_parse(_record(), **change))


def test_a_tampered_record_is_refused() -> None:
    doc = _record()
    doc["tool_input"] = {"command": "rm -rf /"}
    assert "signature" in str(_parse(doc))
    assert _parse({"v": 99}) == "not a paw channel record"
    assert _parse("junk") == "not a paw channel record"


@pytest.mark.parametrize(
    ("tool", "tool_input", "kind", "subject"),
    [
        ("Bash", {"command": "ls"}, PromptKind.SHELL, "ls"),
        ("Edit", {"file_path": "/w/a.py"}, PromptKind.EDIT, "/w/a.py"),
        ("Write", {"file_path": "/w/b.py"}, PromptKind.WRITE, "/w/b.py"),
        ("WebFetch", {"url": "https://x"}, PromptKind.FETCH, "https://x"),
        ("mcp__srv__tool", {}, PromptKind.MCP, "mcp__srv__tool"),
        ("Bash", {"command": ""}, PromptKind.SHELL, None),
        ("Unknown", {"a": 1}, PromptKind.OTHER, None),
    ],
)
def test_tools_classify(
    tool: str, tool_input: dict[str, object], kind: PromptKind, subject: str | None
) -> None:
    assert claude.classify_tool(tool, tool_input) == (kind, subject)


def test_answers_bind_to_one_request() -> None:
    doc = claude.make_answer(SECRET, agent="a", spawn="s", request_id="r1", answer="allow")
    ok = {"secret": SECRET, "agent": "a", "spawn": "s", "request_id": "r1"}
    assert claude.parse_answer(doc, **ok) is ChannelAnswer.ALLOW  # type: ignore[arg-type]
    assert claude.parse_answer(doc, **{**ok, "request_id": "r2"}) is None  # type: ignore[arg-type]
    assert claude.parse_answer(doc, **{**ok, "secret": b"y"}) is None  # type: ignore[arg-type]
    forged = {**doc, "answer": "deny"}
    assert claude.parse_answer(forged, **ok) is None  # type: ignore[arg-type]
    always = claude.make_answer(SECRET, agent="a", spawn="s", request_id="r1", answer="always")
    assert claude.parse_answer(always, **ok) is None  # type: ignore[arg-type]


def test_decisions_render_as_claude_reads_them() -> None:
    allow = json.loads(claude.render_decision(ChannelAnswer.ALLOW))
    deny = json.loads(claude.render_decision(ChannelAnswer.DENY))
    assert allow["hookSpecificOutput"] == {
        "hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}
    }  # fmt: skip
    assert deny["hookSpecificOutput"]["decision"]["behavior"] == "deny"
    settings = claude.render_settings("cmd")
    hook = settings["hooks"]["PermissionRequest"][0]["hooks"][0]  # type: ignore[index]
    assert hook == {"type": "command", "command": "cmd", "timeout": claude.HOOK_TIMEOUT_S}
    assert claude.WAIT_S < claude.HOOK_TIMEOUT_S


# -- fusion -------------------------------------------------------------------------------------


def _req(subject: str | None = "ls -la", rid: str = "r1", **kw: object) -> ChannelRequest:
    args: dict[str, object] = {
        "agent": "a", "source": "claude-hook", "request_id": rid, "tool": "Bash",
        "kind": PromptKind.SHELL, "subject": subject, "can_answer": True,
    }  # fmt: skip
    args.update(kw)
    return ChannelRequest(**args)  # type: ignore[arg-type]


def _screen(
    subject: str | None = "ls -la", kind: PromptKind = PromptKind.SHELL, notes: tuple[str, ...] = ()
) -> Detection:
    prompt = Prompt(kind, subject, "Do you want to proceed?", ("1",), ("Escape",), "fp")
    return Detection(DetectionState.PROMPT, "claude-code", prompt, notes)


IDLE = Detection(DetectionState.IDLE, "claude-code")
UNKNOWN = Detection(DetectionState.UNKNOWN, "claude-code")


def test_agree_judges_the_channels_exact_input_without_the_wrap_note() -> None:
    wrapped = LONG[:70] + "\n" + LONG[70:]
    note = WRAP_NOTE.split(":", 1)[0] + ": joined"
    fused = fuse(_screen(wrapped, notes=(note,)), [_req(LONG)])
    assert fused.fusion is Fusion.AGREE
    assert fused.judged is not None
    assert fused.judged.subject == LONG
    assert fused.judged_notes == ()
    assert fused.keys_allowed
    assert fused.channel_allowed
    assert fused.rules_allowed


def test_a_dialog_the_detector_cannot_read_is_channel_only() -> None:
    """An unrecognised dialog at the live position (paw.core.detect.live_dialog) is a screen
    paw cannot read: the channel's request is listed, answerable through the channel only."""
    dialog = Prompt(PromptKind.OTHER, None, "a dialog", (), (), "fp", dialog=True)
    note = UNKNOWN_DIALOG_NOTE.format("a list of choices with a pointer")
    screen = Detection(DetectionState.PROMPT, "claude-code", dialog, (note,))
    fused = fuse(screen, [_req(LONG)])
    assert fused.fusion is Fusion.CHANNEL_ONLY
    assert fused.judged is not None
    assert fused.judged.subject == LONG
    assert not fused.keys_allowed
    assert fused.channel_allowed
    assert fuse(screen, []).fusion is Fusion.SCREEN_ONLY  # no channel: the dialog waits


def test_agree_on_a_cut_subject_judges_the_exact_input_without_the_incomplete_note() -> None:
    cut = LONG[:40] + "…"
    note = incomplete_note("the agent shortened it with an ellipsis")
    fused = fuse(_screen(cut, notes=(note,)), [_req(LONG)])
    assert fused.fusion is Fusion.AGREE
    assert fused.judged is not None
    assert fused.judged.subject == LONG
    assert fused.judged_notes == ()
    alone = fuse(_screen(cut, notes=(note,)), [])  # no channel: the screen's note stays
    assert alone.judged_notes == (note,)


def test_channel_only_never_allows_keys() -> None:
    for screen in (IDLE, UNKNOWN, Detection(DetectionState.BUSY, "claude-code")):
        fused = fuse(screen, [_req()])
        assert fused.fusion is Fusion.CHANNEL_ONLY
        assert not fused.keys_allowed
        assert fused.channel_allowed
        assert fused.judged is not None
        assert fused.judged.approve_keys == ()
    mute = fuse(IDLE, [_req(can_answer=False)])
    assert not mute.channel_allowed
    assert not mute.rules_allowed


def test_screen_only_is_todays_path_marked() -> None:
    fused = fuse(_screen(), [])
    assert fused.fusion is Fusion.SCREEN_ONLY
    assert fused.keys_allowed
    assert fused.reason == "the channel said nothing"
    assert fuse(IDLE, []).fusion is Fusion.NONE


@pytest.mark.parametrize(
    ("screen", "requests"),
    [
        (_screen("ls -la"), [_req("rm -rf ~")]),  # a repaint of a blocked prompt
        (_screen("ls -la", PromptKind.EDIT), [_req("ls -la")]),  # another kind
        (_screen(None), [_req("ls -la")]),  # only one names it
        (_screen("ls -la"), [_req("ls -la"), _req("ls -la", rid="r2")]),  # two claims
        (IDLE, [_req("ls"), _req("rm -rf ~", rid="r2")]),
        (_screen("ls -la", PromptKind.TRUST), [_req("ls -la", kind=PromptKind.TRUST)]),
    ],
)
def test_disagreement_allows_neither_keys_nor_rules(
    screen: Detection, requests: list[ChannelRequest]
) -> None:
    fused = fuse(screen, requests)
    assert fused.fusion is Fusion.DISAGREE
    assert not (fused.keys_allowed)
    assert not (fused.channel_allowed)
    assert not (fused.rules_allowed)
    assert fused.judged is None


def test_an_answered_request_makes_a_lingering_dialog_unanswerable() -> None:
    fused = fuse(_screen(), [_req(state=ChannelState.RESOLVED)])
    assert fused.fusion is Fusion.ANSWERED
    assert not (fused.keys_allowed)
    assert not (fused.channel_allowed)
    assert not (fused.rules_allowed)


def test_timed_out_requests_leave_the_screen_path() -> None:
    assert fuse(_screen(), [_req(state=ChannelState.TIMED_OUT)]).fusion is Fusion.SCREEN_ONLY


@pytest.mark.parametrize(
    ("shown", "exact", "path", "ok"),
    [
        ("ls -la", "ls -la", False, True),
        ("touch a.txt &&\n echo b", "touch a.txt && echo b", False, True),
        ("touch a.txt && echo …", "touch a.txt && echo bbbb", False, True),
        ("touch a…echo bbbb", "touch a.txt && echo bbbb", False, True),
        ("touch a…echo cccc", "touch a.txt && echo bbbb", False, False),
        ("ls", "ls -la", False, False),  # a prefix without a mark is not a rendering
        ("echo b", "touch a.txt && echo b", False, False),
        ("src/a.py", "/w/src/a.py", True, True),
        ("a.py", "/w/src/ba.py", True, False),
        ("…", "anything", False, False),
        ("", "", False, False),
    ],
)
def test_renderings(shown: str, exact: str, path: bool, ok: bool) -> None:
    assert is_rendering(shown, exact, path=path) is ok
