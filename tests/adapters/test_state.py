"""StateStore: atomic JSON documents and cross-process locks under .paw/, ignored by git."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from paw.adapters.state import StateError, StateStore
from tests.adapters.conftest import run_git
from tests.support.readonly import read_only


def test_state_documents_read_write(tmp_path: Path) -> None:
    store = StateStore(tmp_path / ".paw")
    assert store.read("agents") is None
    store.write("agents", {"agents": [{"name": "x"}]})
    assert store.read("agents") == {"agents": [{"name": "x"}]}


def test_state_leaves_no_temporary_files(tmp_path: Path) -> None:
    store = StateStore(tmp_path / ".paw")
    for i in range(5):
        store.write("agents", {"i": i})
    names = sorted(p.name for p in (tmp_path / ".paw").rglob("*"))
    assert names == [".gitignore", "agents.json"]
    assert store.read("agents") == {"i": 4}


@pytest.mark.git
def test_state_directory_is_ignored_by_git(git_repo: Path) -> None:
    StateStore(git_repo / ".paw").write("agents", {"agents": []})
    assert (git_repo / ".paw" / ".gitignore").read_text(encoding="utf-8") == "*\n"
    assert run_git(git_repo, "status", "--porcelain", "--untracked-files=all") == ""


@pytest.mark.parametrize("name", ["../escape", "", "a/b", ".hidden", None])
def test_state_rejects_bad_names(tmp_path: Path, name: object) -> None:
    with pytest.raises(StateError, match="invalid state document name"):
        StateStore(tmp_path / ".paw").write(name, {})  # type: ignore[arg-type]


def test_state_corrupt_document_is_an_error_not_an_empty_one(tmp_path: Path) -> None:
    """Reading a corrupt agents file as empty would make the next write drop every record."""
    store = StateStore(tmp_path / ".paw")
    store.write("agents", {"agents": []})
    (tmp_path / ".paw" / "agents.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(StateError, match="corrupt"):
        store.read("agents")


def test_state_lock_excludes_other_holders(tmp_path: Path) -> None:
    store = StateStore(tmp_path / ".paw")
    order: list[str] = []
    with store.lock("approval"):
        waiter = threading.Thread(target=_take, args=(store, order))
        waiter.start()
        waiter.join(0.3)
        assert waiter.is_alive()  # blocked while we hold the lock
        order.append("holder-done")
    waiter.join(5)
    assert order == ["holder-done", "waiter"]


def test_state_lock_is_reentrant_in_one_thread_and_try_lock_sees_others(tmp_path: Path) -> None:
    store = StateStore(tmp_path / ".paw")
    other = StateStore(tmp_path / ".paw")  # another process would open its own descriptor
    with store.lock("op-a"), store.lock("op-a"):  # nested: no deadlock
        with store.try_lock("op-a") as mine:
            assert mine
        seen: list[bool] = []
        thread = threading.Thread(target=lambda: seen.append(_try(other, "op-a")))
        thread.start()
        thread.join(5)
        assert seen == [False]
    assert _try(other, "op-a")


def test_state_check_writable_names_a_read_only_directory(tmp_path: Path) -> None:
    store = StateStore(tmp_path / ".paw")
    store.write("agents", {"agents": []})
    store.check_writable()
    with read_only(tmp_path / ".paw"), pytest.raises(StateError, match="not writable") as err:
        store.check_writable()
    assert "\n" not in err.value.message


def _try(store: StateStore, name: str) -> bool:
    with store.try_lock(name) as free:
        return free


def _take(store: StateStore, order: list[str]) -> None:
    with store.lock("approval"):
        order.append("waiter")


def test_read_parsed_reuses_a_parse_only_while_the_text_is_the_same(tmp_path: Path) -> None:
    """The memo is keyed on the document's whole text, never on a stat: two writers in the
    same clock tick, or a reused inode, cannot make paw read an old record."""
    store = StateStore(tmp_path / ".paw")
    calls: list[object] = []

    def parse(data: dict[str, object] | None) -> tuple[object, ...]:
        calls.append(data)
        return tuple(sorted((data or {}).items()))

    assert store.read_parsed("doc", "k", parse) == ()  # missing: parsed as None, remembered
    assert store.read_parsed("doc", "k", parse) == ()
    assert calls == [None]
    store.write("doc", {"a": 1})
    first = store.read_parsed("doc", "k", parse)
    assert first == (("a", 1),)
    assert store.read_parsed("doc", "k", parse) is first  # same text: same object
    for value in (2, 3, 4):  # same size, written back to back
        store.write("doc", {"a": value})
        assert store.read_parsed("doc", "k", parse) == (("a", value),)
    assert len(calls) == 5
    assert store.read_parsed("doc", "other", parse) == (("a", 4),)  # kinds apart
    (tmp_path / ".paw" / "doc.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(StateError, match="corrupt"):
        store.read_parsed("doc", "k", parse)
    with pytest.raises(StateError, match="corrupt"):  # an error is never remembered
        store.read_parsed("doc", "k", parse)


def test_a_writer_reads_its_own_text_back_without_parsing_and_anyone_elses_parsed(
    tmp_path: Path,
) -> None:
    """``write(parsed=...)``: the writer's next ``read_parsed`` of the text it wrote gives the
    value it gave (a sweep re-read the prompts it had just written, a parse of every record);
    a text written by anyone else, or a failed write, is parsed again."""
    store = StateStore(tmp_path / ".paw")
    calls: list[object] = []

    def parse(data: dict[str, object] | None) -> tuple[object, ...]:
        calls.append(data)
        return tuple(sorted((data or {}).items()))

    value = (("a", 1),)
    store.write("doc", {"a": 1}, parsed=("k", value))
    assert store.read_parsed("doc", "k", parse) is value
    assert calls == []
    other = StateStore(tmp_path / ".paw")  # another process writes the same document
    other.write("doc", {"a": 2})
    assert store.read_parsed("doc", "k", parse) == (("a", 2),)
    assert calls == [{"a": 2}]
    store.write("doc", {"a": 3}, parsed=("k", (("a", 3),)))
    with read_only(tmp_path / ".paw"), pytest.raises(StateError):
        store.write("doc", {"a": 4}, parsed=("k", (("a", 4),)))
    assert store.read_parsed("doc", "k", parse) == (("a", 3),)  # what is on disk
    assert calls[-1] == {"a": 3}  # (parsed: the failed write forgot what it was to give)


def test_saved_prompts_load_back_as_the_same_records_and_as_written(tmp_path: Path) -> None:
    """A sweep's ``save_prompts`` then ``load_prompts`` gives back the records it saved
    (no parse), and the document on disk is what a parse of those records' dumps is."""
    from paw.core.occurrence import ENDED, ProcIdentity, PromptRecord
    from paw.supervisor.records import load_prompts, save_prompts

    proc = ProcIdentity(pid=7, create_time=1.5, exe="/bin/agent")
    records = {
        f"p{n}": PromptRecord(
            id=f"p{n}",
            agent=f"a{n}",
            kind="claude",
            pane_id=f"%{n}",
            fingerprint="f" * 8,
            prompt_kind="shell",
            subject=f"ls {n}",
            question="Run?",
            first_seen=n + 0.25,
            proc=proc,
        )
        for n in range(3)
    }
    store = StateStore(tmp_path / ".paw")
    save_prompts(store, records, durable=False)
    loaded = load_prompts(store)
    assert all(loaded[k] is records[k] for k in records)
    fresh = load_prompts(StateStore(tmp_path / ".paw"))  # another process parses the file
    assert fresh == records
    changed = {**records, "p1": records["p1"].model_copy(update={"state": ENDED})}
    save_prompts(store, changed)
    assert load_prompts(StateStore(tmp_path / ".paw"))["p1"].state == "ended"


