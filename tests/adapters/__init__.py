"""Tests of paw's adapters (real tmux on private sockets, real git under tmp_path)."""

from __future__ import annotations
