"""The page's reading over the feed `paw serve` runs (tmux control mode's pane events on real
tmux, the scripted demo agent), with an agent whose channel is a scripted port: the page shows
where each prompt came from as `paw prompts` says it, a disagreement with both subjects."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

import pytest
from libtmux.test.retry import retry_until

from paw.cli import main
from paw.cli.compose import build_fleet
from paw.cli.serve import start_feed
from paw.web.render import render_board
from paw.web.source import Source
from tests.support.budget import budget
from tests.support.scripted_channel import shell_request, use_scripted_channel

if TYPE_CHECKING:
    from pathlib import Path

    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git]

SUBJECT = "touch one.txt"
CLAIMED = "rm -rf ~/projects <b>x</b>"


def test_the_page_over_the_feed_says_where_each_prompt_came_from(
    git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.chdir(git_repo)
    script = tmp_path / "steps.txt"
    script.write_text(f"shell {SUBJECT}\n", encoding="utf-8")
    command = json.dumps(["{python}", "-m", "paw.demo.agent", "--script", str(script)])
    (git_repo / "paw.toml").write_text(f"[agents.scripted]\ncommand = {command}\n", "utf-8")
    port = use_scripted_channel(monkeypatch)
    port.requests = [shell_request("alice", CLAIMED, "r2")]  # claims another input
    assert main(["spawn", "alice", "--agent", "scripted"]) == 0
    sup = build_fleet(str(git_repo), control=True)  # as `paw serve` builds it
    feed = start_feed(sup)
    source = Source(sup, time.time, feed)
    source.start()
    try:

        def source_of(fresh: bool) -> str | None:
            prompts = source.read_board(fresh=fresh).snapshot.prompts
            return prompts[0].source.name if prompts else None

        # the feed's picture (the agent drew its prompt: a pane event asked for the sweep)
        shows = retry_until(lambda: source_of(False) == "disagree", budget(90), raises=False)
        assert shows, f"the feed's picture shows {source_of(False)!r}"
        assert feed.sweeps >= 1
        page = render_board(source.read_board(), "csrf")
        assert "title='source'>DISAGREE</span>" in page
        channel = page.split("<pre class=channel-subject>", 1)[1].split("</pre>", 1)[0]
        assert channel == "rm -rf ~/projects &lt;b&gt;x&lt;/b&gt;"
        assert f"<pre class=screen-subject>{SUBJECT}</pre>" in page
        # the channel now asks what the screen draws: both agree (a check made now)
        port.requests = [shell_request("alice", SUBJECT, "r1")]
        assert retry_until(lambda: source_of(True) == "agree", budget(90), raises=False)
        page = render_board(source.read_board(fresh=True), "csrf")
        assert "title='source'>both</span>" in page
        assert "from the agent&#x27;s channel (request r1), and the screen agrees" in page
    finally:
        feed.stop()
        sup.close()
