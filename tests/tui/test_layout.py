"""What a person sees at 80x24 and at 120x40: the newest audit records, a card that says what
is going on, one wording in the confirm dialog, a footer that keeps help and quit, a pane
preview that does not cut the agent's text, and every panel reachable in a small terminal."""

from __future__ import annotations

from dataclasses import replace

from rich.console import Console
from rich.text import Text
from textual.widgets import TabbedContent

from paw.supervisor.model import AgentStatus, Decision
from paw.tui.app import make_app
from paw.tui.screens.confirm import ConfirmDialog
from paw.tui.widgets.agent_list import AgentList
from paw.tui.widgets.footer import key_width
from paw.tui.widgets.pane_preview import PanePreview, fit_line
from paw.tui.widgets.prompt_queue import PromptCard, PromptQueue, fit_lines
from tests.tui.conftest import screen_text, settle
from tests.tui.fake_supervisor import FakeAgent, FakeSupervisor, scenario
from tests.tui.snapshot_app import HOUR, make_snapshot_app

SMALL = (80, 24)
LARGE = (120, 40)


def footer_line(text: str) -> str:
    return text.rstrip("\n").splitlines()[-1]


async def test_audit_panel_shows_the_newest_records() -> None:
    app, fake = make_snapshot_app("agents")
    fake.audit = [{"event": "spawn", "agent": f"agent{i}"} for i in range(1, 9)]
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot)
        shown = screen_text(app)
    assert "agent8" in shown  # the newest record is on screen...
    assert "agent4" in shown
    assert "agent1 " not in shown  # ...and the oldest make room for it
    lines = [line for line in shown.splitlines() if "spawn agent=" in line]
    assert [line.split("agent=")[1].split()[0] for line in lines] == [
        f"agent{i}" for i in range(4, 9)
    ]


async def test_card_of_an_agent_without_prompt_points_to_the_others() -> None:
    app, _ = make_snapshot_app("mixed")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        agents = app.main.query_one(AgentList)
        agents.move_cursor(row=agents.visible_keys.index("docs"))
        await settle(pilot)
        shown = screen_text(app)
        assert not app.main.query_one(PromptQueue).show_cursor  # no prompt row is lit
        await pilot.press("tab")  # the queue: its cursor is the selection again
        await settle(pilot)
        assert app.main.query_one(PromptQueue).show_cursor
        assert app.main.selected_prompt is not None
    assert "No prompt waiting." not in shown
    assert "docs is idle; no prompt to answer." in shown
    assert "3 other prompts wait (oldest: touch): press tab for the prompt queue." in shown


async def test_card_says_no_prompt_waiting_only_when_none_waits() -> None:
    app, _ = make_snapshot_app("agents")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        shown = screen_text(app)
    assert "api is working; no prompt to answer." in shown  # api is selected and busy
    assert "wait" not in shown.split("api is working")[1].split("╰")[0]


async def test_card_without_agents_says_how_to_start_one() -> None:
    app, _ = make_snapshot_app("empty")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        shown = screen_text(app)
    assert "No agents yet. Press n to spawn one." in shown
    assert "n Spawn" in footer_line(shown)


async def test_confirm_dialog_says_how_to_answer_once() -> None:
    app, fake = make_snapshot_app("confirm")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        shown = screen_text(app)
        assert "Reply YES" not in shown  # the supervisor's chat wording is not the dialog's
        assert "Approve (y)" in shown
        assert "Cancel (n, esc)" in shown
        assert footer_line(shown).split() == ["y", "Approve", "n", "Cancel"]
        assert "abc1234 fix the login form" in shown  # the details are kept
        await pilot.press("y")
        await settle(pilot)
    assert fake.sent_keys == [("%1", ("1",))]


async def test_confirm_dialog_buttons_stay_visible_with_long_details() -> None:
    fake = scenario("confirm")
    approve = fake.approve

    def long_details(
        prompt_id: str,
        *,
        always: bool = False,
        confirmed: bool = False,
        override: str | None = None,
    ) -> Decision:
        decision = approve(prompt_id, always=always, confirmed=confirmed, override=override)
        body = "\n".join(f"  file{i}.py" for i in range(60))
        return replace(decision, confirmation=f"{decision.confirmation}\n{body}")

    fake.approve = long_details  # type: ignore[method-assign]
    app = make_app(fake, poll_interval=HOUR)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        shown = screen_text(app)
    assert "Approve (y)" in shown
    assert "q Quit" not in shown  # the main screen's keys are not offered under a dialog


async def test_footer_keeps_help_and_quit_at_80_columns() -> None:
    app, _ = make_snapshot_app("mixed")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        footer = footer_line(screen_text(app))
    assert "? Help" in footer
    assert "q Quit" in footer
    assert "a Approve" in footer
    assert "v Pane" in footer  # below 100 columns `v` is the way to the pane


async def test_footer_shows_every_key_at_120_columns() -> None:
    app, _ = make_snapshot_app("allow")
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot)
        footer = footer_line(screen_text(app))
    for key in ("a Approve", "A Always", "x Stop", "r Remove", "/ Filter", "v Diff", "q Quit"):
        assert key in footer


def test_key_width_counts_the_padding() -> None:
    assert key_width("a", "Approve") == len(" a Approve ")
    assert key_width("esc", "") == len(" esc ")


