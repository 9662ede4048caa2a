"""Save live screens: corpus cases (``PAW_E2E_CAPTURE=1``) and failure evidence.

Cases go to ``tests/fixtures/screens-live/<agent>/<case>/`` with ``screen.txt`` (``capture-pane
-p``), ``screen.ansi`` (``-e``) and a ``meta.json`` in the format of ``tests/fixtures/corpus``.
Scratch paths are replaced by ``/home/u/...`` so the fixtures do not carry this machine's paths.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, NamedTuple

from tests.e2e import agents

LIVE_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "screens-live"
CAPTURE_ENV = "PAW_E2E_CAPTURE"


class Shot(NamedTuple):
    """One captured frame of a pane."""

    text: str
    ansi: str
    info: dict[str, str]


SCRATCH_STAND_IN = "/home/u/work/paw-agents-scratch"
# What may sit between two characters of a path an agent wrapped onto the next row: a line
# break, the rows' padding and box borders, and colour escapes (in screen.ansi).
_WRAP_GAP = r"(?:\x1b\[[0-9;]*m)*(?:[ \t│┃|]*\n(?:\x1b\[[0-9;]*m|[ \t│┃|])*)?"


def scrub_wrapped(text: str, prefix: str, stand_in: str) -> str:
    """Replace ``prefix`` by ``stand_in`` (padded or cut to the same width) even where the
    agent wrapped it over several rows: character for character, rows and indents kept, so
    the screen's layout does not move."""
    if not prefix:
        return text
    same = stand_in[: len(prefix)].ljust(len(prefix), "_")
    pattern = re.compile(_WRAP_GAP.join(f"({re.escape(c)})" for c in prefix))

    def swap(match: re.Match[str]) -> str:
        chars = list(match.group(0))
        base = match.start()
        for index in range(len(prefix)):
            chars[match.start(index + 1) - base] = same[index]
        return "".join(chars)

    return pattern.sub(swap, text)


def scratch_stand_in() -> tuple[str, str]:
    """This machine's scratch folder and the placeholder that replaces it in fixtures."""
    return str(agents.agents_home() / "scratch"), SCRATCH_STAND_IN


def scrub(text: str, scratch: Path) -> str:
    """Replace the scratch directory (and the agents cache) by stable placeholder paths."""
    out = text.replace(str(scratch), "/home/u/src")
    # Narrow panes wrap the deep scratch path over rows: keep the layout, drop the machine.
    out = scrub_wrapped(out, *scratch_stand_in())
    out = out.replace(str(agents.agents_home()), "/home/u/.cache/paw-agents")
    # Agents shorten long paths as `<first>/.../<last>` or `<first>/.…`: the first component
    # can still be this machine's home or the scratch folder's top (gemini-cli's footer);
    # replace it by a placeholder of the same width (layouts stay aligned).
    tops = {path.parts[1] for path in (Path.home(), Path(scratch_stand_in()[0])) if path.parts[1:]}
    for top in sorted(tops - {"home"}):
        stand_in = "home"[: len(top)].ljust(len(top), "_")
        out = out.replace(f"/{top}/.../", f"/{stand_in}/.../")
        out = out.replace(f"/{top}/.…", f"/{stand_in}/.…")  # vibe's status line, cut
    return out


def capturing() -> bool:
    """Whether this run records corpus cases."""
    return os.environ.get(CAPTURE_ENV, "") not in ("", "0")


def save_case(agent: str, case: str, shot: Shot, meta: dict[str, Any], scratch: Path) -> Path:
    """Write one corpus case; returns its directory."""
    target = LIVE_DIR / agent / case
    target.mkdir(parents=True, exist_ok=True)
    (target / "screen.txt").write_text(scrub(shot.text, scratch), encoding="utf-8")
    (target / "screen.ansi").write_text(scrub(shot.ansi, scratch), encoding="utf-8")
    full = {
        "agent": agent,
        "agent_version": agents.VERSIONS[agent],
        "cols": int(shot.info.get("pane_width", 0)),
        "rows": int(shot.info.get("pane_height", 0)),
        **meta,
        "tmux": {k: shot.info.get(k) for k in ("alternate_on", "cursor_x", "cursor_y")},
    }
    (target / "meta.json").write_text(json.dumps(full, indent=2) + "\n", encoding="utf-8")
    return target


def save_failure(test_id: str, shot: Shot, note: str) -> Path:
    """Keep the screen of a failed step outside the repository; returns the file."""
    target = agents.agents_home() / "failures" / test_id
    target.mkdir(parents=True, exist_ok=True)
    path = target / "screen.txt"
    path.write_text(f"{shot.text}\n---\n{note}\n{json.dumps(shot.info)}\n", encoding="utf-8")
    return path
