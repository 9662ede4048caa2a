"""Rough edges a newcomer hit (issue 30), each reproduced on real git (and tmux where it
matters): a count of 0 or less for `paw log` is a usage error, not "no audit records yet"; the
global options `-C DIR` and `--json` work before the sub-command as after it, like git's;
`paw attach` inside another tmux says which keys leave the agent's pane."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from paw.adapters.audit import JsonlAuditLog
from paw.cli import agent_commands, main
from paw.core.detect.registry import all_specs

if TYPE_CHECKING:
    from libtmux.server import Server

pytestmark = [pytest.mark.git]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``paw ARGS`` in-process: (exit code, stdout, stderr)."""
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def audited(git_repo: Path) -> Path:
    """A repository whose audit log holds 30 records."""
    log = JsonlAuditLog(git_repo / ".paw" / "audit.jsonl")
    for i in range(30):
        log.append({"time": 1_700_000_000 + i, "event": "send", "agent": "a", "text": f"t{i}"})
    return git_repo


@pytest.mark.parametrize("count", ["0", "-5", "many"])
def test_log_with_a_count_below_one_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], audited: Path, count: str
) -> None:
    code, out, err = run(capsys, "log", "-C", str(audited), "-n", count)
    assert code == 2, (out, err)
    assert "no audit records" not in out + err
    assert f"paw: argument -n: not a positive whole number: {count!r}" in err
    code, out, err = run(capsys, "log", "-C", str(audited), "-n", count, "--json")
    assert code == 2
    assert json.loads(out)["error"]["exit_code"] == 2
    code, out, _ = run(capsys, "log", "-C", str(audited), "-n", "3", "--json")
    assert code == 0
    assert [r["text"] for r in json.loads(out)["records"]] == ["t27", "t28", "t29"]


def test_global_options_work_before_the_command(
    capsys: pytest.CaptureFixture[str],
    audited: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # not a repository: only -C can find it
    after = run(capsys, "log", "-n", "2", "-C", str(audited), "--json")
    for before in (
        ("-C", str(audited), "--json", "log", "-n", "2"),
        ("--json", "-C", str(audited), "log", "-n", "2"),
        (f"-C{audited}", "log", "-n", "2", "--json"),
        ("--json", "log", "-n", "2", "-C", str(audited)),
    ):
        assert run(capsys, *before) == after, before
    assert after[0] == 0
    assert len(json.loads(after[1])["records"]) == 2
    # a -C after the command is read relative to one before it, as git does
    assert (
        run(capsys, "-C", str(audited.parent), "log", "-C", audited.name, "-n", "2", "--json")[:2]
        == after[:2]
    )
    code, out, err = run(capsys, "-C", str(audited), "ls")
    assert (code, err) == (0, "")
    assert out.startswith("no agents")
    # the parser and the docs say so
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "-C DIR" in out
    assert "before or after COMMAND" in out
    doc = (Path(__file__).parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    assert "`paw -C DIR COMMAND`" in doc


def test_a_global_option_a_command_lacks_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], audited: Path
) -> None:
    code, out, err = run(capsys, "-C", str(audited), "check", "ls")
    assert code == 2
    assert err.splitlines()[-1] == "paw: `paw check` reads no repository: -C does not apply"
    code, out, err = run(capsys, "--json", "attach", "a")
    assert code == 2
    assert json.loads(out)["error"]["message"] == "`paw attach` has no --json"
    code, out, err = run(capsys, "-C", str(audited / "nope"), "ls")
    assert (code, err) == (2, f"paw: no such directory: {audited / 'nope'}\n")


