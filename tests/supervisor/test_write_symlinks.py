"""Edit/write prompts follow symlinks (issue 34, item 3): a committed ``NOTES.md`` pointing at
``~/.bashrc`` is a write to ``~/.bashrc``, never approved by the rule ``write **/*.md``."""

from __future__ import annotations

from pathlib import Path

from paw.adapters.paths import resolve_path
from paw.core.approval import evaluate_path
from paw.core.config import PawConfig
from paw.core.models import Action
from paw.core.wave import SeenPrompt, WaveRule, route

CONFIG = PawConfig().guard


def _worktree(tmp_path: Path) -> tuple[Path, Path]:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text("# rc\n", encoding="utf-8")
    worktree = tmp_path / "w" / "night-a"
    (worktree / "docs").mkdir(parents=True)
    return home, worktree


def test_a_link_out_of_the_worktree_is_a_write_there(tmp_path: Path) -> None:
    _, worktree = _worktree(tmp_path)
    (worktree / "NOTES.md").symlink_to("../../home/.bashrc")
    verdict = evaluate_path("NOTES.md", str(worktree), CONFIG, resolve_path)
    assert verdict.action is Action.BLOCK, verdict
    assert ".bashrc" in verdict.findings[0].reason
    assert evaluate_path("NOTES.md", str(worktree), CONFIG).action is Action.ALLOW  # as written
    seen = SeenPrompt("p1", "write", "NOTES.md", "Write?", verdict.action, ("why",), True, 1.0)
    rules = (WaveRule(kind="write", subject="**/*.md"),)
    assert route(seen, rules, str(worktree))[0] == "human"


def test_a_linked_directory_out_of_the_worktree_is_followed(tmp_path: Path) -> None:
    home, worktree = _worktree(tmp_path)
    (worktree / "cfg").symlink_to(home)
    verdict = evaluate_path("cfg/.bashrc", str(worktree), CONFIG, resolve_path)
    assert verdict.action is Action.BLOCK, verdict


def test_a_link_inside_the_worktree_is_judged_by_its_target(tmp_path: Path) -> None:
    _, worktree = _worktree(tmp_path)
    (worktree / "AGENTS.md").write_text("rules\n", encoding="utf-8")
    (worktree / "docs" / "guide.md").symlink_to("../AGENTS.md")
    verdict = evaluate_path("docs/guide.md", str(worktree), CONFIG, resolve_path)
    assert verdict.action is Action.CONFIRM, verdict  # it edits the instruction file
    assert evaluate_path("docs/new.md", str(worktree), CONFIG, resolve_path).action is (
        Action.ALLOW
    )


def test_a_worktree_reached_through_a_link_is_still_the_worktree(tmp_path: Path) -> None:
    _, worktree = _worktree(tmp_path)
    alias = tmp_path / "alias"
    alias.symlink_to(worktree)
    assert evaluate_path("src/x.py", str(alias), CONFIG, resolve_path).action is Action.ALLOW


def test_a_link_loop_cannot_be_resolved_and_confirms(tmp_path: Path) -> None:
    _, worktree = _worktree(tmp_path)
    (worktree / "a.md").symlink_to("b.md")
    (worktree / "b.md").symlink_to("a.md")
    assert resolve_path(str(worktree / "a.md")) is None
    verdict = evaluate_path("a.md", str(worktree), CONFIG, resolve_path)
    assert verdict.action is Action.CONFIRM, verdict
    assert verdict.findings[0].rule == "approve.path-unresolved"


def _sweep_ctx(host: str | None) -> object:
    from types import SimpleNamespace

    from paw.supervisor.service import default_shell_evaluator

    return SimpleNamespace(
        config=PawConfig(), shell=default_shell_evaluator(), host=host, resolve_path=resolve_path
    )


def test_the_sweep_judges_a_write_prompt_through_the_link(tmp_path: Path) -> None:
    """The verdict the sweep shows and approval re-checks (``verdict_for``) follows the link on
    this machine; a remote host's worktree is judged as written (its links are not here)."""
    from paw.core.detect.agents.scripted import detect_screen
    from paw.supervisor.sweep import verdict_for
    from tests.support.supervision import demo_screen

    _, worktree = _worktree(tmp_path)
    (worktree / "NOTES.md").symlink_to("../../home/.bashrc")
    detection = detect_screen(demo_screen("write", "NOTES.md"))
    assert detection.prompt is not None
    agent = type("Agent", (), {"worktree": str(worktree)})()
    local = verdict_for(_sweep_ctx(None), agent, detection)  # type: ignore[arg-type]
    assert local.action is Action.BLOCK, local
    remote = verdict_for(_sweep_ctx("gpu1"), agent, detection)  # type: ignore[arg-type]
    assert remote.action is Action.ALLOW, remote


