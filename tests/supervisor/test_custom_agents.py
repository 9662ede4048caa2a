"""Custom agents on real tmux and real git: docs/agents.md's "Your own agent" pasted as it is,
and what `paw spawn` says when a custom agent dies on start or waits for the human."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import pytest
from libtmux.test.retry import retry_until

from tests.support.budget import budget

if TYPE_CHECKING:
    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git]

DOCS = Path(__file__).resolve().parents[2] / "docs" / "agents.md"
BIN = Path(sys.executable).parent
_MARK = re.compile(r"<!-- (file: (?P<file>\S+)|(?P<toml>paw\.toml)|(?P<run>run)) -->\n```\w*\n")


class Snippet(NamedTuple):
    """One marked code block of the doc: a file to write, paw.toml text, or commands."""

    what: str  # "file", "toml" or "run"
    path: str
    text: str


def doc_examples() -> dict[str, list[Snippet]]:
    """The marked snippets of "Your own agent", grouped by example (### heading)."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Your own agent\n", 1)[1].split("\n## ", 1)[0]
    examples: dict[str, list[Snippet]] = {}
    for part in section.split("\n### ")[1:]:
        title, _, body = part.partition("\n")
        found = []
        for mark in _MARK.finditer(body):
            code = body[mark.end() : body.index("```", mark.end())]
            what = "file" if mark["file"] else "toml" if mark["toml"] else "run"
            found.append(Snippet(what, mark["file"] or "", code))
        if found:
            examples[title] = found
    return examples


EXAMPLES = doc_examples()


@pytest.fixture
def env(git_repo: Path, server: Server, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The environment a user's shell would have: paw on PATH, paw's private tmux socket."""
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.setenv("PATH", f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.chdir(git_repo)
    return dict(os.environ)


def sh(repo: Path, line: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run one pasted command line as a user's shell would."""
    return subprocess.run(
        ["sh", "-c", line], cwd=repo, env=env, capture_output=True, text=True, check=False
    )


def paw_json(repo: Path, env: dict[str, str], *args: str) -> object:
    done = sh(repo, " ".join(["paw", *args, "--json"]), env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def listed(repo: Path, env: dict[str, str]) -> dict[str, dict[str, object]]:
    listing = paw_json(repo, env, "ls")
    assert isinstance(listing, dict)
    return {str(v["name"]): v for v in listing["agents"]}


def screen(server: Server, agent: str) -> str:
    out = server.cmd("list-panes", "-a", "-F", "#{pane_id} #{@paw_agent}").stdout
    pane = next(line.split()[0] for line in out if line.endswith(f" {agent}"))
    return "\n".join(server.cmd("capture-pane", "-p", "-t", pane).stdout)


def paste(repo: Path, env: dict[str, str], snippets: list[Snippet]) -> list[str]:
    """Write the files, append the paw.toml text, run the commands (``ID`` becomes the id of
    the live prompt, as a user reads it off `paw prompts`); return every command's output."""
    outputs = []
    for snippet in snippets:
        if snippet.what == "file":
            path = repo / snippet.path
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(snippet.text, encoding="utf-8")
        elif snippet.what == "toml":
            with (repo / "paw.toml").open("a", encoding="utf-8") as handle:
                handle.write(snippet.text + "\n")
        else:
            for line in snippet.text.splitlines():
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                if re.search(r"\bID\b", line):
                    listing = paw_json(repo, env, "prompts")
                    assert isinstance(listing, dict)
                    assert len(listing["prompts"]) == 1, listing
                    line = re.sub(r"\bID\b", str(listing["prompts"][0]["id"]), line)
                done = sh(repo, line, env)
                assert done.returncode == 0, f"{line!r} exited {done.returncode}: {done.stderr}"
                outputs.append(done.stdout + done.stderr)
    return outputs


def test_the_doc_has_the_three_examples() -> None:
    assert list(EXAMPLES) == [
        "A shell script",
        "A Python agent that reads its task",
        "A wrapper around a supported CLI",
    ]
    for snippets in EXAMPLES.values():
        assert [s.what for s in snippets] == ["file", "toml", "run"]


def test_doc_shell_script_agent_gets_its_task_as_an_argument(
    env: dict[str, str], git_repo: Path, server: Server
) -> None:
    out = paste(git_repo, env, EXAMPLES["A shell script"])
    assert "spawned hello1 (hello)" in out[1]
    agents = listed(git_repo, env)
    assert agents["hello1"]["alive"] is True
    shown = screen(server, "hello1")
    assert "hello agent, task: count the TODOs" in shown
    assert retry_until(lambda: "noted: and the FIXMEs" in screen(server, "hello1"), budget(30))


def test_doc_python_agent_gets_its_task_typed(
    env: dict[str, str], git_repo: Path, server: Server
) -> None:
    out = paste(git_repo, env, EXAMPLES["A Python agent that reads its task"])
    assert "task:     typed into its input" in out[1]
    assert listed(git_repo, env)["notes1"]["alive"] is True  # {python} is recognised
    assert retry_until(
        lambda: "working on: summarise README.md" in screen(server, "notes1"), budget(30)
    )


def test_doc_wrapper_agent_is_spawned_listed_and_approved(
    env: dict[str, str], git_repo: Path, server: Server
) -> None:
    out = paste(git_repo, env, EXAMPLES["A wrapper around a supported CLI"])
    assert "touch reviewed.txt" in out[2]  # `paw prompts` listed the wrapped CLI's prompt
    assert out[3].startswith("sent y to prompt")
    agent = listed(git_repo, env)["careful1"]
    assert agent["alive"] is True
    worktree = Path(str(agent["worktree"]))
    assert retry_until(lambda: (worktree / "reviewed.txt").exists(), budget(30))
    assert "review the parser" in screen(server, "careful1")


def test_a_custom_agent_that_dies_on_start_is_reported(env: dict[str, str], git_repo: Path) -> None:
    (git_repo / "paw.toml").write_text('[agents.shell]\ncommand = ["bash"]\n', encoding="utf-8")
    done = sh(git_repo, "paw spawn b1 --agent shell --task 'fix the bug'", env)
    assert done.returncode == 1
    assert "spawned" not in done.stdout
    assert "died on start: exit status 127" in done.stderr
    assert "bash 'fix the bug'" in done.stderr
    assert "task_mode" in done.stderr
    assert listed(git_repo, env)["b1"]["alive"] is False


def test_an_uncommitted_agent_script_is_named_as_the_likely_cause(
    env: dict[str, str], git_repo: Path
) -> None:
    """The script sits in the main checkout, uncommitted: the new worktree lacks it. paw says
    so, and points to no pane to attach to (there is none to see; issue 30)."""
    script = git_repo / "agent.sh"
    script.write_text("#!/bin/sh\necho ready\nsleep 600\n", encoding="utf-8")
    script.chmod(0o755)
    (git_repo / "paw.toml").write_text(
        '[agents.mine]\ncommand = ["./agent.sh"]\n', encoding="utf-8"
    )
    done = sh(git_repo, "paw spawn m1 --agent mine", env)
    assert done.returncode == 1, done.stdout
    assert "died on start: exit status 127 (not found)" in done.stderr
    hint = next(line for line in done.stderr.splitlines() if line.startswith("hint: "))
    worktree = git_repo.parent / "repo-paw" / "m1"
    assert hint.startswith(
        "hint: likely cause: ./agent.sh is not in the agent's worktree (a new worktree holds "
        "only committed files: commit it, or give its absolute path in [agents.mine] command"
    )
    assert f"it ran: ./agent.sh in {worktree}" in hint
    assert "paw attach" not in done.stderr
    assert sh(git_repo, "paw attach m1 --print", env).returncode != 0  # indeed no pane
    # committed, it starts
    assert sh(git_repo, "paw rm m1", env).returncode == 0
    subprocess.run(["git", "add", "agent.sh", "paw.toml"], cwd=git_repo, check=True)
    subprocess.run(["git", "commit", "-qm", "agent"], cwd=git_repo, check=True)
    started = sh(git_repo, "paw spawn m1 --agent mine --startup-timeout 5", env)
    assert "died on start" not in started.stderr, started.stderr


def test_a_typed_task_without_a_detector_is_typed_only_at_its_ready_pattern(
    env: dict[str, str], git_repo: Path, server: Server
) -> None:
    # Without a detector nor ready_pattern paw cannot read the agent's input: it types nothing
    # (the settled screen could be a dialog); with ready_pattern it reads the line after it.
    toml = '[agents.shell]\ncommand = ["bash", "--norc", "-i"]\ntask_mode = "stdin-typed"\n'
    (git_repo / "paw.toml").write_text(toml, encoding="utf-8")
    done = sh(git_repo, "paw spawn b2 --agent shell --task 'echo typed-$((6*7))'", env)
    assert done.returncode == 1
    assert "its task was not typed: paw cannot read agent 'b2''s input" in done.stderr
    assert "ready_pattern" in done.stderr
    assert "typed-" not in screen(server, "b2")
    (git_repo / "paw.toml").write_text(toml + "ready_pattern = '^bash-[0-9.]+[$#]'\n", "utf-8")
    done = sh(git_repo, "paw spawn b3 --agent shell --task 'echo typed-$((6*7))'", env)
    assert done.returncode == 0, done.stderr
    assert "ready_pattern" in done.stdout
    assert retry_until(lambda: "typed-42" in screen(server, "b3"), budget(30))
    assert listed(git_repo, env)["b3"]["alive"] is True


def test_a_start_up_dialog_is_waiting_for_you_not_a_timeout(
    env: dict[str, str], git_repo: Path, server: Server
) -> None:
    """A kind whose task is typed, showing a dialog first: exit 5 at once, the dialog quoted,
    the task not typed (nothing is typed into a dialog)."""
    command = json.dumps(["{python}", "-m", "paw.demo.agent", "question Trust this folder?"])
    toml = f'[agents.asks]\ncommand = {command}\ntask_mode = "stdin-typed"\ndetector = "scripted"\n'
    (git_repo / "paw.toml").write_text(toml, encoding="utf-8")
    done = sh(git_repo, "paw spawn q1 --agent asks --task 'do it' --json", env)
    assert done.returncode == 5, done.stderr
    result = json.loads(done.stdout)
    assert result["startup"]["state"] == "waiting"
    assert result["startup"]["task_typed"] is False
    assert "Trust this folder?" in result["startup"]["detail"]
    assert result["startup"]["waited_s"] < 30  # reported once settled, not at the budget
    assert "do it" not in screen(server, "q1")
    human = sh(git_repo, "paw spawn q2 --agent asks --task 'do it'", env)
    assert human.returncode == 5
    assert "waiting for you (q2): it shows a dialog: Which option?" in human.stderr
    assert "paw attach q2" in human.stderr


def test_an_unknown_kind_names_the_configured_ones_and_how_to_add_one(
    env: dict[str, str], git_repo: Path
) -> None:
    (git_repo / "paw.toml").write_text('[agents.mine]\ncommand = ["bash"]\n', encoding="utf-8")
    done = sh(git_repo, "paw spawn c1 --agent custom", env)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "your paw.toml adds mine" in done.stderr
    assert "[agents.custom]" in done.stderr
    assert "command" in done.stderr


def test_an_agent_whose_kind_left_paw_toml_does_not_break_the_others(
    env: dict[str, str], git_repo: Path
) -> None:
    """Trying custom kinds means renaming them: `paw ls` and new spawns keep working, the
    orphan is listed as not alive (its process can no longer be told), never approved."""
    toml = git_repo / "paw.toml"
    toml.write_text('[agents.old]\ncommand = ["bash", "--norc", "-i"]\n', encoding="utf-8")
    assert sh(git_repo, "paw spawn o1 --agent old", env).returncode == 0
    toml.write_text('[agents.new]\ncommand = ["bash", "--norc", "-i"]\n', encoding="utf-8")
    done = sh(git_repo, "paw spawn n1 --agent new", env)
    assert done.returncode == 0, done.stderr
    agents = listed(git_repo, env)
    assert (agents["o1"]["alive"], agents["n1"]["alive"]) == (False, True)
