"""The tmux adapter's small pure helpers."""

from __future__ import annotations

import dataclasses

from paw.adapters.tmux.clients import with_attached as _attached
from paw.core.ports import PaneInfo


def test_attached_copy_keeps_every_other_field() -> None:
    """The sweep's fast copy of a pane (another ``attached``) equals dataclasses.replace: a
    field added to PaneInfo later is not dropped."""
    samples: dict[str, object] = {"str": "x", "int": 7, "bool": True}
    values = {f.name: samples.get(str(f.type), {"k": "v"}) for f in dataclasses.fields(PaneInfo)}
    pane = PaneInfo(**values)  # type: ignore[arg-type]
    assert _attached(pane, 2) == dataclasses.replace(pane, attached=2)
    assert _attached(pane, pane.attached) is pane
