"""The CLI grammar on real tmux (a private socket) and real git: one `--json` convention for every
command (errors included), one line outside a repository, the same truth from `ls` and `prompts`
when the tmux server is gone, "already answered" for a second decision, headers on tables, and
`--help` with examples everywhere."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from libtmux.test.retry import retry_until

from paw.cli import build_parser, main
from paw.cli.compose import build_supervisor
from tests.support.budget import budget
from tests.support.panes import wait_pane_runs

if TYPE_CHECKING:
    from libtmux.server import Server

    from paw.supervisor.model import LivePrompt

pytestmark = [pytest.mark.tmux, pytest.mark.git]

# Commands that act, and so print a result object with --json (issue: every one of them).
ACTING = ("init", "spawn", "send", "stop", "rm", "adopt", "approve", "deny")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``paw ARGS`` in-process: (exit code, stdout, stderr)."""
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    """``paw ARGS --json``: stdout must be exactly one JSON object, stderr empty; an `error`
    member exactly when the exit code says failure."""
    code, out, err = run(capsys, *args, "--json")
    data = json.loads(out)  # one document: json.loads rejects anything after it
    assert isinstance(data, dict), out
    assert err == "", err
    if code in (0, 10, 11, 20) and args[0] in ("check", "detect"):
        assert "error" not in data
    elif code == 0:
        assert "error" not in data, data
    else:
        assert data["error"]["exit_code"] == code, data
        assert data["error"]["message"]
    return code, data


