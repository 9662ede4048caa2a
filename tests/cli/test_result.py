"""The one renderer: a handler's Result is printed as its JSON object (in the layout the command
promised) and its lines, stdout and stderr in order, and its exit code is returned."""

from __future__ import annotations

import pytest

from paw.cli import main
from paw.cli.result import ERR, OUT, RAW, JsonLayout, Result, json_text, render


def test_lines_go_to_their_stream_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    result = Result(lines=((OUT, "one"), (ERR, "warning: two"), (OUT, "a\nb"), (RAW, "md")), code=5)
    assert render(result) == 5
    out, err = capsys.readouterr()
    assert out == "one\na\nb\nmd"
    assert err == "warning: two\n"


@pytest.mark.parametrize(
    ("layout", "expected"),
    [
        (JsonLayout.PRETTY, '{\n  "name": "é"\n}'),
        (JsonLayout.LINE, '{"name": "é"}'),
        (JsonLayout.ASCII, '{\n  "name": "\\u00e9"\n}'),
    ],
)
def test_the_three_json_layouts(layout: JsonLayout, expected: str) -> None:
    assert json_text({"name": "é"}, layout) == expected


def test_a_handler_result_reaches_the_terminal_through_main(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`paw check` returns a Result: one JSON line, exit code by the verdict."""
    assert main(["check", "--json", "rm -rf /"]) == 20
    out, err = capsys.readouterr()
    assert out.count("\n") == 1
    assert out.startswith('{"command": "rm -rf /"')
    assert not err
