"""Screens and modal dialogs."""

from __future__ import annotations