@pytest.fixture
def repo(git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose paw uses the plugin's private tmux server; the scripted agent asks
    `touch one.txt`, then `touch two.txt`, then idles."""
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.chdir(git_repo)
    script = tmp_path / "steps.txt"
    script.write_text("shell touch one.txt\nshell touch two.txt\n", encoding="utf-8")
    command = json.dumps(["{python}", "-m", "paw.demo.agent", "--script", str(script)])
    (git_repo / "paw.toml").write_text(
        f"[agents.scripted]\ncommand = {command}\n", encoding="utf-8"
    )
    return git_repo


def wait_prompt(repo: Path, subject: str) -> LivePrompt:
    sup = build_supervisor(str(repo))
    found: list[LivePrompt] = []

    def shows() -> bool:
        found[:] = [p for p in sup.poll_once().prompts if p.prompt.subject == subject]
        return bool(found)

    assert retry_until(shows, budget(90), raises=False), f"no prompt about {subject!r}"
    return found[0]


def wait_status(capsys: pytest.CaptureFixture[str], status: str) -> None:
    def reached() -> bool:
        return bool(run_json(capsys, "ls")[1]["agents"][0]["status"] == status)

    assert retry_until(reached, budget(90), raises=False), f"never {status}"


def subcommands() -> dict[str, argparse.ArgumentParser]:
    """Every command's parser by name (``config check`` included)."""
    parser = build_parser()
    found: dict[str, argparse.ArgumentParser] = {}

    def walk(p: argparse.ArgumentParser, prefix: str) -> None:
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    full = f"{prefix}{name}"
                    nested = [
                        a for a in child._actions if isinstance(a, argparse._SubParsersAction)
                    ]
                    if nested:
                        walk(child, f"{full} ")
                    else:
                        found[full] = child

    walk(parser, "")
    return found


def _has_json(p: argparse.ArgumentParser) -> bool:
    return any("--json" in a.option_strings for a in p._actions)


# -- the --json convention, command by command ------------------------------------------------


def test_every_acting_and_reporting_command_has_json() -> None:
    commands = subcommands()
    without = sorted(n for n, p in commands.items() if not _has_json(p))
    # interactive ones only: they take over the terminal
    assert without == ["attach", "demo", "serve", "tui"]
    assert all(_has_json(commands[n]) for n in ACTING)


def test_json_convention_holds_for_every_command_through_an_agent_life(
    repo: Path, server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: set[str] = set()

    def j(*args: str) -> tuple[int, dict[str, Any]]:
        two = ("config", "wave", "archive", "host")
        seen.add(" ".join(args[:2]) if args[0] in two else args[0])
        return run_json(capsys, *args)

    (repo / "paw.toml").rename(tmp_path / "kept.toml")
    assert j("init") == (0, {"file": str(repo / "paw.toml"), "written": True, "replaced": False})
    (tmp_path / "kept.toml").replace(repo / "paw.toml")
    assert j("config", "check")[1]["problems"] == []
    code, spawned = j("spawn", "alice", "--agent", "scripted", "--task", "t")
    assert code == 0
    assert spawned["agent"]["name"] == "alice"
    assert spawned["agent"]["branch"] == "paw/alice"
    first = wait_prompt(repo, "touch one.txt")
    code, listed = j("prompts")
    assert (code, [p["id"] for p in listed["prompts"]]) == (0, [first.id])
    assert listed["prompts"][0]["verdict"] == "allow"
    code, sent = j("send", "alice", "hello")  # refused: a prompt shows
    assert code == 1
    assert "permission prompt" in sent["error"]["message"]
    assert sent["error"]["hint"]
    assert (sent["refused"], sent["typed"], sent["enter"]) == ("not-idle", False, False)
    code, decided = j("approve", first.id)
    assert (code, decided["outcome"], decided["keys"]) == (0, "sent", ["y"])
    second = wait_prompt(repo, "touch two.txt")
    code, denied = j("deny", second.id)
    assert (code, denied["outcome"]) == (0, "sent")
    wait_status(capsys, "idle")
    code, sent = j("send", "alice", "hello")
    assert (code, sent) == (0, {"agent": "alice", "pane_id": spawned["agent"]["pane_id"],
                                "text": "hello", "enter": True})  # fmt: skip
    code, listed = j("ls")
    assert (code, [a["name"] for a in listed["agents"]]) == (0, ["alice"])
    code, log = j("log", "-n", "50")
    assert code == 0
    sends = [r for r in log["records"] if r["event"] == "send"]
    assert [r.get("decision") for r in sends] == ["refuse", None]  # the refusal is recorded too
    assert j("stats")[1]["stats"]["alice"]["approved"] == 1
    code, stopped = j("stop", "alice")
    assert (code, stopped["stopped"], stopped["branch"]) == (0, True, "paw/alice")
    code, removed = j("rm", "alice", "--force")  # one.txt is untracked work
    assert (code, removed["removed"], removed["agent"]) == (0, True, "alice")
    code, archives = j("archive", "list")
    [archived] = archives["archives"]
    assert (code, archived["agent"], archived["branch"]) == (0, "alice", "paw/alice")
    code, restored = j("archive", "restore", archived["id"], "--to", str(tmp_path / "back"))
    assert (code, restored["branch"]) == (0, "paw/alice")
    assert (tmp_path / "back" / "one.txt").exists()
    code, pruned = j("archive", "prune", archived["id"], "--yes")
    assert (code, [a["id"] for a in pruned["pruned"]]) == (0, [archived["id"]])
    pane = server.cmd(
        "new-session", "-d", "-P", "-F", "#{pane_id}",
        f"{sys.executable} -m paw.demo.agent --script /dev/null",
    ).stdout[0]  # fmt: skip
    wait_pane_runs(server, pane, "paw.demo.agent")
    code, adopted = j("adopt", pane, "--name", "found")
    assert (code, adopted["agent"]["name"], adopted["agent"]["kind"]) == (0, "found", "scripted")
    code, checked = j("check", "git push --force")
    assert (code, checked["verdict"]) == (20, "block")
    screen = tmp_path / "screen.txt"
    screen.write_text("nothing here\n", encoding="utf-8")
    assert j("detect", "--agent", "scripted", str(screen))[0] in (10, 11)
    assert "checks" in j("doctor")[1]
    wave = tmp_path / "w.toml"
    wave.write_text(
        'name = "w"\nagent = "no-such-agent"\n[notify]\nbell = false\n'
        '[[tasks]]\nname = "a"\ntask = "x"\n',
        encoding="utf-8",
    )
    code, checked = j("wave", "check", str(wave))
    assert code == 2
    assert "unknown agent kind 'no-such-agent'" in checked["problems"][0]
    code, ran = j("wave", "run", str(wave))
    assert (code, ran["status"], ran["error"]["hint"]) == (1, "failed", "paw wave report w")
    assert j("wave", "status")[1]["status"] == "failed"
    assert j("wave", "report")[1]["tasks"][0]["outcome"].startswith("could not start")
    assert j("wave", "resume")[1]["status"] == "failed"
    code, landed = j("wave", "land")  # no task finished: nothing to land, said in the object
    assert (code, landed["wave"], landed["tasks"], landed["base_commits"]) == (0, "w", [], [])
    assert j("wave", "stop")[1]["status"] == "failed"
    far = ("far", "ssh://nobody@127.0.0.1:1", "--repo", "/srv/x", "--no-check")
    code, added = j("host", "add", *far)
    assert (code, added["host"]["name"], added["checked"]) == (0, "far", False)
    assert [h["name"] for h in j("host", "ls")[1]["hosts"]] == ["far"]
    code, checked = j("host", "check", "far")  # nothing listens on port 1
    assert (code, checked["reachable"]) == (1, False)
    assert j("host", "rm", "far") == (0, {"host": "far", "removed": True})
    # every command with --json was driven above
    assert seen == {n for n, p in subcommands().items() if _has_json(p)}


@pytest.mark.parametrize(
    "args",
    [
        ("ls",), ("prompts",), ("log",), ("stats",), ("init",), ("config", "check"),
        ("spawn", "a", "--agent", "scripted"), ("send", "a", "x"), ("stop", "a"), ("rm", "a"),
        ("adopt", "%1"), ("approve", "0000000000"), ("deny", "0000000000"),
    ],
)  # fmt: skip
def test_errors_under_json_are_one_json_object(
    args: tuple[str, ...],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)  # not a repository
    code, data = run_json(capsys, *args)
    assert code == 1
    assert data["error"]["message"].startswith("not inside a git repository")


def test_usage_errors_under_json_are_json_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "ls", "--bogus")
    assert code == 2
    assert "unrecognized arguments: --bogus" in data["error"]["message"]
    code, data = run_json(capsys, "spawn", "bad name", "--agent", "scripted")
    assert code == 2
    code, data = run_json(capsys, "spawn")
    assert (code, "--agent" in data["error"]["message"]) == (2, True)
    code, out, err = run(capsys, "ls", "--bogus")
    assert (code, out) == (2, "")
    assert err.splitlines()[-1] == "paw: unrecognized arguments: --bogus"


# -- outside a repository --------------------------------------------------------------------

NEEDS_REPO = [
    ("ls",), ("prompts",), ("log",), ("stats",), ("init",), ("config", "check"),
    ("spawn", "a", "--agent", "scripted"), ("send", "a", "x"), ("stop", "a"), ("rm", "a"),
    ("adopt", "%1"), ("approve", "0000000000"), ("deny", "0000000000"), ("attach", "a"),
    ("tui",),
]  # fmt: skip


@pytest.mark.parametrize("args", NEEDS_REPO)
def test_outside_a_repository_every_command_says_one_line(
    args: tuple[str, ...],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args)
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "paw: not inside a git repository (cd into one, pass -C DIR, or try `paw demo`)"
    ]


