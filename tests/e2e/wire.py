"""Wire formats the stub model speaks: read a conversation, encode an answer (SSE or JSON).

Each API has a reader (the tools offered, the scripted turn to play) and an encoder. Readers scan
the conversation backwards: a tool result after the last assistant turn means "send the final
text"; a user message with ``SCENARIO <name>`` means "send the tool call".
"""

from __future__ import annotations

import itertools
import json
import time
from typing import Any, NamedTuple

from tests.e2e.scenarios import ToolCall, dumps, find_scenario

Json = dict[str, Any]
_ids = itertools.count(1)


def new_id(prefix: str) -> str:
    """A call id unique within this process."""
    return f"{prefix}{int(time.time())}{next(_ids)}"


class Turn(NamedTuple):
    """Where the conversation stands, as far as the request shows it."""

    scenario: str | None  # named in the last plain user message
    results: int = 0  # tool results after that message
    last_result: str | None = None  # the newest of them
    latest: str | None = None  # the last scenario named anywhere in the user's text
    by_id: dict[str, str] = {}  # noqa: RUF012 - read-only default, never mutated
    # every tool result in the request by call id (the stub issues the ids)


# One conversation entry, oldest first: (kind, text, call id); kind is user, result or other.
Entry = tuple[str, str, str]


def turn_from(entries: list[Entry]) -> Turn:
    """Scan back to the last plain user message; count the tool results after it."""
    by_id = {cid: text for kind, text, cid in entries if kind == "result" and cid}
    user_text = "\n".join(text for kind, text, _ in entries if kind == "user")
    latest = find_scenario(user_text)
    results: list[str] = []
    for kind, text, _ in reversed(entries):
        if kind == "result":
            results.append(text)
        elif kind == "user":
            last = results[0] if results else None
            return Turn(find_scenario(text), len(results), last, latest, by_id)
    return Turn(None, len(results), results[0] if results else None, latest, by_id)


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_text_of(part) for part in content)
    if isinstance(content, dict):
        for key in ("text", "content", "output"):
            if key in content:
                return _text_of(content[key])
        if "response" in content:
            return json.dumps(content["response"])
    return ""


# --- Anthropic Messages -------------------------------------------------------------------------


def anthropic_tools(body: Json) -> dict[str, Json]:
    return {t["name"]: t.get("input_schema") or {} for t in body.get("tools") or () if "name" in t}


def anthropic_turn(body: Json) -> Turn:
    entries: list[Entry] = []
    for msg in body.get("messages") or []:
        content = msg.get("content")
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        results = [b for b in blocks if isinstance(b, dict) and b.get("type") == "tool_result"]
        texts = [b for b in blocks if isinstance(b, dict) and b.get("type") == "text"]
        if msg.get("role") != "user":
            entries.append(("other", "", ""))
            continue
        for block in results:
            text = _text_of(block.get("content"))
            entries.append(("result", text, str(block.get("tool_use_id", ""))))
        if texts and (not results or find_scenario(_text_of(texts))):
            entries.append(("user", _text_of(texts), ""))
    return turn_from(entries)


def anthropic_sse(model: str, text: str, call: ToolCall | None) -> bytes:
    events: list[tuple[str, Json]] = []
    usage = {"input_tokens": 12, "output_tokens": 0}
    msg = {"id": "msg_stub", "type": "message", "role": "assistant", "model": model, "content": []}
    events.append(("message_start", {"type": "message_start", "message": {**msg, "usage": usage}}))
    index = 0
    if text:
        events.append(
            (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "text", "text": ""},
                },
            )
        )
        events.append(
            (
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "text_delta", "text": text},
                },
            )
        )
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
        index += 1
    if call is not None:
        block = {
            "type": "tool_use",
            "id": call.id or new_id("toolu_stub"),
            "name": call.name,
            "input": {},
        }
        events.append(
            (
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": block},
            )
        )
        delta = {"type": "input_json_delta", "partial_json": dumps(call.arguments)}
        events.append(
            ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})
        )
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    stop = "tool_use" if call is not None else "end_turn"
    events.append(
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 8},
            },
        )
    )
    events.append(("message_stop", {"type": "message_stop"}))
    return b"".join(
        f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events
    )


def anthropic_json(model: str, text: str, call: ToolCall | None) -> Json:
    content: list[Json] = [{"type": "text", "text": text}] if text else []
    if call is not None:
        content.append(
            {
                "type": "tool_use",
                "id": call.id or new_id("toolu_stub"),
                "name": call.name,
                "input": call.arguments,
            }
        )
    return {
        "id": "msg_stub",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": "tool_use" if call is not None else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 12, "output_tokens": 8},
    }


# --- OpenAI Chat Completions --------------------------------------------------------------------


def chat_tools(body: Json) -> dict[str, Json]:
    out: dict[str, Json] = {}
    for tool in body.get("tools") or ():
        fn = tool.get("function") or {}
        if "name" in fn:
            out[fn["name"]] = fn.get("parameters") or {}
    return out


def chat_turn(body: Json) -> Turn:
    entries: list[Entry] = []
    for msg in body.get("messages") or []:
        role = msg.get("role")
        if role == "tool":
            text = _text_of(msg.get("content"))
            entries.append(("result", text, str(msg.get("tool_call_id", ""))))
        elif role == "user":
            entries.append(("user", _text_of(msg.get("content")), ""))
        elif role == "assistant":
            entries.append(("other", "", ""))
    return turn_from(entries)


