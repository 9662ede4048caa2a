"""`paw host add` over the real sshd on 127.0.0.1 (issue 30): a missing clone is called a
missing clone (not a missing tmux), and an entry proves its own connection: it never rides on
another entry's master to the same user@host:port, nor on a master its name left behind."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from paw.adapters.remote.ssh import SshTransport, control_name, parse_target
from paw.cli import main
from tests.support.sshd import Sshd

pytestmark = [pytest.mark.git]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def control(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private directory for the test's ssh masters; every master in it ends afterwards."""
    path = Path("/tmp") / f"paw-ssh-add-{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("PAW_SSH_CONTROL_DIR", str(path))
    yield path
    for sock in path.glob("*") if path.exists() else ():
        check = ["ssh", "-o", f"ControlPath={sock}", "-O", "check", "x"]
        said = subprocess.run(check, capture_output=True, text=True, check=False).stderr
        pid = re.search(r"pid=(\d+)", said)
        if pid:
            os.kill(int(pid.group(1)), signal.SIGTERM)
    shutil.rmtree(path, ignore_errors=True)


def keyless_config(sshd: Sshd, where: Path) -> Path:
    """An ssh config that knows the test host key but logs in with a key sshd refuses."""
    key = where / "other_key"
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)],
        check=True, capture_output=True,
    )  # fmt: skip
    config = where / "ssh_config_without_access"
    config.write_text(
        f"Host *\n  IdentityFile {key}\n  IdentitiesOnly yes\n  IdentityAgent none\n"
        f"  UserKnownHostsFile {sshd.root / 'known_hosts'}\n"
        "  GlobalKnownHostsFile /dev/null\n  StrictHostKeyChecking yes\n  LogLevel ERROR\n",
        encoding="utf-8",
    )
    return config


def test_a_missing_clone_is_not_called_a_missing_tmux(
    capsys: pytest.CaptureFixture[str], git_repo: Path, sshd: Sshd, control: Path
) -> None:
    del control
    code, out, err = run(
        capsys, "host", "add", "box", sshd.url, "-C", str(git_repo), "--repo", "/nonexist",
        "--ssh-config", str(sshd.client_config),
    )  # fmt: skip
    assert code == 1, (out, err)
    first = err.splitlines()[0]
    assert first.startswith("paw: host box: /nonexist is not a git clone there (")
    assert "tmux" not in err
    code, out, _ = run(capsys, "host", "ls", "-C", str(git_repo), "--json")
    assert json.loads(out)["hosts"] == []  # nothing saved


def test_an_entry_without_credentials_does_not_ride_on_another_entrys_master(
    capsys: pytest.CaptureFixture[str],
    git_repo: Path,
    sshd: Sshd,
    control: Path,
    tmp_path: Path,
) -> None:
    del control
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(git_repo), str(clone)], check=True)
    add = ("host", "add", "-C", str(git_repo), "--repo", str(clone))
    code, out, err = run(capsys, *add, "good", sshd.url, "--ssh-config", str(sshd.client_config))
    assert code == 0, err
    good = SshTransport(parse_target(sshd.url), config_file=str(sshd.client_config), entry="good")
    assert good.connected()  # its master stays up (ControlPersist)
    config = keyless_config(sshd, tmp_path)
    code, out, err = run(capsys, *add, "bad", sshd.url, "--ssh-config", str(config))
    assert code == 1, (out, err)
    assert err.startswith(f"paw: ssh {sshd.url}: ")
    assert "Permission denied" in err
    code, out, _ = run(capsys, "host", "ls", "-C", str(git_repo), "--json")
    assert [h["name"] for h in json.loads(out)["hosts"]] == ["good"]


def test_host_add_proves_its_own_connection_not_a_master_its_name_left(
    capsys: pytest.CaptureFixture[str],
    git_repo: Path,
    sshd: Sshd,
    control: Path,
    tmp_path: Path,
) -> None:
    """An entry whose `host rm` died before closing its master, re-added after its key was
    revoked on the host: the old master still answers, the new add must not trust it."""
    del control
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(git_repo), str(clone)], check=True)
    args = ("host", "add", "-C", str(git_repo), "--repo", str(clone), "box", sshd.url,
            "--ssh-config", str(sshd.client_config))  # fmt: skip
    assert run(capsys, *args)[0] == 0
    hosts = git_repo / ".paw" / "hosts.json"
    data = json.loads(hosts.read_text(encoding="utf-8"))
    data["hosts"] = []  # forgotten, its master left running (kill -9 inside `host rm`)
    hosts.write_text(json.dumps(data), encoding="utf-8")
    box = SshTransport(parse_target(sshd.url), config_file=str(sshd.client_config), entry="box")
    assert box.connected()
    (sshd.root / "authorized_keys").write_text("", encoding="utf-8")  # access revoked
    code, out, err = run(capsys, *args)
    assert code == 1, (out, err)
    assert "Permission denied" in err
    assert not box.connected()


def test_the_control_socket_is_per_entry_and_short() -> None:
    target = parse_target("ssh://me@build.example:2222")
    names = {
        control_name(SshTransport(target, entry="a")),
        control_name(SshTransport(target, entry="b")),
        control_name(SshTransport(target, entry="a", identity="/k")),
        control_name(SshTransport(target, entry="a", config_file="/c")),
        control_name(SshTransport(target, entry="a", options=("Port=1",))),
        control_name(SshTransport(parse_target("ssh://you@build.example:2222"), entry="a")),
    }
    assert len(names) == 6
    assert control_name(SshTransport(target, entry="a")) == control_name(
        SshTransport(target, entry="a")
    )
    assert all(len(n) == 24 for n in names)
