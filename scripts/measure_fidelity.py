"""Precision and recall of paw's detectors on folders of captured screens with meta.json.

``python scripts/measure_fidelity.py [ROOT ...]`` reads every ``ROOT/<agent>/<case>/`` that has
a ``meta.json`` (``state``: permission_prompt, dialog, idle, done, busy) and a ``screen.txt``
(the format of tests/fixtures/corpus, see its README), runs ``paw.core.detect.detect`` on it and
prints, per agent and in total:

- recall: live prompts and dialogs reported as a prompt;
- precision: reported prompts that are live prompts or dialogs;
- dialogs read as idle or busy (the harm issue 33 names: an agent waits, nobody is told);
- false waiting: idle, done and busy screens reported as a prompt or as unknown.

Default roots: tests/fixtures/corpus, screens-live, dialogs, incomplete, versions, heldout,
heldout2 and heldout3 (the held-out batches, recorded by ``python -m tests.e2e.heldout``; their
first figures are in docs/agents.md).
Screens of narrow panes (meta ``"narrow": true``, below the sizes paw verifies, where
``unknown`` is the expected answer) count only with ``--narrow``. ``--json`` prints the
figures as one JSON object. Nothing is written.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from paw.core.detect import detect
from paw.core.models import DetectionState

HERE = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
DEFAULT_ROOTS = tuple(
    HERE / name
    for name in (
        "corpus",
        "screens-live",
        "dialogs",
        "incomplete",
        "versions",
        "heldout",
        "heldout2",
        "heldout3",
    )
)
LIVE = ("permission_prompt", "dialog")
QUIET = ("idle", "done", "busy")


def _cases(root: Path) -> list[tuple[str, str, dict[str, object], str]]:
    found = []
    for meta_path in sorted(root.glob("*/*/meta.json")):
        screen = meta_path.parent / "screen.txt"
        if not screen.is_file():
            continue
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        agent = str(meta.get("agent") or meta_path.parent.parent.name)
        found.append((agent, meta_path.parent.name, meta, screen.read_text(encoding="utf-8")))
    return found


def measure(roots: list[Path], *, narrow: bool = False) -> dict[str, dict[str, object]]:
    """Counts per agent (and ``all``): live, caught, reported, true_reported, dialogs_quiet,
    quiet, quiet_flagged, and the names of the misses."""
    counts: dict[str, Counter[str]] = {}
    misses: dict[str, list[str]] = {}
    for root in roots:
        for agent, name, meta, text in _cases(root):
            state = str(meta.get("state"))
            if state not in LIVE + QUIET or (meta.get("narrow") and not narrow):
                continue
            found = detect(text, agent).state
            for key in (agent, "all"):
                c = counts.setdefault(key, Counter())
                if state in LIVE:
                    c["live"] += 1
                    c["caught"] += found is DetectionState.PROMPT
                    quiet = found in (DetectionState.IDLE, DetectionState.BUSY)
                    c["dialogs_quiet"] += quiet
                    if found is not DetectionState.PROMPT and key != "all":
                        misses.setdefault(agent, []).append(f"{name}: {found.value}")
                else:
                    c["quiet"] += 1
                    c["quiet_flagged"] += found in (DetectionState.PROMPT, DetectionState.UNKNOWN)
                    c["false_prompt"] += found is DetectionState.PROMPT
                    if found is DetectionState.PROMPT and key != "all":
                        misses.setdefault(agent, []).append(f"{name}: false prompt")
    result: dict[str, dict[str, object]] = {}
    for key, c in sorted(counts.items(), key=lambda kv: (kv[0] == "all", kv[0])):
        reported = c["caught"] + c["false_prompt"]
        result[key] = {
            **dict(c),
            "recall": c["caught"] / c["live"] if c["live"] else None,
            "precision": c["caught"] / reported if reported else None,
            "false_waiting": c["quiet_flagged"] / c["quiet"] if c["quiet"] else None,
            "misses": misses.get(key, []),
        }
    return result


def _pct(value: object) -> str:
    return f"{100 * value:5.1f} %" if isinstance(value, float) else "    - "


def main(argv: list[str]) -> int:
    """Print the figures for the roots in ``argv`` (or the defaults)."""
    as_json = "--json" in argv
    roots = [Path(a) for a in argv if not a.startswith("--")] or list(DEFAULT_ROOTS)
    figures = measure([r for r in roots if r.is_dir()], narrow="--narrow" in argv)
    if as_json:
        print(json.dumps(figures, indent=2))
        return 0
    print("roots: " + ", ".join(str(r) for r in roots))
    print(
        f"{'agent':14} {'live':>5} {'recall':>8} {'precision':>9} {'dialogs idle/busy':>18}"
        f" {'quiet':>6} {'false waiting':>14}"
    )
    for key, f in figures.items():
        print(
            f"{key:14} {f.get('live', 0):>5} {_pct(f['recall']):>8} {_pct(f['precision']):>9}"
            f" {f.get('dialogs_quiet', 0):>18} {f.get('quiet', 0):>6}"
            f" {_pct(f['false_waiting']):>14}"
        )
    for key, f in figures.items():
        for miss in f["misses"]:  # type: ignore[attr-defined]
            print(f"  miss {key}/{miss}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
