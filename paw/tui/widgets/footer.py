"""Textual's footer, rebuilt only when the keys it shows change."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets import Footer

if TYPE_CHECKING:
    from textual.screen import Screen

Shown = tuple[tuple[str, str, bool, str], ...]


def shown_keys(screen: Screen[object]) -> Shown:
    """What a footer on ``screen`` shows: key, description, enabled, tooltip of each binding."""
    return tuple(
        (binding.key, binding.description, enabled, tooltip)
        for _node, binding, enabled, tooltip in screen.active_bindings.values()
        if binding.show
    )


class KeyFooter(Footer):
    """The key footer. Textual's footer queues a full recompose (every key widget removed and
    mounted again) on each bindings signal; at start-up the signal fires several times within
    a frame (the screen mounts, focus lands on the agent table, the tabs mount), and a
    recompose queued behind another removed keys before they were ever painted: in a real
    terminal the keys appeared about 0.1 s after the rest of the first frame. This footer
    recomposes only when the keys it would show differ from the keys it shows, and keeps at
    most one recompose queued (a recompose reads the bindings when it runs)."""

    _pending = False
    _shown: Shown | None = None

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Queue one recompose if the shown keys changed and none is queued."""
        will_recompose = screen.app.app_focus and self.is_attached and screen is self.screen
        if will_recompose and (self._pending or shown_keys(screen) == self._shown):
            return
        self._pending = bool(will_recompose)
        super().bindings_changed(screen)

    async def recompose(self) -> None:
        """Rebuild the keys from the bindings as they are now."""
        self._pending = False
        self._shown = shown_keys(self.screen)
        await super().recompose()
