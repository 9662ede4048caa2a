"""``[notify]`` settings: where a wave's escalations go (paw.toml and the wave file).

Apart from :mod:`paw.core.wave` (which re-exports it) so that reading paw.toml does not build
the wave file's and the wave state's models: every command reads paw.toml, few run waves."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class NotifySettings(BaseModel):
    """Where escalations go (``[notify]`` of paw.toml, or of the wave file, which wins)."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    urls: tuple[str, ...] = ()
    """apprise URLs (``slack://…``, ``tgram://…``, ``ntfy://…``, ``mailto://…``, ``json://…``).
    Every message sent to them has secrets redacted and says so."""

    bell: bool = True
    """Ring the terminal bell of a foreground ``paw wave run`` when something needs a human."""

    tmux_badge: bool = True
    """Show ``paw: N waiting`` in the status line of paw's tmux session while prompts wait."""

    command: tuple[str, ...] | None = None
    """A hook run for every message: argv, with the (redacted) message on stdin and
    ``PAW_EVENT``, ``PAW_WAVE``, ``PAW_TASK``, ``PAW_PROMPT_ID``, ``PAW_TITLE`` (redacted) and
    ``PAW_REDACTED`` (``1`` when something was) in its environment."""

    remind_every_s: float = Field(default=1800.0, gt=0)
    """Seconds between reminders while a parked prompt or a stuck agent is unanswered."""

    digest_over: int = Field(default=3, ge=1)
    """When more than this many prompts need a human in one sweep, send one digest instead."""
