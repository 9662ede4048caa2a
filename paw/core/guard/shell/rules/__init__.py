"""Rule modules for the shell guard; each exports ``RULES`` keyed by command name."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context

Check: TypeAlias = "Callable[[SimpleCommand, Context], None]"
