"""Text paw did not write reaches the user's terminal escaped (real tmux, real git, the CLI).

A pane whose argv holds ``ESC ] 52 …`` (OSC 52: set the clipboard) and a subject with a bidi
override and zero-width characters: every place paw prints them shows the characters as escapes.
The strongest check runs paw in a tmux pane with ``set-clipboard on``: a raw OSC 52 printed there
would set tmux's paste buffer; escaped, no buffer appears.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from libtmux.test.retry import retry_until

from paw.cli import main
from paw.cli.compose import build_supervisor
from tests.support.budget import budget
from tests.support.panes import wait_pane_runs

if TYPE_CHECKING:
    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git]

OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"  # sets the clipboard to `rm -rf ~`
OSC52_SHOWN = "\\x1b]52;c;cm0gLXJmIH4=\\x07"
# a subject that reads `echo done` + `txt.exe` reversed, with zero-width characters
# (paw's screen reading already drops U+200B-U+200D, U+2060 and U+FEFF: these others stay)
BIDI_SUBJECT = "echo done \u202eexe.txt\u00adx\u2063y\u2066z\u2069"
BIDI_SHOWN = "echo done \\u202eexe.txt\\u00adx\\u2063y\\u2066z\\u2069"
RAW = ("\x1b", "\x07", "\u202e", "\u00ad", "\u2063", "\u2066", "\u2069")


@pytest.fixture
def repo(git_repo: Path, server: Server, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose paw talks to the plugin's private tmux server."""
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.chdir(git_repo)
    return git_repo


def _paw(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def _hostile_pane(server: Server) -> str:
    """A pane whose process has the OSC 52 sequence in its argv."""
    command = (
        f"exec {shlex.quote(sys.executable)} -c 'import time; time.sleep(600)' "
        f"\"$(printf '\\033]52;c;cm0gLXJmIH4=\\007')\""
    )
    pane = str(server.cmd("new-session", "-d", "-P", "-F", "#{pane_id}", command).stdout[0])
    # the real escape byte: bash's own argv (before its exec) names the printf only
    wait_pane_runs(server, pane, "\x1b]52;c;cm0gLXJmIH4")
    return pane


def _no_raw(text: str) -> None:
    for char in RAW:
        assert char not in text, f"{char!r} reached the terminal raw: {text!r}"


def test_adopt_shows_a_pane_argv_with_osc52_escaped(
    repo: Path, server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    pane = _hostile_pane(server)
    code, out, err = _paw(capsys, "adopt", pane)
    assert code == 1
    assert "does not run a known agent" in err
    assert OSC52_SHOWN in err
    _no_raw(out + err)


def test_adopt_in_a_terminal_does_not_set_the_clipboard(repo: Path, server: Server) -> None:
    # paw runs in a tmux pane (the user's terminal) that honours OSC 52: a raw sequence in
    # paw's output would create a paste buffer holding `rm -rf ~`.
    socket = server.socket_name or ""
    pane = _hostile_pane(server)
    server.cmd("set-option", "-g", "set-clipboard", "on")
    log = repo.parent / "adopt.out"
    paw = shlex.join([sys.executable, "-m", "paw", "adopt", pane])
    shell = f"cd {shlex.quote(str(repo))} && PAW_TMUX_SOCKET={shlex.quote(socket)} {paw} 2>&1"
    shell += f" | tee {shlex.quote(str(log))}; sleep 600"
    ui = str(server.cmd("new-session", "-d", "-P", "-F", "#{pane_id}", shell).stdout[0])
    assert retry_until(
        lambda: log.exists() and "does not run a known agent" in log.read_text("utf-8"),
        budget(60),
        raises=False,
    ), log.read_text("utf-8") if log.exists() else "no output"
    assert retry_until(lambda: "known agent" in _capture(server, ui), budget(30), raises=False), (
        _capture(server, ui)
    )  # the terminal has read all of it
    buffers = server.cmd("list-buffers", "-F", "#{buffer_sample}").stdout
    assert not any("rm -rf" in b for b in buffers), buffers
    assert OSC52_SHOWN in _capture(server, ui)
    _no_raw(log.read_text("utf-8"))


def _capture(server: Server, pane: str) -> str:
    return "\n".join(server.cmd("capture-pane", "-p", "-t", pane).stdout)


def test_spawn_note_shows_an_unrecognised_process_argv_escaped(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The kind's match names a script its command does not run: spawn notes the processes it
    # found in the pane instead, argv and all.
    command = json.dumps(
        ["{python}", "-c", "import time; time.sleep(600)", OSC52], ensure_ascii=True
    )
    (repo / "paw.toml").write_text(
        f'[agents.odd]\ncommand = {command}\ndetector = "scripted"\n'
        'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }\n',
        encoding="utf-8",
    )
    code, out, err = _paw(capsys, "spawn", "odd1", "--agent", "odd", "--startup-timeout", "3")
    assert "does not recognise" in out + err, out + err
    assert OSC52_SHOWN in out + err
    _no_raw(out + err)
    assert code != 0 or "warning:" in err


def _bidi_agent(repo: Path) -> None:
    step = json.dumps(f"shell {BIDI_SUBJECT}", ensure_ascii=True)
    (repo / "paw.toml").write_text(
        "[agents.bidi]\n"
        f'command = ["{{python}}", "-m", "paw.demo.agent", {step}]\n'
        'detector = "scripted"\ntask_flag = "--task"\n'
        'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }\n',
        encoding="utf-8",
    )


def test_prompts_ls_and_log_show_a_subject_with_bidi_and_zero_width_escaped(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _bidi_agent(repo)
    code, out, err = _paw(capsys, "spawn", "b1", "--agent", "bidi")
    assert "spawned b1" in out, out + err
    _no_raw(out + err)  # the startup screen it quotes, too
    sup = build_supervisor(str(repo))
    assert retry_until(lambda: bool(sup.poll_once().prompts), budget(60), raises=False)
    (prompt,) = sup.poll_once().prompts
    assert prompt.prompt.subject == BIDI_SUBJECT  # paw keeps the exact text it read
    code, out, err = _paw(capsys, "prompts")
    assert code == 0, err
    assert BIDI_SHOWN in out
    _no_raw(out + err)
    # the table's columns line up on what is shown: the header's SUBJECT starts where it does
    header, row = out.splitlines()[:2]
    assert row.index("echo done") == header.index("SUBJECT")
    code, out, err = _paw(capsys, "prompts", "--json")
    assert json.loads(out)["prompts"][0]["subject"] == BIDI_SUBJECT  # JSON: the same data
    _no_raw(out)
    assert _paw(capsys, "deny", prompt.id)[0] == 0
    code, out, err = _paw(capsys, "log")
    assert BIDI_SHOWN in out
    _no_raw(out + err)
    raw_audit = (repo / ".paw" / "audit.jsonl").read_text(encoding="utf-8")
    _no_raw(raw_audit)  # a `tail -f` of the audit is safe too: JSON escapes ...
    records = [json.loads(line) for line in raw_audit.splitlines()]
    assert BIDI_SUBJECT in [r.get("subject") for r in records]  # ... of the exact text
