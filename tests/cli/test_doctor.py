"""`paw doctor`: agents resolved on PATH exactly as `paw spawn` does, versions against the
verified ones, credentials looked for where each agent keeps them."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from paw.adapters.channels.gemini import insecure_ancestor
from paw.cli import main


def _fake_cli(folder: Path, name: str, output: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / name
    script.write_text(f"#!/bin/sh\necho '{output}'\n", encoding="utf-8")
    script.chmod(0o755)


def _doctor(capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, str]]:
    assert main(["doctor", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "error" not in data
    return {r["name"]: r for r in data["checks"]}


def _clear_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    from paw.core.detect.registry import all_specs

    for spec in (s.sign_in for s in all_specs() if s.sign_in is not None):
        for var in spec.variables:
            monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)


def test_doctor_warns_when_agent_version_differs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bin_dir = tmp_path / "bin"
    monkeypatch.setenv("PAW_AGENTS_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    _fake_cli(bin_dir, "codex", "codex-cli 0.170.9")
    _fake_cli(bin_dir, "gemini", "0.61.0")
    rows = _doctor(capsys)
    assert rows["codex"]["status"] == "warn"
    assert "differs from the verified 0.171.0" in rows["codex"]["detail"]
    assert rows["gemini-cli"]["status"] == "ok"
    assert rows["opencode"]["status"] == "warn"
    assert "not installed" in rows["opencode"]["detail"]
    assert rows["tmux"]["status"] == "ok"


def test_doctor_and_spawn_agree_on_an_agent_only_in_the_install_cache(
    git_repo: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("PAW_AGENTS_HOME", str(cache))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    _fake_cli(cache / "node_modules" / ".bin", "codex", "codex-cli 0.171.0")
    row = _doctor(capsys)["codex"]
    assert row["status"] == "warn"
    assert "not on PATH, so `paw spawn` cannot start it" in row["detail"]
    assert str(cache / "node_modules" / ".bin" / "codex") in row["detail"]
    # ...and spawn refuses the same agent, before creating anything
    code = main(["spawn", "-C", str(git_repo), "x", "--agent", "codex", "--json"])
    assert code == 1
    assert "not installed" in json.loads(capsys.readouterr().out)["error"]["message"]
    # on PATH, both accept it (doctor: ok; spawn's own check no longer refuses)
    monkeypatch.setenv("PATH", f"{cache / 'node_modules' / '.bin'}:/usr/bin:/bin")
    assert _doctor(capsys)["codex"]["status"] == "ok"


def test_doctor_sign_in_row_names_what_it_looked_for(
    tmp_path: Path,
    isolated_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    bin_dir = tmp_path / "bin"
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setenv("PAW_AGENTS_HOME", str(tmp_path / "cache"))
    _clear_keys(monkeypatch)
    _fake_cli(bin_dir, "codex", "codex-cli 0.171.0")
    _fake_cli(bin_dir, "gemini", "0.61.0")
    _fake_cli(bin_dir, "claude", "2.1.332 (Claude Code)")
    rows = _doctor(capsys)
    codex = rows["codex login"]
    assert codex["status"] == "warn"
    assert str(isolated_env / ".codex" / "auth.json") in codex["detail"]
    assert "$OPENAI_API_KEY" in codex["detail"]
    assert "codex login" in codex["detail"]
    assert "opencode login" not in rows  # not installed: nothing to sign in to
    # a credentials file counts...
    (isolated_env / ".codex").mkdir()
    (isolated_env / ".codex" / "auth.json").write_text("{}", encoding="utf-8")
    # ...and so does a key variable (its value is never shown)
    monkeypatch.setenv("GEMINI_API_KEY", "secret-value-123")
    rows = _doctor(capsys)
    assert rows["codex login"] == {
        "name": "codex login",
        "status": "ok",
        "detail": f"credentials file {isolated_env / '.codex' / 'auth.json'}",
    }
    assert rows["gemini-cli login"]["detail"] == "$GEMINI_API_KEY is set"
    assert rows["claude-code login"]["status"] == "warn"
    main(["doctor"])
    assert "secret-value-123" not in capsys.readouterr().out


def test_doctor_text_has_a_header(capsys: pytest.CaptureFixture[str]) -> None:
    main(["doctor"])
    assert capsys.readouterr().out.splitlines()[0].split() == ["STATUS", "CHECK", "DETAIL"]


def test_doctor_shows_where_paw_runs_from_and_that_its_data_loads(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import paw

    row = _doctor(capsys)["paw"]
    assert row["status"] == "ok"
    assert str(Path(paw.__file__).resolve().parent) in row["detail"]


def test_doctor_fails_an_install_missing_its_package_data(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A wheel without the TUI's stylesheet is a broken install, not a working paw."""
    from paw.cli import doctor

    monkeypatch.setattr(doctor, "PACKAGE_DATA", ("tui/paw.tcss", "tui/gone.tcss"))
    assert main(["doctor", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    row = next(r for r in data["checks"] if r["name"] == "paw")
    assert row["status"] == "fail"
    assert row["detail"].startswith("tui/gone.tcss missing from ")
    assert "paw" in data["error"]["message"]


def test_doctor_checks_the_command_paw_toml_configures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 33: with `[agents.claude-code] command = [".../claude"]` and nothing on PATH,
    doctor checks what `paw spawn` runs (its version), never "not installed"."""
    monkeypatch.setenv("PAW_AGENTS_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    old = tmp_path / "pinned" / "2.1.310"
    _fake_cli(old, "claude", "2.1.310 (Claude Code)")
    project = tmp_path / "project"
    project.mkdir()
    (project / "paw.toml").write_text(
        f'[agents.claude-code]\ncommand = ["{old / "claude"}"]\n\n'
        '[agents.codex]\ncommand = ["/nowhere/codex"]\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(project)
    rows = _doctor(capsys)
    claude = rows["claude-code"]
    assert claude["status"] == "warn"
    assert "version 2.1.310" in claude["detail"]
    assert "differs from the verified" in claude["detail"]
    assert "paw.toml" in claude["detail"]
    assert "not installed" not in claude["detail"]
    assert rows["codex"]["status"] == "warn"
    assert "not found: `/nowhere/codex`" in rows["codex"]["detail"]
    # the same command at the verified version is ok
    from paw.core.detect.registry import spec_for

    spec = spec_for("claude-code")
    assert spec is not None
    _fake_cli(old, "claude", f"{spec.version} (Claude Code)")
    assert _doctor(capsys)["claude-code"]["status"] == "ok"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal")
def test_doctor_says_whether_tmux_clients_can_die_with_paw(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert _doctor(capsys)["setpriv"]["status"] == "ok"
    bare = tmp_path / "bin"  # a PATH with tmux and git, without setpriv
    for tool in ("tmux", "git"):
        found = shutil.which(tool)
        assert found is not None
        bare.mkdir(exist_ok=True)
        (bare / tool).symlink_to(found)
    monkeypatch.setenv("PATH", str(bare))
    row = _doctor(capsys)["setpriv"]
    assert row["status"] == "warn"
    assert "util-linux" in row["detail"]


def _repo(path: Path) -> Path:
    path.mkdir(mode=0o755, parents=True)
    path.chmod(0o755)  # (whatever the umask: only the directory above is shared)
    subprocess.run(["git", "init", "-q", str(path)], check=True, capture_output=True)
    return path


def _private_base() -> Path | None:
    """A directory of this machine below which every directory is the user's alone (the
    checkout, else the user's real home), or None when there is none."""
    checkout = Path(__file__).resolve().parents[2]
    for base in (checkout / ".pytest-private", Path(pwd.getpwuid(os.getuid()).pw_dir)):
        if insecure_ancestor(base / "x") is None and base.parent.is_dir():
            base.mkdir(mode=0o700, exist_ok=True)
            if not base.stat().st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                return base
    return None


@pytest.mark.parametrize("sticky", [False, True], ids=["shared", "sticky-like-tmp"])
def test_doctor_says_gemini_hook_is_not_wired_below_a_shared_directory(
    tmp_path: Path,
    isolated_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    sticky: bool,
) -> None:
    """A repository below a directory group or others may write to (as /tmp is): paw wires no
    Gemini hook there (Gemini would skip its settings file); the doctor says so, why, and what
    to do, in --json and in text."""
    del isolated_env
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777 if sticky else 0o777)
    repo = _repo(shared / "repo")
    monkeypatch.chdir(repo)
    row = _doctor(capsys)["gemini-cli hook"]
    assert row["status"] == "warn"
    assert f"Gemini skips a settings file below {shared}" in row["detail"]
    assert "screen alone" in row["detail"]
    assert "keep the repository below directories only you may write to" in row["detail"]
    # a directory of the user's own can be made private; a shared one such as /tmp cannot
    assert (f"chmod go-w {shared}" in row["detail"]) is not sticky
    assert main(["doctor"]) == 0
    (line,) = [x for x in capsys.readouterr().out.splitlines() if "gemini-cli hook" in x]
    assert line.split()[0] == "warn"
    assert f"below {shared}" in line
    # that directory made private: no longer the reason (a shared one above it, as /tmp, may be)
    shared.chmod(0o755)
    row = _doctor(capsys)["gemini-cli hook"]
    assert str(shared) not in row["detail"]
    assert (row["status"] == "ok") is (insecure_ancestor(repo / ".paw" / "channels") is None)


def test_doctor_says_gemini_hook_is_wired_in_a_private_directory(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    del isolated_env
    base = _private_base()
    if base is None:
        pytest.skip("no directory here lies below directories only the user may write to")
    scratch = Path(tempfile.mkdtemp(dir=base))
    try:
        repo = _repo(scratch / "repo")
        monkeypatch.chdir(repo)
        row = _doctor(capsys)["gemini-cli hook"]
        assert row["status"] == "ok"
        assert row["detail"].startswith("wired at each spawn")
        assert str(repo / ".paw") in row["detail"]
        assert main(["doctor"]) == 0
        (line,) = [x for x in capsys.readouterr().out.splitlines() if "gemini-cli hook" in x]
        assert line.split()[0] == "ok"
        # channels off in paw.toml: not wired, by the user's choice
        (repo / "paw.toml").write_text("[channels]\nenabled = false\n", encoding="utf-8")
        row = _doctor(capsys)["gemini-cli hook"]
        assert row["status"] == "ok"
        assert "channels are off in paw.toml" in row["detail"]
    finally:
        shutil.rmtree(scratch)


def test_doctor_has_no_gemini_hook_row_outside_a_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert "gemini-cli hook" not in _doctor(capsys)
