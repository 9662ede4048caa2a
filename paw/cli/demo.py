"""paw demo: a throwaway repository, three scripted agents on a private tmux server, the TUI.

The demo agents (python -m paw.demo.agent) ask for permission the way real agent CLIs do:
one safe command, one git push, one dangerous command, so a newcomer sees each guard
verdict and the approval path within seconds. Everything is removed on exit.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import tempfile
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from paw.adapters import proc

if TYPE_CHECKING:
    from paw.supervisor.model import SupervisorApi
    from paw.tui.connect import Connection


class DemoAgent(NamedTuple):
    """One scripted agent of the demo: its name, its kind (a paw.toml profile), task, steps."""

    name: str
    kind: str
    task: str
    steps: tuple[str, ...]


DEMO_AGENTS = (
    DemoAgent("tidy", "demo-safe", "look around the repository", ("busy 1", "shell ls -la")),
    DemoAgent("ship", "demo-push", "publish the fix", ("busy 1.5", "shell git push origin main")),
    DemoAgent("wreck", "demo-danger", "clean up everything", ("busy 2", "shell rm -rf /")),
)

DEMO_README = """# paw demo

A throwaway repository made by `paw demo`. Three scripted agents work in worktrees beside it.
"""

NEXT_STEPS = """\
That was the demo (its repository and tmux server are gone).

To supervise real agents, in your own git repository:
"""

STEPS = (
    ("init", "writes a commented paw.toml"),
    ('spawn fix-login --agent claude-code --task "fix the login form"', ""),
    ('spawn docs --agent codex --task "document the API"', ""),
    ("", "the TUI (or: paw prompts / paw approve ID)"),
)

NOT_ON_PATH = """\
{which}: run this one as {paw}, or install it from the
checkout with pipx or uv (each gives paw a virtualenv of its own and puts `paw` on your PATH):
  pipx install {checkout}        # or: uv tool install {checkout}
