"""paw's Textual front end. It sees the supervisor API and core models only."""

from __future__ import annotations
