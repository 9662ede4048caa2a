"""paw's pure core: detection, guard and models. No I/O, no clock, no threads."""

from __future__ import annotations
