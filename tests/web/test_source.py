"""The page's reading seam over the supervisor's feed (pure parts: the feed on a fake clock, run
synchronously, as tests/supervisor/test_feed.py drives it), and where a prompt came from as
the page shows it. The same feed under a real `paw serve` on real tmux: tests/web/test_serve.py
and tests/web/test_browser.py; its latency: scripts/bench_web.py (docs/performance.md)."""

from __future__ import annotations

import asyncio

from paw.core.models import Action, Prompt, PromptKind, PromptSource, Verdict
from paw.errors import TmuxError
from paw.supervisor.feed import Feed, Picture
from paw.supervisor.model import LivePrompt, Snapshot
from paw.web import render
from paw.web.source import Board, Source
from tests.supervisor.test_feed import Clock, Jobs, Sweeps
from tests.support.budget import budget


def _fed() -> tuple[Source, Feed, Sweeps, Jobs]:
    clock = Clock()
    sweeps = Sweeps(clock)
    jobs = Jobs()
    feed = Feed(sweeps, clock=clock, cpu_clock=lambda: clock.cpu, sleep=clock.sleep, run=jobs)  # type: ignore[arg-type]
    source = Source(sweeps, clock, feed)  # type: ignore[arg-type]
    source.start()
    return source, feed, sweeps, jobs


def test_an_open_page_is_woken_by_the_feeds_picture_and_reads_it_without_a_sweep() -> None:
    source, feed, sweeps, jobs = _fed()
    seen: list[Picture] = []
    feed.subscribe(lambda e: seen.append(e) if isinstance(e, Picture) else None)

    async def scenario() -> None:
        changed = source.changes()
        feed.request()
        jobs.step()  # the feed's sweep, on "its thread"
        await asyncio.wait_for(changed.wait(), budget(10))  # woken by the picture
        polls = sweeps.polls
        board = source.read_board()
        assert board.snapshot is seen[-1].snapshot  # the feed's very picture
        assert sweeps.polls == polls  # no sweep of the page's own
        changed.clear()
        source.forget(changed)
        feed.request()
        jobs.step()
        await asyncio.sleep(0)
        assert not changed.is_set()  # a forgotten stream is not woken

    asyncio.run(scenario())
    polls = sweeps.polls
    assert source.read_board(fresh=True).snapshot is not seen[-1].snapshot
    assert sweeps.polls == polls + 1  # a decision's or a link's check sweeps now


def test_without_a_picture_yet_the_page_sweeps_under_the_feeds_lock() -> None:
    source, feed, sweeps, _jobs = _fed()
    assert feed.poll_lock.acquire(blocking=False)
    feed.poll_lock.release()
    board = source.read_board()
    assert sweeps.polls == 1
    assert board.snapshot.agents[0].name == "a"


def _prompt(source: PromptSource, subject: str = "git push") -> LivePrompt:
    prompt = Prompt(PromptKind.SHELL, subject, "Run this command?", ("y",), ("n",), "f" * 16)
    return LivePrompt(
        id="abc1234567", agent="a1", kind="claude", pane_id="%1", prompt=prompt,
        verdict=Verdict(Action.CONFIRM), first_seen=0.0, source=source,
    )  # fmt: skip


def _card(source: PromptSource, subject: str = "git push") -> str:
    board = Board(Snapshot(taken_at=1.0, agents=(), prompts=(_prompt(source, subject),)), {})
    return render.render_board(board, "csrf")


def test_the_card_says_where_the_prompt_came_from_as_paw_prompts_does() -> None:
    assert "class='src" not in _card(PromptSource())  # an agent without a channel: as before
    said = {
        "agree": ("both", "from the agent&#x27;s channel (request r1), and the screen agrees"),
        "channel-only": ("channel", "from the agent&#x27;s channel only (request r1)"),
        "screen-only": ("screen-only", "from the screen only: the agent&#x27;s channel said"),
    }
    for name, (label, words) in said.items():
        card = _card(PromptSource(name=name, request_id="r1" if name != "screen-only" else None))
        assert f"title='source'>{label}</span>" in card, name
        assert words in card, (name, card)


def test_a_disagreement_shows_both_subjects_inert() -> None:
    hostile = "rm -rf ~ <script>x()</script>\u202e\x1b]0;t\x07"
    source = PromptSource(
        name="disagree", request_id="r9", channel_subject=hostile,
        screen_subject="git status", reason="the subjects differ",
    )  # fmt: skip
    card = _card(source, "git status")
    assert "title='source'>DISAGREE</span>" in card
    assert "disagree (request r9) (the subjects differ)" in card
    channel = card.split("<pre class=channel-subject>", 1)[1].split("</pre>", 1)[0]
    assert channel == "rm -rf ~ &lt;script&gt;x()&lt;/script&gt;\\u202e\\x1b]0;t\\x07"
    assert "<pre class=screen-subject>git status</pre>" in card
    assert "<script>" not in card
    assert "\u202e" not in card
    assert "\x1b" not in card


def test_the_ages_move_on_the_pages_clock_between_pictures() -> None:
    board = Board(Snapshot(taken_at=1.0, agents=(), prompts=(_prompt(PromptSource()),)), {})
    age = "<span class=age data-seen=0>{}</span> · id "
    assert age.format("1s") in render.render_board(board, "csrf")  # the picture's own time
    later = render.render_board(board, "csrf", render.Extra(now=125.0))
    assert age.format("2m") in later  # a picture swept on pane events may be a minute old


def test_a_failed_sweep_drops_the_last_picture_the_page_sweeps_itself() -> None:
    source, feed, sweeps, jobs = _fed()
    feed.request()
    jobs.step()
    polls = sweeps.polls
    source.read_board()
    assert sweeps.polls == polls  # the feed's picture
    sweeps.raises = TmuxError("no server running")
    feed.request()
    jobs.step()  # the feed posts SweepFailed, no picture
    sweeps.raises = None
    source.read_board()
    assert sweeps.polls == polls + 2  # not the old picture as if current: a sweep of its own
