"""`paw config check` and `paw wave check` name every problem of a file in one run, each as
``file:line: key: message`` in one style (arrays counted from 1, unknown keys with a hint,
notify URLs parsed by apprise); `paw wave run` never tracebacks on a URL apprise cannot parse."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from paw.cli import main

if TYPE_CHECKING:
    from collections.abc import Sequence


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def _expect(out: str, wanted: Sequence[str]) -> None:
    """Each wanted ``file:line: key: fragment`` is one line of ``out``, and nothing else is."""
    lines = out.splitlines()
    for want in wanted:
        assert any(line.startswith(want) for line in lines), f"{want!r} not in\n{out}"
    assert len(lines) == len(wanted), out


CONFIG = """\
mcp_allowed = "server/tool"

[guard]
git_timeout_s = "slow"
sensitive_files.extend = ["ok", "(unclosed"]
alowed_dirs = ["/srv"]

[worktrees]
root = ".git/agents"
branch_prefix = "bad..prefix/"
base = "no-such-ref"

[agents.mine]
env = { A = "1" }

[notify]
urls = ["json://127.0.0.1:9/hook", "nonsense"]
"""


def test_config_check_names_every_kind_of_problem_in_one_run(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Types, a bad regex, a custom kind without `command`, the worktree root inside `.git`,
    a branch prefix git refuses, a base naming no commit, an unknown key and a notify URL
    apprise cannot parse: all in the first run (it took three runs and missed the URL)."""
    (git_repo / "paw.toml").write_text(CONFIG, encoding="utf-8")
    monkeypatch.chdir(git_repo)
    code, out, _ = _run(capsys, "config", "check")
    assert code == 2
    _expect(
        out,
        [
            "paw.toml:1: mcp_allowed: Input should be a valid tuple",
            "paw.toml:4: guard.git_timeout_s: Input should be a valid number",
            "paw.toml:5: guard.sensitive_files.extend[2]: invalid regular expression '(unclosed'",
            "paw.toml:6: guard.alowed_dirs: unknown key; did you mean 'allowed_dirs'?",
            "paw.toml:9: worktrees.root: ",
            "paw.toml:10: worktrees.branch_prefix: git does not accept branches named",
            "paw.toml:11: worktrees.base: 'no-such-ref' names no commit in this repository",
            "paw.toml:13: agents.mine: a custom agent kind needs `command`",
            "paw.toml:17: notify.urls[2]: apprise does not understand the URL nonsense://",
        ],
    )
    assert "inside the repository's .git directory" in out
    code, out, _ = _run(capsys, "config", "check", "--json")
    assert code == 2
    assert len(json.loads(out)["problems"]) == 9


WAVE = """\
name = "night"
agent = "nope"
poll_s = 1e-300
base = "--orphan=x"
colour = "blue"

[notify]
urls = ["nonsense"]
remind_every_s = -1

[[rules]]
kind = "rm"
subject = "x"

[[tasks]]
name = "a"
task = \"\"\"Fix it.
[not a table]
retries = 5
\"\"\"
retries = -1
depends_on = ["zz"]
chekc = "true"

[[tasks]]
name = "b"
agent = "nope"
task_file = "/etc/passwd"
base = "no-such-ref"

[[tasks]]
name = "a"
depends_on = ["c"]

[[tasks]]
name = "c"
task = "y"
depends_on = ["c"]
"""


