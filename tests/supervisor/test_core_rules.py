"""Pure pieces of the supervisor: names, agent resolution, prompt ids, approval plans, config."""

from __future__ import annotations

from typing import NamedTuple

import pytest
from pydantic import ValidationError

from paw.core.agents import (
    BUILTIN_PROFILES,
    known_kinds,
    plan_launch,
    profile_for,
    resolves,
    usable_kinds_first,
)
from paw.core.approval import (
    Facts,
    Step,
    evaluate_path,
    find_git_write,
    is_inside,
    plan_approval,
    plan_denial,
)
from paw.core.config import AgentProfileConfig, PawConfig
from paw.core.detect.agents.scripted import detect_screen
from paw.core.fingerprint import is_prompt_id, prompt_id
from paw.core.models import Action, Detection, DetectionState, Finding, Verdict
from paw.core.names import default_session_name, name_problem
from paw.core.ports import ProcInfo
from tests.support.supervision import demo_screen


class NameCase(NamedTuple):
    test_id: str
    name: str
    valid: bool


NAME_CASES = [
    NameCase("plain", "alice", True),
    NameCase("dash-underscore-digits", "fix-bug_2", True),
    NameCase("space", "a b", False),
    NameCase("single-quote", "a'b", False),
    NameCase("double-quote", 'a"b', False),
    NameCase("semicolon", "a;b", False),
    NameCase("dotdot", "..", False),
    NameCase("dotdot-inside", "a..b", False),
    NameCase("slash", "a/b", False),
    NameCase("tmux-target", "a:b", False),
    NameCase("tmux-pane-id", "%1", False),
    NameCase("leading-dash", "-rf", False),
    NameCase("dollar", "a$b", False),
    NameCase("empty", "", False),
    NameCase("too-long", "a" * 41, False),
]


@pytest.mark.parametrize(NameCase._fields, NAME_CASES, ids=[c.test_id for c in NAME_CASES])
def test_name_problem_rejects_metacharacters(test_id: str, name: str, valid: bool) -> None:
    del test_id
    assert (name_problem(name) is None) is valid


def test_default_session_name_is_pawd_and_unique_per_repo() -> None:
    one = default_session_name("/src/my.app")
    assert one.startswith("pawd-my-app-")
    assert not one.startswith("paw-")
    assert one != default_session_name("/other/my.app")


def _proc(*argv: str, name: str | None = None) -> ProcInfo:
    return ProcInfo(10, name or argv[0].rsplit("/", 1)[-1], argv[0], argv, 1.0)


class ResolveCase(NamedTuple):
    test_id: str
    kind: str
    proc: ProcInfo
    expected: bool


RESOLVE_CASES = [
    ResolveCase(
        "claude-node-package",
        "claude-code",
        _proc("node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"),
        True,
    ),
    ResolveCase("claude-title", "claude-code", _proc("claude"), True),
    ResolveCase("claude-bin-script", "claude-code", _proc("node", "/usr/bin/claude"), True),
    ResolveCase("codex-binary", "codex", _proc("/opt/codex/bin/codex", "--full-auto"), True),
    ResolveCase(
        "gemini-node", "gemini-cli", _proc("node", "/x/@google/gemini-cli/dist/i.js"), True
    ),
    ResolveCase("aider-python-m", "aider", _proc("python3.11", "-m", "aider"), True),
    ResolveCase("aider-script", "aider", _proc("/venv/bin/python", "/venv/bin/aider"), True),
    ResolveCase("qwen-node", "qwen-code", _proc("node", "/x/@qwen-code/qwen-code/cli.js"), True),
    ResolveCase("opencode-binary", "opencode", _proc("opencode"), True),
    ResolveCase("kilo-native", "kilocode", _proc("/x/@kilocode/cli/bin/.kilo", "--prompt"), True),
    ResolveCase("kilo-node", "kilocode", _proc("node", "/x/node_modules/.bin/kilo"), True),
    ResolveCase("cline-native", "cline", _proc("/x/@cline/cli-linux-x64/bin/cline", "-i"), True),
    ResolveCase("continue-node", "continue-cli", _proc("node", "/x/.bin/cn", "--config"), True),
    ResolveCase("vibe-rs", "mistral-vibe", _proc("/venv/lib/vibe/_bin/vibe-rs"), True),
    ResolveCase("vibe-script", "mistral-vibe", _proc("/venv/bin/python", "/venv/bin/vibe"), True),
    ResolveCase("scripted", "scripted", _proc("python3", "-m", "paw.demo.agent"), True),
    ResolveCase("shell-is-not-claude", "claude-code", _proc("bash"), False),
    ResolveCase("cat-claude-file", "claude-code", _proc("cat", "claude.txt"), False),
    ResolveCase("node-other-script", "gemini-cli", _proc("node", "server.js"), False),
    ResolveCase("python-other", "aider", _proc("python3", "-m", "http.server"), False),
    ResolveCase("grep-mentions-agent", "scripted", _proc("grep", "paw.demo.agent"), False),
]


