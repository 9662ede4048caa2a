"""Every rule id fires on its table cases; the cwd, user patterns and internal errors."""

from __future__ import annotations

import pytest

from paw.core.config import GuardConfig, PatternSet
from paw.core.guard.shell import dispatch, evaluate_command
from paw.core.models import Action
from tests.core.guard.rule_cases import RULE_CASES, RuleCase


@pytest.mark.parametrize("case", RULE_CASES, ids=[c.test_id for c in RULE_CASES])
def test_evaluate_command_rule_fires(case: RuleCase) -> None:
    verdict = evaluate_command(case.command)
    assert verdict.action.value == case.action, verdict
    assert case.rule in verdict.rules, verdict
    assert all(reason for reason in verdict.reasons)


def test_evaluate_command_bare_glob_in_dangerous_cwd_blocks() -> None:
    assert evaluate_command("rm -rf *", cwd="/").action is Action.BLOCK
    assert evaluate_command("rm -rf *", cwd="/home/alice").rule == "shell.rm-bare-glob"
    assert evaluate_command("rm -rf *", cwd="/home/alice/src/app").action is Action.CONFIRM


def test_evaluate_command_paths_inside_the_given_cwd_are_the_project() -> None:
    assert evaluate_command("rm -rf /srv/app/build", cwd="/srv/app").action is Action.ALLOW
    assert evaluate_command("rm -rf /srv/app/build").action is Action.CONFIRM
    assert evaluate_command("rm -rf /srv/app/.git", cwd="/srv/app").action is Action.BLOCK
    assert evaluate_command("rm -rf /srv/app", cwd="/srv/app").action is Action.BLOCK
    assert evaluate_command("cd / && rm -rf /srv/app/x", cwd="/srv/app").action is Action.CONFIRM


def test_evaluate_command_user_pattern_matches_normalised_command() -> None:
    config = GuardConfig(blocked_patterns=PatternSet(extend=(r"^terraform destroy\b",)))
    quoted = evaluate_command("cd infra && 't'erraform \\destroy -auto-approve", config=config)
    assert quoted.action is Action.BLOCK
    assert quoted.rule == "shell.user-pattern"
    assert evaluate_command("echo terraform destroy", config=config).action is Action.ALLOW
    assert evaluate_command("terraform plan", config=config).action is Action.ALLOW


def test_evaluate_command_protected_branches_come_from_config() -> None:
    config = GuardConfig(protected_branches=("release",))
    assert evaluate_command("git push -f origin release", config=config).action is Action.BLOCK
    forced_main = evaluate_command("git push -f origin main", config=config)
    assert forced_main.action is Action.CONFIRM


def test_evaluate_command_internal_error_is_confirm(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object) -> None:
        raise ValueError("boom")

    monkeypatch.setitem(dispatch._TABLE, "ls", (broken,))
    verdict = evaluate_command("ls")
    assert verdict.action is Action.CONFIRM
    assert verdict.rule == "shell.internal-error"


def test_evaluate_command_reason_names_the_parsed_command() -> None:
    verdict = evaluate_command("FOO=1 r''m -r\\f /")
    assert verdict.rule == "shell.rm-root"
    assert "rm" in verdict.reasons[0]


def test_preset_blocklist_extended_matches_command_words_not_quoted_data() -> None:
    """git-guardrails' raw-text presets, added as user patterns, block on what runs, not on data
    (`echo "rm -rf /"` and `grep -r sudo .` were false blocks of the seed's regex list)."""
    from paw.core.guard.presets import BLOCKED_SHELL_PATTERNS, presets

    config = GuardConfig(blocked_patterns=PatternSet(extend=BLOCKED_SHELL_PATTERNS))
    for data in ('echo "rm -rf /"', "grep -r sudo .", 'git commit -m "drop sudo from docs"',
                 "rg -n 'killall' src/"):  # fmt: skip
        verdict = evaluate_command(data, config=config)
        assert "shell.user-pattern" not in verdict.rules, (data, verdict)
    assert evaluate_command("killall node", config=config).rule == "shell.user-pattern"
    assert "shell.user-pattern" in evaluate_command("bash -c 'killall x'", config=config).rules
    assert presets.anima_production_allowed_dirs == ("/home/user/repos", "/tmp")


# The rules an ordinary developer command may fire, and why (confirm by policy or by posture).
_ORDINARY_RULES = {
    "git.write": "a git write is confirm by policy",
    "git.push": "a push is confirm by policy",
    "files.link-outside": "`ln -s ../shared/…` makes a link out of the project",
    "shell.home-read": "`source ~/.nvm/nvm.sh` runs code from the home folder",
    "shell.secret-read": "`history | tail` prints the shell history",
}


def test_every_rule_has_must_not_match_examples_in_the_ordinary_commands() -> None:
    """Codex's execpolicy keeps `not_match` examples beside each rule; here every rule's must-not
    -match examples are the ordinary developer commands (tests/fixtures/guard/ordinary.txt):
    no rule outside the short list above fires on any of them, so a rule that starts to
    over-match fails here (its must-match examples are in rule_cases.py)."""
    from tests.core.guard.test_false_blocks import ordinary_commands

    fired: dict[str, list[str]] = {}
    for command in ordinary_commands():
        for rule in evaluate_command(command).rules:
            fired.setdefault(rule, []).append(command)
    unexpected = {rule: cmds for rule, cmds in fired.items() if rule not in _ORDINARY_RULES}
    assert unexpected == {}


def test_every_rule_has_must_not_match_examples_of_its_own() -> None:
    """Each rule id of RULE_CASES carries near misses (RULE_NOT_MATCH) it must not produce."""
    from tests.core.guard.rule_cases import RULE_NOT_MATCH

    rules = {case.rule for case in RULE_CASES}
    assert rules - set(RULE_NOT_MATCH) == set(), "rules without not_match examples"
    assert set(RULE_NOT_MATCH) - rules == set(), "not_match examples of no rule"
    fired = [
        (rule, command)
        for rule, commands in RULE_NOT_MATCH.items()
        for command in commands
        if rule in evaluate_command(command).rules
    ]
    assert fired == []
