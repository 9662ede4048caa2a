"""Which of a wave's own steps the audit already holds (pure): read by a resumed runner, so that
a step recorded before a kill is never recorded twice."""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def audited(
    audit: Iterable[Mapping[str, object]], event: str, wave: str, key: str
) -> frozenset[str]:
    """The ``key`` values of the audit's ``event`` records of wave ``wave`` (a ``wave-end``'s
    ``end``, a ``wave-notify``'s message ``id``)."""
    return frozenset(
        str(record[key])
        for record in audit
        if record.get("event") == event and record.get("wave") == wave and key in record
    )
