"""JsonlAuditLog: fsynced appends, tolerant reads."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from paw.adapters.audit import AuditError, JsonlAuditLog, current_tty, current_user


def test_audit_append_read_round_trip(tmp_path: Path) -> None:
    log = JsonlAuditLog(tmp_path / ".paw" / "audit.jsonl")
    log.append({"event": "approve", "keys": ["1", "Enter"], "n": 1})
    log.append({"event": "deny", "text": "ünïcode ; \n newline"})
    assert log.read() == [
        {"event": "approve", "keys": ["1", "Enter"], "n": 1},
        {"event": "deny", "text": "ünïcode ; \n newline"},
    ]
    assert log.tail(1) == [{"event": "deny", "text": "ünïcode ; \n newline"}]
    assert len(log.path.read_text(encoding="utf-8").splitlines()) == 2


@pytest.fixture
def synced(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The descriptors fsync'd from now on (the real fsync still runs)."""
    calls: list[int] = []
    real = os.fsync

    def recording(fd: int) -> None:
        calls.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", recording)
    return calls


def test_audit_append_fsyncs_before_returning(tmp_path: Path, synced: list[int]) -> None:
    JsonlAuditLog(tmp_path / "audit.jsonl").append({"event": "x"})
    assert len(synced) == 1


def test_an_observation_is_written_at_once_and_synced_by_the_next_record(
    tmp_path: Path, synced: list[int]
) -> None:
    """``sync=False`` (a prompt seen): no fsync of its own, but the line is in the file for
    every reader at once; the next synced record's fsync covers it."""
    log = JsonlAuditLog(tmp_path / "audit.jsonl")
    log.append({"event": "prompt-seen"}, sync=False)
    assert synced == []
    assert JsonlAuditLog(log.path).read() == [{"event": "prompt-seen"}]  # another reader
    log.append({"event": "approve"})
    assert len(synced) == 1


def test_audit_read_skips_torn_last_line_and_next_append_starts_clean(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    path.write_text('{"event": "a"}\n{"event": "tor', encoding="utf-8")
    log = JsonlAuditLog(path)
    assert log.read() == [{"event": "a"}]
    log.append({"event": "b"})
    assert log.read() == [{"event": "a"}, {"event": "b"}]


def test_audit_missing_file_reads_empty(tmp_path: Path) -> None:
    assert JsonlAuditLog(tmp_path / "none.jsonl").read() == []


def test_audit_unwritable_raises_audit_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    with pytest.raises(AuditError, match="cannot write"):
        JsonlAuditLog(blocker / "audit.jsonl").append({"event": "x"})


def test_audit_current_user_and_tty() -> None:
    assert current_user()
    tty = current_tty()
    assert tty is None or tty.startswith("/dev/")


def test_tail_reads_the_last_records_from_the_end(tmp_path: Path) -> None:
    log = JsonlAuditLog(tmp_path / "audit.jsonl")
    assert log.tail(8) == []
    for i in range(600):  # more than one block (16 KiB) of the file's end
        log.append({"event": "e", "i": i, "pad": "x" * (i % 50)})
    with (tmp_path / "audit.jsonl").open("a", encoding="utf-8") as fh:
        fh.write('{"event": "torn')  # a crash mid-write: skipped
    assert log.tail(8) == log.read()[-8:]
    assert [r["i"] for r in log.tail(3)] == [597, 598, 599]
    assert log.tail(0) == []
    assert len(log.tail(5000)) == 600


def test_tail_of_an_unchanged_log_is_not_read_again_and_another_writers_record_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reader, writer = (
        JsonlAuditLog(tmp_path / "audit.jsonl"),
        JsonlAuditLog(tmp_path / "audit.jsonl"),
    )
    writer.append({"event": "a"})
    reads: list[int] = []
    real = JsonlAuditLog._read_tail

    def counted(self: JsonlAuditLog, n: int) -> list[dict[str, object]]:
        reads.append(n)
        return real(self, n)

    monkeypatch.setattr(JsonlAuditLog, "_read_tail", counted)
    first = reader.tail(8)
    assert reader.tail(8) == first == [{"event": "a"}]
    assert reads == [8]  # the second tail: a stat, no read
    first.append({"event": "mine"})  # a caller's list is its own
    assert reader.tail(8) == [{"event": "a"}]
    writer.append({"event": "b"})  # another process's record: the file grew
    assert reader.tail(8) == [{"event": "a"}, {"event": "b"}]
    assert reader.tail(1) == [{"event": "b"}]  # another count: read again
    assert reads == [8, 8, 1]
