"""Textual's footer, rebuilt once per burst of binding changes instead of once per change."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets import Footer

if TYPE_CHECKING:
    from textual.screen import Screen


class KeyFooter(Footer):
    """The key footer. At start-up the bindings change several times within one frame (the
    screen mounts, focus lands on the agent table, the tabs mount); Textual's footer queues a
    full recompose for each, and in a real terminal the keys appeared five recomposes (about
    0.1 s) after the rest of the first frame. A recompose reads the bindings when it runs, so
    one pending recompose covers every change made before it starts."""

    _pending = False

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Queue one recompose unless one is already queued."""
        will_recompose = screen.app.app_focus and self.is_attached and screen is self.screen
        if will_recompose and self._pending:
            return
        self._pending = bool(will_recompose)
        super().bindings_changed(screen)

    async def recompose(self) -> None:
        """Rebuild the keys from the bindings as they are now."""
        self._pending = False
        await super().recompose()
