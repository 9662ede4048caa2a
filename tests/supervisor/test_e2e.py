"""End to end: real tmux (private socket), real git, the scripted demo agent, the paw CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import pytest
from libtmux.test.retry import retry_until

from paw.cli import main
from paw.cli.compose import build_supervisor
from paw.supervisor.model import LivePrompt
from tests.support.budget import budget
from tests.support.panes import wait_pane_runs

if TYPE_CHECKING:
    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git]

PAW = Path(sys.executable).parent / "paw"


class Paw(NamedTuple):
    """A repository under paw, with helpers."""

    repo: Path
    record: Path
    socket: str
    tmp: Path


@pytest.fixture
def paw_env(git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Paw:
    """A repository whose paw talks to the plugin's private tmux server."""
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.chdir(git_repo)
    return Paw(git_repo, tmp_path / "record.jsonl", server.socket_name, tmp_path)


def configure(env: Paw, *steps: str) -> None:
    """Make the scripted agent run ``steps`` and record its answers."""
    script = env.tmp / "steps.txt"
    script.write_text("\n".join(steps) + "\n", encoding="utf-8")
    command = json.dumps(["{python}", "-m", "paw.demo.agent", "--script", str(script)])
    (env.repo / "paw.toml").write_text(
        f'[agents.scripted]\ncommand = {command}\nenv = {{ PAW_DEMO_RECORD = "{env.record}" }}\n',
        encoding="utf-8",
    )


