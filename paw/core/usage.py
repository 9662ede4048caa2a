"""What an agent used, read from the agent's own records (pure parsers).

paw never guesses a price: tokens are counted where the agent writes them down, and a cost in
dollars only where the agent itself states one. What each pinned CLI records (verified on the
pinned versions, see docs/waves.md#what-each-agent-cost):

- Claude Code writes one JSON line per API response block to
  ``<config dir>/projects/<cwd with every non-alphanumeric character as ->/<session>.jsonl``:
  ``type = "assistant"`` lines carry ``message.usage`` (``input_tokens``,
  ``output_tokens``, ``cache_creation_input_tokens``, ``cache_read_input_tokens``), the
  ``cwd``, the ``timestamp`` (ISO 8601, UTC) and a ``requestRef`` shared by the blocks of one
  response (counted once). It states no price (older versions wrote ``costUSD``: summed when
  every counted response has it).
- Codex writes ``<CODEX_HOME>/sessions/YYYY/MM/DD/rollout-*.jsonl``: a ``session_meta`` line
  with the ``cwd``, then ``event_msg`` lines of ``type = "token_count"`` whose
  ``info.total_token_usage`` is the session's running total (``input_tokens`` includes
  ``cached_input_tokens``); every line has its ``timestamp``. It states no price.
- Gemini CLI (0.61.0) writes ``<gemini dir>/tmp/<project>/chats/session-*.jsonl``, the
  folder's ``.project_root`` naming the project's path: each message is a line (written again
  when it changes: the last of an ``id`` counts), a model response ``type = "gemini"`` with
  ``tokens`` (``input``, ``output``, ``cached``, ``thoughts``, ``tool``) and a ``timestamp``.
  It states no price.
- Qwen Code (0.24.4) writes ``<qwen dir>/projects/<cwd as Claude Code names it>/chats/
  <session>.jsonl``: ``type = "assistant"`` lines carry the API's ``usageMetadata``, the
  ``cwd``, the ``timestamp`` and a ``uuid``. It states no price.
- opencode (1.18.33) keeps its sessions in a SQLite database,
  ``<data dir>/opencode/opencode.db`` (``OPENCODE_DB`` names another): a ``session`` row has
  the ``directory`` it ran in, a ``message`` row the message as JSON, a response's with its
  ``tokens`` and the ``cost`` opencode states (see :func:`parse_opencode_messages`).
- Kilo Code (7.7.7), an opencode fork, keeps the same tables in ``<data dir>/kilo/kilo.db``
  (``KILO_DB`` names another).
- Cline (3.0.65) writes ``<cline data>/sessions/<session>/<session>.json``: the session's
  ``cwd``, ``started_at`` and ``metadata.usage`` (its running totals and the ``totalCost`` in
  dollars it states: 0 for a model it has no price for); ``<session>.messages.json`` beside it
  holds each response as an assistant message with its ``metrics`` (see
  :mod:`paw.core.usage_sessions`).
- Continue's ``cn`` (1.5.47) writes ``<global dir>/sessions/<session>.json`` with a
  ``history`` whose assistant messages carry the API's ``usage``; ``sessions.json`` beside it
  lists each session's ``workspaceDirectory`` and ``dateCreated`` (see
  :mod:`paw.core.usage_sessions`). The costs it writes are its own estimates, not read.

Only what the agent used since paw started it counts (``since``): a worktree path used again
(a wave run again under the same name) keeps the sessions of the agents before it, and those
are not this agent's. A response (Claude Code) or a running total (Codex) dated before
``since`` is left out; Codex's running total counts from the last one told before ``since``.
A record without a readable date is counted (the pinned versions date every one).

- aider (0.86.2) keeps no usage record: paw has it write its analytics log and reads that
  (see :mod:`paw.core.usage_aider`).
- Mistral Vibe (3.0.2) writes ``<VIBE_HOME>/logs/session/unified/<session>/``: ``meta.json``
  names the session's directory and start, and its latest snapshot's
  ``projection-state.json`` holds the session's running total (see
  :mod:`paw.core.usage_sessions`).

Every other agent (a kind of your own): paw does not read its usage, and says "unknown"
(docs/agents.md says, per pinned version, what each records).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens (and a cost, where the agent states one) of one agent."""

    input_tokens: int = 0  # fresh input (not read from a cache)
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    requests: int = 0  # model responses counted
    cost_usd: float | None = None  # only what the agent itself wrote down

    @property
    def total_tokens(self) -> int:
        """Every token counted."""
        return (
            self.input_tokens
            + self.output_tokens
            + self.cache_read_tokens
            + self.cache_write_tokens
        )

    def __sub__(self, other: Usage) -> Usage:
        """What a running total gained since ``other`` (an earlier total of it; never below
        zero; the requests are this one's: the caller counts them)."""
        return Usage(
            max(0, self.input_tokens - other.input_tokens),
            max(0, self.output_tokens - other.output_tokens),
            max(0, self.cache_read_tokens - other.cache_read_tokens),
            max(0, self.cache_write_tokens - other.cache_write_tokens),
            self.requests,
            self.cost_usd,
        )

    def __add__(self, other: Usage) -> Usage:
        cost = (
            None
            if self.cost_usd is None or other.cost_usd is None
            else self.cost_usd + other.cost_usd
        )
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cache_read_tokens + other.cache_read_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
            self.requests + other.requests,
            cost,
        )