def test_wave_check_names_every_kind_of_problem_in_one_run(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every problem at its own line and key, arrays counted from 1 as docs/waves.md counts
    them, an unknown agent kind once where it is written, an unknown key with a hint, the
    notify table's problems located: one run (it took six, and missed the URL and the kinds)."""
    wave = git_repo / "night.toml"
    wave.write_text(WAVE, encoding="utf-8")
    monkeypatch.chdir(git_repo)
    code, out, _ = _run(capsys, "wave", "check", str(wave))
    assert code == 2
    _expect(
        out,
        [
            "night.toml:2: agent: unknown agent kind 'nope' (known: ",
            "night.toml:3: poll_s: Input should be greater than or equal to 0.1",
            "night.toml:4: base: '--orphan=x' is not a ref",
            "night.toml:5: colour: unknown key (allowed: name, base, agent,",
            "night.toml:8: notify.urls[1]: apprise does not understand the URL nonsense://",
            "night.toml:9: notify.remind_every_s: Input should be greater than 0",
            "night.toml:12: rules[1].kind: Input should be 'shell', 'edit',",
            "night.toml:21: tasks[1].retries: Input should be greater than or equal to 0",
            "night.toml:22: tasks[1].depends_on: unknown task 'zz'",
            "night.toml:23: tasks[1].chekc: unknown key; did you mean 'check'?",
            "night.toml:27: tasks[2].agent: unknown agent kind 'nope'",
            "night.toml:28: tasks[2].task_file: '/etc/passwd' must be a path relative to the",
            "night.toml:29: tasks[2].base: 'no-such-ref' names no commit in this repository",
            "night.toml:31: tasks[3]: needs `task` or `task_file`",
            "night.toml:32: tasks[3].name: 'a' is already the name of task 1",
            "night.toml:38: tasks[4].depends_on: a cycle: c -> c",
        ],
    )


def test_wave_check_finds_a_dependency_cycle_beside_other_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wave = tmp_path / "night.toml"
    wave.write_text(
        'name = "night"\nmax_parallel = 0\n'
        '[[tasks]]\nname = "a"\ntask = "x"\ndepends_on = ["b"]\n'
        '[[tasks]]\nname = "b"\ntask = "y"\ndepends_on = ["a"]\n',
        encoding="utf-8",
    )
    code, out, _ = _run(capsys, "wave", "check", str(wave))
    assert code == 2
    _expect(
        out,
        [
            "night.toml:2: max_parallel: Input should be greater than or equal to 1",
            "night.toml:6: tasks[1].depends_on: a cycle: a -> b -> a",
        ],
    )


@pytest.mark.parametrize(
    ("setting", "fragment"),
    [
        ('task_file = "/etc/passwd"', "tasks[1].task_file: '/etc/passwd' must be a path relative"),
        ('task_file = "../outside.md"', "tasks[1].task_file: '../outside.md' must be a path"),
        ('task_file = "link.md"', "tasks[1].task_file: link.md leads outside the wave file's"),
        ('task_file = "missing.md"', "tasks[1].task_file: no such file missing.md"),
        ('task = "x"\nbase = "--orphan=x"', "tasks[1].base: '--orphan=x' is not a ref"),
        ('task = "x"\nbudget_s = inf', "tasks[1].budget_s: Input should be a finite number"),
    ],
)
def test_wave_check_refuses_what_would_fail_or_escape_at_run_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], setting: str, fragment: str
) -> None:
    """A task file outside the wave's folder (absolute, `..`, a symlink out) and a base read
    as an option are refused by `paw wave check`, not found out by `paw wave run`."""
    folder = tmp_path / "waves"
    folder.mkdir()
    (tmp_path / "outside.md").write_text("secret task\n", encoding="utf-8")
    (folder / "link.md").symlink_to(tmp_path / "outside.md")
    wave = folder / "night.toml"
    wave.write_text(f'name = "night"\n[[tasks]]\nname = "t"\n{setting}\n', encoding="utf-8")
    code, out, _ = _run(capsys, "wave", "check", str(wave))
    assert code == 2
    line = 4 if "task_file" in setting else 5
    assert len(out.splitlines()) == 1, out
    assert out.startswith(f"night.toml:{line}: {fragment}"), out
    code, _, err = _run(capsys, "wave", "run", str(wave))
    assert code == 2
    assert err.startswith("paw: night.toml:")
    assert "Traceback" not in err


@pytest.mark.parametrize("value", ["1e-300", "0.05", "inf", "nan"])
@pytest.mark.parametrize("key", ["poll_s", "idle_poll_s"])
def test_wave_check_refuses_a_busy_loop_or_an_endless_sleep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, value: str
) -> None:
    wave = tmp_path / "night.toml"
    wave.write_text(
        f'name = "night"\n{key} = {value}\n[[tasks]]\nname = "t"\ntask = "x"\n', encoding="utf-8"
    )
    code, out, _ = _run(capsys, "wave", "check", str(wave))
    assert code == 2
    assert out.startswith(f"night.toml:2: {key}: "), out


@pytest.mark.parametrize("where", ["wave", "paw.toml"])
def test_wave_run_with_a_url_apprise_cannot_parse_is_one_line_not_a_traceback(
    git_repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    where: str,
) -> None:
    """The URL is refused by both checkers and by `paw wave run` (exit 2, one line, nothing
    started); it died with a ValueError traceback from the notifier."""
    monkeypatch.chdir(git_repo)
    notify = '[notify]\nurls = ["nonsense"]\n'
    wave = git_repo / "night.toml"
    body = 'name = "night"\nagent = "scripted"\n[[tasks]]\nname = "t"\ntask = "x"\n'
    if where == "wave":
        wave.write_text(body + notify, encoding="utf-8")
    else:
        wave.write_text(body, encoding="utf-8")
        (git_repo / "paw.toml").write_text(notify, encoding="utf-8")
        code, out, _ = _run(capsys, "config", "check")
        assert (code, out) == (
            2,
            "paw.toml:2: notify.urls[1]: apprise does not understand the URL nonsense://…\n",
        )
    source = "night.toml:7" if where == "wave" else "paw.toml:2"
    code, out, _ = _run(capsys, "wave", "check", str(wave))
    assert (code, out.splitlines()) == (
        2, [f"{source}: notify.urls[1]: apprise does not understand the URL nonsense://…"]
    )  # fmt: skip
    code, out, err = _run(capsys, "wave", "run", str(wave))
    assert code == 2
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) <= 2, err  # the message and its hint
    assert "notify.urls[1]: apprise does not understand the URL nonsense://…" in err
    assert not (git_repo / ".paw" / "waves" / "night.json").exists()  # nothing started
