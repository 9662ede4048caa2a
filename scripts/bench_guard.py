"""Benchmark paw's shell guard against a naive regex-list check over the command corpus.

Usage: python scripts/bench_guard.py [--rounds N]
       valgrind --tool=callgrind --dump-before=getppid python scripts/bench_guard.py --markers bare
       python scripts/bench_guard.py --summarise DIR  # the callgrind.out.* files of that run

Prints p50/p99 in microseconds of ``evaluate_command`` per command (in-process, warmed up;
wall time, then this thread's CPU time, which a busy machine's preemptions do not inflate),
the same for a git-guardrails-style list of ~20 regexes searched over the raw string, and the
ratio between them. Figures are given over every sample and over each command's median across
rounds (the latter is robust to a busy machine preempting single calls). The rounds repeat each
command, so paw's memos (the reading and tree of each script, path classes and places, verdicts
by their findings) are warm, as when the supervisor judges a prompt's command again; paw
memoises no decision (every rule runs on every call). A second paw row clears every memo before
each call (outside the timed region) to show the cost of a command never seen. A third judges
each command as the supervisor does: from an agent's worktree, with the other agents' worktrees
and the user's home named (``others=``, ``home=``: the other-worktree rule looks at every path
operand).

``--markers SHAPE`` counts instructions instead of time, for a loaded machine: it judges the
corpus ten times (every memo and specialisation warm), then once more with an ``os.getppid()``
call before each command and after the last, so that callgrind run with
``--dump-before=getppid`` writes one dump per command (run it with ``PYTHONHASHSEED=0``).
SHAPE is ``bare`` (no directory), ``cold`` (every memo cleared before each command, outside
the counted region) or ``supervisor`` (the supervisor's call, as above). ``--summarise DIR``
prints the mean, p50, p99 and max instructions per command of those dumps.

``--ab PACKAGE [--shape SHAPE]`` times this tree's guard against another tree's in one
process: that tree's ``paw`` copied under another name (``paw_base``, its ``paw.`` imports and
the agent registry's package name rewritten) on ``PYTHONPATH``; each command is judged by one
tree then the other, the order alternating, in thread CPU time; it prints the ratios of the
same figures (the two copies share the caches, so absolute figures are higher than alone).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import inspect
import json
import os
import re
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from paw.core.guard.shell import clear_memos, evaluate_command

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "guard" / "commands.jsonl"

NAIVE_PATTERNS = (
    r"\bsudo\b",
    r"\bdoas\b",
    r"rm\s+-rf\s+/",
    r"rm\s+-rf\s+~",
    r"rm\s+-fr\b",
    r"curl.*\|\s*(ba)?sh",
    r"wget.*\|\s*(ba)?sh",
    r"chmod\s+777",
    r"chmod\s+-R\s+777",
    r"\bmkfs\b",
    r"\bdd\s+if=",
    r">\s*/dev/sd",
    r"git\s+push\s+.*--force",
    r"git\s+push\s+-f\b",
    r"git\s+reset\s+--hard",
    r"git\s+clean\s+-f",
    r":\(\)\s*\{\s*:\|:&\s*\};:",
    r"base64\s+-d.*\|\s*(ba)?sh",
    r"\beval\b",
    r"\.ssh/authorized_keys",
)


# The supervisor's call: an agent's worktree, its siblings and the home (names only, no I/O).
HOME = "/home/dev"
WORKTREE = f"{HOME}/src/repo-paw/alice"
OTHERS = tuple(f"{HOME}/src/repo-paw/{name}" for name in ("alice", "bob", "carol", "dave"))


def _naive(patterns: tuple[re.Pattern[str], ...], command: str) -> bool:
    return any(p.search(command) for p in patterns)


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _measure(
    call: Callable[[str], object],
    commands: list[str],
    rounds: int,
    before: Callable[[], object] | None = None,
    clock: Callable[[], int] = time.perf_counter_ns,
) -> list[list[float]]:
    """Microseconds per call: one list per command, one sample per round (``before`` untimed).
    ``clock``: wall time by default; ``time.thread_time_ns`` counts only the CPU time of this
    thread (a machine shared with other work preempts single calls; this does not see it)."""
    samples: list[list[float]] = [[] for _ in commands]
    for _ in range(rounds):
        for index, command in enumerate(commands):
            if before is not None:
                before()
            start = clock()
            call(command)
            samples[index].append((clock() - start) / 1000)
    return samples


def _figures(samples: list[list[float]]) -> tuple[float, float, float, float]:
    """(p50, p99) over every sample, then (p50, p99) over each command's median."""
    every = [value for per_command in samples for value in per_command]
    medians = [statistics.median(per_command) for per_command in samples]
    return (*_percentiles(every), *_percentiles(medians))


def _markers(commands: list[str], shape: str) -> None:
    """One ``os.getppid()`` before each command (and after the last): callgrind's dump points."""

    def call(command: str) -> object:
        if shape == "supervisor":
            return evaluate_command(command, WORKTREE, others=OTHERS, home=HOME)
        return evaluate_command(command)

    for _ in range(10):  # CPython specialises a function after a few calls: all of them warm
        for command in commands:
            call(command)
    gc.collect()
    gc.disable()
    for command in commands:
        if shape == "cold":
            clear_memos()
        os.getppid()
        call(command)
    os.getppid()