@pytest.mark.tmux
def test_attach_inside_another_tmux_says_which_keys_detach(
    capsys: pytest.CaptureFixture[str],
    git_repo: Path,
    server: Server,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    command = json.dumps(["{python}", "-m", "paw.demo.agent", "--script", "/dev/null"])
    (git_repo / "paw.toml").write_text(f"[agents.idle]\ncommand = {command}\n", encoding="utf-8")
    assert run(capsys, "-C", str(git_repo), "spawn", "a", "--agent", "idle")[0] == 0
    ran: list[list[str]] = []
    monkeypatch.setattr(agent_commands, "_exec", ran.append)
    # without a terminal: paw's own line, never tmux's "open terminal failed"
    monkeypatch.setenv("TMUX", f"{tmp_path}/their-server,1234,0")
    code, _, err = run(capsys, "-C", str(git_repo), "attach", "a")
    assert (code, ran) == (1, [])
    assert err == (
        "paw: `paw attach` needs a terminal: its input is not one\n"
        "hint: run it in a terminal; `paw attach a --print` prints the tmux command\n"
    )
    monkeypatch.setattr("sys.stdin", Terminal())
    # the user's own tmux, another server: a nested client, and the keys that leave it
    code, _, err = run(capsys, "-C", str(git_repo), "attach", "a")
    assert code == 1  # (exec replaced here: it returned)
    assert ran[-1][:3] == ["env", "-u", "TMUX"]
    assert "attach-session" in ran[-1]
    assert "prefix d would detach YOUR session" in err
    assert "press the prefix twice, then d (C-b C-b d" in err
    # on paw's own server: switch-client, nothing nested, nothing to say
    own = server.cmd("display-message", "-p", "#{socket_path}").stdout[0]
    monkeypatch.setenv("TMUX", f"{own},1234,0")
    _, _, err = run(capsys, "-C", str(git_repo), "attach", "a")
    assert "switch-client" in ran[-1]
    assert err == ""
    _, out, _ = run(capsys, "attach", "--help")
    assert "C-b C-b d" in out


class Terminal:
    """A stdin that is a terminal (for `paw attach`, whose exec is replaced)."""

    def isatty(self) -> bool:
        return True


def test_stats_rows_add_up_to_all(capsys: pytest.CaptureFixture[str], audited: Path) -> None:
    """A refusal of an unknown id names no agent: it is counted under `-`, so the rows add
    up to `all` (they did not: `all` had a refusal no row showed)."""
    code, _, err = run(capsys, "-C", str(audited), "approve", "deadbeef00")
    assert code == 1, err
    code, out, _ = run(capsys, "-C", str(audited), "stats", "--json")
    assert code == 0
    table = json.loads(out)["stats"]
    assert list(table)[-2:] == ["-", "all"]
    assert table["-"]["refused"] == 1
    for column, total in table["all"].items():
        assert sum(row[column] for name, row in table.items() if name != "all") == total, column
    text = run(capsys, "-C", str(audited), "stats")[1].splitlines()
    assert [line.split()[0] for line in text] == ["AGENT", "a", "-", "all"]


def test_host_ls_has_a_header(capsys: pytest.CaptureFixture[str], git_repo: Path) -> None:
    add = ("host", "add", "-C", str(git_repo), "build", "ssh://me@build.example:2222")
    assert run(capsys, *add, "--repo", "/srv/app", "--no-check")[0] == 0
    code, out, _ = run(capsys, "host", "ls", "-C", str(git_repo))
    assert code == 0
    assert out.splitlines() == [
        "NAME   URL                          REPO      TMUX SOCKET",
        "build  ssh://me@build.example:2222  /srv/app  paw",
    ]


def test_paw_init_writes_notify(capsys: pytest.CaptureFixture[str], git_repo: Path) -> None:
    assert run(capsys, "init", "-C", str(git_repo))[0] == 0
    assert "\n[notify]\n" in (git_repo / "paw.toml").read_text(encoding="utf-8")


def test_demo_without_tmux_says_so_in_paws_form(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    code, out, err = run(capsys, "demo")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "paw: the demo needs tmux, and there is no `tmux` on PATH",
        (
            "hint: install it (e.g. `apt-get install tmux` or `brew install tmux`); "
            "`paw doctor` checks what paw needs"
        ),
    ]


def test_doctor_says_how_to_install_a_missing_agent_cli(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setenv("PAW_AGENTS_HOME", str(tmp_path / "no-cache"))
    _, out, _ = run(capsys, "doctor", "--json")
    rows = {row["name"]: row for row in json.loads(out)["checks"]}
    installs = [s for s in all_specs() if s.install is not None]
    npm = next(s for s in installs if s.install and s.install.via == "npm")
    pypi = next(
        s for s in installs if s.install and s.install.via == "pypi" and not s.install.python
    )
    newer = next(s for s in installs if s.install and s.install.python)
    assert npm.install
    assert pypi.install
    assert newer.install
    assert rows[npm.kind]["detail"].endswith(f"; install it: npm install -g {npm.install.pin}")
    assert rows[pypi.kind]["detail"].endswith(f"; install it: pipx install {pypi.install.pin}")
    assert rows[newer.kind]["detail"].endswith(
        f"; install it: pipx install --python python{newer.install.python} {newer.install.pin}"
    )