@dataclass(frozen=True, slots=True)
class UsageReading:
    """What paw could tell of an agent's usage: the usage and where it was read, or why not."""

    usage: Usage | None
    source: str | None = None  # "Claude Code's session files", …
    unknown: str | None = None  # why the usage is unknown (with usage None)


def usage_source(kind: str) -> str | None:
    """Where paw reads the usage of agent kind ``kind`` (its spec's ``usage_source``), or None;
    only that agent's module is imported."""
    from paw.core.detect.registry import spec_for

    spec = spec_for(kind)
    return spec.usage_source if spec is not None else None


def usage_sources() -> dict[str, str]:
    """The agents whose usage paw reads (their built-in kind) and the source the report names:
    each agent's spec says it (``AgentSpec.usage_source``)."""
    from paw.core.detect.registry import all_specs  # every agent module: only when asked

    return {s.kind: s.usage_source for s in all_specs() if s.usage_source is not None}


def claude_project_dir(cwd: str) -> str:
    """The folder name Claude Code keeps a working directory's sessions under."""
    return re.sub(r"[^A-Za-z0-9]", "-", cwd)


def is_within(path: str, root: str) -> bool:
    """True when ``path`` is ``root`` or inside it (plain path text, no file system)."""
    root = root.rstrip("/")
    return path == root or path.startswith(root + "/")


def records(lines: Iterable[str]) -> Iterable[dict[str, object]]:
    """The JSON objects among ``lines`` (a line not JSON, or being written: skipped)."""
    for line in lines:
        try:
            data = json.loads(line)
        except ValueError:
            continue  # a line being written, or not JSON: skipped
        if isinstance(data, dict):
            yield data


def record_time(record: dict[str, object]) -> float | None:
    """When the agent wrote ``record`` (its ``timestamp``: ISO 8601, UTC when it names no
    zone), as epoch seconds; None when it has no readable one."""
    stamp = record.get("timestamp")
    if not isinstance(stamp, str):
        return None
    try:
        when = dt.datetime.fromisoformat(stamp)
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return when.timestamp()


def _before(record: dict[str, object], since: float | None) -> bool:
    """True when ``record`` is dated before ``since`` (not this agent's: an earlier one's)."""
    if since is None:
        return False
    when = record_time(record)
    return when is not None and when < since


def count_field(data: object, key: str) -> int:
    """``data[key]`` when it is a positive whole number (a token count), else 0."""
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def parse_claude_session(
    lines: Iterable[str], worktree: str, since: float | None = None
) -> Usage | None:
    """The usage of one Claude Code session file, counting only responses given in
    ``worktree`` (or below it) since ``since`` (None: ever); None when it holds none."""
    seen: set[str] = set()
    total: Usage | None = None
    for record in records(lines):
        if record.get("type") != "assistant" or not is_within(str(record.get("cwd")), worktree):
            continue
        if _before(record, since):
            continue  # an earlier agent's response in the same worktree path
        message = record.get("message")
        usage = message.get("usage") if isinstance(message, dict) else None
        if not isinstance(message, dict) or not isinstance(usage, dict):
            continue
        key = record.get("requestRef") or (
            f"{message.get('id')}:{record.get('requestId')}"
            if record.get("requestId")
            else record.get("uuid")
        )
        if key is None or str(key) in seen:
            continue  # another block of a response already counted
        seen.add(str(key))
        cost = record.get("costUSD")
        one = Usage(
            input_tokens=count_field(usage, "input_tokens"),
            output_tokens=count_field(usage, "output_tokens"),
            cache_read_tokens=count_field(usage, "cache_read_input_tokens"),
            cache_write_tokens=count_field(usage, "cache_creation_input_tokens"),
            requests=1,
            cost_usd=float(cost) if isinstance(cost, int | float) and cost >= 0 else None,
        )
        total = one if total is None else total + one
    return total


