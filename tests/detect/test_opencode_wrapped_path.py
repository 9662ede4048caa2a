"""opencode wraps a long path of its ``→ Edit`` line after a ``/``: the path is read whole
(issue 33: part of a subject is never shown as the whole). Found on the held-out screens."""

from __future__ import annotations

from paw.core.detect import detect
from paw.core.models import DetectionState, PromptKind
from tests.detect.corpus import FIXTURES

HELD_OUT = FIXTURES / "heldout" / "opencode" / "edit_long_72x22" / "screen.txt"
LONG_PATH = "src/paw_heldout/deeply/nested/package/with_a_rather_long_module_name.md"


def _screen(kind_rows: list[str]) -> str:
    rows = [
        "  ┃",
        "  ┃  △ Permission required",
        *(f"  ┃    {row}" for row in kind_rows),
        "  ┃",
        "  ┃  1 + hello",
        "  ┃",
        "  ┃   Allow once   Allow always   Reject",
        "  ┃",
        "  ┃  ctrl+f fullscreen  ⇆ select  enter confirm",
        "  ┃",
    ]
    return "\n".join(["", *rows, ""])


def test_held_out_long_path_is_read_whole() -> None:
    found = detect(HELD_OUT.read_text(encoding="utf-8"), "opencode")
    assert found.state is DetectionState.PROMPT
    assert found.prompt is not None
    assert found.prompt.kind is PromptKind.EDIT
    assert found.prompt.subject == LONG_PATH


def test_path_broken_after_a_separator_joins_without_a_space() -> None:
    found = detect(_screen(["→ Edit src/a/b/", "  c/d.md"]), "opencode")
    assert found.prompt is not None
    assert found.prompt.subject == "src/a/b/c/d.md"
