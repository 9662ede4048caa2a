"""A listing's failure is said the same way whenever it is asked (a server that is exiting
and one that is gone read alike), so `paw ls` and `paw prompts` a moment apart agree."""

from __future__ import annotations

import pytest

from paw.adapters.tmux.format import listing_failure

GONE = (
    "server exited unexpectedly",  # asked while the server exits
    "no server running on /tmp/tmux-0/paw-x",  # asked after
    "error connecting to /tmp/tmux-0/paw-x (Connection refused)",  # a killed server's socket
)


@pytest.mark.parametrize("stderr", GONE)
def test_a_server_gone_is_said_one_way_whatever_tmux_said(stderr: str) -> None:
    said = listing_failure(stderr + "\n")
    assert said == listing_failure(GONE[0])
    assert said.startswith("server is gone")
    assert "/tmp/" not in said
    assert "unexpectedly" not in said


def test_another_failure_keeps_tmux_s_last_line() -> None:
    assert listing_failure("usage: x\ncan't find session: =paw\n") == (
        "list-panes failed (can't find session: =paw)"
    )
    assert listing_failure("") == "list-panes failed (failed)"
