"""What aider used: read from the analytics log paw has it write (pure; the file is placed and
read by :mod:`paw.adapters.usage_logs`).

aider (0.86.2) writes no usage record of its own (``.aider.chat.history.md`` holds only rounded
text), but ``--analytics-log FILE`` makes it append each of its analytics events to ``FILE`` as
a JSON line, whether or not analytics are sent anywhere: the log is written by the same
``Analytics.event`` that would send, and sending needs analytics enabled (``--analytics-disable``
or the user's opt-out leave its senders unset; the log flag enables nothing). paw adds the flag
to an aider it starts itself, with a file in paw's state directory (never the worktree).

Each reply aider reports is one ``message_send`` event::

    {"event": "message_send", "properties": {"prompt_tokens": 12, "completion_tokens": 8,
     "total_tokens": 20, "cost": 0.02, "total_cost": 0.02, ...}, "user_id": "…",
     "time": 1796517920}

``prompt_tokens`` and ``completion_tokens`` are what aider counted for the reply: the API's usage
when aider does not stream (``--no-stream``); when it streams (its default) aider counts them
itself with the model's tokenizer. ``prompt_tokens`` includes a cache write where the API names
one (Anthropic); a cache read is not in the event. ``cost`` is the dollars aider states for the
reply (from its model's price: 0 for a model it has no price for); ``time`` is whole epoch
seconds.
"""

from __future__ import annotations

import math
import posixpath
import re
from typing import TYPE_CHECKING

from paw.core.usage import Usage, count_field, records

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

AIDER = "aider"  # the detector (and program) whose launch gets the log
LOG_FLAG = "--analytics-log"
EVENT = "message_send"
OWN_LOG_ENV = "AIDER_ANALYTICS_LOG"  # aider's own setting of the log (its AIDER_ prefix)
CONFIG_FILE = ".aider.conf.yml"  # read by aider in its cwd, its git root and the home folder
DOTENV_FILE = ".env"  # read by aider in the home folder, its git root, its cwd
# the kinds paw reads from a log it has them write, and why that log may be missing
LOG_KINDS = {
    AIDER: (
        "paw names one only when it starts the aider program itself (not a wrapper) and the "
        "user names no analytics log of their own (an --analytics-log in the command, "
        f"{OWN_LOG_ENV}, or analytics-log: in {CONFIG_FILE})"
    )
}
# why an aider's usage is unknown when the user set its analytics log: paw leaves that log alone
# (it would otherwise stop being written) and does not read it (it may be shared by every aider
# reading the same settings, the user's own runs included: its replies are no one agent's)
OWN_LOG_UNKNOWN = (
    f"aider's analytics log is the user's own ({OWN_LOG_ENV} or analytics-log: in "
    f"{CONFIG_FILE}); paw adds none and does not read it"
)
_CONFIG_KEY = re.compile(r"""^["']?analytics[-_]log["']?\s*:""", re.MULTILINE)
_DOTENV_KEY = re.compile(rf"^\s*(?:export\s+)?{OWN_LOG_ENV}\s*=", re.MULTILINE)


def with_usage_log(detector: str, argv: Sequence[str], log: str) -> tuple[str, ...] | None:
    """``argv`` with aider's analytics log named (``--analytics-log LOG`` right after the
    program), when it starts aider itself: the kind's detector is aider's and the program is
    ``aider``. None otherwise (a wrapper, ``python -m aider``, another agent): paw cannot tell
    where a flag would go, adds none, and aider's usage stays unknown.

    None too when the command names an ``--analytics-log`` of its own: that log is the
    user's, left as it is (paw's flag would not win over it anyway)."""
    if detector != AIDER or not argv or posixpath.basename(argv[0]) != AIDER:
        return None
    if any(arg == LOG_FLAG or arg.startswith(f"{LOG_FLAG}=") for arg in argv[1:]):
        return None
    return (argv[0], LOG_FLAG, log, *argv[1:])


def user_names_log(env: Mapping[str, str], configs: Iterable[str], dotenvs: Iterable[str]) -> bool:
    """Whether the user has aider write an analytics log of their own, as aider 0.86.2 reads
    its settings: ``AIDER_ANALYTICS_LOG`` in its environment (``env``) or in a ``.env`` file
    (the texts ``dotenvs``), or an ``analytics-log:`` key in a ``.aider.conf.yml`` (the texts
    ``configs``). A command-line ``--analytics-log`` would beat paw's on none of these; paw's
    would beat all of them, and the user's log would silently stop. An empty setting counts
    (paw errs toward leaving the user's settings alone); a commented-out key does not."""
    if env.get(OWN_LOG_ENV) is not None:
        return True
    return any(_CONFIG_KEY.search(text) for text in configs) or any(
        _DOTENV_KEY.search(text) for text in dotenvs
    )


def parse_aider_log(lines: Iterable[str], since: float | None = None) -> Usage | None:
    """The usage in aider's analytics log since ``since`` (None: ever): each ``message_send``
    event written at or after it is one response; None when there is none.

    An event's ``time`` is whole seconds (aider drops the fraction), so one written in the
    second ``since`` falls in counts. An event without a readable time counts. The cost is
    the sum of the ``cost`` aider stated, None when an event states none."""
    start = None if since is None else math.floor(since)
    total: Usage | None = None
    for record in records(lines):
        properties = record.get("properties")
        if record.get("event") != EVENT or not isinstance(properties, dict):
            continue
        when = record.get("time")
        if (
            start is not None
            and isinstance(when, int | float)
            and not isinstance(when, bool)
            and when < start
        ):
            continue  # an earlier agent's reply (the same agent name, spawned again)
        cost = properties.get("cost")
        if (
            isinstance(cost, bool)
            or not isinstance(cost, int | float)
            or not math.isfinite(cost)
            or cost < 0
        ):
            cost = None  # not stated (or not a dollar amount: never trusted)
        one = Usage(
            input_tokens=count_field(properties, "prompt_tokens"),
            output_tokens=count_field(properties, "completion_tokens"),
            requests=1,
            cost_usd=None if cost is None else float(cost),
        )
        total = one if total is None else total + one
    return total
