"""StateStore: atomic JSON records under .paw/, ignored by git."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from paw.adapters.state import StateError, StateStore
from tests.adapters.conftest import run_git


def test_state_save_load_delete(tmp_path: Path) -> None:
    store = StateStore(tmp_path / ".paw")
    store.save({"name": "b-agent", "kind": "codex"})
    store.save({"name": "a-agent", "kind": "claude-code", "pane": "%3"})
    store.save({"name": "a-agent", "kind": "claude-code", "pane": "%4"})
    assert store.load_all() == [
        {"name": "a-agent", "kind": "claude-code", "pane": "%4"},
        {"name": "b-agent", "kind": "codex"},
    ]
    store.delete("a-agent")
    store.delete("a-agent")
    assert [r["name"] for r in store.load_all()] == ["b-agent"]
    assert store.load("a-agent") is None


def test_state_documents_read_write(tmp_path: Path) -> None:
    store = StateStore(tmp_path / ".paw")
    assert store.read("agents") is None
    store.write("agents", {"agents": [{"name": "x"}]})
    assert store.read("agents") == {"agents": [{"name": "x"}]}


def test_state_leaves_no_temporary_files(tmp_path: Path) -> None:
    store = StateStore(tmp_path / ".paw")
    for i in range(5):
        store.save({"name": "a", "i": i})
    names = sorted(p.name for p in (tmp_path / ".paw").rglob("*"))
    assert names == [".gitignore", "a.json", "agents"]


@pytest.mark.git
def test_state_directory_is_ignored_by_git(git_repo: Path) -> None:
    StateStore(git_repo / ".paw").save({"name": "a"})
    assert (git_repo / ".paw" / ".gitignore").read_text(encoding="utf-8") == "*\n"
    assert run_git(git_repo, "status", "--porcelain", "--untracked-files=all") == ""


@pytest.mark.parametrize("name", ["../escape", "", "a/b", ".hidden", None])
def test_state_rejects_bad_names(tmp_path: Path, name: object) -> None:
    with pytest.raises(StateError, match="invalid agent name"):
        StateStore(tmp_path / ".paw").save({"name": name})


def test_state_skips_corrupt_records(tmp_path: Path) -> None:
    store = StateStore(tmp_path / ".paw")
    store.save({"name": "good"})
    (tmp_path / ".paw" / "agents" / "bad.json").write_text("{not json", encoding="utf-8")
    assert store.load_all() == [{"name": "good"}]


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


def _take(store: StateStore, order: list[str]) -> None:
    with store.lock("approval"):
        order.append("waiter")
