"""What Cline, Continue and Mistral Vibe used: each writes a JSON file per session, its totals
(Cline) or its responses (Continue) in it, or a snapshot holding its running total (Vibe), and
the session's directory and start beside them (pure parsers; the files are found by
:mod:`paw.adapters.usage_sessions`).

A session counts whole when it ran in the agent's worktree (or below it) and began since paw
started the agent (:func:`is_agents_session`): none of them dates its responses in the file
paw reads for the totals.
"""

from __future__ import annotations

import json

from paw.core.usage import Usage, count_field, is_within, record_time, records


def _epoch_ms(value: object) -> float | None:
    """Epoch milliseconds (a number, or digits in a string) as epoch seconds; None if not."""
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value / 1000


def is_session_name(name: object) -> bool:
    """True when ``name`` (a session id an agent wrote) is a plain file name: never a path
    that would lead paw outside the agent's sessions folder."""
    return (
        isinstance(name, str)
        and name not in ("", ".", "..")
        and "/" not in name
        and "\\" not in name
        and "\0" not in name
    )


def parse_cline_session(text: str) -> tuple[str, float | None, Usage] | None:
    """A Cline session file (``<session>.json``): the ``cwd`` it ran in, when it started
    (``started_at``, ISO 8601, as epoch seconds; None when unreadable) and the usage it states;
    None when it states none.

    ``metadata.usage`` holds the session's running totals (``inputTokens`` without the cached
    ones, ``outputTokens``, ``cacheReadTokens``, ``cacheWriteTokens``) and the ``totalCost``
    in dollars Cline states (from its model's price; 0 for a model it has no price for).
    ``metadata.aggregateUsage`` adds the teammates the session spawned: not read. The number
    of responses is not in it (:func:`count_cline_responses`)."""
    data = next(iter(records([text])), None)
    cwd = data.get("cwd") if data is not None else None
    metadata = data.get("metadata") if data is not None else None
    usage = metadata.get("usage") if isinstance(metadata, dict) else None
    if data is None or not isinstance(cwd, str) or not isinstance(usage, dict):
        return None
    cost = usage.get("totalCost")
    if isinstance(cost, bool) or not isinstance(cost, int | float) or cost < 0:
        cost = None  # not stated
    return (
        cwd,
        record_time({"timestamp": data.get("started_at")}),
        Usage(
            input_tokens=count_field(usage, "inputTokens"),
            output_tokens=count_field(usage, "outputTokens"),
            cache_read_tokens=count_field(usage, "cacheReadTokens"),
            cache_write_tokens=count_field(usage, "cacheWriteTokens"),
            cost_usd=None if cost is None else float(cost),
        ),
    )


def is_agents_session(
    directory: str, started: float | None, worktree: str, since: float | None
) -> bool:
    """True when a session run in ``directory`` and started at ``started`` is the agent's:
    in ``worktree`` (or below it), and begun since ``since`` (None: ever; a session without a
    date counts). An earlier agent's session in the same worktree path is not."""
    if not is_within(directory, worktree):
        return False
    return since is None or started is None or started >= since


def count_cline_responses(text: str) -> int:
    """The responses in a Cline messages file (``<session>.messages.json``): its assistant
    messages with ``metrics``."""
    data = next(iter(records([text])), None)
    messages = data.get("messages") if data is not None else None
    if not isinstance(messages, list):
        return 0
    return sum(
        1
        for m in messages
        if isinstance(m, dict)
        and m.get("role") == "assistant"
        and isinstance(m.get("metrics"), dict)
    )


def parse_continue_index(text: str) -> list[tuple[str, str, float | None]]:
    """Continue's ``sessions.json``: each session's id, ``workspaceDirectory`` and
    ``dateCreated`` (epoch milliseconds as a string; None when unreadable); a session whose
    id is not a plain file name is left out."""
    try:
        data = json.loads(text)
    except ValueError:
        return []
    found: list[tuple[str, str, float | None]] = []
    for entry in data if isinstance(data, list) else []:
        if not isinstance(entry, dict) or not is_session_name(entry.get("sessionId")):
            continue
        directory = entry.get("workspaceDirectory")
        if isinstance(directory, str):
            found.append((str(entry["sessionId"]), directory, _epoch_ms(entry.get("dateCreated"))))
    return found


