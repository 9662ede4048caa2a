"""The escaper of foreign text for the terminal (pure)."""

from __future__ import annotations

import json

import pytest

from paw.core.printable import is_printable, printable, printable_ansi, printable_line


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b]52;c;cm0gLXJmIH4=\x07", "\\x1b]52;c;cm0gLXJmIH4=\\x07"),  # OSC 52: clipboard
        ("ls\x1b[2J\x1b[H", "ls\\x1b[2J\\x1b[H"),  # clear the screen
        ("a\rb", "a\\rb"),  # overwrite the line
        ("a\x7fb\x9bc", "a\\u007fb\\u009bc"),  # DEL, C1 CSI
        ("\u202eexe.txt\u202c", "\\u202eexe.txt\\u202c"),  # right-to-left override
        ("\u2066x\u2069\u200e\u200f\u061c", "\\u2066x\\u2069\\u200e\\u200f\\u061c"),
        (
            "a\u200bb\u200cc\u200dd\ufeffe\u2060f\u00adg",
            "a\\u200bb\\u200cc\\u200dd\\ufeffe\\u2060f\\u00adg",
        ),
        ("tag\U000e0041", "tag\\udb40\\udc41"),  # tag characters (smuggled text)
    ],
)
def test_controls_bidi_and_invisible_characters_show_as_escapes(raw: str, shown: str) -> None:
    assert printable(raw) == shown
    assert printable_line(raw) == shown
    assert not is_printable(raw)


def test_clean_text_is_the_same_object() -> None:
    for text in ("git push origin main", "café → ✓ 漢字", "two\nlines\tand a tab"):
        assert printable(text) is text
    line = "git push origin main"
    assert printable_line(line) is line


def test_a_line_field_escapes_tab_and_newline_too() -> None:
    assert printable("a\tb\nc") == "a\tb\nc"
    assert printable_line("a\tb\nc") == "a\\tb\\nc"


def test_a_json_document_stays_valid_json_with_the_same_data() -> None:
    data = {"subject": "x\u202ey\x1b]52;c;Zm9v\x07\x85\u200b\U000e0041 é"}
    shown = printable(json.dumps(data, ensure_ascii=False))
    assert json.loads(shown) == data
    assert is_printable(shown)


def test_a_colour_capture_keeps_tmux_colours_and_escapes_the_rest() -> None:
    assert printable_ansi("\x1b[31mred\x1b[0m \u202eevil") == "\x1b[31mred\x1b[0m \\u202eevil"
