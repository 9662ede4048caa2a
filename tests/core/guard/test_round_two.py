"""Issue 11's families: exact verdicts both ways, family coverage, and properties — mutated
commands never raise, and no launcher that runs a program lowers the verdict of what it runs."""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paw.core.guard.files import PathClass, classify_path, detect_agent_instruction_files
from paw.core.guard.shell import evaluate_command
from paw.core.models import Action
from tests.core.guard.family_cases import FAMILY_CASES
from tests.core.guard.round_two_cases import ROUND_TWO_CASES, RoundTwoCase

_SEVERITY = {Action.ALLOW: 0, Action.CONFIRM: 1, Action.BLOCK: 2}
FAMILIES = (
    "runs-programs",
    "supervisor",
    "outside-writes",
    "secrets",
    "fork-bomb",
    "computed-command-word",
    "same-effect",
    "history-rewrite",
    "instruction-files",
)


@pytest.mark.parametrize("case", ROUND_TWO_CASES, ids=[c.test_id for c in ROUND_TWO_CASES])
def test_round_two_case(case: RoundTwoCase) -> None:
    verdict = evaluate_command(case.command)
    assert verdict.action.value == case.expected, (case.command, verdict)
    assert "shell.internal-error" not in verdict.rules, verdict


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_has_dangerous_cases_and_allow_look_alikes(family: str) -> None:
    counts = Counter(c.expected for c in ROUND_TWO_CASES if c.family == family)
    assert counts["block"] + counts["confirm"] >= 10, counts
    assert counts["allow"] >= 3, counts


# -- sensitive and instruction files (families 9 and 10) ----------------------------------------

PATHS = (
    ("certs/fullchain.pem", PathClass.SENSITIVE),
    ("deploy/chain.pem", PathClass.SENSITIVE),
    ("tls/server.key", PathClass.SENSITIVE),
    ("keystore/client.p12", PathClass.SENSITIVE),
    ("app/secrets.py", PathClass.SENSITIVE),
    ("config/secrets.yaml", PathClass.SENSITIVE),
    ("lib/credentials.ts", PathClass.SENSITIVE),
    (".env.vault", PathClass.ORDINARY),
    ("services/api/.env.vault", PathClass.ORDINARY),
    ("src/secret_scanner.py", PathClass.ORDINARY),
    ("docs/secrets.md", PathClass.ORDINARY),
    (".roo/rules/style.md", PathClass.INSTRUCTION),
    (".kilocode/rules/a.md", PathClass.INSTRUCTION),
    (".clinerules", PathClass.INSTRUCTION),
    (".clinerules/testing.md", PathClass.INSTRUCTION),
    (".continue/rules/r.md", PathClass.INSTRUCTION),
    (".windsurf/rules/r.md", PathClass.INSTRUCTION),
    (".cursor/rules/r.mdc", PathClass.INSTRUCTION),
    ("a/b/c/AGENTS.md", PathClass.INSTRUCTION),
    ("pkg/CLAUDE.md", PathClass.INSTRUCTION),
    ("x/GEMINI.md", PathClass.INSTRUCTION),
    ("deep/QWEN.md", PathClass.INSTRUCTION),
    ("src/agents.py", PathClass.ORDINARY),
)


@pytest.mark.parametrize(("path", "expected"), PATHS, ids=[p for p, _ in PATHS])
def test_classify_path_round_two(path: str, expected: PathClass) -> None:
    assert classify_path(path) is expected


def test_detect_agent_instruction_files_sees_every_agents_rules() -> None:
    status = "".join(f" M {p}\n" for p, c in PATHS if c is PathClass.INSTRUCTION)
    expected = [p for p, c in PATHS if c is PathClass.INSTRUCTION]
    assert detect_agent_instruction_files(status + " M src/main.py\n") == expected


# -- properties ---------------------------------------------------------------------------------

Launcher = Callable[[str], str | None]


def _elisp(cmd: str) -> str:
    return cmd.replace("\\", "\\\\").replace('"', '\\"')


def _single_line(fn: Callable[[str], str]) -> Launcher:
    return lambda cmd: None if "\n" in cmd else fn(cmd)


