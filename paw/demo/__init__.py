"""paw's scripted demo agent: a small program that behaves like an agent CLI (see agent.py)."""

from __future__ import annotations