def _summarise(directory: Path, count: int) -> None:
    """Instructions per command from the dumps of a ``--markers`` run under callgrind."""
    dumps = sorted(directory.glob("callgrind.out.*.*"), key=lambda p: int(p.suffix[1:]))
    totals: list[int] = []
    for dump in dumps:
        for line in dump.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith(("summary:", "totals:")):
                totals.append(int(line.split()[1]))
                break
    per = sorted(totals[1 : count + 1])  # the first dump is start-up and warm-up
    if len(per) != count:
        print(f"expected {count} per-command dumps in {directory}, found {len(per)}")
        return
    p50, p99 = _percentiles([float(v) for v in per])
    print(
        f"instructions per command ({count}): mean {statistics.mean(per) / 1000:.1f}k "
        f"p50 {p50 / 1000:.1f}k p99 {p99 / 1000:.1f}k max {per[-1] / 1000:.1f}k"
    )


def _ab(commands: list[str], package: str, rounds: int, shape: str) -> None:
    """Time this tree's guard against another's in one process (``package``: that tree's
    ``paw`` copied under another name, on ``PYTHONPATH``), alternating which runs first."""
    other = importlib.import_module(f"{package}.core.guard.shell")
    trees = [other, importlib.import_module("paw.core.guard.shell")]

    def caller(module: Any) -> Callable[[str], object]:
        judge: Callable[..., object] = module.evaluate_command
        if shape == "supervisor":
            return lambda command: judge(command, WORKTREE, others=OTHERS, home=HOME)
        return judge

    calls = [caller(module) for module in trees]
    clears = [module.clear_memos for module in trees]
    for _ in range(5):
        for command in commands:
            for call in calls:
                call(command)
    samples: list[list[list[float]]] = [[[] for _ in commands] for _ in trees]
    clock = time.thread_time_ns
    gc.collect()
    gc.disable()
    try:
        for round_ in range(rounds):
            for index, command in enumerate(commands):
                order = (0, 1) if (round_ + index) % 2 == 0 else (1, 0)
                for which in order:
                    if shape == "cold":
                        clears[which]()
                    start = clock()
                    calls[which](command)
                    samples[which][index].append((clock() - start) / 1000)
    finally:
        gc.enable()
    before, after = (_figures(per_tree) for per_tree in samples)
    means = [statistics.mean(statistics.median(s) for s in per_tree) for per_tree in samples]
    names = ("all p50", "all p99", "per-command p50", "per-command p99")
    shown = ", ".join(
        f"{name} {a:.1f} -> {b:.1f} us ({b / a:.2f}x)"
        for name, a, b in zip(names, before, after, strict=True)
    )
    print(f"A/B {shape}, {package} -> paw: {shown}; mean {means[1] / means[0]:.2f}x")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--markers", choices=("bare", "cold", "supervisor"))
    parser.add_argument("--summarise", type=Path, metavar="DIR")
    parser.add_argument("--ab", metavar="PACKAGE", help="another tree's paw, renamed")
    parser.add_argument("--shape", choices=("bare", "cold", "supervisor"), default="bare")
    args = parser.parse_args(argv)
    lines = CORPUS.read_text(encoding="utf-8").splitlines()
    commands = [json.loads(line)["cmd"] for line in lines if line.strip()]
    if args.markers:
        _markers(commands, args.markers)
        return 0
    if args.summarise:
        _summarise(args.summarise, len(commands))
        return 0
    if args.ab:
        _ab(commands, args.ab, args.rounds, args.shape)
        return 0
    compiled = tuple(re.compile(p) for p in NAIVE_PATTERNS)

    def naive_check(command: str) -> bool:
        return _naive(compiled, command)

    params = inspect.signature(evaluate_command).parameters
    supervised: Callable[[str], object] | None = None
    if "others" in params and "home" in params:  # an older tree (an A/B base) may lack them

        def supervised(command: str) -> object:
            return evaluate_command(command, WORKTREE, others=OTHERS, home=HOME)

    for command in commands * 3:  # warm up: parser, regex caches, branch predictors
        evaluate_command(command)
        naive_check(command)
        if supervised is not None:
            supervised(command)
    gc.collect()
    gc.disable()
    try:
        paw = _figures(_measure(evaluate_command, commands, args.rounds))
        cold = _figures(_measure(evaluate_command, commands, args.rounds, clear_memos))
        worktree = _figures(_measure(supervised, commands, args.rounds)) if supervised else None
        naive = _figures(_measure(naive_check, commands, args.rounds))
        cpu = time.thread_time_ns
        paw_cpu = _figures(_measure(evaluate_command, commands, args.rounds, clock=cpu))
        naive_cpu = _figures(_measure(naive_check, commands, args.rounds, clock=cpu))
    finally:
        gc.enable()
    print(f"commands: {len(commands)} x {args.rounds} rounds, os.getloadavg: {os.getloadavg()}")
    print("                      all samples            per-command median")
    rows = (
        ("paw evaluate_command", paw),
        ("paw, memos cleared", cold),
        *((("paw, as supervisor", worktree),) if worktree else ()),
        ("naive regex list", naive),
        ("paw, thread CPU time", paw_cpu),
        ("naive, thread CPU", naive_cpu),
    )
    for label, (p50, p99, m50, m99) in rows:
        print(f"{label:<21} p50 {p50:7.1f} p99 {p99:7.1f}   p50 {m50:7.1f} p99 {m99:7.1f}  (us)")
    ratios = [a / b for a, b in zip(paw, naive, strict=True)]
    print(
        f"{'ratio paw / naive':<21} p50 {ratios[0]:6.1f}x p99 {ratios[1]:6.1f}x"
        f"   p50 {ratios[2]:6.1f}x p99 {ratios[3]:6.1f}x"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
