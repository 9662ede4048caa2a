"""A minimal MCP server on stdio for live captures of an agent's MCP permission prompt.

``python tests/e2e/mcp_server.py MARKER`` speaks newline-delimited JSON-RPC 2.0 (the MCP stdio
transport): ``initialize``, ``tools/list`` (one tool, ``paw_probe``, with one string argument
``note``) and ``tools/call``, which writes ``MARKER`` (so a test can tell the call ran) and
answers with a short text. Standard library only: the agent starts it with any python3.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

TOOL = "paw_probe"
SERVER = "paw-probe"
ARGUMENT = "note"
_TOOLS = [
    {
        "name": TOOL,
        "description": "Record a note for the paw e2e test (writes a marker file).",
        "inputSchema": {
            "type": "object",
            "properties": {ARGUMENT: {"type": "string", "description": "the note"}},
            "required": [ARGUMENT],
        },
    }
]


def answer(message: dict[str, Any], marker: Path) -> dict[str, Any] | None:
    """The response to one request (None for a notification)."""
    method, ident = message.get("method"), message.get("id")
    if ident is None:
        return None
    if method == "initialize":
        result: dict[str, Any] = {
            "protocolVersion": message.get("params", {}).get("protocolVersion", "2024-11-05"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": SERVER, "version": "0.0.1"},
        }
    elif method == "tools/list":
        result = {"tools": _TOOLS}
    elif method == "tools/call":
        note = str(message.get("params", {}).get("arguments", {}).get(ARGUMENT, ""))
        marker.write_text(note + "\n", encoding="utf-8")
        result = {"content": [{"type": "text", "text": f"noted: {note}"}]}
    elif method == "ping":
        result = {}
    else:
        error = {"code": -32601, "message": f"no method {method}"}
        return {"jsonrpc": "2.0", "id": ident, "error": error}
    return {"jsonrpc": "2.0", "id": ident, "result": result}


def main(argv: list[str]) -> int:
    """Serve until stdin closes."""
    marker = Path(argv[0])
    for line in sys.stdin:
        if not line.strip():
            continue
        reply = answer(json.loads(line), marker)
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