def chat_sse(model: str, text: str, call: ToolCall | None) -> bytes:
    base = {
        "id": "chatcmpl-stub",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": model,
    }
    chunks: list[Json] = [
        {
            **base,
            "choices": [
                {"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}
            ],
        }
    ]
    if text:
        chunks.append(
            {**base, "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]}
        )
    if call is not None:
        tc = {
            "index": 0,
            "id": call.id or new_id("call_stub"),
            "type": "function",
            "function": {"name": call.name, "arguments": dumps(call.arguments)},
        }
        chunks.append(
            {
                **base,
                "choices": [{"index": 0, "delta": {"tool_calls": [tc]}, "finish_reason": None}],
            }
        )
    finish = "tool_calls" if call is not None else "stop"
    chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
    usage = {"prompt_tokens": 12, "completion_tokens": 8, "total_tokens": 20}
    chunks.append({**base, "choices": [], "usage": usage})
    return b"".join(f"data: {json.dumps(c)}\n\n".encode() for c in chunks) + b"data: [DONE]\n\n"


def chat_json(model: str, text: str, call: ToolCall | None) -> Json:
    message: Json = {"role": "assistant", "content": text or None}
    if call is not None:
        message["tool_calls"] = [
            {
                "id": call.id or new_id("call_stub"),
                "type": "function",
                "function": {"name": call.name, "arguments": dumps(call.arguments)},
            }
        ]
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {"index": 0, "message": message, "finish_reason": "tool_calls" if call else "stop"}
        ],
        "usage": {"prompt_tokens": 12, "completion_tokens": 8, "total_tokens": 20},
    }


# --- OpenAI Responses ---------------------------------------------------------------------------


def responses_tools(body: Json) -> dict[str, Json]:
    return {t["name"]: t.get("parameters") or {} for t in body.get("tools") or () if "name" in t}


def responses_turn(body: Json) -> Turn:
    items = body.get("input") or []
    if isinstance(items, str):
        name = find_scenario(items)
        return Turn(name, latest=name)
    entries: list[Entry] = []
    for item in items:
        kind = item.get("type", "message")
        if kind in ("function_call_output", "custom_tool_call_output"):
            text = _text_of(item.get("output"))
            entries.append(("result", text, str(item.get("call_id", ""))))
        elif kind == "message" and item.get("role") == "user":
            entries.append(("user", _text_of(item.get("content")), ""))
        elif kind != "message" or item.get("role") == "assistant":
            entries.append(("other", "", ""))
    return turn_from(entries)


def responses_sse(model: str, text: str, call: ToolCall | None) -> bytes:
    rid = f"resp_stub{int(time.time() * 1000)}"
    output: list[Json] = []
    if text:
        part = {"type": "output_text", "text": text, "annotations": []}
        output.append(
            {
                "type": "message",
                "id": "msg_stub",
                "role": "assistant",
                "status": "completed",
                "content": [part],
            }
        )
    if call is not None:
        output.append(
            {
                "type": "function_call",
                "id": "fc_stub",
                "call_id": call.id or new_id("call_stub"),
                "name": call.name,
                "arguments": dumps(call.arguments),
                "status": "completed",
            }
        )
    resp = {
        "id": rid,
        "object": "response",
        "created_at": int(time.time()),
        "model": model,
        "status": "in_progress",
        "output": [],
    }
    events: list[Json] = [{"type": "response.created", "response": resp}]
    for i, item in enumerate(output):
        events.append(
            {
                "type": "response.output_item.added",
                "output_index": i,
                "item": {
                    **item,
                    "status": "in_progress",
                    **({"content": []} if item["type"] == "message" else {}),
                },
            }
        )
        if item["type"] == "message":
            events.append(
                {
                    "type": "response.output_text.delta",
                    "item_id": item["id"],
                    "output_index": i,
                    "content_index": 0,
                    "delta": text,
                }
            )
        events.append({"type": "response.output_item.done", "output_index": i, "item": item})
    usage = {
        "input_tokens": 12,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 8,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 20,
    }
    events.append(
        {
            "type": "response.completed",
            "response": {**resp, "status": "completed", "output": output, "usage": usage},
        }
    )
    return b"".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events)


# --- Gemini -------------------------------------------------------------------------------------


def gemini_tools(body: Json) -> dict[str, Json]:
    out: dict[str, Json] = {}
    for tool in body.get("tools") or ():
        for decl in tool.get("functionDeclarations") or tool.get("function_declarations") or ():
            out[decl["name"]] = decl.get("parametersJsonSchema") or decl.get("parameters") or {}
    return out


def gemini_turn(body: Json) -> Turn:
    entries: list[Entry] = []
    for content in body.get("contents") or []:
        parts = content.get("parts") or []
        responses = [p["functionResponse"] for p in parts if "functionResponse" in p]
        if content.get("role", "user") != "user":
            entries.append(("other", "", ""))
        elif responses:
            entries.extend(("result", _text_of(r), str(r.get("id", ""))) for r in responses)
        else:
            entries.append(("user", _text_of(parts), ""))
    return turn_from(entries)


def gemini_json(text: str, call: ToolCall | None) -> Json:
    parts: list[Json] = [{"text": text}] if text else []
    if call is not None:
        fc = {"name": call.name, "args": call.arguments, **({"id": call.id} if call.id else {})}
        parts.append({"functionCall": fc})
    candidate = {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
    usage = {"promptTokenCount": 12, "candidatesTokenCount": 8, "totalTokenCount": 20}
    return {"candidates": [candidate], "usageMetadata": usage, "modelVersion": "stub"}


def gemini_sse(text: str, call: ToolCall | None) -> bytes:
    return f"data: {json.dumps(gemini_json(text, call))}\r\n\r\n".encode()
