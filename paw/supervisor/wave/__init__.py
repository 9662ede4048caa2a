"""The wave runner and what it needs beside the loop (see :mod:`.runner`).

The rooms: :mod:`.runner` (the loop: observe, decide through :mod:`paw.core.wave`, act,
recording each step first), :mod:`.starts` (starting tasks), :mod:`.acts` (rule approvals and
follow-ups), :mod:`.checks` (checks beside the sweeps), :mod:`.views` (what a sweep shows the
decisions), :mod:`.outbox` (the messages: recorded, delivered at most once, the badge),
:mod:`.resume` (what a killed runner left, settled before anything is decided) and
:mod:`.report` (the report, with the humans' answers counted from the audit). This module
names their public API, so ``from paw.supervisor.wave import …`` reads as before the split.
"""

from __future__ import annotations

from paw.core.wave import CheckRunner
from paw.supervisor.wave.outbox import OUTBOX_SUFFIX, Notifier
from paw.supervisor.wave.report import human_answers, wave_report
from paw.supervisor.wave.runner import STOP_SUFFIX, WaveRunner

__all__ = [
    "OUTBOX_SUFFIX",
    "STOP_SUFFIX",
    "CheckRunner",
    "Notifier",
    "WaveRunner",
    "human_answers",
    "wave_report",
]
