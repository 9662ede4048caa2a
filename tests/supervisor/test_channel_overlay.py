"""What a fused channel does to the detection sweeps and approvals see (pure part)."""

from __future__ import annotations

from paw.core.approval import Facts, verify_live
from paw.core.channels.fuse import fuse, source_label, source_text
from paw.core.channels.request import ChannelRequest, ChannelState
from paw.core.detect.prompts import WRAP_NOTE
from paw.core.models import Detection, DetectionState, Prompt, PromptKind
from paw.supervisor.channels import apply_fusion, bridged
from paw.supervisor.model import only_in_the_pane

WRAP = WRAP_NOTE.split(":", 1)[0] + ": joined"
EXACT = "touch a.txt && echo " + "word " * 20


def _req(subject: str = EXACT, state: ChannelState = ChannelState.PENDING) -> ChannelRequest:
    return ChannelRequest(
        agent="a", source="claude-hook", request_id="r1", tool="Bash", kind=PromptKind.SHELL,
        subject=subject, state=state, can_answer=True,
    )  # fmt: skip


def _screen(subject: str) -> Detection:
    prompt = Prompt(PromptKind.SHELL, subject, "Do you want to proceed?", ("1",), ("Escape",), "fp")
    return Detection(DetectionState.PROMPT, "claude-code", prompt, (WRAP,))


def test_agree_carries_the_exact_input_and_keeps_the_screens_fingerprint() -> None:
    shown = apply_fusion(fuse(_screen(EXACT[:60] + "\n" + EXACT[60:]), [_req()]))
    assert shown.prompt is not None
    assert (shown.prompt.subject, shown.prompt.fingerprint) == (EXACT, "fp")
    assert shown.notes == ("channel: agree r1",)  # the wrap note is gone


def test_disagree_withholds_the_subject_and_shows_both() -> None:
    shown = apply_fusion(fuse(_screen("ls -la"), [_req("rm -rf ~")]))
    assert shown.prompt is not None
    assert shown.prompt.subject is None
    assert "rm -rf ~" in shown.prompt.question
    assert "ls -la" in shown.prompt.question
    assert shown.prompt.fingerprint == "fp+channel-disagree:r1"
    assert shown.notes[-1].startswith("channel: disagree r1")


def test_channel_only_is_a_prompt_without_keys() -> None:
    idle = Detection(DetectionState.UNKNOWN, "claude-code")
    shown = apply_fusion(fuse(idle, [_req()]))
    assert shown.state is DetectionState.PROMPT
    assert shown.prompt is not None
    assert (shown.prompt.subject, shown.prompt.approve_keys) == (EXACT, ())
    assert shown.prompt.fingerprint == "channel:claude-hook:r1"


def test_answered_reads_busy_and_screen_only_is_marked() -> None:
    answered = apply_fusion(fuse(_screen(EXACT), [_req(state=ChannelState.RESOLVED)]))
    assert (answered.state, answered.prompt) == (DetectionState.BUSY, None)
    silent = apply_fusion(fuse(_screen(EXACT), []))
    assert silent.notes[-1] == "channel: silent (the channel said nothing)"


def _listed_from_channel_alone() -> str:
    """The fingerprint a sweep listed before the screen drew the dialog (channel-only)."""
    listed = apply_fusion(fuse(Detection(DetectionState.IDLE, "opencode"), [_req()]))
    assert listed.prompt is not None
    return listed.prompt.fingerprint


def test_a_prompt_listed_from_the_channel_alone_is_proven_once_the_screen_agrees() -> None:
    """opencode's server tells paw before its TUI draws the dialog: the prompt is listed from
    the channel, then the screen agrees with the same request. One request (its id), not a
    changed prompt; another request, or a screen-listed prompt, keeps the proof as it is."""
    agreed = apply_fusion(fuse(_screen(EXACT), [_req()]))
    tag = agreed.notes[-1]
    facts = Facts(_listed_from_channel_alone(), True, True, agreed)
    assert verify_live(facts) is not None  # the fingerprints differ
    same = bridged(facts, tag)
    assert same is not None
    assert verify_live(same) is None
    assert bridged(facts, tag.replace("r1", "r2")) is None  # another request
    assert bridged(Facts("fp0", True, True, agreed), tag) is None  # listed from the screen
    disagreed = apply_fusion(fuse(_screen("ls -la"), [_req()]))
    assert bridged(Facts(facts.fingerprint, True, True, disagreed), disagreed.notes[-1]) is None
    gone = Facts(facts.fingerprint, True, False, agreed)  # the agent process changed
    still = bridged(gone, tag)
    assert still is not None
    assert verify_live(still) is not None


def test_every_fusion_says_where_its_prompt_came_from() -> None:
    """The detection a fusion yields carries its source for ``paw prompts`` and the TUI: the
    fusion's name, the request id and both subjects (issue 32)."""
    agree = apply_fusion(fuse(_screen(EXACT[:60] + "\n" + EXACT[60:]), [_req()])).source
    assert (agree.name, agree.request_id, agree.channel_subject) == ("agree", "r1", EXACT)
    disagree = apply_fusion(fuse(_screen("ls -la"), [_req("rm -rf ~")])).source
    assert (disagree.name, disagree.channel_subject, disagree.screen_subject) == (
        "disagree", "rm -rf ~", "ls -la",
    )  # fmt: skip
    assert "rm -rf ~" in source_text(disagree)
    assert "ls -la" in source_text(disagree)
    assert source_label(disagree) == "DISAGREE"
    only = apply_fusion(fuse(Detection(DetectionState.UNKNOWN, "claude-code"), [_req()])).source
    assert (only.name, only.channel_subject, only.screen_subject) == ("channel-only", EXACT, None)
    silent = apply_fusion(fuse(_screen("ls"), [])).source
    assert (silent.name, silent.request_id, silent.screen_subject) == ("screen-only", None, "ls")
    assert _screen("ls").source.name == "screen"  # no channel: as before
    assert source_text(_screen("ls").source) == ""


def test_a_tool_request_the_channel_carries_is_a_prompt_a_trust_or_question_the_panes() -> None:
    """Everything that says "a dialog only a human can answer" (the agent's status, `paw
    prompts`, the wave's routing, the TUI, the lander's messages) asks the one question:
    a channel-made request lacks keys because paw answers it through the channel."""
    idle = Detection(DetectionState.UNKNOWN, "claude-code")
    only = apply_fusion(fuse(idle, [_req()]))
    assert only.prompt is not None
    assert only.prompt.needs_human  # no keys of its own…
    assert not only_in_the_pane(only.prompt, only.source)  # …answered through the channel
    agree = apply_fusion(fuse(_screen(EXACT), [_req()]))
    assert agree.prompt is not None
    assert not only_in_the_pane(agree.prompt, agree.source)
    asked = Prompt(PromptKind.QUESTION, None, "Which database?", ("1",), ("Escape",), "fq")
    question = apply_fusion(fuse(Detection(DetectionState.PROMPT, "claude-code", asked), []))
    assert question.prompt is not None
    assert only_in_the_pane(question.prompt, question.source)
    withheld = apply_fusion(fuse(_screen("ls -la"), [_req("rm -rf ~")]))
    assert withheld.prompt is not None
    assert withheld.prompt.subject is None  # (a disagreement: approve is refused on its own)
