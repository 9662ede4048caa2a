"""Widgets of the main screen."""

from __future__ import annotations
