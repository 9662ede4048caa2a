"""The README's library example runs, and each call it shows returns what its comment says."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from paw.guard import detect_agent_instruction_files, detect_sensitive_files

README = Path(__file__).resolve().parents[2] / "README.md"
_CALL_RE = re.compile(r"^(detect_\w+\(.*\))\s+#\s+(\[.*\])$", re.MULTILINE)


def _library_example() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## The guard as a library", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_readme_library_example_runs() -> None:
    exec(compile(_library_example(), "README.md", "exec"), {})  # noqa: S102 - our own README


def test_readme_shows_detect_sensitive_files_called_with_text_and_a_list() -> None:
    example = _library_example()
    calls = _CALL_RE.findall(example)
    assert any("detect_sensitive_files([" in call for call, _ in calls), example
    assert any('detect_sensitive_files("' in call for call, _ in calls), example
    scope = {"detect_sensitive_files": detect_sensitive_files}
    for call, shown in calls:
        assert eval(call, scope) == ast.literal_eval(shown), call  # noqa: S307 - our own README


@pytest.mark.parametrize("paths", [["id_rsa", "src/app.py"], ("id_rsa", "src/app.py")])
def test_detect_sensitive_files_takes_a_list_of_paths(paths: list[str] | tuple[str, ...]) -> None:
    """Issue 30: given a list it raised AttributeError; a list (any iterable) is paths."""
    assert detect_sensitive_files(paths) == ["id_rsa"]
    assert detect_sensitive_files(iter(paths)) == ["id_rsa"]
    assert detect_agent_instruction_files(["AGENTS.md", "src/app.py"]) == ["AGENTS.md"]
    assert detect_sensitive_files([]) == []


def test_detect_sensitive_files_refuses_bytes_and_non_paths_clearly() -> None:
    with pytest.raises(TypeError, match="decode"):
        detect_sensitive_files(b"?? .env\n")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a str"):
        detect_sensitive_files([Path(".env")])  # type: ignore[list-item]
