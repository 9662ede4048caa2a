"""Structured prompt channels, one module per source (``claude``: Claude Code's hook)."""
