"""Short pauses of the cyclic garbage collector in the long-running TUI.

A full collection (generation 2) walks every object the process holds: with Textual's widgets,
Rich's caches and fifty agents' views that took 40-90 ms every few seconds, and it stops every
thread, so a prompt drawn meanwhile waited for it (most of the TUI's slowest prompt-to-screen
times). Objects that survive a full collection are the TUI's long-lived state; frozen
(``gc.freeze``), later full collections skip them and take a few milliseconds. After the first
picture one collection runs and its survivors are frozen; after each later full collection the
survivors are frozen again at the next tick (young garbage is collected first, so no cycle that
is already garbage is frozen). On exit everything is unfrozen.
"""

from __future__ import annotations

import gc


class LongLived:
    """Freeze what survives full collections (see the module's docstring)."""

    def __init__(self) -> None:
        self._due = False
        self._installed = False

    @property
    def installed(self) -> bool:
        """True between :meth:`install` and :meth:`uninstall`."""
        return self._installed

    def install(self) -> None:
        """Collect once and freeze the survivors; freeze again after later full collections."""
        if self._installed:
            return
        gc.collect()
        gc.freeze()
        gc.callbacks.append(self._collected)
        self._installed = True

    def tick(self) -> None:
        """Freeze the survivors of a full collection since the last tick (cheap otherwise)."""
        if self._due and self._installed:
            self._due = False
            gc.collect(1)  # young garbage first: only live objects are frozen
            gc.freeze()

    def uninstall(self) -> None:
        """Stop, and hand every frozen object back to the collector."""
        if not self._installed:
            return
        self._installed = False
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)
        gc.unfreeze()

    def _collected(self, phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info.get("generation") == 2:
            self._due = True
