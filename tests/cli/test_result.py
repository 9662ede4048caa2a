"""The one renderer: a handler's Result is printed as its JSON object (in the layout the command
promised) and its lines, stdout and stderr in order, and its exit code is returned."""

from __future__ import annotations

import io

import pytest

from paw.cli import main
from paw.cli.result import (
    ERR,
    OUT,
    RAW,
    JsonLayout,
    Question,
    Result,
    json_text,
    render,
    write_live,
)


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


class Typed(io.StringIO):
    """A stdin that is a terminal, where a person types ``answer``."""

    def isatty(self) -> bool:
        return True


def _confirm_result(asked: list[str]) -> Result:
    def then() -> Result:
        asked.append("then")
        return Result(lines=((OUT, "sent y to prompt abc"),))

    question = Question(text="Command: git push", ask="approve? [y/N] ", then=then)
    return Result(lines=((ERR, "paw: needs confirmation"),), code=3, question=question)


@pytest.mark.parametrize(
    ("answer", "code"),
    [("y\n", 0), ("yes\n", 0), ("n\n", 3), ("\n", 3)],
    ids=["y", "yes", "n", "enter"],
)
def test_the_renderer_asks_a_results_question_at_a_terminal(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    answer: str,
    code: int,
) -> None:
    """`paw approve`'s question is asked by the one renderer: the confirmation, the question,
    then on a yes what the question leads to (and nothing of the refused result), else the
    result as it stands."""
    monkeypatch.setattr("sys.stdin", Typed(answer))
    asked: list[str] = []
    assert render(_confirm_result(asked)) == code
    out, err = capsys.readouterr()
    assert out.startswith("Command: git push\napprove? [y/N] ")
    if code == 0:
        assert (asked, out.endswith("sent y to prompt abc\n"), err) == (["then"], True, "")
    else:
        assert (asked, err) == ([], "paw: needs confirmation\n")


def test_no_question_without_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Input that is not a terminal is never read as an answer: the result stands."""
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))
    asked: list[str] = []
    assert render(_confirm_result(asked)) == 3
    assert capsys.readouterr() == ("", "paw: needs confirmation\n")
    assert asked == []


def test_live_lines_are_written_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    write_live("[12:00:00] task a: started")
    write_live("paw: notify: refused", ERR)
    assert capsys.readouterr() == ("[12:00:00] task a: started\n", "paw: notify: refused\n")