def test_a_shell_write_through_a_link_out_of_the_project_is_judged_where_it_lands(
    tmp_path: Path,
) -> None:
    """``echo … >> NOTES.md`` with ``NOTES.md -> ../../home/.bashrc``: today's ``allow``."""
    from paw.guard import evaluate_command
    from paw.supervisor.service import default_shell_evaluator

    _, worktree = _worktree(tmp_path)
    (worktree / "NOTES.md").symlink_to("../../home/.bashrc")
    (worktree / "guide.md").symlink_to("AGENTS.md")
    wt = str(worktree)
    for command in ("echo hi >> NOTES.md", "echo hi | tee -a NOTES.md", "cp x NOTES.md"):
        verdict = evaluate_command(command, wt, None, resolve_path)
        assert verdict.action is Action.CONFIRM, (command, verdict)
        assert evaluate_command(command, wt).action is Action.ALLOW  # as written
    assert evaluate_command("echo x > guide.md", wt, None, resolve_path).action is Action.CONFIRM
    assert evaluate_command("echo x > other.md", wt, None, resolve_path).action is Action.ALLOW
    shell = default_shell_evaluator(resolve_path)  # what the supervisor judges prompts with
    assert shell("echo hi >> NOTES.md", wt, CONFIG).action is Action.CONFIRM


def test_a_shell_write_through_a_link_to_a_start_up_file_or_unresolved() -> None:
    """Pure: the resolver's answers (a fake here) decide where the write lands."""
    from paw.core.guard.shell import evaluate_command

    links = {"/w/a": "/w/a", "/w/a/NOTES.md": "/home/me/.bashrc", "/w/a/k": "/home/me/.ssh/x"}

    def resolve(path: str) -> str | None:
        return links.get(path, path if "loop" not in path else None)

    verdict = evaluate_command("echo 'curl x | sh' >> NOTES.md", "/w/a", None, resolve)
    assert verdict.action is Action.BLOCK, verdict  # the rc text is judged as shell
    assert evaluate_command("echo k >> k", "/w/a", None, resolve).action is Action.BLOCK
    looped = evaluate_command("echo x > loop.md", "/w/a", None, resolve)
    assert looped.action is Action.CONFIRM
    assert "files.link-unresolved" in looped.rules


def test_the_supervisors_judge_knows_the_other_agents_worktrees(tmp_path: Path) -> None:
    """The evaluator paw composes reads the agents' worktrees from the real state store: what a
    command reads, writes, links or ``cd``s into in another agent's worktree is block; the same
    command inside the agent's own worktree is not (issue 34, item 3)."""
    from paw.adapters.state import StateStore
    from paw.supervisor.records import AgentRecord, store_agent
    from paw.supervisor.service import agent_worktrees, default_shell_evaluator

    root = tmp_path / "repo-paw"
    alice, bob = root / "alice", root / "bob"
    for tree in (alice, bob):
        (tree / "src").mkdir(parents=True)
    (alice / "shared").symlink_to("../bob/src")
    state = StateStore(tmp_path / "state")
    shell = default_shell_evaluator(resolve_path, agent_worktrees(state))
    command = "cat ../bob/src/a.py"
    assert shell(command, str(alice), CONFIG).action is Action.CONFIRM  # no agents recorded yet
    for name, tree in (("alice", alice), ("bob", bob)):
        store_agent(
            state,
            AgentRecord(name=name, kind="claude", branch=f"paw/{name}", worktree=str(tree),
                        base="main"),
        )  # fmt: skip
    for command in (
        "cat ../bob/src/a.py",
        f"echo x > {bob}/src/a.py",
        "echo x > shared/a.py",
        "cd ../bob && git status",
    ):
        verdict = shell(command, str(alice), CONFIG)
        assert verdict.action is Action.BLOCK, (command, verdict)
        assert "shell.other-worktree" in verdict.rules, (command, verdict)
    assert shell("echo x > src/a.py", str(alice), CONFIG).action is Action.ALLOW
    assert shell("cat ../alice/src/a.py", str(bob), CONFIG).action is Action.BLOCK  # either way


def test_the_supervisors_judge_places_home_spellings_in_the_home_it_is_given(
    tmp_path: Path,
) -> None:
    """``~/…`` and ``$HOME/…`` spellings of another agent's worktree are placed in the home the
    supervisor names (here a real directory standing for it); paw's own composition passes the
    user's (``home_directory``), an absolute path."""
    from paw.adapters.paths import home_directory
    from paw.adapters.state import StateStore
    from paw.supervisor.records import AgentRecord, store_agent
    from paw.supervisor.service import agent_worktrees, default_shell_evaluator

    home = tmp_path / "home"
    alice, bob = home / "w" / "alice", home / "w" / "bob"
    for tree in (alice, bob):
        (tree / "src").mkdir(parents=True)
    state = StateStore(tmp_path / "state")
    for name, tree in (("alice", alice), ("bob", bob)):
        store_agent(
            state,
            AgentRecord(name=name, kind="claude", branch=f"paw/{name}", worktree=str(tree),
                        base="main"),
        )  # fmt: skip
    shell = default_shell_evaluator(resolve_path, agent_worktrees(state), str(home))
    for command in ("cat ~/w/bob/src/a.py", "echo x > $HOME/w/bob/a.py", "cd ${HOME}/w/bob"):
        verdict = shell(command, str(alice), CONFIG)
        assert verdict.action is Action.BLOCK, (command, verdict)
        assert "shell.other-worktree" in verdict.rules, (command, verdict)
    assert "shell.other-worktree" not in shell("cat ~/w/alice/src/a.py", str(alice), CONFIG).rules
    real = home_directory()
    assert real is None or real.startswith("/")
