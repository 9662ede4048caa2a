"""Screens depend on what they ask of the app (``AppApi``), not on the app module: the app must
provide all of it (mypy checks the assignment; the test checks the names at run time)."""

from __future__ import annotations

import inspect

from paw.tui.app import PawApp
from paw.tui.app_api import AppApi


def _provides(app: PawApp) -> AppApi:
    return app  # mypy: PawApp satisfies the protocol the screens are typed against


def test_the_app_provides_what_screens_ask_of_it() -> None:
    assert _provides is not None
    asked = {n for n, _ in inspect.getmembers(AppApi) if not n.startswith("_")}
    asked |= set(AppApi.__annotations__)
    app = PawApp.__new__(PawApp)  # no Textual start-up: only the names are looked at
    source = inspect.getsource(PawApp)
    missing = {
        n
        for n in asked
        if not hasattr(PawApp, n) and not hasattr(app, n) and f"self.{n} " not in source
    }
    assert not missing