async def test_small_terminal_v_shows_the_pane_the_diff_and_the_lists() -> None:
    app, fake = make_snapshot_app("mixed")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        main = app.main
        assert "Prompts (oldest first)" in screen_text(app)
        await pilot.press("v")
        await settle(pilot)
        shown = screen_text(app)
        assert "Pane: touch" in shown  # whose pane it is
        assert "Press enter to confirm or esc to cancel" in shown  # codex's own screen
        assert "Prompts (oldest first)" not in shown
        assert "v Diff" in footer_line(shown)
        await pilot.press("a")  # the keys still act on the selected prompt
        await settle(pilot)
        assert fake.sent_keys == [("%1", ("y",))]
        await pilot.press("v")
        await settle(pilot)
        assert main.query_one(TabbedContent).active == "tab-diff"
        assert "v Lists" in footer_line(screen_text(app))
        await pilot.press("v")
        await settle(pilot)
        shown = screen_text(app)
        assert "Prompts (oldest first)" in shown
        assert "v Pane" in footer_line(shown)
        assert isinstance(main.focused, AgentList)


async def test_wide_terminal_v_switches_pane_and_diff() -> None:
    app, _ = make_snapshot_app("allow")
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot)
        tabs = app.main.query_one(TabbedContent)
        await pilot.press("v")
        await settle(pilot)
        assert tabs.active == "tab-diff"
        assert "v Pane" in footer_line(screen_text(app))
        await pilot.press("v")
        await settle(pilot)
        assert tabs.active == "tab-pane"
        assert "Prompts (oldest first)" in screen_text(app)


async def test_pane_preview_wraps_long_lines_instead_of_cutting_them() -> None:
    # codex's prompt at 120 columns has lines longer than the preview is wide
    app, _ = make_snapshot_app("allow")
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot)
        preview = app.main.query_one(PanePreview)
        assert preview.size.width < 100
        region = preview.region  # the preview's text, line by line
        lines = screen_text(app).splitlines()[region.y : region.bottom]
        shown = " ".join(" ".join(line[region.x : region.right].split()) for line in lines)
    assert "don't ask again for commands that start with" in shown
    assert "`touch paw-approved.txt` (p)" in shown
    assert shown.rstrip().endswith("Press enter to confirm or esc to cancel")  # the bottom line


def test_fit_line_loses_only_borders_and_blanks() -> None:
    assert fit_line(Text("│ ok" + " " * 10 + "│"), 7).plain == "│ ok  │"  # blanks shrink first
    assert fit_line(Text("│ ok" + " " * 10 + "│"), 5).plain.rstrip() == "│ ok"  # then the edge goes
    assert fit_line(Text(" " * 60 + "? for shortcuts"), 40).plain == "  ? for shortcuts"
    assert fit_line(Text("─" * 120), 40).plain == "─" * 40
    assert fit_line(Text("│ a long line of text"), 6).plain == "│ a long line of text"
    assert fit_line(Text("short   "), 40).plain == "short"


async def test_prompt_queue_fits_its_width() -> None:
    # a long agent name, a long subject and a long reason share the left column's width
    fake = FakeSupervisor(
        [
            FakeAgent(
                "a-long-agent-name",
                "codex",
                "shell_rm_sudo_120x40",
                AgentStatus.PROMPT,
                scenario("block").prompts.popitem()[1].verdict,
            )
        ]
    )
    app = make_app(fake, poll_interval=HOUR)
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot)
        queue = app.main.query_one(PromptQueue)
        # no sideways scrolling beside the queue's scrollbar, which is always there
        assert queue.virtual_size.width <= queue.scrollable_content_region.width
        assert queue.show_vertical_scrollbar
        assert not queue.show_horizontal_scrollbar
        rows = [line for line in screen_text(app).splitlines() if "│ a-long-agent-name " in line]
    assert "30s" in rows[1]  # the age is on screen
    assert "block" in rows[1]


async def test_table_columns_follow_their_cells_between_sweeps() -> None:
    # a state grows from "busy 1m" to "exited 2h01m" between two sweeps: shown whole
    app, fake = make_snapshot_app("allow")
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot)
        assert "busy 1m" in screen_text(app)
        fake.agents["api"] = replace(fake.agents["api"], status=AgentStatus.EXITED, age=7300)
        app.request_poll()
        await settle(pilot)
        assert "exited 2h01m" in screen_text(app)


def test_fit_lines_cuts_a_tall_text_and_says_how_much() -> None:
    console = Console(width=80)
    text = Text("one\ntwo\nthree\nfour\nfive")
    assert fit_lines(text, 40, 5, console) is text  # it fits: whole
    assert fit_lines(text, 40, 3, console).plain == "one\ntwo\n… 3 more lines"
    assert fit_lines(text, 40, 1, console).plain == "… 5 more lines"
    long = fit_lines(Text("x" * 30), 10, 2, console)  # one line wrapped into three
    assert long.plain.splitlines() == ["x" * 10, "… 2 more lines"]
    assert fit_lines(text, 0, 0, console) is text  # before the card has a size


async def test_the_prompt_card_keeps_its_height_and_says_what_it_cuts() -> None:
    """The card's height is fixed (a new prompt selected redraws it alone and the queue keeps
    its height); at 80x24 a blocked command's reasons do not fit its four lines, and its last
    line says how many more there are."""
    app, _ = make_snapshot_app("block")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        shown = screen_text(app)
        card = app.main.query_one(PromptCard)
        assert card.size.height == 4
        assert "rmsudo (codex) asks:" in shown
        assert "… 2 more lines" in shown
    app, _ = make_snapshot_app("mixed")
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot)
        card, queue = app.main.query_one(PromptCard), app.main.query_one(PromptQueue)
        heights = {(card.size.height, queue.size.height)}
        texts = set()
        for _ in range(3):  # an allowed, a confirmed and a blocked prompt: cards of 3-5 lines
            texts.add(card._text.plain if card._text is not None else "")
            await pilot.press("down")
            await settle(pilot)
            heights.add((card.size.height, queue.size.height))
        assert len(texts) == 3
        assert heights == {(6, queue.size.height)}
