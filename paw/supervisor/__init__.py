"""Orchestration over ports: spawn, sweep, approve. No Textual, no libtmux."""

from __future__ import annotations