def codex_session_cwd(first_line: str) -> str | None:
    """The working directory a Codex session log names on its first line."""
    for record in records([first_line]):
        payload = record.get("payload")
        if record.get("type") == "session_meta" and isinstance(payload, dict):
            cwd = payload.get("cwd")
            return cwd if isinstance(cwd, str) else None
    return None


def parse_codex_rollout(lines: Iterable[str], since: float | None = None) -> Usage | None:
    """The usage of one Codex session log since ``since`` (None: ever): its last running
    total, less the last one told before ``since``; None when it has none since."""
    last: dict[str, object] | None = None
    before: dict[str, object] | None = None  # the running total when `since` came
    requests = 0
    for record in records(lines):
        payload = record.get("payload")
        if record.get("type") != "event_msg" or not isinstance(payload, dict):
            continue
        info = payload.get("info")
        if payload.get("type") != "token_count" or not isinstance(info, dict):
            continue
        total = info.get("total_token_usage")
        if not isinstance(total, dict):
            continue
        if _before(record, since):
            before = total  # an earlier agent's (or turn's) total: counted from here on
            continue
        if total != last and total != before:  # the same total told again: no response
            last = total
            requests += 1
    if last is None:
        return None
    return _codex_usage(last, requests) - _codex_usage(before or {}, 0)


def _codex_usage(total: dict[str, object], requests: int) -> Usage:
    """A Codex running total as a usage."""
    cached = count_field(total, "cached_input_tokens")
    return Usage(
        input_tokens=max(0, count_field(total, "input_tokens") - cached),
        output_tokens=count_field(total, "output_tokens"),
        cache_read_tokens=cached,
        cache_write_tokens=count_field(total, "cache_write_input_tokens"),
        requests=requests,
    )


def _gemini_tokens(tokens: dict[str, object]) -> Usage:
    """Gemini CLI's ``tokens`` of one response (the API's ``usageMetadata`` renamed: ``input``
    includes ``cached``; ``thoughts`` are output, ``tool`` is input)."""
    cached = count_field(tokens, "cached")
    return Usage(
        input_tokens=max(0, count_field(tokens, "input") - cached) + count_field(tokens, "tool"),
        output_tokens=count_field(tokens, "output") + count_field(tokens, "thoughts"),
        cache_read_tokens=cached,
        requests=1,
    )


def parse_gemini_chat(lines: Iterable[str], since: float | None = None) -> Usage | None:
    """The usage of one Gemini CLI chat file (``chats/session-*.jsonl``) since ``since``
    (None: ever); None when it holds none.

    The file is a log of records: a message (an ``id``, a ``type``; a model response is
    ``type = "gemini"`` with its ``tokens``) is written again each time it changes (its tokens,
    then its tool calls): the last one of an ``id`` counts, once. ``{"$set": {"messages":
    [...]}}`` (a rewritten conversation) holds messages too."""
    messages: dict[str, dict[str, object]] = {}
    for record in records(lines):
        update = record.get("$set")
        listed = update.get("messages") if isinstance(update, dict) else None
        for message in listed if isinstance(listed, list) else [record]:
            if isinstance(message, dict) and isinstance(message.get("id"), str):
                messages[str(message["id"])] = message
    total: Usage | None = None
    for message in messages.values():
        tokens = message.get("tokens")
        if message.get("type") != "gemini" or not isinstance(tokens, dict):
            continue
        if _before(message, since):
            continue  # an earlier agent's response in the same project folder
        one = _gemini_tokens(tokens)
        total = one if total is None else total + one
    return total


def parse_qwen_chat(
    lines: Iterable[str], worktree: str, since: float | None = None
) -> Usage | None:
    """The usage of one Qwen Code chat file, counting only responses given in ``worktree`` (or
    below it) since ``since`` (None: ever); None when it holds none.

    Each ``type = "assistant"`` record is one response with the API's ``usageMetadata``
    (``promptTokenCount`` includes ``cachedContentTokenCount``; ``thoughtsTokenCount`` is
    output), its ``cwd``, ``timestamp`` and ``uuid`` (counted once)."""
    seen: set[str] = set()
    total: Usage | None = None
    for record in records(lines):
        usage = record.get("usageMetadata")
        if record.get("type") != "assistant" or not isinstance(usage, dict):
            continue
        if not is_within(str(record.get("cwd")), worktree) or _before(record, since):
            continue
        key = record.get("uuid")
        if isinstance(key, str):
            if key in seen:
                continue  # the same record written again
            seen.add(key)
        cached = count_field(usage, "cachedContentTokenCount")
        one = Usage(
            input_tokens=max(0, count_field(usage, "promptTokenCount") - cached),
            output_tokens=count_field(usage, "candidatesTokenCount")
            + count_field(usage, "thoughtsTokenCount"),
            cache_read_tokens=cached,
            requests=1,
        )
        total = one if total is None else total + one
    return total


