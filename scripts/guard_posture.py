"""Measure the guard's posture: block recall, false blocks, confirm rates, allows that must not be.

Usage: python scripts/guard_posture.py [--shared DIR] [--json] [--list]

Sets measured (each line of the output is one set):
- the command corpus (tests/fixtures/guard/commands.jsonl, or DIR/commands.jsonl with
  --shared): block recall (block expected, block given), confirm exact, false block (allow
  expected, block given), false confirm (allow expected, confirm given) and must-not-allow
  (block or confirm expected, allow given);
- ordinary developer commands (tests/fixtures/guard/ordinary.txt): block and confirm rates;
- the earlier rounds' families (tests/core/guard/round_two_cases.py, family_cases.py): allows of
  commands that must not be allowed, blocks of commands that must be allowed;
- the posture set (tests/fixtures/guard/posture.jsonl): commands of kinds the earlier rounds
  never named (tools paw does not know, destructive verbs and flags, reads of the home folder,
  listeners, settings, signals, private addresses) and their ordinary look-alikes, written
  while building the posture (a development set);
- the posture's held-out set (tests/fixtures/guard/posture_heldout.jsonl): written after the
  rules, of tools and families the rules were not built from (``not-allow``: anything but allow).
With --list, every miss is printed under its set.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from paw.core.guard.shell import evaluate_command

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "guard"


@dataclass
class Tally:
    """Counts per (expected, given) pair and the misses."""

    name: str
    pairs: dict[tuple[str, str], int] = field(default_factory=dict)
    misses: list[str] = field(default_factory=list)

    def add(self, command: str, expected: str, given: str) -> None:
        self.pairs[expected, given] = self.pairs.get((expected, given), 0) + 1
        if given != expected and not (expected == "not-allow" and given != "allow"):
            self.misses.append(f"  [{expected} -> {given}] {command!r}")

    def count(self, expected: str, given: str | None = None) -> int:
        return sum(n for (e, g), n in self.pairs.items() if e == expected and given in {None, g})

    def figures(self) -> dict[str, object]:
        out: dict[str, object] = {"set": self.name}
        blocks = self.count("block")
        if blocks:
            out["block_recall"] = _rate(self.count("block", "block"), blocks)
        confirms = self.count("confirm")
        if confirms:
            out["confirm_exact"] = _rate(self.count("confirm", "confirm"), confirms)
        allows = self.count("allow")
        if allows:
            out["false_block"] = _rate(self.count("allow", "block"), allows)
            out["false_confirm"] = _rate(self.count("allow", "confirm"), allows)
        bad = blocks + confirms + self.count("not-allow")
        if bad:
            allowed = self.count("block", "allow") + self.count("confirm", "allow")
            allowed += self.count("not-allow", "allow")
            out["must_not_allow_allowed"] = f"{allowed}/{bad}"
        return out


def _rate(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f} %)"


def _given(command: str) -> str:
    return evaluate_command(command).action.value


def _jsonl(path: Path, name: str) -> Tally:
    tally = Tally(name)
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            case = json.loads(line)
            tally.add(case["cmd"], case["expect"], _given(case["cmd"]))
    return tally


def _ordinary() -> Tally:
    tally = Tally("ordinary.txt")
    for line in (FIXTURES / "ordinary.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            tally.add(line, "allow", _given(line))
    return tally


def _case_sets() -> Tally:
    sys.path.insert(0, str(ROOT))
    from tests.core.guard.family_cases import FAMILY_CASES
    from tests.core.guard.round_two_cases import ROUND_TWO_CASES

    tally = Tally("earlier rounds' families")
    for command, expected in [(c.command, c.expected) for c in FAMILY_CASES] + [
        (c.command, c.expected) for c in ROUND_TWO_CASES
    ]:
        given = _given(command)
        # these sets pin exact verdicts for the rounds' own tests; here only direction counts
        tally.add(command, "not-allow" if expected != "allow" else "allow", given)
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, help="a directory holding commands.jsonl")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--list", action="store_true", help="print every miss")
    options = parser.parse_args()
    corpus = (options.shared or FIXTURES) / "commands.jsonl"
    tallies = [_jsonl(corpus, "commands.jsonl"), _ordinary(), _case_sets()]
    names = ("posture.jsonl", "posture_heldout.jsonl")
    tallies.extend(_jsonl(FIXTURES / n, n) for n in names if (FIXTURES / n).exists())
    figures = [t.figures() for t in tallies]
    if options.json:
        print(json.dumps(figures, indent=2))
    else:
        for tally, row in zip(tallies, figures, strict=True):
            print("; ".join(f"{k} {v}" for k, v in row.items()))
            if options.list:
                print("\n".join(tally.misses))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