@pytest.mark.parametrize(ResolveCase._fields, RESOLVE_CASES, ids=[c.test_id for c in RESOLVE_CASES])
def test_resolves_matches_agent_processes(
    test_id: str, kind: str, proc: ProcInfo, expected: bool
) -> None:
    del test_id
    assert resolves(BUILTIN_PROFILES[kind], [proc]) is expected


def test_profile_for_custom_kind_and_overrides() -> None:
    config = PawConfig(
        agents={
            "mine": AgentProfileConfig(command=("/opt/mine", "--tui"), task_mode="stdin-typed"),
            "codex": AgentProfileConfig(env={"CODEX_HOME": "/tmp/c"}),
        }
    )
    mine = profile_for(config, "mine")
    assert mine is not None
    assert resolves(mine, [_proc("/opt/mine")])
    assert plan_launch(mine, "do it", "py").typed_task == "do it"
    codex = profile_for(config, "codex")
    assert codex is not None
    assert codex.env == {"CODEX_HOME": "/tmp/c"}
    assert profile_for(config, "nope") is None


def test_usable_kinds_first_puts_installed_and_python_agents_first() -> None:
    config = PawConfig.model_validate(
        {"agents": {"mine": {"command": ["{python}", "-m", "mine"]}, "gone": {"command": ["nope"]}}}
    )
    installed = {"codex", "aider"}
    kinds = usable_kinds_first(config, lambda program: program if program in installed else None)
    assert sorted(kinds) == sorted(known_kinds(config))  # nothing dropped
    usable = ("codex", "aider", "scripted", "mine")  # built-in kinds by rank, then custom ones
    assert kinds[:4] == usable  # usable ones first
    assert kinds.index("gone") > kinds.index("mine")
    everything = usable_kinds_first(PawConfig(), lambda program: program)
    assert everything[0] == "claude-code"  # the spawn form's default when all are installed


def test_plan_launch_expands_python_and_task_flag() -> None:
    launch = plan_launch(BUILTIN_PROFILES["scripted"], "the task", "/venv/bin/python")
    assert launch.argv == ("/venv/bin/python", "-m", "paw.demo.agent", "--task=the task")


def test_config_rejects_unknown_keys_and_bad_session() -> None:
    with pytest.raises(ValidationError):
        PawConfig.model_validate({"tmux": {"sesion": "x"}})
    with pytest.raises(ValidationError):
        PawConfig.model_validate({"tmux": {"session": "a:b"}})
    with pytest.raises(ValidationError):
        PawConfig.model_validate({"agents": {"x": {"task_mode": "telepathy"}}})


def test_prompt_id_depends_on_pane_and_fingerprint() -> None:
    one = prompt_id("%1", "abc")
    assert is_prompt_id(one)
    assert one == prompt_id("%1", "abc")
    assert one != prompt_id("%2", "abc")
    assert one != prompt_id("%1", "abd")


def test_is_inside_is_lexical_and_component_wise() -> None:
    assert is_inside("src/a.py", "/w/alice")
    assert is_inside("/w/alice/x", "/w/alice")
    assert not is_inside("/w/alice2/x", "/w/alice")
    assert not is_inside("../bob/x", "/w/alice")
    assert not is_inside("~/.ssh/id_rsa", "/w/alice")


def test_evaluate_path_confirms_instruction_and_sensitive_files() -> None:
    config = PawConfig().guard
    assert evaluate_path("AGENTS.md", "/w/a", config).action is Action.CONFIRM
    assert evaluate_path(".env", "/w/a", config).action is Action.CONFIRM
    assert evaluate_path("src/main.py", "/w/a", config).action is Action.ALLOW