def paw(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``paw ARGS`` in-process; return (exit code, stdout, stderr)."""
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def wait_prompt(env: Paw, subject: str) -> LivePrompt:
    """Poll until the live prompt about ``subject`` shows; return it."""
    sup = build_supervisor(str(env.repo))
    found: list[LivePrompt] = []

    def shows() -> bool:
        found[:] = [p for p in sup.poll_once().prompts if p.prompt.subject == subject]
        return bool(found)

    assert retry_until(shows, budget(30), raises=False), f"no prompt about {subject!r}"
    return found[0]


def answers(env: Paw) -> list[dict[str, object]]:
    """What the scripted agent recorded."""
    if not env.record.exists():
        return []
    return [json.loads(line) for line in env.record.read_text(encoding="utf-8").splitlines()]


def audit(env: Paw) -> list[dict[str, object]]:
    """paw's audit records."""
    text = (env.repo / ".paw" / "audit.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def git(cwd: Path, *args: str) -> str:
    """Run git; return stdout."""
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout


def test_e2e_spawn_three_and_ls_json_from_a_second_process(
    paw_env: Paw, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(paw_env)
    for name in ("a1", "b2", "c3"):
        assert paw(capsys, "spawn", name, "--agent", "scripted", "--task", "t")[0] == 0
    code, out, _ = paw(capsys, "ls", "--json")
    assert code == 0
    listed = json.loads(out)["agents"]
    assert [a["name"] for a in listed] == ["a1", "b2", "c3"]
    assert len({a["pane_id"] for a in listed}) == 3
    assert [a["branch"] for a in listed] == ["paw/a1", "paw/b2", "paw/c3"]
    assert all(Path(a["worktree"]).is_dir() for a in listed)
    assert git(paw_env.repo, "worktree", "list").count("[paw/") == 3
    done = subprocess.run([str(PAW), "ls", "--json"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    second = json.loads(done.stdout)["agents"]
    assert [(a["name"], a["pane_id"], a["alive"]) for a in second] == [
        (a["name"], a["pane_id"], True) for a in listed
    ]


def test_e2e_approve_sends_the_key_and_the_agent_acts(
    paw_env: Paw, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(paw_env, "shell touch approved.txt")
    assert paw(capsys, "spawn", "alice", "--agent", "scripted")[0] == 0
    prompt = wait_prompt(paw_env, "touch approved.txt")
    code, out, err = paw(capsys, "approve", prompt.id, "--yes", "--json")
    assert code == 0, err
    assert json.loads(out)["outcome"] == "sent"
    assert retry_until(lambda: bool(answers(paw_env)), budget(30), raises=False)
    assert answers(paw_env) == [
        {
            "step": 1,
            "kind": "shell",
            "subject": "touch approved.txt",
            "key": "y",
            "decision": "approve",
        }
    ]
    worktree = paw_env.repo.parent / "repo-paw" / "alice"
    assert retry_until(lambda: (worktree / "approved.txt").exists(), budget(30), raises=False)
    events = [(r["event"], r.get("decision")) for r in audit(paw_env)]
    assert events[-2:] == [("approve", "send"), ("outcome", None)]


def _screen(server: Server, pane_id: str) -> str:
    return "\n".join(server.cmd("capture-pane", "-p", "-t", pane_id).stdout)


def test_e2e_refuses_when_agent_exited_and_a_shell_prints_the_same_prompt(
    paw_env: Paw, server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(paw_env, "shell touch approved.txt")
    paw(capsys, "spawn", "alice", "--agent", "scripted")
    prompt = wait_prompt(paw_env, "touch approved.txt")
    saved = paw_env.tmp / "screen.txt"
    saved.write_text(_screen(server, prompt.pane_id), encoding="utf-8")
    server.cmd("respawn-pane", "-k", "-t", prompt.pane_id, f"cat {saved}; exec sleep 600")
    assert retry_until(lambda: "touch approved.txt" in _screen(server, prompt.pane_id), budget(30))
    code, _, err = paw(capsys, "approve", prompt.id, "--yes")
    assert code == 1
    assert "no longer runs" in err
    assert answers(paw_env) == []
    assert audit(paw_env)[-1]["decision"] == "refuse"


def test_e2e_refuses_when_the_prompt_changed(
    paw_env: Paw, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(paw_env, "shell@0.5 ls", "shell pwd")
    paw(capsys, "spawn", "alice", "--agent", "scripted")
    first = wait_prompt(paw_env, "ls")
    wait_prompt(paw_env, "pwd")
    code, _, err = paw(capsys, "approve", first.id, "--yes")
    assert code == 1
    assert "changed" in err
    assert [a["decision"] for a in answers(paw_env)] == ["timeout"]
    assert "the prompt changed" in str(audit(paw_env)[-1]["reason"])


def test_e2e_refuses_when_pane_killed_and_another_program_took_a_pane(
    paw_env: Paw, server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(paw_env, "shell touch approved.txt")
    paw(capsys, "spawn", "alice", "--agent", "scripted")
    prompt = wait_prompt(paw_env, "touch approved.txt")
    saved = paw_env.tmp / "screen.txt"
    saved.write_text(_screen(server, prompt.pane_id), encoding="utf-8")
    server.cmd("kill-pane", "-t", prompt.pane_id)
    server.cmd("new-window", "-d", f"cat {saved}; exec sleep 600")
    code, _, err = paw(capsys, "approve", prompt.id, "--yes")
    assert code == 1
    assert "pane is gone" in err
    assert audit(paw_env)[-1]["decision"] == "refuse"


def test_e2e_guard_block_refuses_and_is_recorded(
    paw_env: Paw, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(paw_env, "write ../outside.txt")
    paw(capsys, "spawn", "alice", "--agent", "scripted")
    prompt = wait_prompt(paw_env, "../outside.txt")
    assert prompt.verdict.action.value == "block"
    code, _, err = paw(capsys, "approve", prompt.id, "--yes")
    assert code == 4
    assert "outside" in err
    assert answers(paw_env) == []
    assert audit(paw_env)[-1]["decision"] == "needs-override"


def test_e2e_unknown_id_is_refused_with_a_record(
    paw_env: Paw, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(paw_env)
    code, _, err = paw(capsys, "approve", "ffffffffff")
    assert code == 1
    assert err.splitlines()[0].startswith("paw: refused: unknown prompt id")
    assert audit(paw_env)[-1]["decision"] == "refuse"


def test_e2e_rm_refuses_unsaved_work_and_force_archives_everything(
    paw_env: Paw, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(paw_env)
    paw(capsys, "spawn", "alice", "--agent", "scripted")
    wt = paw_env.repo.parent / "repo-paw" / "alice"
    (wt / "new.txt").write_text("untracked\n", encoding="utf-8")
    code, _, err = paw(capsys, "rm", "alice")
    assert (code, "1 untracked" in err) == (1, True)
    (wt / "new.txt").unlink()
    (wt / "feature.txt").write_text("committed\n", encoding="utf-8")
    git(wt, "add", "feature.txt")
    git(wt, "commit", "-q", "-m", "feature")
    code, _, err = paw(capsys, "rm", "alice")
    assert (code, "1 commit on no other branch" in err) == (1, True)
    (wt / "README.md").write_text("# changed\n", encoding="utf-8")
    (wt / "untracked.txt").write_text("keep me\n", encoding="utf-8")
    code, _, err = paw(capsys, "rm", "alice")
    assert (code, "1 uncommitted, 1 untracked" in err) == (1, True)
    code, out, err = paw(capsys, "rm", "--force", "alice")
    assert code == 0, err
    ref = next(w for w in out.split() if w.startswith("refs/paw/archive/alice-"))
    assert not wt.exists()
    assert "paw/alice" not in git(paw_env.repo, "branch", "--list")
    restored = paw_env.tmp / "restored"
    git(paw_env.repo, "worktree", "add", "-q", "--detach", str(restored), ref)
    assert (restored / "feature.txt").read_text(encoding="utf-8") == "committed\n"
    assert (restored / "README.md").read_text(encoding="utf-8") == "# changed\n"
    assert (restored / "untracked.txt").read_text(encoding="utf-8") == "keep me\n"


def test_e2e_after_archive_restore_spawn_resume_works_on_the_restored_worktree(
    paw_env: Paw, capsys: pytest.CaptureFixture[str]
) -> None:
    """`paw archive restore` says how to get back to work, and `spawn --resume` starts an
    agent in the restored worktree; a failed or interrupted resume never takes it back
    (issue 30)."""
    configure(paw_env)
    assert paw(capsys, "spawn", "alice", "--agent", "scripted")[0] == 0
    wt = paw_env.repo.parent / "repo-paw" / "alice"
    (wt / "notes.txt").write_text("half done\n", encoding="utf-8")
    code, _, err = paw(capsys, "spawn", "alice", "--agent", "scripted", "--resume")
    assert (code, "already exists" in err) == (1, True)
    assert paw(capsys, "rm", "--force", "alice")[0] == 0
    archive = json.loads(paw(capsys, "archive", "--json")[1])["archives"][0]["id"]
    code, out, err = paw(capsys, "spawn", "alice", "--agent", "scripted", "--resume")
    assert code == 1
    assert f"paw: no worktree of 'alice' to resume at {wt}" in err
    assert "hint: `paw archive restore ID` puts an archive back there" in err
    code, out, err = paw(capsys, "archive", "restore", archive)
    assert code == 0, err
    assert "  work on it again: paw spawn alice --agent KIND --resume\n" in out
    code, _, err = paw(capsys, "spawn", "alice", "--agent", "scripted")  # afresh: refused
    assert (code, "branch paw/alice already exists" in err) == (1, True)
    code, out, err = paw(capsys, "spawn", "alice", "--agent", "scripted", "--resume", "--json")
    assert code == 0, err
    agent = json.loads(out)["agent"]
    assert (agent["worktree"], agent["branch"]) == (str(wt), "paw/alice")
    assert (wt / "notes.txt").read_text(encoding="utf-8") == "half done\n"
    listed = json.loads(paw(capsys, "ls", "--json")[1])["agents"]
    assert [(a["name"], a["alive"], a["stat"]["untracked"]) for a in listed] == [("alice", True, 1)]
    code, _, err = paw(capsys, "rm", "alice")  # its work is protected like any agent's
    assert (code, "1 untracked" in err) == (1, True)
    # a resumed spawn interrupted before its pane (kill -9): undone, the worktree stays
    assert paw(capsys, "stop", "alice")[0] == 0
    agents = paw_env.repo / ".paw" / "agents.json"
    data = json.loads(agents.read_text(encoding="utf-8"))
    data["agents"][0].update(pending="spawning", pane_id=None)
    agents.write_text(json.dumps(data), encoding="utf-8")
    assert json.loads(paw(capsys, "ls", "--json")[1])["agents"] == []
    assert (wt / "notes.txt").read_text(encoding="utf-8") == "half done\n"
    assert "paw/alice" in git(paw_env.repo, "branch", "--list")
    assert paw(capsys, "spawn", "alice", "--agent", "scripted", "--resume")[0] == 0


class BadInput(NamedTuple):
    test_id: str
    args: tuple[str, ...]


BAD_INPUTS = [
    BadInput("space", ("spawn", "a b", "--agent", "scripted")),
    BadInput("quote", ("spawn", "a'b", "--agent", "scripted")),
    BadInput("semicolon", ("spawn", "a;rm", "--agent", "scripted")),
    BadInput("dotdot", ("spawn", "..", "--agent", "scripted")),
    BadInput("tmux-target", ("spawn", "a:b", "--agent", "scripted")),
    BadInput("tmux-pane", ("spawn", "%1", "--agent", "scripted")),
    BadInput("unknown-kind", ("spawn", "alice", "--agent", "gpt-9")),
]


@pytest.mark.parametrize(BadInput._fields, BAD_INPUTS, ids=[c.test_id for c in BAD_INPUTS])
def test_e2e_bad_input_exits_2_with_one_line(
    paw_env: Paw, capsys: pytest.CaptureFixture[str], test_id: str, args: tuple[str, ...]
) -> None:
    del test_id
    configure(paw_env)
    code, _, err = paw(capsys, *args)
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert git(paw_env.repo, "worktree", "list").count("\n") == 1


def test_e2e_malformed_paw_toml_exits_2_with_one_line(
    paw_env: Paw, capsys: pytest.CaptureFixture[str]
) -> None:
    (paw_env.repo / "paw.toml").write_text("[tmux\nsession = 1\n", encoding="utf-8")
    code, _, err = paw(capsys, "ls")
    assert code == 2
    assert err.count("\n") == 1
    assert err.startswith("paw: paw.toml:1: invalid TOML")
    (paw_env.repo / "paw.toml").write_text("[tmux]\nsesion = 'x'\n", encoding="utf-8")
    code, out, _ = paw(capsys, "config", "check")
    assert code == 2
    assert out.startswith("paw.toml:2: tmux.sesion: unknown key")


def test_e2e_git_commit_confirmation_shows_git_details(
    paw_env: Paw, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(paw_env, 'shell git commit -am "wip: tidy readme"')
    paw(capsys, "spawn", "alice", "--agent", "scripted")
    wt = paw_env.repo.parent / "repo-paw" / "alice"
    (wt / "README.md").write_text("# tidied\n", encoding="utf-8")
    prompt = wait_prompt(paw_env, 'git commit -am "wip: tidy readme"')
    code, out, _ = paw(capsys, "approve", prompt.id, "--json")
    assert code == 3
    confirmation = json.loads(out)["confirmation"]
    assert "wip: tidy readme" in confirmation
    assert "README.md" in confirmation
    assert answers(paw_env) == []


def test_e2e_git_push_confirmation_reads_past_push_options(
    paw_env: Paw, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 31: for `git push -o ci.skip origin main` the confirmation said "Remote: ci.skip /
    Branch: origin" and dropped the protected-branch warning plain `git push origin main` shows."""
    configure(paw_env, "shell git push -o ci.skip origin main")
    paw(capsys, "spawn", "alice", "--agent", "scripted")
    prompt = wait_prompt(paw_env, "git push -o ci.skip origin main")
    code, out, _ = paw(capsys, "approve", prompt.id, "--json")
    assert code == 3
    lines = json.loads(out)["confirmation"].splitlines()
    assert "WARNING: this pushes straight to the protected branch main." in lines
    assert ("Remote: origin" in lines, "Branch: main" in lines) == (True, True)
    assert answers(paw_env) == []


def test_e2e_git_commit_confirmation_says_what_answers_it(
    paw_env: Paw, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 30: the CLI printed "needs-confirmation: needs confirmation …" and ended with
    git-guardrails' "Reply YES to confirm.", though only `--yes` (or `y` at a terminal) works."""
    configure(paw_env, 'shell git commit -am "wip: tidy readme"')
    paw(capsys, "spawn", "alice", "--agent", "scripted")
    wt = paw_env.repo.parent / "repo-paw" / "alice"
    (wt / "README.md").write_text("# tidied\n", encoding="utf-8")
    prompt = wait_prompt(paw_env, 'git commit -am "wip: tidy readme"')
    code, _, err = paw(capsys, "approve", prompt.id)
    assert code == 3
    lines = err.strip().splitlines()
    assert lines[0].startswith("paw: needs confirmation: "), lines[0]
    assert "needs-confirmation: needs confirmation" not in err
    assert "Reply YES" not in err
    assert "wip: tidy readme" in err
    assert lines[-1] == f"hint: to confirm, run `paw approve {prompt.id} --yes`"
    code, out, _ = paw(capsys, "approve", prompt.id, "--json")
    assert code == 3
    payload = json.loads(out)
    assert "Reply YES" not in payload["confirmation"]
    assert "--yes" in payload["error"]["hint"]
    assert answers(paw_env) == []


def test_e2e_send_types_literally_and_stop_keeps_the_work(
    paw_env: Paw, server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(paw_env)
    sub = paw_env.repo / "docs"
    sub.mkdir()
    assert paw(capsys, "spawn", "-C", str(sub), "alice", "--agent", "scripted")[0] == 0
    [agent] = json.loads(paw(capsys, "ls", "--json")[1])["agents"]
    assert retry_until(lambda: "demo>" in _screen(server, agent["pane_id"]), budget(30))
    assert paw(capsys, "send", "alice", "Enter; kill-server 'q'")[0] == 0
    shown = "received: Enter; kill-server 'q'"
    assert retry_until(lambda: shown in _screen(server, agent["pane_id"]), budget(30))
    code, out, _ = paw(capsys, "attach", "alice", "--print")
    assert (code, agent["pane_id"] in out) == (0, True)
    assert paw(capsys, "stop", "alice")[0] == 0
    [stopped] = json.loads(paw(capsys, "ls", "--json")[1])["agents"]
    assert (stopped["alive"], stopped["status"]) == (False, "exited")
    assert Path(agent["worktree"]).is_dir()


def test_e2e_stdin_typed_task_waits_for_the_idle_input(
    paw_env: Paw, server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(paw_env)
    with (paw_env.repo / "paw.toml").open("a", encoding="utf-8") as fh:
        fh.write('task_mode = "stdin-typed"\n')
    assert paw(capsys, "spawn", "alice", "--agent", "scripted", "--task", "fix the bug")[0] == 0
    [agent] = json.loads(paw(capsys, "ls", "--json")[1])["agents"]
    assert retry_until(
        lambda: "received: fix the bug" in _screen(server, agent["pane_id"]), budget(30)
    )


def test_e2e_adopt_only_a_pane_that_runs_an_agent(
    paw_env: Paw, server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(paw_env)
    shell = server.cmd("new-session", "-d", "-P", "-F", "#{pane_id}", "exec sleep 600").stdout[0]
    code, _, err = paw(capsys, "adopt", shell)
    assert (code, "does not run a known agent" in err) == (1, True)
    agent_cmd = f"{sys.executable} -m paw.demo.agent --script /dev/null"
    pane = server.cmd("new-window", "-d", "-P", "-F", "#{pane_id}", agent_cmd).stdout[0]
    wait_pane_runs(server, pane, "paw.demo.agent")
    code, out, err = paw(capsys, "adopt", pane, "--name", "found", "--json")
    assert code == 0, err
    adopted = json.loads(out)["agent"]
    assert (adopted["kind"], adopted["pane_id"]) == ("scripted", pane)
    assert retry_until(
        lambda: json.loads(paw(capsys, "ls", "--json")[1])["agents"][0]["status"] == "idle",
        budget(30),
        raises=False,
    )


def test_e2e_rm_of_an_adopted_agent_leaves_the_users_pane_and_says_so(
    paw_env: Paw, server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    """The user started that pane: `paw rm` stops supervising it, never kills it, and says
    which pane keeps running; `paw stop` is the way to end it (issue 30)."""
    configure(paw_env)
    agent_cmd = f"{sys.executable} -m paw.demo.agent --script /dev/null"
    pane = server.cmd("new-session", "-d", "-P", "-F", "#{pane_id}", agent_cmd).stdout[0]
    wait_pane_runs(server, pane, "paw.demo.agent")
    assert paw(capsys, "adopt", pane, "--name", "mine")[0] == 0
    code, out, err = paw(capsys, "rm", "mine")
    assert (code, err) == (0, "")
    assert out == (
        f"stopped supervising mine; its pane {pane} (started outside paw) keeps running: "
        "end it there, or `paw stop mine` before `paw rm` next time\n"
    )
    panes = server.cmd("list-panes", "-a", "-F", "#{pane_id} #{pane_dead}").stdout
    assert f"{pane} 0" in panes
    assert json.loads(paw(capsys, "ls", "--json")[1])["agents"] == []
    released = [r for r in audit(paw_env) if r["event"] == "release"]
    assert [(r["agent"], r["pane"], r["killed"]) for r in released] == [("mine", pane, False)]
    assert not [r for r in audit(paw_env) if r["event"] == "stop"]
    # adopted again, then `paw stop` ends it, and `paw rm` just forgets it
    assert paw(capsys, "adopt", pane, "--name", "mine")[0] == 0
    assert paw(capsys, "stop", "mine")[0] == 0
    code, out, err = paw(capsys, "rm", "mine", "--json")
    assert code == 0, err
    assert (
        json.loads(out)["message"] == "stopped supervising mine (adopted; its pane is already gone)"
    )


def test_e2e_state_dir_is_invisible_to_git(
    paw_env: Paw, capsys: pytest.CaptureFixture[str]
) -> None:
    assert paw(capsys, "approve", "0000000000")[0] == 1
    assert (paw_env.repo / ".paw" / "audit.jsonl").exists()
    assert git(paw_env.repo, "status", "--porcelain") == ""


def test_e2e_two_processes_approving_at_once_send_once(
    paw_env: Paw, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(paw_env, "shell touch approved.txt", "shell touch second.txt")
    paw(capsys, "spawn", "alice", "--agent", "scripted")
    prompt = wait_prompt(paw_env, "touch approved.txt")
    sups = [build_supervisor(str(paw_env.repo)) for _ in range(2)]
    with ThreadPoolExecutor(2) as pool:
        outcomes = sorted(
            d.outcome.value for d in pool.map(lambda s: s.approve(prompt.id, confirmed=True), sups)
        )
    assert outcomes == ["refused", "sent"]
    assert retry_until(lambda: bool(answers(paw_env)), budget(30), raises=False)
    assert [a["subject"] for a in answers(paw_env)] == ["touch approved.txt"]


def path_with(tmp_path: Path, *tools: str) -> Path:
    """A directory for PATH holding only ``tools`` (links to the real programs)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in tools:
        found = subprocess.run(["which", tool], capture_output=True, text=True, check=True)
        (bin_dir / tool).symlink_to(found.stdout.strip())
    return bin_dir


def test_spawn_without_tmux_on_path_says_so_and_creates_nothing(
    paw_env: Paw, tmp_path: Path
) -> None:
    bin_dir = path_with(tmp_path, "git", "python3")  # no tmux
    done = subprocess.run(
        [str(PAW), "spawn", "alice", "--agent", "scripted"],
        capture_output=True, text=True, check=False, cwd=paw_env.repo,
        env={"PATH": str(bin_dir), "HOME": str(tmp_path), "PAW_TMUX_SOCKET": paw_env.socket},
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[0] == "paw: tmux is not installed (no `tmux` on PATH)"
    assert "Traceback" not in done.stderr
    branches = subprocess.run(
        ["git", "branch", "--list", "paw/*"], cwd=paw_env.repo, capture_output=True, text=True,
        check=True,
    ).stdout  # fmt: skip
    assert branches == ""
    assert not (paw_env.repo.parent / f"{paw_env.repo.name}-paw" / "alice").exists()


def test_spawn_of_an_agent_cli_not_on_path_says_so_and_creates_nothing(
    paw_env: Paw, tmp_path: Path
) -> None:
    bin_dir = path_with(tmp_path, "git", "python3", "tmux")  # no agent CLI
    done = subprocess.run(
        [str(PAW), "spawn", "alice", "--agent", "claude-code", "--task", "hi"],
        capture_output=True, text=True, check=False, cwd=paw_env.repo,
        env={"PATH": str(bin_dir), "HOME": str(tmp_path), "PAW_TMUX_SOCKET": paw_env.socket},
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[0] == (
        "paw: claude-code: claude is not installed (no `claude` on PATH)"
    )
    listed = subprocess.run(
        [str(PAW), "ls", "--json"], capture_output=True, text=True, check=True,
        cwd=paw_env.repo, env={"PATH": str(bin_dir), "HOME": str(tmp_path),
                               "PAW_TMUX_SOCKET": paw_env.socket},
    )  # fmt: skip
    assert json.loads(listed.stdout) == {"agents": []}
    assert not (paw_env.repo.parent / f"{paw_env.repo.name}-paw" / "alice").exists()


def test_e2e_always_is_a_policy_change_confirmed_recorded_and_refused_when_guarded(
    paw_env: Paw, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(paw_env, "shell echo hello", "shell git push origin main")
    assert paw(capsys, "spawn", "alice", "--agent", "scripted")[0] == 0
    prompt = wait_prompt(paw_env, "echo hello")
    code, out, _ = paw(capsys, "approve", prompt.id, "--always", "--json")
    assert code == 3  # the remembered scope is wider than this command: confirm first
    shown = json.loads(out)
    assert shown["outcome"] == "needs-confirmation"
    assert "'always' makes the agent remember: always" in shown["confirmation"]
    assert "git push --force origin main (block)" in shown["confirmation"]
    assert answers(paw_env) == []
    code, out, err = paw(capsys, "approve", prompt.id, "--always", "--yes", "--json")
    assert code == 0, err
    assert retry_until(lambda: bool(answers(paw_env)), budget(30), raises=False)
    assert [(a["key"], a["decision"]) for a in answers(paw_env)] == [("a", "always")]
    [sent] = [r for r in audit(paw_env) if r["event"] == "approve" and r["decision"] == "send"]
    assert isinstance(sent["always"], dict)
    assert sent["always"]["label"] == "always"
    assert sent["always"]["broader"] is True
    guarded = wait_prompt(paw_env, "git push origin main")
    code, out, _ = paw(capsys, "approve", guarded.id, "--always", "--yes", "--json")
    assert code == 1
    assert "'always' is refused for a confirm verdict" in json.loads(out)["reason"]
    assert len(answers(paw_env)) == 1  # nothing more reached the agent
