"""Wire formats the stub model speaks: read a conversation, encode an answer (SSE or JSON).

Each API has a reader (the tools offered, the scripted turn to play) and an encoder. Readers scan
the conversation backwards: a tool result after the last assistant turn means "send the final
text"; a user message with ``SCENARIO <name>`` means "send the tool call".
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any, NamedTuple

from tests.e2e.scenarios import ToolCall, dumps, find_scenario

Json = dict[str, Any]


class Turn(NamedTuple):
    """What the conversation asks for: a scenario start, or a tool result to conclude it."""

    scenario: str | None
    tool_result: str | None  # the text of the tool result, when the last thing is one
    result_scenario: str | None  # the scenario that tool result belongs to


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


def _scenario_before(texts: Iterable[str]) -> str | None:
    return next((name for t in texts if (name := find_scenario(t)) is not None), None)


# --- Anthropic Messages -------------------------------------------------------------------------


def anthropic_tools(body: Json) -> dict[str, Json]:
    return {t["name"]: t.get("input_schema") or {} for t in body.get("tools") or () if "name" in t}


def anthropic_turn(body: Json) -> Turn:
    messages = body.get("messages") or []
    user_texts: list[str] = []
    for msg in reversed(messages):
        if msg.get("role") in ("system", "developer"):
            continue
        if msg.get("role") != "user":
            break
        content = msg.get("content")
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        results = [b for b in blocks if isinstance(b, dict) and b.get("type") == "tool_result"]
        if results:
            earlier = [
                _text_of(m.get("content")) for m in reversed(messages) if m.get("role") == "user"
            ]
            return Turn(None, _text_of(results[-1].get("content")), _scenario_before(earlier))
        user_texts.append(_text_of(content))
    return Turn(_scenario_before(user_texts), None, None)


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
            "id": f"toolu_stub{int(time.time() * 1000)}",
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
            {"type": "tool_use", "id": "toolu_stub", "name": call.name, "input": call.arguments}
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
    messages = body.get("messages") or []
    user_texts: list[str] = []
    for msg in reversed(messages):
        role = msg.get("role")
        if role == "tool":
            earlier = [
                _text_of(m.get("content")) for m in reversed(messages) if m.get("role") == "user"
            ]
            return Turn(None, _text_of(msg.get("content")), _scenario_before(earlier))
        if role in ("system", "developer"):
            continue
        if role != "user":
            break
        user_texts.append(_text_of(msg.get("content")))
    return Turn(_scenario_before(user_texts), None, None)


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
            "id": "call_stub1",
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
                "id": "call_stub1",
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
        return Turn(find_scenario(items), None, None)
    user_texts: list[str] = []
    for item in reversed(items):
        kind = item.get("type", "message")
        if kind in ("function_call_output", "custom_tool_call_output"):
            earlier = [
                _text_of(i.get("content")) for i in reversed(items) if i.get("role") == "user"
            ]
            return Turn(None, _text_of(item.get("output")), _scenario_before(earlier))
        if kind == "message" and item.get("role") == "user":
            user_texts.append(_text_of(item.get("content")))
            continue
        if kind == "message" and item.get("role") in ("developer", "system"):
            continue
        break
    return Turn(_scenario_before(user_texts), None, None)


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
                "call_id": f"call_{rid}",
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
    contents = body.get("contents") or []
    user_texts: list[str] = []
    for content in reversed(contents):
        if content.get("role", "user") != "user":
            break
        parts = content.get("parts") or []
        responses = [p["functionResponse"] for p in parts if "functionResponse" in p]
        if responses:
            earlier = [
                _text_of(c.get("parts"))
                for c in reversed(contents)
                if c.get("role", "user") == "user"
            ]
            return Turn(None, _text_of(responses[-1]), _scenario_before(earlier))
        user_texts.append(_text_of(parts))
    return Turn(_scenario_before(user_texts), None, None)


def gemini_json(text: str, call: ToolCall | None) -> Json:
    parts: list[Json] = [{"text": text}] if text else []
    if call is not None:
        parts.append({"functionCall": {"name": call.name, "args": call.arguments}})
    candidate = {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
    usage = {"promptTokenCount": 12, "candidatesTokenCount": 8, "totalTokenCount": 20}
    return {"candidates": [candidate], "usageMetadata": usage, "modelVersion": "stub"}


def gemini_sse(text: str, call: ToolCall | None) -> bytes:
    return f"data: {json.dumps(gemini_json(text, call))}\r\n\r\n".encode()
