"""Server-sent events as they arrive on an HTTP response (opencode's ``GET /event``)."""

from __future__ import annotations

import http.client
from collections.abc import Iterator


def sse_data(response: http.client.HTTPResponse) -> Iterator[str]:
    """The ``data`` of each server-sent event (lines joined), as they arrive."""
    lines: list[str] = []
    while True:
        raw = response.readline(1 << 20)
        if not raw:
            return
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        if not line:
            if lines:
                yield "\n".join(lines)
                lines = []
            continue
        if line.startswith("data:"):
            lines.append(line[5:].removeprefix(" "))
