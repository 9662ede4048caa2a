"""A host's process listing never reaches the user's terminal raw (real sshd on 127.0.0.1).

A regression guard rather than a proof: procps' ``ps`` on the host already shows control
characters as ``.``; paw's output escaping (paw/cli/output.py) covers a ``ps`` that does not."""

from __future__ import annotations

import json

import pytest

from paw.cli import main
from tests.remote.conftest import Site

pytestmark = [pytest.mark.tmux, pytest.mark.git]

OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"  # sets the clipboard to `rm -rf ~`


def test_spawn_on_a_host_shows_its_unrecognised_process_argv_escaped(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    # The kind's match names a script its command does not run: spawn notes what runs in the
    # pane on the host, as the host's `ps` lists it, argv and all.
    command = json.dumps(["{python}", "-c", "import time; time.sleep(600)", OSC52])
    with (site.repo / "paw.toml").open("a", encoding="utf-8") as config:
        config.write(
            f'\n[agents.odd]\ncommand = {command}\ndetector = "scripted"\n'
            'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }\n'
        )
    code = main(
        ["spawn", "odd1", "--agent", "odd", "--host", site.host, "--startup-timeout", "3",
         "-C", str(site.repo)]
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert "does not recognise" in out + err, (code, out + err)
    assert "52;c;cm0gLXJmIH4=" in out + err  # (procps' ps on the host prints them as `.`;
    # whatever a host's ps passes through, paw's output shows escaped)
    assert "\x1b" not in out + err
    assert "\x07" not in out + err