def parse_continue_session(text: str) -> Usage | None:
    """The usage in one Continue session file: each assistant message of its ``history``
    with the API's ``usage`` is a response. None when there is none.

    ``prompt_tokens`` includes the cached ones as OpenAI counts them
    (``prompt_tokens_details.cached_tokens``); where Continue wrote an Anthropic answer it
    adds ``cache_read_tokens``/``cache_write_tokens`` and ``prompt_tokens`` is the fresh input
    alone. Its costs are not read: ``cost_cents`` is rounded to whole cents (0 for most
    responses), and the session's ``usage.totalCost`` is Continue's estimate, which for a model
    it has no price for is a made-up $1 (input) and $2 (output) per million tokens, and the file
    does not say which of the two it is."""
    data = next(iter(records([text])), None)
    history = data.get("history") if data is not None else None
    total: Usage | None = None
    for item in history if isinstance(history, list) else []:
        message = item.get("message") if isinstance(item, dict) else None
        usage = message.get("usage") if isinstance(message, dict) else None
        if not isinstance(message, dict) or message.get("role") != "assistant":
            continue
        if not isinstance(usage, dict):
            continue
        details = usage.get("prompt_tokens_details")
        details = details if isinstance(details, dict) else {}
        prompt = count_field(usage, "prompt_tokens")
        if "cache_read_tokens" in details or "cache_write_tokens" in details:
            read, write, fresh = (
                count_field(details, "cache_read_tokens"),
                count_field(details, "cache_write_tokens"),
                prompt,
            )
        else:
            read, write = count_field(details, "cached_tokens"), 0
            fresh = max(0, prompt - read)
        one = Usage(fresh, count_field(usage, "completion_tokens"), read, write, requests=1)
        total = one if total is None else total + one
    return total


def parse_vibe_meta(text: str) -> tuple[str, float | None] | None:
    """Mistral Vibe's ``meta.json`` of a session: the directory it ran in
    (``environment.working_directory``) and when it started (``start_time``, ISO 8601, as
    epoch seconds; None when unreadable); None when it names no directory."""
    data = next(iter(records([text])), None)
    environment = data.get("environment") if data is not None else None
    cwd = environment.get("working_directory") if isinstance(environment, dict) else None
    if data is None or not isinstance(cwd, str):
        return None
    return cwd, record_time({"timestamp": data.get("start_time")})


def vibe_generation(text: str) -> str | None:
    """The generation a Vibe session's ``CURRENT`` names (its snapshot folder under
    ``generations/``): digits only, never a path; None when it names none."""
    data = next(iter(records([text])), None)
    generation = data.get("generation") if data is not None else None
    return generation if isinstance(generation, str) and generation.isdigit() else None


def parse_vibe_projection(text: str) -> Usage | None:
    """The usage in a Vibe generation's ``projection-state.json``:
    ``snapshot.session.tokenUsage``, the session's running total (``inputTokens``,
    ``outputTokens``, ``cachedInputTokens`` taken as part of the input, as OpenAI counts
    them); None when it has none. The responses are counted apart
    (:func:`count_vibe_completions`)."""
    data = next(iter(records([text])), None)
    snapshot = data.get("snapshot") if data is not None else None
    session = snapshot.get("session") if isinstance(snapshot, dict) else None
    usage = session.get("tokenUsage") if isinstance(session, dict) else None
    if not isinstance(usage, dict):
        return None
    cached = count_field(usage, "cachedInputTokens")
    return Usage(
        input_tokens=max(0, count_field(usage, "inputTokens") - cached),
        output_tokens=count_field(usage, "outputTokens"),
        cache_read_tokens=cached,
    )


def count_vibe_completions(text: str) -> int:
    """The responses in a Vibe generation's ``runtime-state.json``: its ``actions`` of
    ``kind = "completion"`` that ``succeeded``."""
    data = next(iter(records([text])), None)
    actions = data.get("actions") if data is not None else None
    listed = actions if isinstance(actions, list) else []
    return sum(
        1
        for a in listed
        if isinstance(a, dict) and a.get("kind") == "completion" and a.get("state") == "succeeded"
    )
