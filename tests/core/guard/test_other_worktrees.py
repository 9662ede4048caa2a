"""Another agent's worktree is not this agent's world (issue 34, item 3): a read, a write, a link
or a ``cd`` that lands in a worktree paw gave another agent is ``block``. The guard knows those
worktrees because its caller names them (``others``), never by guessing paths."""

from __future__ import annotations

from pathlib import Path

import pytest

from paw.adapters.paths import resolve_path
from paw.core.guard.shell import evaluate_command
from paw.core.models import Action

ROOT = "/w/repo-paw"
ALICE = f"{ROOT}/alice"
OTHERS = (f"{ROOT}/bob", f"{ROOT}/carol")

BLOCKED = {
    "read-relative": "cat ../bob/src/app.py",
    "read-absolute": f"cat {ROOT}/bob/.env",
    "read-grep": f"grep -r token {ROOT}/carol",
    "read-option-value": "diff --from-file=../bob/a.py a.py",
    "write-redirect": "echo x > ../bob/a.py",
    "write-absolute": f"echo x >> {ROOT}/bob/notes.md",
    "write-tee": "echo x | tee ../carol/a.txt",
    "write-cp": "cp a.py ../bob/a.py",
    "write-sed-i": f"sed -i s/a/b/ {ROOT}/bob/a.py",
    "write-rm": "rm -rf ../bob/src",
    "symlink-make": "ln -s ../bob/src shared",
    "cd-relative": "cd ../bob && git status",
    "cd-absolute": f"cd {ROOT}/carol && ls",
    "cd-up-then-in": "cd .. && cd bob",
    "cd-up-then-rm": "cd .. && rm -rf bob",
    "git-C": "git -C ../bob commit -am x",
    "pushd": "pushd ../bob",
    "glob-relative": "cat ../*/src/app.py",
    "glob-absolute": f"rm -rf {ROOT}/b*",
}

ALLOWED_OR_NOT_THIS_RULE = {
    "own-relative": "cat src/app.py",
    "own-absolute": f"cat {ALICE}/src/app.py",
    "own-write": "echo x > build/out.txt",
    "similar-name": f"cat {ROOT}/bobby/a.py",
    "echo-data": "echo ../bob/a.py",
    "worktree-root": "ls ..",
    "home-less": "cat ~/bob/a.py",
    "glob-own": "cat src/*.py",
    "glob-elsewhere": "ls /usr/share/*/x",
}


@pytest.mark.parametrize("command", BLOCKED.values(), ids=list(BLOCKED))
def test_a_path_in_another_agents_worktree_blocks(command: str) -> None:
    verdict = evaluate_command(command, ALICE, others=OTHERS)
    assert verdict.action is Action.BLOCK, verdict
    assert "shell.other-worktree" in verdict.rules, verdict
    reason = next(f.reason for f in verdict.findings if f.rule == "shell.other-worktree")
    assert "another agent's worktree" in reason


@pytest.mark.parametrize(
    "command", ALLOWED_OR_NOT_THIS_RULE.values(), ids=list(ALLOWED_OR_NOT_THIS_RULE)
)
def test_the_own_worktree_and_lookalikes_do_not(command: str) -> None:
    verdict = evaluate_command(command, ALICE, others=OTHERS)
    assert "shell.other-worktree" not in verdict.rules, verdict


def test_without_others_the_guard_knows_no_worktree() -> None:
    """A library caller that names no other worktree gets the verdicts it always had."""
    assert evaluate_command(f"cat {ROOT}/bob/.env", ALICE).action is not Action.BLOCK
    assert "shell.other-worktree" not in evaluate_command("cat ../bob/a.py", ALICE).rules


def test_the_own_worktree_among_others_is_still_the_own() -> None:
    """A caller that passes every agent's worktree (its own included) blocks none of its own."""
    verdict = evaluate_command("echo x > src/a.py", ALICE, others=(ALICE, *OTHERS))
    assert verdict.action is Action.ALLOW, verdict
    for cwd in (f"{ALICE}/", f"{ROOT}/./alice"):  # the own one spelled another way
        verdict = evaluate_command("echo x > src/a.py", cwd, others=(ALICE, *OTHERS))
        assert verdict.action is Action.ALLOW, (cwd, verdict)


def test_a_committed_link_into_a_sibling_worktree_is_followed(tmp_path: Path) -> None:
    """Real files: ``shared -> ../bob/src`` committed in alice's worktree; a write or read
    through it lands in bob's worktree (symlinks followed by the adapter, as the supervisor
    judges prompts)."""
    root = tmp_path / "repo-paw"
    alice, bob = root / "alice", root / "bob"
    (bob / "src").mkdir(parents=True)
    (bob / "src" / "a.py").write_text("x = 1\n", encoding="utf-8")
    alice.mkdir()
    (alice / "shared").symlink_to("../bob/src")
    (alice / "notes.md").symlink_to("../bob/src/a.py")
    others = (str(bob),)
    for command in ("echo x > shared/a.py", "echo x >> notes.md", "cat shared/a.py"):
        verdict = evaluate_command(command, str(alice), None, resolve_path, others=others)
        assert verdict.action is Action.BLOCK, (command, verdict)
        assert "shell.other-worktree" in verdict.rules, (command, verdict)
    own = evaluate_command("echo x > own.py", str(alice), None, resolve_path, others=others)
    assert own.action is Action.ALLOW, own