def parse_opencode_messages(
    rows: Iterable[tuple[str, str]], worktree: str, since: float | None = None
) -> Usage | None:
    """The usage in opencode's (or Kilo Code's) messages: ``rows`` are ``(the session's
    directory, the message's data as JSON)``; only sessions run in ``worktree`` (or below it)
    count, and only responses begun since ``since`` (None: ever). None when there is none.

    An assistant message's data carries ``tokens`` (``input`` without the cached ones,
    ``output``, ``reasoning``, ``cache.read``, ``cache.write``), the ``cost`` in dollars the
    CLI states for it (from its model's price; 0 for a model it has no price for) and
    ``time.created`` (epoch milliseconds). A response still streaming (no tokens yet, not
    completed) is not counted."""
    total: Usage | None = None
    for directory, text in rows:
        if not is_within(directory, worktree):
            continue
        data = next(iter(records([text])), None)
        tokens = data.get("tokens") if data is not None else None
        if data is None or data.get("role") != "assistant" or not isinstance(tokens, dict):
            continue
        times = data.get("time")
        created = times.get("created") if isinstance(times, dict) else None
        if since is not None and isinstance(created, int | float) and created / 1000 < since:
            continue  # an earlier agent's response in the same worktree path
        cache = tokens.get("cache")
        one = Usage(
            input_tokens=count_field(tokens, "input"),
            output_tokens=count_field(tokens, "output") + count_field(tokens, "reasoning"),
            cache_read_tokens=count_field(cache, "read"),
            cache_write_tokens=count_field(cache, "write"),
            requests=1,
        )
        if one.total_tokens == 0 and not (isinstance(times, dict) and "completed" in times):
            continue  # still streaming: told when it ends
        cost = data.get("cost")
        if isinstance(cost, bool) or not isinstance(cost, int | float) or cost < 0:
            cost = None  # not stated
        one = dataclasses.replace(one, cost_usd=None if cost is None else float(cost))
        total = one if total is None else total + one
    return total


def usage_json(reading: UsageReading) -> dict[str, object] | None:
    """An agent's usage as data (``paw ls --json``: ``usage``); None when unknown (the reason
    is :func:`unknown_reason`)."""
    usage = reading.usage
    if usage is None:
        return None
    return {
        "input": usage.input_tokens,
        "output": usage.output_tokens,
        "cache_read": usage.cache_read_tokens,
        "cache_write": usage.cache_write_tokens,
        "total": usage.total_tokens,
        "requests": usage.requests,
        "usd": None if usage.cost_usd is None else round(usage.cost_usd, 6),
        "source": reading.source,
    }


def unknown_reason(reading: UsageReading) -> str | None:
    """Why the usage (or its price) is not known; None when both are."""
    if reading.usage is None:
        return reading.unknown or "unknown"
    if reading.usage.cost_usd is None:
        return f"{reading.source} count tokens but state no price"
    return None


def compact_tokens(count: int) -> str:
    """``950``, ``12.3k``, ``4.1M``: a token count in a narrow column."""
    if count < 1000:
        return str(count)
    if count < 1_000_000:
        return f"{count / 1000:.1f}k"
    return f"{count / 1_000_000:.1f}M"


def usage_text(reading: UsageReading) -> str:
    """One line for an agent's card: ``tokens 12.3k in, 1.2k out, 40.0k cache · $0.0123``
    or ``tokens unknown: <why>``."""
    usage = reading.usage
    if usage is None:
        return f"tokens unknown: {reading.unknown or 'unknown'}"
    cached = usage.cache_read_tokens + usage.cache_write_tokens
    text = (
        f"tokens {compact_tokens(usage.input_tokens)} in, {compact_tokens(usage.output_tokens)} out"
    )
    if cached:
        text += f", {compact_tokens(cached)} cache"
    if usage.cost_usd is not None:
        text += f" · ${usage.cost_usd:.4f}"
    return text + f" ({usage.requests} responses)"
