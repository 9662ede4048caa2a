"""Git actions with an injected shell: which commands run, what needs confirmation, aborts."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from paw.core.config import GuardConfig, PatternSet
from paw.errors import GuardError, SensitiveFilesError
from paw.guard.git_actions import execute_confirmed_git_action, execute_git_action
from paw.guard.git_types import GitAction, GitActionParams, GitConfirmationPayload
from paw.guard.shell_exec import ShellResult

REPO = "/srv/repos/shop"


class FakeShell:
    """Answers commands by prefix; records (command, cwd, timeout)."""

    def __init__(self, answers: Mapping[str, str | tuple[str, int]]) -> None:
        self.answers = dict(answers)
        self.calls: list[tuple[str, str | None, float | None]] = []

    def __call__(self, command: str, cwd: str | None, timeout_s: float | None) -> ShellResult:
        self.calls.append((command, cwd, timeout_s))
        for prefix, answer in self.answers.items():
            if command.startswith(prefix):
                out, code = answer if isinstance(answer, tuple) else (answer, 0)
                return ShellResult(out, "" if code == 0 else "fatal: boom", code, 1.0)
        return ShellResult("", "", 0, 1.0)

    @property
    def commands(self) -> list[str]:
        return [c for c, _, _ in self.calls]


STATUS = "git 'status' '--porcelain=v1' '-z' '--untracked-files=all'"


def test_git_params_require_absolute_repo_path() -> None:
    with pytest.raises(GuardError, match="absolute"):
        GitActionParams(action=GitAction.STATUS, repo_path="relative/repo")


def test_git_params_reject_unknown_action_and_option_like_names() -> None:
    with pytest.raises(GuardError, match="unknown git action"):
        GitActionParams.from_dict({"action": "rebase", "repoPath": REPO})
    with pytest.raises(GuardError, match="invalid remote"):
        GitActionParams(action=GitAction.PUSH, repo_path=REPO, remote="--upload-pack=evil")


def test_git_read_actions_run_at_once() -> None:
    shell = FakeShell({"git 'log'": "abc123 first\n"})
    result = execute_git_action({"action": "log", "repoPath": REPO}, shell=shell)
    assert not result.requires_confirmation
    assert result.output == "abc123 first"
    assert shell.calls == [("git 'log' '--oneline' '-10'", REPO, 30.0)]


def test_git_clone_runs_in_parent_with_escaped_url() -> None:
    shell = FakeShell({})
    url = "https://example.invalid/x.git; rm -rf ~"
    result = execute_git_action(
        GitActionParams(action=GitAction.CLONE, repo_path=REPO, url=url), shell=shell
    )
    assert not result.requires_confirmation
    assert shell.calls == [(f"git clone -- '{url}' '{REPO}'", "/srv/repos", 30.0)]


def test_git_commit_with_staged_env_aborts_before_confirmation() -> None:
    shell = FakeShell({STATUS: "M  src/app.py\0A  .env\0"})
    with pytest.raises(SensitiveFilesError) as info:
        execute_git_action(GitActionParams(action=GitAction.COMMIT, repo_path=REPO), shell=shell)
    assert info.value.files == [".env"]
    assert shell.commands == [STATUS]


def test_git_commit_with_unstaged_untracked_key_aborts_too() -> None:
    shell = FakeShell({STATUS: "M  src/app.py\0?? certs/server.key\0"})
    with pytest.raises(SensitiveFilesError, match=r"server\.key"):
        execute_git_action(GitActionParams(action=GitAction.COMMIT, repo_path=REPO), shell=shell)


def test_git_commit_honours_config_patterns() -> None:
    shell = FakeShell({STATUS: "?? ops/vault.txt\0"})
    config = GuardConfig(sensitive_files=PatternSet(extend=(r"(?:^|/)vault\.txt$",)))
    with pytest.raises(SensitiveFilesError):
        execute_git_action(
            GitActionParams(action=GitAction.COMMIT, repo_path=REPO), config, shell=shell
        )


def test_git_commit_flags_instruction_files_and_asks() -> None:
    shell = FakeShell(
        {
            STATUS: " M AGENTS.md\0R  docs/x.md\0.cursorrules\0 M src/app.py\0",
            "git 'symbolic-ref'": "feature\n",
            "git 'diff' 'HEAD' '--stat'": " AGENTS.md | 1 +\n",
        }
    )
    result = execute_git_action(
        GitActionParams(action=GitAction.COMMIT, repo_path=REPO, message="it's done"),
        shell=shell,
    )
    assert result.requires_confirmation
    details = result.confirmation_details
    assert details is not None
    assert details.agent_instruction_files_changed == (".cursorrules", "AGENTS.md")
    assert details.branch == "feature"
    assert details.message == "it's done"
    assert "AGENTS.md | 1 +" in (details.diff_preview or "")
    assert result.confirmation_payload is not None
    assert result.confirmation_payload.expected_paths == (
        ".cursorrules",
        "AGENTS.md",
        "docs/x.md",
        "src/app.py",
    )
    assert not [c for c in shell.commands if "'commit'" in c or "'add'" in c]


def test_git_commit_with_nothing_to_commit_needs_no_confirmation() -> None:
    result = execute_git_action(
        GitActionParams(action=GitAction.COMMIT, repo_path=REPO), shell=FakeShell({STATUS: ""})
    )
    assert not result.requires_confirmation
    assert result.output == "No changes to commit."


def test_git_confirmed_commit_escapes_message_and_rechecks_tree() -> None:
    shell = FakeShell({STATUS: " M src/app.py\0", "git 'commit'": "[main abc] x\n"})
    payload = GitConfirmationPayload(
        action=GitAction.COMMIT,
        repo_path=REPO,
        message="fix: it's $(rm -rf ~)",
        expected_paths=("src/app.py",),
    )
    out = execute_confirmed_git_action(payload.to_dict(), shell=shell)
    assert out == "Commit created: [main abc] x"
    assert shell.commands == [
        STATUS,
        "git 'add' '-A'",
        "git 'commit' '-m' 'fix: it'\\''s $(rm -rf ~)'",
    ]


def test_git_confirmed_commit_refuses_a_changed_tree() -> None:
    shell = FakeShell({STATUS: " M src/app.py\0?? sneaky.sh\0"})
    payload = GitConfirmationPayload(
        action=GitAction.COMMIT, repo_path=REPO, message="m", expected_paths=("src/app.py",)
    )
    with pytest.raises(GuardError, match=r"sneaky\.sh"):
        execute_confirmed_git_action(payload, shell=shell)
    assert not [c for c in shell.commands if "'add'" in c]


def test_git_confirmed_commit_refuses_a_secret_that_appeared() -> None:
    shell = FakeShell({STATUS: " M src/app.py\0?? .env\0"})
    payload = GitConfirmationPayload(
        action=GitAction.COMMIT, repo_path=REPO, message="m", expected_paths=("src/app.py",)
    )
    with pytest.raises(SensitiveFilesError):
        execute_confirmed_git_action(payload, shell=shell)


def test_git_push_asks_with_pending_commits_and_protected_note() -> None:
    shell = FakeShell(
        {
            "git 'symbolic-ref'": "main\n",
            "git 'remote'": "origin\n",
            "git 'log' '--oneline'": "abc123 feat: x\n",
            "git 'log' '--name-only'": "CLAUDE.md\0src/a.py\0",
        }
    )
    result = execute_git_action({"action": "push", "repo_path": REPO}, shell=shell)
    assert result.requires_confirmation
    details = result.confirmation_details
    assert details is not None
    assert (details.remote, details.branch) == ("origin", "main")
    assert details.pending_commits == "abc123 feat: x"
    assert details.agent_instruction_files_changed == ("CLAUDE.md",)
    assert details.protected_branch
    assert not [c for c in shell.commands if c.startswith("git 'push'")]


def test_git_confirmed_push_names_remote_and_branch_and_never_forces() -> None:
    shell = FakeShell({})
    payload = GitConfirmationPayload(
        action=GitAction.PUSH, repo_path=REPO, remote="origin", branch="feat/x"
    )
    execute_confirmed_git_action(payload, shell=shell)
    assert shell.commands == ["git 'push' '--' 'origin' 'refs/heads/feat/x:refs/heads/feat/x'"]


def test_git_pr_asks_with_title_and_body() -> None:
    shell = FakeShell({"git 'symbolic-ref'": "feat/x\n", "git 'log' '-1'": "feat: last\n"})
    result = execute_git_action(
        {"action": "pr", "repoPath": REPO, "prBody": "Why", "base": "main"}, shell=shell
    )
    assert result.requires_confirmation
    assert result.confirmation_details is not None
    assert result.confirmation_details.title == "feat: last"
    assert result.confirmation_payload is not None
    assert result.confirmation_payload.body == "Why"
