"""Start-up in two steps: the app paints first, then a connector builds the supervisor.

``paw tui`` uses this path (see paw/tui/connect.py); the real-terminal tests in test_terminal.py
run it end to end with the real connector.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading

import pytest
from textual.widget import Widget
from textual.widgets import Footer

from paw.cli import UsageError
from paw.errors import PawError
from paw.tui.app import PawApp, make_app
from paw.tui.connect import STARTING, Connection, NotConnected
from paw.tui.screens.main import MainScreen
from paw.tui.widgets.agent_list import AgentList
from paw.tui.widgets.footer import KeyFooter
from paw.tui.widgets.header import CountsHeader
from tests.tui.conftest import settle
from tests.tui.fake_supervisor import scenario
from tests.tui.snapshot_app import HOUR

SIZE = (120, 40)


def header_text(app: PawApp) -> str:
    return str(app.main.query_one(CountsHeader).render())


async def test_app_paints_connecting_then_sweeps_once_connected() -> None:
    release = threading.Event()
    fake = scenario("mixed")
    closed: list[bool] = []

    def connect() -> Connection:
        assert release.wait(10)
        return Connection(fake, kinds=("codex", "aider"), close=lambda: closed.append(True))

    app = make_app(connect=connect, poll_interval=HOUR)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "connecting to tmux" in header_text(app)
        stand_in = app.supervisor
        assert isinstance(stand_in, NotConnected)
        assert app.main.query_one(AgentList).row_count == 0
        release.set()
        await settle(pilot)
        assert app.supervisor is fake
        assert app.kinds == ("codex", "aider")
        assert "● tmux" in header_text(app)
        assert app.main.query_one(AgentList).row_count == len(fake.poll_once().agents)
    assert closed == []  # closing is the caller's: cmd_tui calls disconnect() after run()
    app.disconnect()
    app.disconnect()
    assert closed == [True]


async def test_app_refuses_operations_before_it_is_connected() -> None:
    release = threading.Event()
    app = make_app(connect=lambda: (release.wait(10), Connection(scenario("allow")))[1])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        with pytest.raises(PawError, match="still connecting"):
            app.supervisor.approve("any")
        with pytest.raises(PawError, match="still connecting"):
            app.supervisor.spawn("n", "codex", None)
        release.set()
        await settle(pilot)


async def test_app_ends_with_the_connectors_error() -> None:
    def connect() -> Connection:
        raise UsageError("paw.toml:2: tmux.socket_name: Input should be a valid string")

    app = make_app(connect=connect, poll_interval=HOUR)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
    assert isinstance(app.connect_error, UsageError)
    assert app.return_code == 1
    assert STARTING not in str(app.connect_error)


def test_app_needs_exactly_one_of_supervisor_and_connector() -> None:
    with pytest.raises(ValueError, match="not both or neither"):
        make_app()
    with pytest.raises(ValueError, match="not both or neither"):
        make_app(scenario("allow"), connect=lambda: Connection(scenario("allow")))


async def test_app_gives_textual_print_capture_an_encoding() -> None:
    # libtmux reads sys.stdout.encoding at import; the connector imports it while Textual
    # has replaced sys.stdout (a real terminal test imports it for real).
    app = make_app(scenario("allow"), poll_interval=HOUR)
    async with app.run_test(size=SIZE):
        assert sys.stdout.encoding == "utf-8"


def approve_key(footer: Footer) -> Widget:
    """The footer's key widget for the approve action."""
    (key,) = [k for k in footer.query("FooterKey") if getattr(k, "action", None) == "approve"]
    return key


def count_recomposes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    original = Footer.recompose

    async def counting(self: Footer) -> None:
        calls.append(1)
        await original(self)

    monkeypatch.setattr(Footer, "recompose", counting)
    return calls


@pytest.mark.parametrize(("footer", "recomposes"), [(Footer, 5), (KeyFooter, 0)])
async def test_footer_does_not_rebuild_unchanged_keys(
    footer: type[Footer], recomposes: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(scenario("allow"), poll_interval=HOUR)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shown = app.main.query_one(KeyFooter)
        keys_before = len(shown.children)
        calls = count_recomposes(monkeypatch)
        bindings_changed = footer.bindings_changed

        def burst() -> None:  # in the footer's own context, as Textual's signal calls it
            for _ in range(5):
                bindings_changed(shown, app.main)

        shown.call_later(burst)
        await settle(pilot)
        assert len(calls) == recomposes
        assert len(shown.children) == keys_before


async def test_footer_dims_a_key_in_place_when_only_its_availability_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A prompt coming or going under the cursor only dims or undims keys: no recompose (a
    layout pass of the whole screen, which a new prompt waited for)."""
    app = make_app(scenario("allow"), poll_interval=HOUR)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        footer = app.main.query_one(KeyFooter)
        key = approve_key(footer)
        assert not key.has_class("-disabled")
        calls = count_recomposes(monkeypatch)
        original = MainScreen.check_action
        approvable = [False]

        def gated(self: MainScreen, action: str, parameters: tuple[object, ...]) -> bool | None:
            if action == "approve" and not approvable[0]:
                return None
            return original(self, action, parameters)

        monkeypatch.setattr(MainScreen, "check_action", gated)
        for _ in range(3):
            app.main.refresh_bindings()
        await settle(pilot)
        assert approve_key(footer) is key
        assert key.has_class("-disabled")
        approvable[0] = True
        app.main.refresh_bindings()
        await settle(pilot)
        assert approve_key(footer) is key
        assert not key.has_class("-disabled")
        assert calls == []


async def test_footer_rebuilds_once_when_a_key_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A key that comes or goes (not just dims) rebuilds the keys, once for a burst."""
    app = make_app(scenario("allow"), poll_interval=HOUR)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        footer = app.main.query_one(KeyFooter)
        calls = count_recomposes(monkeypatch)
        original = MainScreen.check_action

        def hidden(self: MainScreen, action: str, parameters: tuple[object, ...]) -> bool | None:
            return False if action == "approve" else original(self, action, parameters)

        monkeypatch.setattr(MainScreen, "check_action", hidden)
        for _ in range(3):
            app.main.refresh_bindings()
        await settle(pilot)
        assert len(calls) == 1
        assert not [k for k in footer.query("FooterKey") if getattr(k, "action", None) == "approve"]


async def test_first_frame_builds_the_footer_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # focus lands on the agent table directly (AUTO_FOCUS): the keys are composed once, for it
    calls = count_recomposes(monkeypatch)
    app = make_app(scenario("allow"), poll_interval=HOUR)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.main.focused, AgentList)
        assert len(calls) == 1


def test_tui_parser_imports_no_other_command() -> None:
    code = (
        "import sys; from paw.cli import build_parser; build_parser(tui_only=True); "
        "print(sorted(m for m in sys.modules if m.startswith('paw.cli.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['paw.cli.tui']"


async def test_quitting_while_connecting_releases_the_connection() -> None:
    release = threading.Event()
    closed: list[bool] = []

    def connect() -> Connection:
        assert release.wait(10)
        return Connection(scenario("allow"), close=lambda: closed.append(True))

    app = make_app(connect=connect, poll_interval=HOUR)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.exit()
        await pilot.pause()
        release.set()
        for _ in range(200):  # the connector returns on its worker thread
            if closed:
                break
            await asyncio.sleep(0.01)
    assert closed == [True]
    assert isinstance(app.supervisor, NotConnected)  # never used
