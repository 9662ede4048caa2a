"""Mistral Vibe's ``File:`` path over the rows it wrapped onto (issue 33).

Vibe moves a word that does not fit to a row of its own and cuts a word longer than a row at
the box edge: a row cut inside a word holds no blank and joins the next with nothing; a row
with a blank in it ended on a blank the wrap dropped (held-out ``edit_space_90x28``: ``… paw
plan for`` / ``q3.md``), which is put back. Built from the held-out captures.
"""

from __future__ import annotations

from paw.core.detect import detect
from paw.core.models import PromptKind
from tests.detect.corpus import FIXTURES

SPACE = FIXTURES / "heldout2" / "mistral-vibe" / "edit_space_90x28" / "screen.txt"
DEEP = FIXTURES / "heldout2" / "mistral-vibe" / "write_deep_90x28" / "screen.txt"
ROW = "│ h-folder-as-real-users-have/mistral-vibe-xt28h80e/demo/docs/meeting notes/paw plan for │"
NEXT = "│ q3.md" + " " * 82 + "│"


def _subject(text: str) -> str | None:
    found = detect(text, "mistral-vibe")
    assert found.prompt is not None, found
    assert found.prompt.kind in (PromptKind.EDIT, PromptKind.WRITE)
    return found.prompt.subject


def test_the_blank_a_wrap_dropped_is_put_back() -> None:
    text = SPACE.read_text(encoding="utf-8")
    assert f"{ROW}\n{NEXT}\n" in text
    subject = _subject(text)
    assert subject is not None
    assert subject.endswith("/demo/docs/meeting notes/paw plan for q3.md")


def test_a_word_moved_to_the_next_row_is_joined_with_a_blank() -> None:
    """A row shorter than the box that holds a blank: the next word did not fit."""
    text = SPACE.read_text(encoding="utf-8")
    short = ROW.replace(" plan for │", " plan     │")
    moved = "│ for q3.md" + " " * 78 + "│"
    assert len(short) == len(ROW)
    assert len(moved) == len(NEXT)
    subject = _subject(text.replace(f"{ROW}\n{NEXT}\n", f"{short}\n{moved}\n"))
    assert subject is not None
    assert subject.endswith("/docs/meeting notes/paw plan for q3.md")


def test_a_row_cut_inside_a_word_joins_with_nothing() -> None:
    subject = _subject(DEEP.read_text(encoding="utf-8"))
    assert subject is not None
    assert subject.endswith("/demo/src/new_area/level_one/level_two/level_three/paw-deep-new.txt")
    assert " " not in subject
