"""Gemini CLI's observe-only notification channel, and the cut-subject prefix rule (issue 32):
the payload's shape, and what an observe-only claim may and may not do beside the screen.

An observe-only claim (no live process vouches for it) names the screen's prompt when the screen
draws a rendering of it (``observed``: the whole input as the subject, keys with the screen's
proof, the verdict never better than the screen shows it whole) and never stands alone; one that
names something else leaves the screen's prompt standing, judged no better than ``confirm``
(``disputed``). A cut screen subject that starts the channel's exact input agrees with it."""

from __future__ import annotations

import pytest

from paw.core.approval import evaluate_subject
from paw.core.channels import claude, gemini
from paw.core.channels.fuse import Fusion, claimed_sides, fuse, is_rendering, source_text
from paw.core.channels.request import ChannelRequest
from paw.core.config import GuardConfig
from paw.core.detect import UNKNOWN_DIALOG_NOTE
from paw.core.detect.prompts import WRAP_NOTE, incomplete_note
from paw.core.guard.shell import evaluate_command
from paw.core.models import Action, Detection, DetectionState, Prompt, PromptKind
from paw.supervisor.channels import apply_fusion

LONG = (
    "touch paw-long.txt && echo the quick brown fox jumps over the lazy dog and keeps on "
    "running across the long wide field until the evening comes"
)
CUT = incomplete_note("the dialog shows the command's first lines only")
EVENT = {
    "session_id": "s1",
    "transcript_path": "/t.json",
    "cwd": "/w",
    "hook_event_name": "Notification",
    "timestamp": "2026-12-05T00:00:00Z",
    "notification_type": "ToolPermission",
    "message": "Tool requires permission",
    "details": {"type": "exec", "title": "Shell", "command": LONG, "rootCommand": "touch, echo"},
}


def _claim(subject: str | None = LONG, rid: str = "g1", at: float = 1.0) -> ChannelRequest:
    return ChannelRequest(
        agent="a", source=gemini.SOURCE, request_id=rid, tool="exec", kind=PromptKind.SHELL,
        subject=subject, seen_at=at, observe_only=True,
    )  # fmt: skip


def _proven(subject: str = LONG) -> ChannelRequest:
    return ChannelRequest(
        agent="a", source="claude-hook", request_id="r1", tool="Bash", kind=PromptKind.SHELL,
        subject=subject, can_answer=True,
    )  # fmt: skip


def _screen(
    subject: str | None, notes: tuple[str, ...] = (), kind: PromptKind = PromptKind.SHELL
) -> Detection:
    prompt = Prompt(kind, subject, "Allow execution?", ("Enter",), ("Escape",), "fp")
    return Detection(DetectionState.PROMPT, "gemini-cli", prompt, notes)


def _verdict(detection: Detection) -> Action:
    assert detection.prompt is not None
    return evaluate_subject(
        detection.prompt, worktree="/w", config=GuardConfig(), mcp_allowed=(),
        shell=evaluate_command, notes=detection.notes, also=claimed_sides(detection.source),
    ).action  # fmt: skip


# --- the payload ------------------------------------------------------------------------------


def test_a_tool_permission_notification_becomes_a_record_of_its_exact_input() -> None:
    assert gemini.is_tool_permission(EVENT)
    assert not gemini.is_tool_permission({**EVENT, "notification_type": "Idle"})
    assert not gemini.is_tool_permission({**EVENT, "hook_event_name": "BeforeTool"})
    assert not gemini.is_tool_permission({**EVENT, "details": "exec"})
    event = gemini.as_tool_event(EVENT)
    record = claude.make_record(
        secret=b"k" * 32, source=gemini.SOURCE, agent="a", spawn="t", request_id="g1",
        event=event, hook_pid=4242, written_at=5.0,
    )  # fmt: skip
    parsed = claude.parse_record(
        record, secret=b"k" * 32, agent="a", spawn="t", request_id="g1", seen_at=5.0,
        source=gemini.SOURCE, classify=gemini.classify_tool,
    )  # fmt: skip
    assert isinstance(parsed, ChannelRequest)
    assert (parsed.kind, parsed.subject, parsed.tool) == (PromptKind.SHELL, LONG, "exec")
    # a Qwen or Claude record of the same spawn is not a Gemini one
    other = claude.parse_record(
        record, secret=b"k" * 32, agent="a", spawn="t", request_id="g1", seen_at=5.0,
    )  # fmt: skip
    assert isinstance(other, str)


