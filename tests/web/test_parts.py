"""The board in parts (pure): what an open page's stream sends again, and what it leaves to the
page's script (the prompts' ages). The same stream under a real `paw serve`:
tests/web/test_serve.py (a change sends its part alone); its cost at 200 agents:
scripts/bench_web.py (docs/performance.md)."""

from __future__ import annotations

import re
from dataclasses import replace

from paw.core.models import Action, Finding, PromptSource, Verdict
from paw.supervisor.model import AgentStatus, AgentView, Snapshot, WorktreeStat
from paw.web import parts as page_parts
from paw.web import render
from paw.web.render import Extra
from paw.web.source import Board
from tests.web.test_source import _prompt

HOSTILE = "echo <span class=age data-seen=1>x</span> data-now=5"


def _parts(now: float, subject: str = "git push") -> dict[str, str]:
    board = Board(
        Snapshot(taken_at=1.0, agents=(), prompts=(_prompt(PromptSource(), subject),)), {}
    )
    return dict(render.board_parts(board, "csrf", Extra(now=now)))


def test_the_board_is_its_parts_each_in_its_own_wrapper() -> None:
    board = Board(Snapshot(taken_at=1.0, agents=(), prompts=(_prompt(PromptSource()),)), {})
    whole = render.render_board(board, "csrf", Extra(now=5.0))
    parts = render.board_parts(board, "csrf", Extra(now=5.0))
    assert [name for name, _ in parts] == list(page_parts.PARTS)
    assert whole == "".join(f"<div id=pt-{n}>{h}</div>" for n, h in parts)
    assert re.findall(r"<div id=pt-(\w+)>", whole) == list(page_parts.PARTS)


def test_ages_alone_do_not_send_a_part_again() -> None:
    early, later = _parts(now=5.0), _parts(now=65.0)
    assert early["prompts"] != later["prompts"]  # the ages as rendered: 5s, then 65s
    assert "data-seen=0>5s</span>" in early["prompts"]
    assert "data-seen=0>65s</span>" in later["prompts"]
    assert page_parts.steady(early["prompts"]) == page_parts.steady(later["prompts"])  # not resent
    # a new subject is a change, whatever the clock
    other = _parts(now=65.0, subject="git push --force")
    assert page_parts.steady(other["prompts"]) != page_parts.steady(later["prompts"])


def test_a_subject_cannot_pass_for_an_age() -> None:
    """Text paw did not write is escaped before the ages are left out: a subject spelled like
    an age span or a server time is a change like any other, shown inert."""
    plain, hostile = _parts(now=5.0), _parts(now=5.0, subject=HOSTILE)
    assert page_parts.steady(plain["prompts"]) != page_parts.steady(hostile["prompts"])
    assert "&lt;span class=age data-seen=1&gt;x&lt;/span&gt; data-now=5" in hostile["prompts"]
    assert "&lt;span class=age" in page_parts.steady(hostile["prompts"])
    one, two = _parts(now=5.0, subject="x data-now=1"), _parts(now=5.0, subject="x data-now=2")
    assert page_parts.steady(one["prompts"]) != page_parts.steady(two["prompts"])


def test_paws_own_words_show_the_home_as_a_tilde_and_subjects_stay_exact() -> None:
    home = "/home/ann"
    assert render.tilde("/home/ann/w/repo-paw/a1 is outside", home) == "~/w/repo-paw/a1 is outside"
    assert render.tilde("in `/home/ann`, then /home/ann.", home) == "in `~`, then ~."
    for other in ("/home/anna/x", "/home/ann.d/x", "/srv/home/ann/x", "~/home/ann"):
        assert render.tilde(f"at {other}", home) == f"at {other}"  # not the home
    assert render.tilde("/home/ann/x", None) == "/home/ann/x"
    assert render.tilde("/x", "/") == "/x"  # a home of / is no path to hide
    subject = "cat /home/ann/.ssh/id_ed25519"
    prompt = _prompt(PromptSource(), subject)
    reason = "/home/ann/.ssh/id_ed25519 is outside /home/ann/w/repo-paw/a1"
    finding = Finding("approve.path-outside-worktree", Action.BLOCK, reason)
    prompt = replace(prompt, verdict=Verdict(Action.BLOCK, (finding,)))
    board = Board(Snapshot(taken_at=1.0, agents=(), prompts=(prompt,)), {})
    audit: tuple[dict[str, object], ...] = (
        {"event": "approve", "reason": "worktree /home/ann/w/repo-paw/a1 gone"},
    )
    html = render.render_board(board, "csrf", Extra(now=5.0, audit=audit, home=home))
    assert f"<pre class=subject>{subject}</pre>" in html  # what the agent asks: as drawn
    assert "<li>~/.ssh/id_ed25519 is outside ~/w/repo-paw/a1</li>" in html
    assert "reason=worktree ~/w/repo-paw/a1 gone" in html
    assert html.count("/home/ann") == 1  # the subject's alone