"""


def paw_command(cwd: str | None = None) -> str:
    """How to run this very paw from ``cwd``: ``paw`` when PATH finds it, else the path of its
    script (``.venv/bin/paw`` after the README's "Try it"), relative when it is below ``cwd``."""
    script = Path(sys.executable).parent / "paw"  # the console script beside the interpreter
    if not script.is_file():
        return "paw"  # not installed with a script (python -m paw): say the command's name
    found = shutil.which("paw")
    if found is not None and Path(found).resolve() == script.resolve():
        return "paw"
    relative = os.path.relpath(script, cwd or Path.cwd())
    return relative if not relative.startswith("..") else str(script)


def _checkout() -> str:
    """The source tree paw runs from, when it is one (an editable install), else ``.``."""
    root = Path(__file__).resolve().parents[2]
    if not (root / "pyproject.toml").is_file():
        return "."
    relative = os.path.relpath(root, Path.cwd())
    return relative if not relative.startswith("..") else str(root)


def next_steps(paw: str = "paw") -> str:
    """What to do after the demo, with the agent kinds paw verified (from their specs). ``paw``
    is how the user runs paw (:func:`paw_command`); when it is not plain ``paw``, how to put
    paw on the PATH follows."""
    from textwrap import fill

    from paw.core.verified import verified_versions

    commands = [f"{paw} {args}".rstrip() for args, _ in STEPS]
    width = 39 + len(paw)
    lines = [
        f"  {command.ljust(width)} # {comment}" if comment else f"  {command}"
        for command, (_, comment) in zip(commands, STEPS, strict=True)
    ]
    text = NEXT_STEPS + "\n".join(lines) + "\n"
    if paw != "paw":
        found = shutil.which("paw")
        which = (
            f"The `paw` on your PATH ({found}) is another one"
            if found
            else "`paw` is not on your PATH"
        )
        text += "\n" + NOT_ON_PATH.format(paw=paw, checkout=_checkout(), which=which)
    kinds = f"Agent kinds: {', '.join(verified_versions())} (`paw doctor` checks them)."
    return text + "\n" + fill(kinds, width=95) + "\n"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``paw demo``."""
    p = sub.add_parser(
        "demo",
        help="try paw: three scripted agents in a throwaway repository, in the TUI",
        description=__doc__,
        epilog="examples:\n  paw demo\n  paw demo --keep   (keep the throwaway repository to look "
        "around afterwards)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--keep", action="store_true", help="keep the demo repository on exit")
    p.add_argument("--interval", type=float, default=0.5, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_demo)


def render_demo_config(socket: str) -> str:
    """paw.toml for the demo repository: a private tmux socket and three scripted profiles."""
    lines = ["# Written by `paw demo`.", "[tmux]", f'socket_name = "{socket}"', ""]
    for kind, steps in {a.kind: a.steps for a in DEMO_AGENTS}.items():
        command = ", ".join(f'"{part}"' for part in ("{python}", "-m", "paw.demo.agent", *steps))
        lines += [
            f"[agents.{kind}]",
            f"command = [{command}]",
            'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }',
            'detector = "scripted"',
            'task_flag = "--task"',
            "",
        ]
    return "\n".join(lines)


def create_demo_repo(root: Path, socket: str) -> Path:
    """A git repository under ``root`` with a README, the demo paw.toml and one commit."""
    repo = root / "demo-repo"
    repo.mkdir(parents=True)
    (repo / "README.md").write_text(DEMO_README, encoding="utf-8")
    (repo / "paw.toml").write_text(render_demo_config(socket), encoding="utf-8")
    (repo / ".gitignore").write_text(".paw/\n", encoding="utf-8")
    identity = ["-c", "user.name=paw demo", "-c", "user.email=demo@paw.invalid"]
    proc.run(["git", "init", "-q", "-b", "main"], cwd=str(repo))
    proc.run(["git", "add", "."], cwd=str(repo))
    proc.run(["git", *identity, "commit", "-q", "-m", "demo: initial commit"], cwd=str(repo))
    # A local bare "origin" so the git-push prompt shows real confirmation details.
    origin = root / "origin.git"
    proc.run(["git", "init", "-q", "--bare", str(origin)])
    proc.run(["git", "remote", "add", "origin", str(origin)], cwd=str(repo))
    proc.run(["git", "push", "-q", "origin", "main"], cwd=str(repo))
    return repo


def spawn_demo_agents(supervisor: SupervisorApi) -> None:
    """Spawn the three scripted agents through the supervisor."""
    for agent in DEMO_AGENTS:
        supervisor.spawn(agent.name, agent.kind, agent.task)


def connect_demo(root: Path, socket: str) -> Connection:
    """The demo's connector: the repository, the supervisor and the three agents, all made
    after the TUI's first frame (the newcomer sees paw at once, then the agents arrive)."""
    from paw.cli.tui import connect

    repo = create_demo_repo(root, socket)
    connection = connect(str(repo), socket)
    try:
        spawn_demo_agents(connection.supervisor)
    except BaseException:
        if connection.close is not None:
            connection.close()
        raise
    return connection


def tmux_socket_path(socket: str) -> Path:
    """Where tmux puts the socket of ``tmux -L socket``: ``$TMUX_TMPDIR`` (default ``/tmp``),
    then ``tmux-<uid>/<socket>``."""
    return Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.geteuid()}" / socket  # noqa: S108


def kill_tmux_server(socket: str) -> None:
    """End a private tmux server (and what runs in it) and remove its socket file, which tmux
    leaves behind after ``kill-server``. Safe to call when the server is already gone."""
    found = proc.run(["tmux", "-L", socket, "display-message", "-p", "#{socket_path}"], check=False)
    proc.run(["tmux", "-L", socket, "kill-server"], check=False)
    reported = found.stdout.strip() if found.ok else ""
    for path in {Path(reported) if reported else None, tmux_socket_path(socket)} - {None}:
        if path is not None and path.is_socket():
            path.unlink(missing_ok=True)


def _exit_on_hangup(signum: int, frame: object) -> None:
    del frame
    raise SystemExit(128 + signum)  # runs the cleanup in cmd_demo's finally


def cmd_demo(args: argparse.Namespace) -> int:
    """Run the demo; clean up the tmux server (and the repository unless --keep)."""
    from paw.cli.tui import run_app
    from paw.tui.app import make_app

    for tool in ("tmux", "git"):
        if shutil.which(tool) is None:
            print(f"paw: the demo needs {tool}, and there is no `{tool}` on PATH", file=sys.stderr)
            print(f"hint: install it (e.g. `apt-get install {tool}` or `brew install {tool}`); "
                  "`paw doctor` checks what paw needs", file=sys.stderr)  # fmt: skip
            return 1
    socket = f"paw-demo-{os.getpid()}"
    root = Path(tempfile.mkdtemp(prefix="paw-demo-"))
    for sig in (signal.SIGHUP, signal.SIGTERM):
        signal.signal(sig, _exit_on_hangup)
    try:
        run_app(make_app(connect=partial(connect_demo, root, socket), poll_interval=args.interval))
    finally:
        kill_tmux_server(socket)
        if args.keep:
            print(f"demo repository kept: {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    print(next_steps(paw_command()))
    return 0
