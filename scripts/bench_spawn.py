"""Benchmark spawning agents through paw's adapters: a worktree plus a tagged pane each.

Builds a temporary git repository (isolated git config) and a private tmux server
(``-L paw-bench-spawn-<pid>``), then creates ``--agents`` worktrees and panes (running
``sleep 600``) with ``GitCli.add_worktree`` and ``TmuxTerminal.new_pane``, timed.

Usage: .venv/bin/python scripts/bench_spawn.py [--agents 20]
The server is killed and the repository deleted at the end.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from pathlib import Path

from paw.adapters.git.runner import GitCli
from paw.adapters.tmux.terminal import TmuxTerminal

SESSION = "pawbench-spawn"
IDENTITY = {
    "GIT_AUTHOR_NAME": "paw bench",
    "GIT_AUTHOR_EMAIL": "paw-bench@example.invalid",
    "GIT_COMMITTER_NAME": "paw bench",
    "GIT_COMMITTER_EMAIL": "paw-bench@example.invalid",
}


def _isolate_git(tmp: Path) -> None:
    os.environ.update(IDENTITY)
    os.environ["GIT_CONFIG_GLOBAL"] = str(tmp / "gitconfig")
    os.environ["GIT_CONFIG_NOSYSTEM"] = "1"
    (tmp / "gitconfig").write_text("", encoding="utf-8")


def _make_repo(tmp: Path, files: int) -> Path:
    repo = tmp / "repo"
    repo.mkdir()
    for i in range(files):
        (repo / f"file{i}.txt").write_text(f"content {i}\n" * 20, encoding="utf-8")
    for argv in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "init"]):
        subprocess.run(["git", *argv], cwd=repo, check=True)
    return repo


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=20)
    parser.add_argument("--files", type=int, default=200, help="files in the test repository")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="paw-bench-spawn-") as tmp_name:
        tmp = Path(tmp_name)
        _isolate_git(tmp)
        repo = _make_repo(tmp, args.files)
        terminal = TmuxTerminal(socket_name=f"paw-bench-spawn-{os.getpid()}")
        git = GitCli()
        try:
            start = time.perf_counter()
            terminal.ensure_session(SESSION, str(repo))
            git_s = tmux_s = 0.0
            for i in range(args.agents):
                path = tmp / f"wt-{i}"
                t0 = time.perf_counter()
                git.add_worktree(str(repo), str(path), f"paw/agent-{i}", "main")
                t1 = time.perf_counter()
                tags = {"paw_agent": f"agent-{i}", "paw_kind": "bench", "paw_id": str(i)}
                terminal.new_pane(SESSION, str(path), ["sleep", "600"], {"PAW": "1"}, tags)
                git_s, tmux_s = git_s + t1 - t0, tmux_s + time.perf_counter() - t1
            total = time.perf_counter() - start
            panes = [p for p in terminal.list_panes(SESSION) if p.tags.get("paw_kind") == "bench"]
            print(f"agents: {args.agents} (repo of {args.files} files)")
            print(f"total: {total:.2f} s ({total / args.agents * 1000:.0f} ms per agent)")
            print(f"  git worktree add: {git_s:.2f} s, tmux new_pane: {tmux_s:.2f} s")
            print(f"panes listed with paw tags: {len(panes)}")
        finally:
            terminal.kill_server()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