def _agents(*statuses: str) -> str:
    views = tuple(
        AgentView(
            name=f"a{i}",
            kind="claude",
            pane_id=f"%{i}",
            alive=True,
            status=AgentStatus(status),
            status_since=0.0,
            branch=f"paw/a{i}",
            worktree=f"/w/a{i}",
            stat=WorktreeStat(counted=False),
        )
        for i, status in enumerate(statuses)
    )
    board = Board(Snapshot(taken_at=1.0, agents=views, prompts=()), {})
    return dict(render.board_parts(board, "csrf", Extra(now=5.0)))["agents"]


def test_one_agents_new_status_sends_its_row_alone() -> None:
    before = _agents("busy", "idle", "busy")
    after = _agents("busy", "prompt", "busy")
    (sent,), kept = page_parts.updates("agents", page_parts.steady(before), after)
    assert kept == page_parts.steady(after)
    kind, data = sent
    assert kind == "row"
    row_id, row = data.split("\n", 1)
    assert row_id == "ag-1"
    assert row.startswith("<tr id=ag-1><td><a href='/?agent=a1#details'>a1</a>")
    assert ">prompt<" in row
    assert "a0" not in data
    assert "a2" not in data
    nothing_new = page_parts.updates("agents", page_parts.steady(after), after)
    assert nothing_new == ([], after)


def test_agents_added_removed_or_first_sent_send_the_part() -> None:
    two, three = _agents("busy", "idle"), _agents("busy", "idle", "busy")
    assert [k for k, _ in page_parts.updates("agents", None, two)[0]] == ["part"]  # the first time
    assert page_parts.updates("agents", two, three)[0] == [("part", f"agents\n{three}")]
    assert [k for k, _ in page_parts.updates("agents", three, two)[0]] == ["part"]
    prompts = _parts(now=5.0)["prompts"]  # a part without rows: whole when it changed
    other = _parts(now=5.0, subject="git push --force")["prompts"]
    assert page_parts.updates("prompts", page_parts.steady(prompts), other)[0] == [
        ("part", f"prompts\n{other}")
    ]
    aged = _parts(now=99.0)["prompts"]
    assert page_parts.updates("prompts", page_parts.steady(prompts), aged)[0] == []


def _board(
    statuses: tuple[str, ...], subjects: tuple[str, ...], now: float = 5.0
) -> tuple[tuple[str, str], ...]:
    views = tuple(
        AgentView(
            name=f"a{i}", kind="claude", pane_id=f"%{i}", alive=True, status=AgentStatus(status),
            status_since=0.0, branch=f"paw/a{i}", worktree=f"/w/a{i}",
            stat=WorktreeStat(counted=False),
        )
        for i, status in enumerate(statuses)
    )  # fmt: skip
    prompts = tuple(_prompt(PromptSource(), s) for s in subjects)
    board = Board(Snapshot(taken_at=1.0, agents=views, prompts=prompts), {})
    return render.board_parts(board, "csrf", Extra(now=now))


def _have(parts: tuple[tuple[str, str], ...]) -> tuple[str, dict[str, str]]:
    """What the page holds after it was given ``parts``, and what the server kept of them."""
    steady = {name: page_parts.steady(html) for name, html in parts}
    return page_parts.versions(steady), {page_parts.digest(s): s for s in steady.values()}


def test_a_polling_page_gets_only_the_parts_that_changed() -> None:
    """The short poll answers with the stream's events for what changed since the parts the
    page holds (its ``have``): nothing when nothing (or only ages) changed, one agent's row for
    its new status, the prompts part for a new prompt; every part whole for a page that holds
    nothing the server knows."""
    first = _board(("busy", "idle"), ("git push",))
    have, known = _have(first)
    assert page_parts.poll_updates(first, have, known) == ([], have, {})
    later = _board(("busy", "idle"), ("git push",), now=99.0)  # the ages alone
    assert page_parts.poll_updates(later, have, known)[0] == []
    # a1's new status: its row alone (the server kept the table the page holds)
    status = _board(("busy", "prompt"), ("git push",))
    events, now, sent = page_parts.poll_updates(status, have, known)
    assert [(k, d.split("\n", 1)[0]) for k, d in events] == [("row", "ag-1")]
    assert now == _have(status)[0]
    assert list(sent.values()) == [page_parts.steady(dict(status)["agents"])]
    assert page_parts.poll_updates(status, now, {**known, **sent})[0] == []  # then nothing
    # the table the page holds forgotten by the server: the part, whole
    assert page_parts.poll_updates(status, have, {})[0] == [
        ("part", f"agents\n{dict(status)['agents']}")
    ]
    # a new prompt, and a decided one gone: the prompts part
    other = _board(("busy", "idle"), ("npm test",))
    assert page_parts.poll_updates(other, have, known)[0] == [
        ("part", f"prompts\n{dict(other)['prompts']}")
    ]
    # a page holding nothing known (first poll after the stream, or garbage): every part
    for held in ("", "agents:zz,prompts", "x" * 5000, "agents:" + "0" * 32, have.upper()):
        events = page_parts.poll_updates(first, held, known)[0]
        assert [k for k, _ in events] == ["part"] * len(page_parts.PARTS), held[:40]
        assert [d.split("\n", 1)[0] for _, d in events] == list(page_parts.PARTS)


