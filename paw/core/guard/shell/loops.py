"""Shapes of loops and functions the walk judges: endless loops, backgrounding inside them,
functions that spawn themselves (fork bombs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node


def _named_words(node: Node) -> list[str]:
    return [(c.text or b"").decode("utf-8", "replace") for c in node.named_children]


def is_endless(node: Node) -> bool:
    if node.type == "c_style_for_statement":
        return node.child_by_field_name("condition") is None
    cond = node.child_by_field_name("condition")
    if cond is None:
        return False
    text = (cond.text or b"").decode("utf-8", "replace").strip().rstrip(";").strip()
    if node.type == "until_statement" or (node.children and node.children[0].type == "until"):
        return text in {"false", "! true", "! :"}
    return text in {"true", ":", "[ 1 ]", "((1))", "(( 1 ))", "[[ 1 ]]", "/bin/true"}


def has_background(node: Node) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "&":
            return True
        if current.type in {"command_substitution", "function_definition", "string", "raw_string"}:
            continue
        stack.extend(current.children)
    return False


def _self_calls(node: Node, name: str) -> list[Node]:
    found: list[Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "command":
            head = current.child_by_field_name("name")
            if head is not None and (head.text or b"").decode("utf-8", "replace") == name:
                found.append(current)
        stack.extend(current.children)
    return found


def is_self_spawning(body: Node, name: str) -> bool:
    """A self-call that is backgrounded or piped into another self-call (``:|:&``); ordinary
    recursion (``$(fib $((n-1))) + $(fib $((n-2)))``) is not."""
    calls = _self_calls(body, name)
    for call in calls:
        node: Node | None = call
        while node is not None and node != body:
            sibling = node.next_sibling
            if sibling is not None and sibling.type == "&":
                return True
            if node.type == "pipeline" and sum(1 for c in calls if _inside(c, node)) >= 2:
                return True
            node = node.parent
    return False


def _inside(node: Node, ancestor: Node) -> bool:
    return ancestor.start_byte <= node.start_byte and node.end_byte <= ancestor.end_byte