def _facts(screen: str, *, alive: bool = True, pane: bool = True) -> Facts:
    first = detect_screen(demo_screen("shell", "ls"))
    assert first.prompt is not None
    return Facts(first.prompt.fingerprint, pane, alive, detect_screen(screen))


ALLOW = Verdict(Action.ALLOW)
CONFIRM = Verdict.from_findings((Finding("x", Action.CONFIRM, "check"),))
BLOCK = Verdict.from_findings((Finding("y", Action.BLOCK, "no"),))


class PlanCase(NamedTuple):
    test_id: str
    facts: Facts
    verdict: Verdict
    confirmed: bool
    override: str | None
    step: Step


LS = demo_screen("shell", "ls")
NEEDS_CONFIRM, NEEDS_OVERRIDE = Step.NEEDS_CONFIRMATION, Step.NEEDS_OVERRIDE

PLAN_CASES = [
    PlanCase("allow-sends", _facts(LS), ALLOW, False, None, Step.SEND),
    PlanCase("pane-gone", _facts(LS, pane=False), ALLOW, True, None, Step.REFUSE),
    PlanCase("agent-gone", _facts(LS, alive=False), ALLOW, True, None, Step.REFUSE),
    PlanCase("changed", _facts(demo_screen("shell", "ls -a")), ALLOW, True, None, Step.REFUSE),
    PlanCase("no-prompt", _facts("demo> \n"), ALLOW, True, None, Step.REFUSE),
    PlanCase("confirm-asks", _facts(LS), CONFIRM, False, None, NEEDS_CONFIRM),
    PlanCase("confirm-confirmed", _facts(LS), CONFIRM, True, None, Step.SEND),
    PlanCase("block-needs-override", _facts(LS), BLOCK, True, None, NEEDS_OVERRIDE),
    PlanCase("block-blank-override", _facts(LS), BLOCK, True, "  ", NEEDS_OVERRIDE),
    PlanCase("block-overridden", _facts(LS), BLOCK, False, "why", Step.SEND),
    # a dialog (folder trust) offers approve keys, but only a human answers it, in the pane
    PlanCase("trust-dialog", _facts(demo_screen("trust", ".")), ALLOW, True, "why", Step.REFUSE),
    PlanCase("question", _facts(demo_screen("question", "x")), ALLOW, True, None, Step.REFUSE),
]


@pytest.mark.parametrize(PlanCase._fields, PLAN_CASES, ids=[c.test_id for c in PLAN_CASES])
def test_plan_approval_table(
    test_id: str, facts: Facts, verdict: Verdict, confirmed: bool, override: str | None, step: Step
) -> None:
    del test_id
    plan = plan_approval(facts, verdict, confirmed=confirmed, override=override)
    assert plan.step is step
    assert bool(plan.keys) is (step is Step.SEND)


def test_plan_denial_needs_the_same_proof() -> None:
    assert plan_denial(_facts(LS)).keys == ("n",)
    assert plan_denial(_facts(LS, alive=False)).step is Step.REFUSE


def test_scripted_detector_states() -> None:
    assert detect_screen("✓ done\n⠋ working…").state is DetectionState.BUSY
    assert detect_screen("hello\ndemo> ").state is DetectionState.IDLE
    assert detect_screen("").state is DetectionState.UNKNOWN
    broken = demo_screen("shell", "ls").replace("│ [y]", "  [y]")
    assert detect_screen(broken) == Detection(
        DetectionState.UNKNOWN, "scripted", notes=("unreadable prompt box",)
    )


class GitWriteCase(NamedTuple):
    test_id: str
    command: str
    action: str | None
    message: str | None


GIT_WRITE_CASES = [
    GitWriteCase("push", "git push origin main", "push", None),
    GitWriteCase("commit-m", 'git commit -am "fix: x"', "commit", "fix: x"),
    GitWriteCase("chained", "npm test && git -C sub commit --message=done", "commit", "done"),
    GitWriteCase("status", "git status", None, None),
    GitWriteCase("not-git", "echo git push", None, None),
    GitWriteCase("unbalanced-quote", "git commit -m 'oops", None, None),
]