@pytest.mark.parametrize(
    ("details", "kind", "subject"),
    [
        ({"type": "exec", "command": "ls -la"}, PromptKind.SHELL, "ls -la"),
        ({"type": "edit", "filePath": "/w/a.txt", "fileDiff": "+x"}, PromptKind.EDIT, "/w/a.txt"),
        ({"type": "mcp", "serverName": "s", "toolName": "t"}, PromptKind.MCP, "s t"),
        ({"type": "mcp", "toolName": "t"}, PromptKind.MCP, None),
        ({"type": "info", "urls": ["https://e.example/"]}, PromptKind.FETCH, "https://e.example/"),
        ({"type": "info", "urls": ["https://a.example/", "https://b.example/"]}, PromptKind.FETCH,
         None),
        ({"type": "exec", "command": ["ls"]}, PromptKind.SHELL, None),
        ({"type": "new"}, PromptKind.OTHER, None),
    ],
    ids=[
        "exec", "edit", "mcp", "mcp-no-server", "info", "info-two-urls", "exec-not-text",
        "unknown",
    ],
)  # fmt: skip
def test_details_classify(
    details: dict[str, object], kind: PromptKind, subject: str | None
) -> None:
    assert gemini.classify_tool(str(details["type"]), details) == (kind, subject)


def test_the_settings_hold_only_the_notification_hook_and_name_its_command() -> None:
    settings = gemini.render_settings("python -m paw.channel_hook D a t 0 gemini")
    assert settings["hooksConfig"] == {"enabled": True}
    assert list(settings["hooks"]) == ["Notification"]  # type: ignore[call-overload]
    assert gemini.hook_command(settings) == "python -m paw.channel_hook D a t 0 gemini"
    assert gemini.hook_command({"hooks": {"PermissionRequest": []}}) is None


# --- the prefix rule (every channel with a cross-check) ----------------------------------------


def test_a_cut_subject_that_starts_the_exact_input_agrees() -> None:
    shown = LONG[:50]
    assert is_rendering(shown, LONG, cut=True)
    assert not is_rendering(shown, LONG)  # not marked cut: a shorter command is another one
    assert not is_rendering("ls -la", LONG, cut=True)  # not its start
    assert not is_rendering(LONG[5:60], LONG, cut=True)
    fused = fuse(_screen(shown, (CUT,)), [_proven()])
    assert fused.fusion is Fusion.AGREE
    assert fused.judged is not None
    assert fused.judged.subject == LONG
    assert not any(n.startswith("subject incomplete") for n in fused.judged_notes)


def test_a_cut_subject_that_is_not_the_start_of_the_exact_input_disagrees() -> None:
    fused = fuse(_screen("rm -rf ~/proj", (CUT,)), [_proven("rm -rf ~/project-old")])
    assert fused.fusion is Fusion.AGREE  # its start: the channel supplies the whole
    fused = fuse(_screen("ls -la ~/proj", (CUT,)), [_proven("rm -rf ~/project-old")])
    assert fused.fusion is Fusion.DISAGREE
    assert fuse(_screen(LONG[:50]), [_proven()]).fusion is Fusion.DISAGREE  # not marked cut


# --- observe-only claims -----------------------------------------------------------------------


def test_a_claim_alone_lists_nothing() -> None:
    idle = Detection(DetectionState.IDLE, "gemini-cli")
    assert fuse(idle, [_claim()]).fusion is Fusion.NONE
    assert apply_fusion(fuse(idle, [_claim()])).prompt is None


def test_a_wrapped_command_is_listed_whole_answered_by_keys_and_never_better_than_confirm() -> None:
    screen = _screen(LONG[:70] + "\n" + LONG[70:], (WRAP_NOTE,))
    fused = fuse(screen, [_claim()])
    assert fused.fusion is Fusion.OBSERVED
    assert (fused.keys_allowed, fused.channel_allowed) == (True, False)
    shown = apply_fusion(fused)
    assert shown.prompt is not None
    assert shown.prompt.subject == LONG
    assert shown.prompt.approve_keys == ("Enter",)
    assert shown.prompt.fingerprint == "fp+observed:g1"
    assert shown.notes[-1] == "channel: observed g1"
    assert _verdict(shown) is Action.CONFIRM  # the guard allows LONG; the claim is unproven
    assert (shown.source.name, shown.source.channel_subject) == ("observed", LONG)
    assert "cannot prove" in source_text(shown.source)