def test_a_missing_dash_c_directory_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = run(capsys, "ls", "-C", str(tmp_path / "nope"))
    assert (code, err) == (2, f"paw: no such directory: {tmp_path / 'nope'}\n")


# -- no tmux server ---------------------------------------------------------------------------


def _no_server(server: Server) -> bool:
    """True once tmux says no server runs on ``server``'s socket (it has exited)."""
    done = subprocess.run(
        ["tmux", "-L", str(server.socket_name), "list-sessions"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    return done.returncode != 0 and "no server running" in done.stderr


def test_without_the_tmux_server_ls_and_prompts_say_the_same_true_thing(
    repo: Path, server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "spawn", "alice", "--agent", "scripted")[0] == 0
    wait_prompt(repo, "touch one.txt")
    server.kill()
    # until the server has exited: while it exits, tmux says "server exited unexpectedly",
    # and after, "no server running on …" (each listing repeats tmux's words)
    assert retry_until(lambda: _no_server(server), budget(30.0), raises=False)
    code, out, ls_err = run(capsys, "ls")
    assert code == 1
    header, row = out.splitlines()
    assert header.split()[:5] == ["NAME", "KIND", "PANE", "ALIVE", "STATE"]
    assert row.split()[3:5] == ["?", "unknown"]  # not "exited": paw cannot tell
    assert "exited" not in out
    code, out, prompts_err = run(capsys, "prompts")
    assert (code, out) == (1, "")
    assert ls_err == prompts_err
    assert "server is gone" in ls_err
    assert "the agents' state is unknown" in ls_err
    code, data = run_json(capsys, "ls")
    assert code == 1
    assert [(a["name"], a["status"], a["alive"]) for a in data["agents"]] == [
        ("alice", "unknown", None)
    ]
    assert data["error"]["message"] == ls_err.splitlines()[0].removeprefix("paw: ")
    code, data = run_json(capsys, "prompts")
    assert (code, data["prompts"]) == (1, [])
    assert data["error"]["message"] == ls_err.splitlines()[0].removeprefix("paw: ")


# -- decisions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("verb", ["deny", "approve"])
def test_a_second_decision_on_an_answered_prompt_says_already_answered(
    verb: str, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "spawn", "alice", "--agent", "scripted")[0] == 0
    prompt = wait_prompt(repo, "touch one.txt")
    code, out, err = run(capsys, verb, prompt.id)
    assert code == 0, err
    assert out.startswith(f"sent {'n' if verb == 'deny' else 'y'} to prompt {prompt.id}")
    wait_prompt(repo, "touch two.txt")  # the agent moved on: a new prompt shows now
    for again in ("deny", "approve"):
        code, out, err = run(capsys, again, prompt.id)
        assert (code, out) == (1, "")
        past = "denied" if verb == "deny" else "approved"
        assert err.startswith(f"paw: refused: already answered: {past}"), err
        assert "changed" not in err
    code, data = run_json(capsys, "deny", prompt.id)
    assert (code, data["outcome"]) == (1, "refused")
    assert data["reason"].startswith(f"already answered: {past}")
    sent = [r for r in audit(repo) if r.get("decision") == "send"]
    assert len(sent) == 1  # nothing more was sent


def audit(repo: Path) -> list[dict[str, Any]]:
    text = (repo / ".paw" / "audit.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


# -- text output --------------------------------------------------------------------------------


def test_send_says_what_it_did_and_tables_have_headers(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "spawn", "alice", "--agent", "scripted")[0] == 0
    prompt = wait_prompt(repo, "touch one.txt")
    code, out, _ = run(capsys, "prompts")
    assert code == 0
    assert out.splitlines()[0].split() == [
        "ID",
        "AGENT",
        "PROMPT",
        "VERDICT",
        "FROM",
        "AGE",
        "SUBJECT",
    ]
    assert out.splitlines()[1].split()[:5] == [prompt.id, "alice", "shell", "allow", "screen"]
    code, data = run_json(capsys, "prompts")  # a scripted agent has no channel: the screen's
    listed = data["prompts"][0]
    assert (listed["source"], listed["channel_request"], listed["channel_subject"]) == (
        "screen", None, None,
    )  # fmt: skip
    assert listed["screen_subject"] is None  # (only a fusion names what each source says)
    assert run(capsys, "approve", prompt.id)[0] == 0
    second = wait_prompt(repo, "touch two.txt")
    assert run(capsys, "deny", second.id)[0] == 0
    wait_status(capsys, "idle")
    code, out, err = run(capsys, "send", "alice", "also update the changelog")
    assert (code, err) == (0, "")
    pane = build_supervisor(str(repo)).agent("alice").pane_id
    assert out == (
        f"typed 'also update the changelog' and Enter into alice (pane {pane}); "
        "recorded in `paw log`\n"
    )
    code, out, _ = run(capsys, "log")
    assert out.splitlines()[0].split() == ["TIME", "EVENT", "AGENT", "DECISION", "DETAIL"]
    assert "also update the changelog" in out
    assert run(capsys, "ls")[1].splitlines()[0].startswith("NAME")
    assert run(capsys, "stats")[1].splitlines()[0].startswith("AGENT")


# -- help ----------------------------------------------------------------------------------------


def test_every_command_help_teaches_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    commands = subcommands()
    assert len(commands) >= 18
    missing = []
    for name in commands:
        code, out, _ = run(capsys, *name.split(), "--help")
        assert code == 0
        if "example" not in out or f"paw {name}" not in out.split("example", 1)[1]:
            missing.append(name)
    assert missing == []


def test_cli_doc_states_the_json_convention_and_every_exit_code() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    assert "## JSON output" in text
    assert '{"error": {"message"' in text
    for name in subcommands():
        assert f"`paw {name}" in text, name
