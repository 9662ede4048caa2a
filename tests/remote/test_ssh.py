"""The ssh transport: URLs, quoting, ps parsing, and the shell channel over a real sshd."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import time

import pytest

from paw.adapters.remote.ps import parse_ps
from paw.adapters.remote.ssh import (
    ChannelRefused,
    ShellChannel,
    SshError,
    SshTarget,
    SshTransport,
    host_name_problem,
    parse_target,
)
from tests.support.budget import budget
from tests.support.sshd import Sshd


@pytest.mark.parametrize(
    ("url", "target"),
    [
        ("ssh://me@build.example:2222", SshTarget("build.example", "me", 2222)),
        ("ssh://build.example", SshTarget("build.example", None, None)),
        ("ssh://me@127.0.0.1/", SshTarget("127.0.0.1", "me", None)),
    ],
)
def test_parse_target(url: str, target: SshTarget) -> None:
    assert parse_target(url) == target


@pytest.mark.parametrize(
    "url",
    ["build.example", "ssh://", "ssh://-oProxyCommand=x", "ssh://me@host/path", "ssh://h:99999",
     "ssh://-me@host", "ssh://me:secret@host"],
)  # fmt: skip
def test_parse_target_refuses(url: str) -> None:
    with pytest.raises(ValueError, match=r"ssh://|host|port|user|path"):
        parse_target(url)


def test_host_names() -> None:
    assert host_name_problem("build-1.lab") is None
    assert host_name_problem("local") is not None
    assert host_name_problem("a b") is not None
    assert host_name_problem("-x") is not None


def test_wrap_quotes_every_word_for_the_remote_shell() -> None:
    transport = SshTransport(parse_target("ssh://me@h:22"))
    argv = transport.wrap(["echo", "a b", "$(rm -rf /)", "it's;"], cwd="/tmp/x y")
    assert argv[argv.index("--") + 1] == "me@h"
    assert argv[-1] == "cd '/tmp/x y' && echo 'a b' '$(rm -rf /)' 'it'\"'\"'s;'"
    assert "BatchMode=yes" in argv
    assert "ControlMaster=no" in argv


def test_parse_ps() -> None:
    text = (
        "    1     0 Tue Dec  1 03:00:00 2026 /sbin/init\n"
        "  812     1 Tue Dec  1 03:05:09 2026 /usr/bin/python3 -m paw.demo.agent busy 1\n"
        "junk\n"
    )
    table = parse_ps(text)
    assert sorted(table) == [1, 812]
    agent = table[812]
    assert (agent.ppid, agent.name) == (1, "python3")
    assert agent.cmdline == ("/usr/bin/python3", "-m", "paw.demo.agent", "busy", "1")
    assert agent.create_time == 1796094309.0  # 2026-12-01 03:05:09 UTC


def test_shell_channel_over_real_sshd(sshd: Sshd, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAW_SSH_CONTROL_DIR", f"/tmp/paw-ssh-t-{os.getpid()}")
    transport = SshTransport(parse_target(sshd.url), config_file=str(sshd.client_config))
    transport.connect()
    try:
        done = transport.run(
            ["sh", "-c", "echo out; echo err >&2; printf tail; exit 3"], timeout=30
        )
        assert (done.returncode, done.stdout, done.stderr) == (3, "out\ntail", "err\n")
        odd = "a b;$(echo no)'\"\n"
        assert transport.run(["printf", "%s", odd], timeout=30).stdout == odd
        assert transport.run(["pwd"], cwd="/", timeout=30).stdout == "/\n"
        assert transport.run(["pwd"], timeout=30).stdout != "/\n"  # cd stays in its command
        master = transport.master_pid()
        assert master is not None
        sshd.stop_listener()
        os.kill(master, signal.SIGKILL)
        assert transport.run(["true"], timeout=30).returncode == 255
    finally:
        transport.disconnect()
        shutil.rmtree(f"/tmp/paw-ssh-t-{os.getpid()}", ignore_errors=True)


def _ended(channel: ShellChannel) -> bool:
    end = time.monotonic() + budget(30.0)
    while channel.alive() and time.monotonic() < end:
        time.sleep(0.02)
    return not channel.alive()


def test_shell_channel_tells_a_command_never_taken_from_an_answer_never_come() -> None:
    gone = ShellChannel([sys.executable, "-c", "pass"])  # its "ssh" ended before the write
    assert _ended(gone)
    with pytest.raises(ChannelRefused):
        gone.run("tmux send-keys -t %1 y", 5)
    # took the command, then died without answering (the link dropped): not "refused"
    mute = ShellChannel([sys.executable, "-c", "import sys; sys.stdin.readline()"])
    with pytest.raises(OSError, match="host") as lost:
        mute.run("tmux send-keys -t %1 y", budget(30.0))
    assert not isinstance(lost.value, ChannelRefused)


def test_deliver_over_real_sshd_nothing_sent_only_when_nothing_left(
    sshd: Sshd, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAW_SSH_CONTROL_DIR", f"/tmp/paw-ssh-d-{os.getpid()}")
    transport = SshTransport(parse_target(sshd.url), config_file=str(sshd.client_config))
    transport.connect()
    try:
        done = transport.deliver(["sh", "-c", "echo got; exit 255"], timeout=30)
        assert (done.returncode, done.stdout) == (255, "got\n")  # the host's own answer
        channel = transport._channel
        assert channel is not None
        master = transport.master_pid()
        assert master is not None
        sshd.stop_listener()
        os.kill(master, signal.SIGKILL)
        assert _ended(channel)
        with pytest.raises(SshError):  # no channel, no master: nothing handed to ssh
            transport.deliver(["true"], timeout=30)
    finally:
        transport.disconnect()
        shutil.rmtree(f"/tmp/paw-ssh-d-{os.getpid()}", ignore_errors=True)
