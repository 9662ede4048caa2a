"""Textual's footer, fitted to the terminal's width and rebuilt only when its keys change."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

if TYPE_CHECKING:
    from collections.abc import Sequence

    from textual.app import ComposeResult
    from textual.binding import Binding
    from textual.screen import Screen

Key = tuple["Binding", bool, str]  # binding, enabled, tooltip
Shown = tuple[tuple[str, str, bool, str], ...]

# FooterKey's padding: one cell each side of "key description".
_PADDING = 2


def key_width(key_display: str, description: str) -> int:
    """Cells one footer key takes: `` a Approve ``."""
    return cell_len(key_display) + (1 + cell_len(description) if description else 0) + _PADDING


def fit_keys(
    keys: Sequence[Key],
    width: int,
    drop_order: Sequence[str],
    display: dict[str, str] | None = None,
) -> list[Key]:
    """The keys that fit ``width`` cells: actions in ``drop_order`` are left out first to
    last until the rest fits; an action not listed there is never left out (quit, help)."""
    shown = list(keys)
    display = display or {}

    def total() -> int:
        return sum(key_width(display.get(b.key, b.key), b.description) for b, _, _ in shown)

    for action in drop_order:
        if total() <= width:
            break
        shown = [k for k in shown if k[0].action != action]
    return shown


class KeyFooter(Footer):
    """The key footer.

    It shows what fits: a screen's ``FOOTER_DROP_ORDER`` names the actions to leave out first
    when the terminal is narrow (every key stays on the help screen), so that help and quit
    never fall off the right edge.

    Textual's footer queues a full recompose (every key widget removed and mounted again) on
    each bindings signal; at start-up the signal fires several times within a frame (the
    screen mounts, focus lands on the agent table, the tabs mount), and a recompose queued
    behind another removed keys before they were ever painted: in a real terminal the keys
    appeared about 0.1 s after the rest of the first frame. This footer recomposes only when
    the keys it would show differ from the keys it shows, and keeps at most one recompose
    queued (a recompose reads the bindings when it runs)."""

    _pending = False
    _shown: Shown | None = None

    def _fitted(self, screen: Screen[object]) -> list[Key]:
        keys: list[Key] = [
            (binding, enabled, tooltip)
            for _node, binding, enabled, tooltip in screen.active_bindings.values()
            if binding.show
        ]
        width = self.size.width or self.app.size.width
        drop_order: Sequence[str] = getattr(screen, "FOOTER_DROP_ORDER", ())
        display = {b.key: self.app.get_key_display(b) for b, _, _ in keys}
        return fit_keys(keys, width, drop_order, display)

    def _wanted(self, screen: Screen[object]) -> Shown:
        return tuple((b.key, b.description, on, tip) for b, on, tip in self._fitted(screen))

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Queue one recompose if the shown keys changed and none is queued; when only keys
        became available or unavailable (a prompt came or went under the cursor), dim or
        undim them in place: a recompose costs a layout pass of the whole screen, and a new
        prompt waited for it."""
        will_recompose = screen.app.app_focus and self.is_attached and screen is self.screen
        if will_recompose and not self._pending:
            wanted = self._wanted(screen)
            if wanted == self._shown or self._enable_in_place(wanted):
                return
        elif will_recompose:
            return
        self._pending = bool(will_recompose)
        super().bindings_changed(screen)

    def _enable_in_place(self, wanted: Shown) -> bool:
        """Dim or undim the key widgets shown when ``wanted`` differs from them in that alone
        (same keys, descriptions, tooltips, order); False when it differs otherwise."""
        shown = self._shown
        if shown is None or len(shown) != len(wanted):
            return False
        if any(a[:2] != b[:2] or a[3] != b[3] for a, b in zip(shown, wanted, strict=True)):
            return False
        widgets = list(self.query(FooterKey))
        if [w.key for w in widgets] != [key for key, _, _, _ in wanted]:
            return False
        for widget, (_, _, enabled, _) in zip(widgets, wanted, strict=True):
            if widget._disabled == enabled:  # (FooterKey keeps it there)
                widget._disabled = not enabled  # (its mouse handler reads it)
                widget.set_class(not enabled, "-disabled")
        self._shown = wanted
        return True

    def on_resize(self) -> None:
        """A narrower or wider terminal fits other keys."""
        if self.is_attached and not self._pending and self._wanted(self.screen) != self._shown:
            self._pending = True
            self.call_after_refresh(self.recompose)

    def compose(self) -> ComposeResult:
        """One key widget per binding that fits."""
        if not getattr(self, "_bindings_ready", True):
            return
        keys = self._fitted(self.screen)
        self.styles.grid_size_columns = len(keys)
        for binding, enabled, tooltip in keys:
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                disabled=not enabled,
                tooltip=tooltip,
            ).data_bind(compact=Footer.compact)

    async def recompose(self) -> None:
        """Rebuild the keys from the bindings as they are now."""
        self._pending = False
        self._shown = self._wanted(self.screen)
        await super().recompose()