q = shlex.quote
LAUNCHERS: tuple[Launcher, ...] = (
    lambda c: f"screen -dm sh -c {q(c)}",
    lambda c: f"setsid -f sh -c {q(c)}",
    lambda c: f"tmux new-window {q(c)}",
    lambda c: f"tmux new-session -d -s job {q(c)}",
    _single_line(lambda c: "awk " + q('BEGIN{system("' + _elisp(c) + '")}')),
    _single_line(lambda c: f"sed {q('1e ' + c)} file"),
    _single_line(lambda c: f"vim -c {q('!' + c)} file"),
    _single_line(lambda c: f"less {q('+!' + c)} file"),
    lambda c: f"man -P {q(c)} ls",
    lambda c: "emacs --batch --eval " + q('(shell-command "' + _elisp(c) + '")'),
    lambda c: f"tar -cf a.tar --checkpoint=1 --checkpoint-action=exec={q(c)} .",
    lambda c: f"tar -xf a.tar --to-command={q(c)}",
    lambda c: f"zip -T -TT {q(c)} a.zip f",
    lambda c: f"rsync -e {q(c)} a host:b",
    lambda c: f"ssh -o ProxyCommand={q(c)} host",
    lambda c: f"git bisect run sh -c {q(c)}",
    lambda c: f"git submodule foreach {q(c)}",
    lambda c: f"git difftool -x {q(c)} HEAD",
    lambda c: f"git fetch --upload-pack={q(c)} origin",
    lambda c: f"PAGER={q(c)} git log",
    lambda c: f"EDITOR={q(c)} git commit",
    lambda c: f"GIT_SSH_COMMAND={q(c)} git fetch",
    lambda c: f"env MANPAGER={q(c)} man ls",
    lambda c: f"hyperfine {q(c)}",
    # find replaces `{}` anywhere in its -exec words: a command holding one would change
    lambda c: None if "{}" in c else f"find . -exec sh -c {q(c)} \\;",
    lambda c: f"ls | xargs sh -c {q(c)}",
    lambda c: f"nohup sh -c {q(c)} &",
)
DANGEROUS = tuple(
    sorted(
        {c.command for c in FAMILY_CASES if c.expected == "block"}
        | {c.command for c in ROUND_TWO_CASES if c.expected == "block"}
    )
)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(DANGEROUS), st.sampled_from(LAUNCHERS))
def test_a_launcher_never_lowers_the_verdict_of_what_it_runs(
    command: str, launcher: Launcher
) -> None:
    wrapped = launcher(command)
    if wrapped is None:
        return
    inner = evaluate_command(command)
    outer = evaluate_command(wrapped)
    assert _SEVERITY[outer.action] >= _SEVERITY[inner.action], (wrapped, inner, outer)


@pytest.mark.parametrize("index", range(len(LAUNCHERS)))
def test_each_launcher_carries_a_block(index: int) -> None:
    wrapped = LAUNCHERS[index]("rm -rf ~")
    assert wrapped is not None
    assert evaluate_command(wrapped).action is Action.BLOCK, wrapped


_PIECES = (
    "awk", "sed", "tmux", "screen", "kill", "pkill", "git", "reset", "bisect", "run", "-c",
    "-e", "-x", "'", '"', "$(", ")", "{", "}", "|", "&", ";", "\\;", "$IFS", "${IFS}", "~", "/",
    ".paw", "paw.toml", "-C", "-d", "e", "s/a/b/e", "BEGIN{system(", "+!", "!", "-o",
    "ProxyCommand=", "PAGER=", "env", "history", "cd", "*", "..", "&&", "\n", "f(){", "f", ":",
    "while true; do", "done", "fork", "%1", "$!", "--to-command=", "AGENTS.md", ">", ">>",
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map(" ".join))
def test_mutated_commands_never_raise(text: str) -> None:
    verdict = evaluate_command(text)
    assert "shell.internal-error" not in verdict.rules, (text, verdict)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([c.command for c in ROUND_TWO_CASES]), st.data())
def test_round_two_commands_mutated_never_raise(command: str, data: st.DataObject) -> None:
    cut = data.draw(st.integers(min_value=0, max_value=len(command)))
    junk = data.draw(st.sampled_from(_PIECES))
    verdict = evaluate_command(command[:cut] + junk + command[cut:])
    assert "shell.internal-error" not in verdict.rules, verdict


def test_writes_inside_a_project_under_roots_home_are_project_writes() -> None:
    project = "/root/.cache/work/repo"
    assert evaluate_command(f"touch {project}/out/x.txt", cwd=project).action is Action.ALLOW
    assert evaluate_command(f"echo x > {project}/AGENTS.md", cwd=project).action is Action.CONFIRM
    assert evaluate_command(f"rm -rf {project}/.paw", cwd=project).action is Action.BLOCK
    assert evaluate_command("touch /root/.cache/x", cwd=project).action is Action.BLOCK