def test_a_cut_command_is_listed_whole_and_never_better_than_confirm() -> None:
    shown = apply_fusion(fuse(_screen(LONG[:40], (CUT,)), [_claim()]))
    assert shown.prompt is not None
    assert shown.prompt.subject == LONG
    assert shown.source.name == "observed"
    assert _verdict(shown) is Action.CONFIRM


def test_a_claim_the_screen_shows_whole_is_judged_as_the_screen() -> None:
    shown = apply_fusion(fuse(_screen("ls  -la"), [_claim("ls -la")]))
    assert shown.source.name == "observed"
    assert _verdict(shown) is Action.ALLOW
    # the exact input's findings apply: a cut screen never hides what the claim says it runs
    worse = apply_fusion(fuse(_screen("git push", (CUT,)), [_claim("git push --force origin")]))
    assert worse.prompt is not None
    assert worse.prompt.subject == "git push --force origin"
    assert _verdict(worse) is not Action.ALLOW
    # and a claim never hides what the screen draws: what the cut screen alone blocks stays so
    cut = apply_fusion(fuse(_screen("rm -rf /", (CUT,)), [_claim("rm -rf /tmp/build-cache")]))
    assert cut.source.name == "observed"
    assert _verdict(cut) is Action.BLOCK


def test_a_claim_that_disagrees_leaves_the_screens_prompt_judged_no_better_than_confirm() -> None:
    fused = fuse(_screen("ls -la"), [_claim("ls -la /etc")])
    assert fused.fusion is Fusion.DISPUTED
    assert (fused.keys_allowed, fused.rules_allowed, fused.channel_allowed) == (True, False, False)
    shown = apply_fusion(fused)
    assert shown.prompt is not None
    assert shown.prompt.subject == "ls -la"  # the screen's proof stands, not the claim
    assert shown.prompt.fingerprint == "fp+disputed:g1"
    assert shown.notes[-1].startswith("channel: disputed g1: ")
    assert _verdict(shown) is Action.CONFIRM
    assert (shown.source.channel_subject, shown.source.screen_subject) == ("ls -la /etc", "ls -la")
    assert "ls -la /etc" in source_text(shown.source)
    # a screen the guard blocks stays blocked whatever the claim says, and so does a screen
    # repainted to hide what the claim says runs (the claim cannot make a verdict looser)
    blocked = apply_fusion(fuse(_screen("rm -rf /"), [_claim("ls")]))
    assert _verdict(blocked) is Action.BLOCK
    repainted = apply_fusion(fuse(_screen("ls -la"), [_claim("rm -rf /")]))
    assert _verdict(repainted) is Action.BLOCK


def test_a_stale_claim_beside_another_dialog_is_disputed() -> None:
    trust = _screen("/w", kind=PromptKind.TRUST)
    assert fuse(trust, [_claim()]).fusion is Fusion.DISPUTED
    unreadable = Detection(
        DetectionState.PROMPT, "gemini-cli",
        Prompt(PromptKind.OTHER, None, "?", (), (), "fp"), (UNKNOWN_DIALOG_NOTE,),
    )  # fmt: skip
    assert fuse(unreadable, [_claim()]).fusion is Fusion.DISPUTED


def test_the_latest_claim_names_the_prompt() -> None:
    claims = [_claim("ls -la", "new", at=9.0), _claim("rm -rf ~", "old", at=1.0)]
    fused = fuse(_screen("ls -la"), claims)
    assert fused.fusion is Fusion.OBSERVED
    assert fused.request is not None
    assert fused.request.request_id == "new"


def test_a_proven_channel_is_read_as_before_beside_an_observe_only_claim() -> None:
    fused = fuse(_screen(LONG[:70] + " " + LONG[70:], (WRAP_NOTE,)), [_proven(), _claim("ls")])
    assert fused.fusion is Fusion.AGREE
