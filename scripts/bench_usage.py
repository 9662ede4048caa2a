"""Benchmark the usage read of `paw ls` (issue 36): N Claude Code agents, each with a real
session file of R responses under a private ``CLAUDE_CONFIG_DIR``, read the way `paw ls`
reads them (:func:`paw.cli.cost.agent_usages`), and the same for Codex session logs.

Three figures per agent count, each the median of ``--runs`` (wall ms, in this process):

* cold: no ``.paw/usage-cache.json`` (the first `paw ls` after the files were written);
* warm: the cache on disk, read by a fresh cache object (every later `paw ls`, a new process);
* one changed: one agent's file grew since (an agent at work).

Wall and CPU time (this process) are printed: on a loaded machine the CPU figure is the one
to compare.

Compare them with `paw ls --json`'s own wall time (scripts/bench_cli.py). Everything lives in
a temporary folder.

Usage: .venv/bin/python scripts/bench_usage.py [--agents 200] [--responses 200] [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from paw.cli.cost import agent_usages
from paw.core.config import PawConfig
from paw.core.usage import claude_project_dir


def claude_line(cwd: str, ref: str) -> str:
    usage = {"input_tokens": 1200, "output_tokens": 300, "cache_creation_input_tokens": 20,
             "cache_read_input_tokens": 500}  # fmt: skip
    message = {"id": f"msg_{ref}", "role": "assistant", "model": "claude", "usage": usage,
               "content": [{"type": "text", "text": "x" * 200}]}  # fmt: skip
    return json.dumps({"type": "assistant", "cwd": cwd, "requestRef": ref, "message": message,
                       "uuid": ref, "sessionId": "s"})  # fmt: skip


def codex_log(cwd: str, responses: int) -> str:
    meta = {"type": "session_meta", "payload": {"id": "s", "cwd": cwd}}
    lines = [json.dumps(meta)]
    for k in range(responses):
        usage = {"input_tokens": 1000 * k, "cached_input_tokens": 0, "output_tokens": 10 * k}
        lines.append(json.dumps({"type": "event_msg", "payload": {
            "type": "token_count", "info": {"total_token_usage": usage}}}))  # fmt: skip
        lines.append(json.dumps({"type": "response_item", "payload": {"text": "x" * 200}}))
    return "\n".join(lines) + "\n"


def timed(call: object) -> tuple[float, float]:
    """(wall ms, CPU ms of this process)."""
    started, cpu = time.perf_counter(), time.process_time()
    call()  # type: ignore[operator]
    return (time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000


def figure(samples: list[tuple[float, float]]) -> str:
    wall = statistics.median(w for w, _ in samples)
    cpu = statistics.median(c for _, c in samples)
    return f"{wall:.0f} ms (CPU {cpu:.0f} ms)"


def run(kind: str, agents: int, responses: int, runs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="paw-bench-usage-") as tmp:
        root = Path(tmp) / "repo"
        (root / ".paw").mkdir(parents=True)
        home = Path(tmp) / "home"
        names = [
            (f"a{i:03d}", kind, str(Path(tmp) / "wt" / f"a{i:03d}"), None) for i in range(agents)
        ]
        files: list[Path] = []
        if kind == "claude-code":
            os.environ["CLAUDE_CONFIG_DIR"] = str(home)
            for _name, _kind, wt, _host in names:
                folder = home / "projects" / claude_project_dir(wt)
                folder.mkdir(parents=True)
                path = folder / "s.jsonl"
                path.write_text("".join(claude_line(wt, f"r{k}") + "\n" for k in range(responses)))
                files.append(path)
        else:
            os.environ["CODEX_HOME"] = str(home)
            day = home / "sessions" / time.strftime("%Y/%m/%d")
            day.mkdir(parents=True)
            for i, (_name, _kind, wt, _host) in enumerate(names):
                path = day / f"rollout-{i:03d}.jsonl"
                path.write_text(codex_log(wt, responses))
                files.append(path)
        size = sum(p.stat().st_size for p in files)
        config = PawConfig()
        cache = root / ".paw" / "usage-cache.json"

        def read() -> None:
            found = agent_usages(str(root), config, names)
            if any(r.usage is None for r in found.values()):
                raise SystemExit("an agent's usage was not found")

        cold, warm, changed = [], [], []
        for k in range(runs):
            cache.unlink(missing_ok=True)
            cold.append(timed(read))
            warm.append(timed(read))
            with files[k % len(files)].open("a") as handle:
                handle.write(
                    claude_line(names[k % len(names)][2], f"x{k}") + "\n"
                    if kind == "claude-code"
                    else "\n"
                )
            changed.append(timed(read))
        print(
            f"{agents} {kind} agents, {responses} responses each ({size / 1e6:.1f} MB): "
            f"cold {figure(cold)}, warm {figure(warm)}, one changed {figure(changed)} "
            f"(median of {runs}); "
            f"load {os.getloadavg()[0]:.2f}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", type=int, default=200)
    parser.add_argument("--responses", type=int, default=200)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    for kind in ("claude-code", "codex"):
        run(kind, args.agents, args.responses, args.runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