HOME = "/home/u"
H_ROOT = f"{HOME}/w/repo-paw"
H_ALICE = f"{H_ROOT}/alice"
H_OTHERS = (f"{H_ROOT}/bob", f"{H_ROOT}/carol")

HOME_BLOCKED = {
    "tilde-read": "cat ~/w/repo-paw/bob/.env",
    "dollar-home-write": "echo x > $HOME/w/repo-paw/bob/a.py",
    "braced-home-cp": "cp a.py ${HOME}/w/repo-paw/carol/",
    "quoted-home": 'cat "$HOME"/w/repo-paw/bob/a.py',
    "quoted-braced-home": 'sed -i s/a/b/ "${HOME}/w/repo-paw/bob/a.py"',
    "tilde-cd": "cd ~/w/repo-paw/bob && ls",
    "cd-home-then-relative": "cd ~ && cat w/repo-paw/bob/a.py",
    "cd-tilde-then-rm": "cd ~/w/repo-paw && rm -rf bob",
    "tilde-link": "ln -s ~/w/repo-paw/bob/src shared",
    "tilde-option-value": "diff --from-file=~/w/repo-paw/bob/a.py a.py",
    "tilde-redirect-in": "wc -l < ~/w/repo-paw/bob/a.py",
    "tilde-glob": "cat ~/w/repo-paw/*/src/a.py",
    "tilde-dotdot": "cat ~/w/x/../repo-paw/bob/a.py",
}

HOME_NOT_THIS_RULE = {
    "tilde-own": "cat ~/w/repo-paw/alice/src/a.py",
    "tilde-lookalike": "cat ~/w/repo-paw/bobby/a.py",
    "tilde-elsewhere": "cat ~/notes.txt",
    "other-users-home": "cat ~bob/w/repo-paw/bob/a.py",
    "echo-data": "echo ~/w/repo-paw/bob/a.py",
    "home-itself": "ls ~",
}


@pytest.mark.parametrize("command", HOME_BLOCKED.values(), ids=list(HOME_BLOCKED))
def test_a_home_spelling_of_another_agents_worktree_blocks(command: str) -> None:
    """``~/…``, ``$HOME/…`` and ``${HOME}/…`` land in the home the caller names."""
    verdict = evaluate_command(command, H_ALICE, others=H_OTHERS, home=HOME)
    assert verdict.action is Action.BLOCK, verdict
    assert "shell.other-worktree" in verdict.rules, verdict


@pytest.mark.parametrize("command", HOME_NOT_THIS_RULE.values(), ids=list(HOME_NOT_THIS_RULE))
def test_home_spellings_of_the_own_worktree_and_lookalikes_do_not(command: str) -> None:
    verdict = evaluate_command(command, H_ALICE, others=H_OTHERS, home=HOME)
    assert "shell.other-worktree" not in verdict.rules, verdict


def test_the_home_is_named_by_the_caller_never_guessed() -> None:
    """Without ``home`` the guard places no ``~`` (it reads no environment); a home spelled with
    a trailing slash or a relative home is taken as given or ignored."""
    command = "cat ~/w/repo-paw/bob/.env"
    assert "shell.other-worktree" not in evaluate_command(command, H_ALICE, others=H_OTHERS).rules
    slash = evaluate_command(command, H_ALICE, others=H_OTHERS, home=HOME + "/")
    assert "shell.other-worktree" in slash.rules, slash
    relative = evaluate_command(command, H_ALICE, others=H_OTHERS, home="home/u")
    assert "shell.other-worktree" not in relative.rules, relative


def test_the_library_entry_takes_the_home_too() -> None:
    """``paw.guard.evaluate_command`` (what the supervisor calls) passes ``home`` through."""
    from pathlib import PurePosixPath

    from paw.guard import evaluate_command as library_evaluate

    verdict = library_evaluate(
        "echo x > ~/w/repo-paw/bob/a.py", H_ALICE, others=H_OTHERS, home=PurePosixPath(HOME)
    )
    assert verdict.action is Action.BLOCK, verdict
    assert "shell.other-worktree" in verdict.rules, verdict


def test_a_worktree_nested_inside_the_judged_one_is_still_another() -> None:
    """A worktree the caller names inside the judged one (``.paw/bob``) is reached by a plain
    relative path: the shortcut for paths below the project must not skip it."""
    others = (f"{ALICE}/.paw/bob",)
    verdict = evaluate_command("cat .paw/bob/a.py", ALICE, others=others)
    assert verdict.action is Action.BLOCK, verdict
    assert "shell.other-worktree" in verdict.rules, verdict
    assert (
        "shell.other-worktree" not in evaluate_command("cat src/a.py", ALICE, others=others).rules
    )
