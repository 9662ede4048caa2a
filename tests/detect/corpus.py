"""Load the real-screen corpora and compare detections with their meta.

``tests/fixtures/corpus`` holds captures of the six agents; ``tests/fixtures/screens-live`` holds
the screens paw's e2e suite captured from the real CLIs (same format, test ids ``live/...``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paw.core.detect.screen import collapse_whitespace
from paw.core.models import Detection, DetectionState, PromptKind

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CORPUS = FIXTURES / "corpus"
LIVE = FIXTURES / "screens-live"
STATES = {
    "permission_prompt": DetectionState.PROMPT,
    "dialog": DetectionState.PROMPT,
    "idle": DetectionState.IDLE,
    "done": DetectionState.IDLE,
    "busy": DetectionState.BUSY,
}


@dataclass(frozen=True)
class Case:
    """One captured screen with its meta."""

    agent: str
    name: str
    path: Path
    meta: dict[str, Any] = field(hash=False)
    prefix: str = ""

    @property
    def test_id(self) -> str:
        return f"{self.prefix}{self.agent}/{self.name}"

    def text(self, variant: str = "txt") -> str:
        return (self.path / f"screen.{variant}").read_text(encoding="utf-8")

    def has(self, variant: str) -> bool:
        """Whether the case has a ``screen.<variant>`` capture."""
        return (self.path / f"screen.{variant}").is_file()


def load_cases(root: Path = CORPUS, prefix: str = "") -> list[Case]:
    """Every case under ``root`` (default: the corpus), sorted by agent and name."""
    cases = []
    for meta_path in sorted(root.glob("*/*/meta.json")):
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        folder = meta_path.parent
        cases.append(Case(folder.parent.name, folder.name, folder, meta, prefix))
    return cases


def load_live_cases() -> list[Case]:
    """Every screen of the live captures at the verified sizes (80x24 and up), with test ids
    ``live/<agent>/<case>``; the narrow ones are ``load_narrow_cases``."""
    return [case for case in load_cases(LIVE, "live/") if not case.meta.get("narrow")]


def load_narrow_cases() -> list[Case]:
    """The live captures on narrow panes (40x15, 30x20; meta ``"narrow": true``), where a
    detector may read a live prompt as unknown."""
    return [case for case in load_cases(LIVE, "live/") if case.meta.get("narrow")]


def is_question(meta: dict[str, Any]) -> bool:
    """The meta describes an ask-the-user question or picker.

    paw's rule (issue 4): such prompts are kind ``question`` and never approvable by a generic
    key, even where the corpus recorded the key that picks the preselected answer. The corpus
    marks them as dialogs whose subject is the question itself.
    """
    subject = meta.get("subject")
    if meta.get("prompt_kind") == "question":
        return True
    return meta["state"] == "dialog" and isinstance(subject, str) and subject.endswith("?")


def subject_matches(meta: dict[str, Any], kind: PromptKind, got: str | None) -> bool:
    """Compare a detected subject with the meta's (whitespace collapsed, placeholders honoured).

    Paths may be reported relative or absolute (suffix match); an MCP subject matches when
    every word of the meta's names appears in it (agents print tool titles differently).
    """
    want = meta.get("subject")
    if want is None:
        return True
    if got is None:
        return False
    want_n, got_n = collapse_whitespace(want), collapse_whitespace(got)
    pattern = re.escape(want_n).replace(re.escape("<port>"), r"\d+")
    if re.fullmatch(pattern, got_n):
        return True
    if kind in (PromptKind.EDIT, PromptKind.WRITE):
        return got_n.endswith("/" + want_n) or want_n.endswith("/" + got_n)
    if kind is PromptKind.MCP:
        return _words(want_n) - {"mcp", "server"} <= _words(got_n)
    return False


def _words(text: str) -> set[str]:
    return {w for w in re.split(r"[^a-z0-9]+", text.lower()) if w}


def problems(case: Case, found: Detection) -> list[str]:
    """Everything in ``found`` that disagrees with the case's meta (empty when it passes)."""
    meta = case.meta
    errors: list[str] = []
    want_state = STATES[meta["state"]]
    if found.state is not want_state:
        return [f"state {found.state.value} != {want_state.value}"]
    prompt = found.prompt
    if want_state is not DetectionState.PROMPT:
        return ["prompt set on a non-prompt state"] if prompt is not None else []
    assert prompt is not None
    question = is_question(meta)
    want_kind = PromptKind.QUESTION if question else PromptKind(meta["prompt_kind"])
    if prompt.kind is not want_kind:
        errors.append(f"kind {prompt.kind.value} != {want_kind.value}")
    if not subject_matches(meta, prompt.kind, prompt.subject):
        errors.append(f"subject {prompt.subject!r} != {meta['subject']!r}")
    approve = [list(keys) for keys in [meta["approve_keys"], *meta.get("approve_keys_alt", [])]]
    if question:
        if prompt.approve_keys:
            errors.append(f"question approvable by {prompt.approve_keys}")
    elif list(prompt.approve_keys) not in approve:
        errors.append(f"approve {list(prompt.approve_keys)} not in {approve}")
    if list(prompt.deny_keys) != meta["deny_keys"]:
        errors.append(f"deny {list(prompt.deny_keys)} != {meta['deny_keys']}")
    if "always_keys" in meta and list(prompt.always_keys or []) != (meta["always_keys"] or []):
        errors.append(f"always {prompt.always_keys} != {meta['always_keys']}")
    return errors