def test_a_write_that_need_not_be_durable_fsyncs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A durable write fsyncs the document, then its directory; ``durable=False`` (a sweep's
    bookkeeping) fsyncs nothing and is still atomic for every reader."""
    import os

    synced: list[bool] = []
    real = os.fsync

    def recording(fd: int) -> None:
        synced.append(Path(f"/proc/self/fd/{fd}").is_dir())
        real(fd)

    store = StateStore(tmp_path / ".paw")
    store.write("prompts", {"prompts": []})  # (the first write also sets up .paw/)
    monkeypatch.setattr(os, "fsync", recording)
    store.write("prompts", {"prompts": [0]})
    assert synced == [False, True]  # the file, then the directory
    synced.clear()
    store.write("prompts", {"prompts": [1]}, durable=False)
    assert synced == []
    assert store.read("prompts") == {"prompts": [1]}


def test_a_saved_text_never_replaces_another(tmp_path: Path) -> None:
    store = StateStore(tmp_path / ".paw")
    first = store.save_text("checks", "w.a.1.log", "first run\n")
    again = store.save_text("checks", "w.a.1.log", "a re-run from fresh state\n")
    third = store.save_text("checks", "w.a.1.log", "third\n")
    assert [Path(p).name for p in (first, again, third)] == [
        "w.a.1.log",
        "w.a.1-2.log",
        "w.a.1-3.log",
    ]
    assert Path(first).read_text(encoding="utf-8") == "first run\n"
    assert Path(again).read_text(encoding="utf-8") == "a re-run from fresh state\n"
    assert Path(first).stat().st_mode & 0o077 == 0


def test_a_saved_text_name_is_checked(tmp_path: Path) -> None:
    store = StateStore(tmp_path / ".paw")
    for folder, name in (("checks", "../x.log"), ("../up", "x.log"), ("checks", ".hidden")):
        with pytest.raises(StateError):
            store.save_text(folder, name, "x")


def test_saved_texts_keep_only_the_newest_of_their_group(tmp_path: Path) -> None:
    store = StateStore(tmp_path / ".paw")
    other = Path(store.save_text("checks", "w.ab.1.log", "another task", group="w.ab.", keep=2))
    saved = []
    for run in range(1, 8):
        path = Path(store.save_text("checks", f"w.a.{run}.log", f"run {run}", group="w.a.", keep=3))
        os.utime(path, ns=(run * 10**9, run * 10**9))  # written a second apart
        saved.append(path)
    left = sorted(p.name for p in (tmp_path / ".paw" / "checks").iterdir())
    assert left == ["w.a.5.log", "w.a.6.log", "w.a.7.log", "w.ab.1.log"]
    assert other.exists()
    # the one just written stays even when older files look newer (a clock set back)
    os.utime(saved[-1], ns=(0, 0))
    newest = Path(store.save_text("checks", "w.a.1.log", "re-run", group="w.a.", keep=1))
    assert sorted(p.name for p in newest.parent.iterdir()) == ["w.a.1.log", "w.ab.1.log"]
    assert newest.read_text(encoding="utf-8") == "re-run"
