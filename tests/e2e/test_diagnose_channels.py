"""A failed live test's diagnostics list what the agent's channel left on disk (never its
secret): a request never listed, or answered by keys, is read from there."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from tests.e2e.diagnose import _channel_files


def test_the_channel_files_are_listed_with_their_start_and_never_the_secret(
    tmp_path: Path,
) -> None:
    run: Any = SimpleNamespace(ws=SimpleNamespace(repo=tmp_path))
    assert "no channel wired" in _channel_files(run)
    spawn = tmp_path / ".paw" / "channels" / "alice" / "s1"
    (spawn / "done").mkdir(parents=True)
    (spawn / "secret").write_bytes(b"do-not-print")
    (spawn / "r1.json").write_text('{"request_id": "r1", "tool": "Bash"}', encoding="utf-8")
    (spawn / "done" / "r1.json").write_text('{"outcome": "answered:deny"}', encoding="utf-8")
    said = _channel_files(run)
    assert 'alice/s1/r1.json 36 {"request_id": "r1", "tool": "Bash"}' in said, said
    assert "answered:deny" in said
    assert "alice/s1/secret 12" in said
    assert "do-not-print" not in said
