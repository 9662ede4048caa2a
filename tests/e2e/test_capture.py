"""Captured screens lose this machine's paths without moving the layout."""

from __future__ import annotations

from tests.e2e.capture import scrub_wrapped

PREFIX = "/srv/build/agents/scratch"  # 25 characters
STAND_IN = "/home/u/work/paw-agents-scratch"


def test_a_path_wrapped_over_rows_is_replaced_character_for_character() -> None:
    screen = "   2. Yes, allow access to /srv/bui\n      ld/agents/scratch/deep/demo\n   3. No"
    out = scrub_wrapped(screen, PREFIX, STAND_IN)
    assert "/srv" not in out
    assert "ld/agents/scratch" not in out
    assert [len(row) for row in out.split("\n")] == [len(row) for row in screen.split("\n")]
    assert out.replace("\n      ", "").endswith("/home/u/work/paw-agents-s/deep/demo\n   3. No")


def test_colour_escapes_and_box_borders_between_the_pieces_stay() -> None:
    screen = "│ /srv/build/ag\x1b[0m │\n│ ents/scratch/x │"
    out = scrub_wrapped(screen, PREFIX, STAND_IN)
    assert out == "│ /home/u/work/\x1b[0m │\n│ paw-agents-s/x │"


def test_a_shorter_stand_in_is_padded_and_other_text_is_left_alone() -> None:
    assert scrub_wrapped(f"see {PREFIX}/a", PREFIX, "/h") == "see /h_______________________/a"
    assert scrub_wrapped("/srv/build/other", PREFIX, STAND_IN) == "/srv/build/other"