@pytest.mark.parametrize(
    GitWriteCase._fields, GIT_WRITE_CASES, ids=[c.test_id for c in GIT_WRITE_CASES]
)
def test_find_git_write_table(
    test_id: str, command: str, action: str | None, message: str | None
) -> None:
    del test_id
    found = find_git_write(command)
    assert (found.action if found else None, found.message if found else None) == (
        action,
        message,
    )


def test_approval_wrapped_shell_command_is_never_allow() -> None:
    from paw.core.approval import WRAP_NOTE_PREFIX, evaluate_subject
    from paw.core.config import GuardConfig
    from paw.core.guard.shell import evaluate_command
    from paw.core.models import Action, Prompt, PromptKind

    prompt = Prompt(PromptKind.SHELL, "ls -la", "Run ls?", ("y",), ("Escape",), "f1")
    config = GuardConfig()

    def judge(notes: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
        verdict = evaluate_subject(
            prompt,
            worktree="/w",
            config=config,
            mcp_allowed=(),
            shell=evaluate_command,
            notes=notes,
        )
        return verdict.action.value, verdict.rules

    assert judge(()) == ("allow", ())
    action, rules = judge((WRAP_NOTE_PREFIX + ": the rest",))
    assert action == Action.CONFIRM.value
    assert "approve.wrapped-command" in rules
    for kind, subject in ((PromptKind.EDIT, "/w/src/a.py"), (PromptKind.FETCH, "https://x.dev")):
        joined = Prompt(kind, subject, "Allow?", ("y",), ("Escape",), "f2")
        plain = evaluate_subject(
            joined, worktree="/w", config=config, mcp_allowed=(), shell=evaluate_command
        )
        wrapped = evaluate_subject(
            joined, worktree="/w", config=config, mcp_allowed=(), shell=evaluate_command,
            notes=(WRAP_NOTE_PREFIX + ": the rest",),
        )  # fmt: skip
        assert plain.action is Action.ALLOW
        assert wrapped.action is Action.CONFIRM
        assert "approve.wrapped-field" in wrapped.rules


class PushCase(NamedTuple):
    test_id: str
    command: str
    remote: str | None
    branch: str | None


PUSH_CASES = [
    PushCase("bare", "git push", None, None),
    PushCase("remote", "git push origin", "origin", None),
    PushCase("refspec", "git push origin main", "origin", "main"),
    PushCase("forced-refspec", "git push -u origin +feature/x", "origin", "feature/x"),
    PushCase("head-to", "git push origin HEAD:main", "origin", None),
    PushCase("after-cd", "cd sub && git push upstream dev:main", "upstream", "dev"),
]


@pytest.mark.parametrize("case", PUSH_CASES, ids=[c.test_id for c in PUSH_CASES])
def test_find_git_write_reads_push_target(case: PushCase) -> None:
    from paw.core.approval import find_git_write

    found = find_git_write(case.command)
    assert found is not None
    assert (found.action, found.remote, found.branch) == ("push", case.remote, case.branch)


def test_a_fetch_prompt_to_a_metadata_or_private_address_is_not_allow() -> None:
    """Effects beyond files: an agent's web fetch of the cloud metadata endpoint carries the
    instance's credentials; a private address reaches the user's network (issue 34)."""
    from paw.core.approval import evaluate_subject
    from paw.core.config import GuardConfig
    from paw.core.guard.shell import evaluate_command
    from paw.core.models import Prompt, PromptKind

    def judge(url: str) -> tuple[str, tuple[str, ...]]:
        prompt = Prompt(PromptKind.FETCH, url, "Fetch?", ("y",), ("Escape",), "f3")
        verdict = evaluate_subject(
            prompt, worktree="/w", config=GuardConfig(), mcp_allowed=(), shell=evaluate_command
        )
        return verdict.action.value, verdict.rules

    assert judge("http://169.254.169.254/latest/meta-data/") == (
        "block",
        ("approve.fetch-private",),
    )
    assert judge("http://metadata.google.internal/computeMetadata/v1/")[0] == "block"
    assert judge("http://192.168.1.1/admin") == ("confirm", ("approve.fetch-private",))
    assert judge("https://docs.python.org/3/") == ("allow", ("approve.fetch-url",))
    assert judge("http://localhost:8000/")[0] == "allow"
