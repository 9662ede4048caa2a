"""Canned answers for the agent CLIs' side requests: titles, routers, next-speaker checks,
commit messages. Structured requests (a JSON schema in the request) get a value built from it."""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

from tests.e2e.scenarios import ToolCall

Json = dict[str, Any]


class Reply(NamedTuple):
    """What to answer: text and/or one tool call."""

    text: str
    call: ToolCall | None = None


def all_text(body: Json) -> str:
    return json.dumps(body, ensure_ascii=False)


def side_reply(body: Json) -> Reply | None:
    """Canned answers for the CLIs' side requests, recognised by what they ask for."""
    if body.get("tools"):
        return None
    schema = response_schema(body)
    if schema is not None:
        return Reply(json.dumps(json_from_schema(schema)))
    blob = all_text(body)
    if "next_speaker" in blob:
        return Reply('{"reasoning": "The model finished its turn.", "next_speaker": "user"}')
    if "model_choice" in blob:
        return Reply('{"reasoning": "A simple scripted task.", "model_choice": "flash"}')
    if re.search(r"commit message", blob, re.IGNORECASE) and "SEARCH/REPLACE" not in blob:
        return Reply("chore: paw e2e change")
    if _wants_title(body, blob):
        return Reply(
            '{"title": "paw e2e session"}' if '"json_schema"' in blob else "paw e2e session"
        )
    return None


KNOWN_VALUES: dict[str, Any] = {
    "next_speaker": "user",
    "model_choice": "flash",
    "complexity_score": 10,
    "title": "paw e2e session",
}


def json_from_schema(schema: Any, key: str = "") -> Any:
    """A small JSON value satisfying ``schema`` (for structured side requests)."""
    if not isinstance(schema, dict):
        return "stub"
    if key in KNOWN_VALUES:
        return KNOWN_VALUES[key]
    if schema.get("enum"):
        return schema["enum"][0]
    kind = str(schema.get("type", "object")).lower()
    if kind == "object" or "properties" in schema:
        props = schema.get("properties") or {}
        return {k: json_from_schema(v, k) for k, v in props.items()}
    if kind == "array":
        return []
    return {"integer": 1, "number": 1, "boolean": False}.get(kind, "stub")


def response_schema(body: Json) -> Any:
    """The JSON schema a structured request asks the answer to follow, if any."""
    config = body.get("generationConfig") or {}
    for key in ("responseJsonSchema", "responseSchema"):
        if key in config:
            return config[key]
    fmt = body.get("response_format") or (body.get("text") or {}).get("format") or {}
    if isinstance(fmt, dict) and fmt.get("type") == "json_schema":
        return (fmt.get("json_schema") or {}).get("schema") or fmt.get("schema")
    return None


def _wants_title(body: Json, blob: str) -> bool:
    if body.get("tools"):
        return False
    head = json.dumps(body.get("system") or body.get("instructions") or "")
    msgs = body.get("messages") or body.get("input") or []
    if (
        isinstance(msgs, list)
        and msgs
        and isinstance(msgs[0], dict)
        and msgs[0].get("role") == "system"
    ):
        head += json.dumps(msgs[0].get("content"))
    return bool(re.search(r"\btitle\b", head, re.IGNORECASE)) or (
        '"title"' in blob and "json_schema" in blob
    )