def test_the_home_page_names_the_parts_it_holds() -> None:
    """The page starts with the versions of the parts it was rendered with: its first poll
    brings only what changed since it loaded."""
    parts = _board(("busy",), ("git push",))
    page = render.home_page(parts, "shop")
    assert f"<div id=board data-have='{_have(parts)[0]}'>" in page
    assert re.fullmatch(r"(\w+:[0-9a-f]{32},){4}\w+:[0-9a-f]{32}", _have(parts)[0])


def test_a_prompt_card_names_the_wave_and_task_of_its_agent() -> None:
    """A prompt of an agent that runs a wave's task says the wave and the task (as read from
    the runner's state: tasks started, not those still queued); another agent's says none; the
    names are shown inert. The same on a real `paw serve`: tests/web/test_wave_card_real.py."""
    from paw.core.wave.state import Phase, TaskState, WaveState
    from paw.core.wave_view import WaveReading, WaveTask, agent_tasks

    state = WaveState(name="night", file="night.toml", sha256="0" * 64, started_at=1.0, tasks=[
        TaskState(name="push", agent="night-push", phase=Phase.RUNNING, started_at=2.0),
        TaskState(name="later", agent="night-later"),
    ])  # fmt: skip
    tasks = agent_tasks(WaveReading("night", state, runner_alive=True))
    assert tasks == {"night-push": WaveTask("night", "push")}
    assert agent_tasks(WaveReading("night", None, runner_alive=False, error="bad")) == {}
    assert agent_tasks(None) == {}
    ours = replace(_prompt(PromptSource()), agent="night-push")
    theirs = replace(_prompt(PromptSource()), id="def1234567", agent="a1")
    board = Board(Snapshot(taken_at=1.0, agents=(), prompts=(ours, theirs)), {}, tasks)
    cards = dict(render.board_parts(board, "csrf"))["prompts"].split("<div class=card ")[1:]
    assert "<div class='meta wave'>wave <b>night</b> · task <b>push</b></div>" in cards[0]
    assert "wave" not in cards[1]
    hostile = {"night-push": WaveTask("<i>n</i>\u202e", "t\x1b]0;x\x07")}
    board = Board(Snapshot(taken_at=1.0, agents=(), prompts=(ours,)), {}, hostile)
    card = dict(render.board_parts(board, "csrf"))["prompts"]
    assert "wave <b>&lt;i&gt;n&lt;/i&gt;\\u202e</b> · task <b>t\\x1b]0;x\\x07</b>" in card


def test_a_request_the_channel_answers_is_offered_though_it_has_no_keys() -> None:
    """A hook's request that draws no dialog (``channel-only``: no keys of its own) is a tool
    permission paw answers through the channel: the card offers Approve and Deny. A folder
    trust or a question stays a dialog for the pane whatever its source, and so does a screen
    prompt without approve keys. The same through a real hook and `paw serve`:
    tests/web/test_serve.py::test_a_web_approval_goes_through_the_agents_channel_with_no_key."""
    from paw.core.models import PromptKind

    def card(name: str, kind: PromptKind = PromptKind.SHELL, request: str | None = "r1") -> str:
        base = _prompt(PromptSource(name=name, request_id=request))
        prompt = replace(base.prompt, kind=kind, approve_keys=(), deny_keys=())
        live = replace(base, prompt=prompt, verdict=Verdict(Action.ALLOW))
        board = Board(Snapshot(taken_at=1.0, agents=(), prompts=(live,)), {})
        return dict(render.board_parts(board, "csrf"))["prompts"]

    for name in ("channel-only", "agree"):
        assert "value=approve>Approve</button>" in card(name), name
        assert "value=deny>Deny</button>" in card(name), name
    for offered_nothing in (
        card("channel-only", PromptKind.TRUST),
        card("channel-only", PromptKind.QUESTION),
        card("channel-only", request=None),
        card("screen-only"),
        card("screen", request=None),
        card("disagree"),
    ):
        assert "<form" not in offered_nothing
        assert "A dialog only a human can answer" in offered_nothing
