"""Agents' structured prompt channels, the side effects behind each (one module per source:
``claude``: Claude Code's hook; ``opencode``: the server beside opencode's and Kilo Code's TUI;
``hub``: wiring at spawn and opening a spawned agent's port)."""
