"""Record the guard's verdicts over every known command, or compare them with a recording.

Usage:
    python scripts/guard_verdicts.py record verdicts.json   # before a change
    python scripts/guard_verdicts.py compare verdicts.json  # after it: exit 1 on any difference

The commands are every string literal in the tests, the guard corpora (tests/fixtures/guard and,
with --shared DIR, a development corpus there) and variants of each one (wrapped in sudo, nohup,
pipes, `bash -c`, `find -exec sh -c`, loops, substitutions, a `cd` before it, …). Each is judged
with no working directory, in `/`, in a home, in a project, and under a configuration with
blocked patterns and another protected branch. A verdict is its action, every finding (rule,
action, reason, in order) and the git writes met. Meant for performance work on the guard, where
no verdict may change; a full run takes minutes.
"""

from __future__ import annotations

import argparse
import ast
import json
from pathlib import Path

from paw.core.config import GuardConfig, PatternSet
from paw.core.guard.shell import Analysis, analyse_command

ROOT = Path(__file__).resolve().parent.parent
_CONFIG = GuardConfig(
    blocked_patterns=PatternSet(extend=(r"^terraform destroy\b", r"rm -rf")),
    protected_branches=("release",),
)
_PLACES = (None, "/", "/home/u", "/srv/proj")


def _strings(shared: Path | None) -> list[str]:
    found: list[str] = []
    for path in sorted((ROOT / "tests").glob("**/*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            value = node.value if isinstance(node, ast.Constant) else None
            if isinstance(value, str) and 0 < len(value) < 3000:
                found.append(value)
    corpora = [ROOT / "tests" / "fixtures" / "guard" / "commands.jsonl"]
    if shared is not None:
        corpora.append(shared / "commands.jsonl")
    for corpus in corpora:
        if corpus.exists():
            lines = corpus.read_text(encoding="utf-8").splitlines()
            found.extend(json.loads(line)["cmd"] for line in lines if line.strip())
    ordinary = ROOT / "tests" / "fixtures" / "guard" / "ordinary.txt"
    found.extend(line for line in ordinary.read_text(encoding="utf-8").splitlines() if line)
    return list(dict.fromkeys(found))


def _variants(commands: list[str]) -> list[str]:
    out = list(commands)
    for c in commands:
        if len(c) > 400 or "\n" in c:
            continue
        out += [
            f"sudo {c}", f"nohup {c} &", f"echo hi | {c}", f"{c} | sh", f"({c})", f"x=1; {c}",
            f"timeout 5 {c}", f"cd / && {c}", f"cd build && {c}", f"if true; then {c}; fi",
            f"for f in a b; do {c}; done", f"echo $({c})", f"env A=1 {c}", f"{c} > out.txt",
        ]  # fmt: skip
        if "'" not in c:
            out += [
                f"bash -c '{c}'", f"find . -exec sh -c '{c}' \\;", f"xargs sh -c '{c}'",
                f"echo '{c}' | bash", f"ssh host '{c}'",
            ]  # fmt: skip
    return list(dict.fromkeys(out))


def _shown(analysis: Analysis) -> list[object]:
    verdict = analysis.verdict
    findings = [[f.rule, f.action.value, f.reason] for f in verdict.findings]
    return [verdict.action.value, findings, [repr(w) for w in analysis.git_writes]]


def _judge_all(commands: list[str]) -> dict[str, list[list[object]]]:
    result: dict[str, list[list[object]]] = {}
    for command in commands:
        shown = [_shown(analyse_command(command, cwd=cwd)) for cwd in _PLACES]
        shown.append(_shown(analyse_command(command, config=_CONFIG)))
        result[command] = shown
    return result


def main(argv: list[str] | None = None) -> int:
    """Record or compare; exit 1 when a verdict differs from the recording."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=("record", "compare"))
    parser.add_argument("file", type=Path)
    parser.add_argument("--shared", type=Path, help="a directory with a commands.jsonl corpus")
    args = parser.parse_args(argv)
    judged = _judge_all(_variants(_strings(args.shared)))
    if args.mode == "record":
        args.file.write_text(json.dumps(judged), encoding="utf-8")
        print(f"{len(judged)} commands recorded in {args.file}")
        return 0
    recorded = json.loads(args.file.read_text(encoding="utf-8"))
    differ = [c for c, shown in recorded.items() if c in judged and judged[c] != shown]
    for command in differ[:20]:
        print(f"DIFFERS {command!r}\n  was {recorded[command]}\n  now {judged[command]}")
    compared = sum(1 for c in recorded if c in judged)
    print(f"compared {compared} commands: {len(differ)} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
