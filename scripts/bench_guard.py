"""Benchmark paw's shell guard against a naive regex-list check over the command corpus.

Usage: python scripts/bench_guard.py [--rounds N]

Prints p50/p99 in microseconds of ``evaluate_command`` per command (in-process, warmed up),
the same for a git-guardrails-style list of ~20 regexes searched over the raw string, and the
ratio between them.
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import time
from pathlib import Path

from paw.core.guard.shell import evaluate_command

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


def _naive(patterns: tuple[re.Pattern[str], ...], command: str) -> bool:
    return any(p.search(command) for p in patterns)


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _measure(func: object, commands: list[str], rounds: int) -> list[float]:
    call = func  # a callable taking one command
    samples: list[float] = []
    clock = time.perf_counter_ns
    for _ in range(rounds):
        for command in commands:
            start = clock()
            call(command)  # type: ignore[operator]  # object narrowed by the callers below
            samples.append((clock() - start) / 1000)
    return samples


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args(argv)
    lines = CORPUS.read_text(encoding="utf-8").splitlines()
    commands = [json.loads(line)["cmd"] for line in lines if line.strip()]
    compiled = tuple(re.compile(p) for p in NAIVE_PATTERNS)

    def naive(command: str) -> bool:
        return _naive(compiled, command)

    for command in commands * 3:  # warm up: parser, regex caches, branch predictors
        evaluate_command(command)
        naive(command)
    gc.collect()
    gc.disable()
    try:
        paw_samples = _measure(evaluate_command, commands, args.rounds)
        naive_samples = _measure(naive, commands, args.rounds)
    finally:
        gc.enable()
    paw50, paw99 = _percentiles(paw_samples)
    naive50, naive99 = _percentiles(naive_samples)
    print(f"commands: {len(commands)} x {args.rounds} rounds")
    print(f"paw evaluate_command  p50 {paw50:8.1f} us   p99 {paw99:8.1f} us")
    print(f"naive regex list      p50 {naive50:8.1f} us   p99 {naive99:8.1f} us")
    print(f"ratio (paw / naive)   p50 {paw50 / naive50:8.1f} x   p99 {paw99 / naive99:8.1f} x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
