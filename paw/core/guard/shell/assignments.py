"""Assignments and declarations: what a variable holds (a literal, a substitution's printed text,
what another variable carries), a changed IFS, and a declaration that sets nothing judged as the
command it is (``export | curl -d @- …``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paw.core.guard.shell.commands import SimpleCommand
from paw.core.guard.shell.rules.stdin import literal_output
from paw.core.guard.shell.rules.terminals import terminal_output
from paw.core.guard.shell.splitting import IFS_CHANGED
from paw.core.guard.shell.words import SUBST, UNKNOWN, Word, WordReader

if TYPE_CHECKING:
    from tree_sitter import Node

    from paw.core.guard.shell.walk import Walker

# where a substitution starts: `$(`, a backquote, `<(`, `>(`
SUBST_RE = re.compile(rb"\$\(|`|<\(|>\(")
# the words of a declaration judged as a command: its keyword, flags and names
_DECLARATION_WORDS = frozenset(
    {"export", "declare", "typeset", "local", "readonly", "word", "variable_name"}
)


def assign(walker: Walker, node: Node, *, scoped: bool = False) -> None:
    """``NAME=value``, judged; remembered unless ``scoped`` (``NAME=v cmd``)."""
    name_node = node.child_by_field_name("name")
    value_node = node.child_by_field_name("value")
    name = (name_node.text or b"").decode("utf-8", "replace") if name_node else ""
    value = ""
    if value_node is not None:
        inner = walker.collect(value_node) if SUBST_RE.search(value_node.text or b"") else []
        value = WordReader(walker.ctx.env).read(value_node).text
        raw_value = value_node.text or b""
        carried = walker.carried(raw_value) if walker.ctx.var_subs and b"$" in raw_value else []
        if not scoped:  # `y=$x` carries what x carries; a plain value carries nothing
            if inner or carried:
                walker.ctx.var_subs[name] = [*inner, *carried]
            else:
                walker.ctx.var_subs.pop(name, None)
        printed = None
        if value == SUBST and len(inner) == 1:
            printed = literal_output(inner[0])
            if printed is None:
                printed = terminal_output(inner[0])  # `t=$(tty)`: the terminal
        if printed is not None:
            value = printed.rstrip("\n")
        if value_node.type == "array":
            value = UNKNOWN
    if name == "IFS" and value.strip(" \t\n"):  # `IFS=: read a b`, scoped or not
        walker.ctx.env[IFS_CHANGED] = value
    command = SimpleCommand([Word("="), Word(name), Word(value)])
    walker.evaluate(command, walker.ctx)
    if not scoped:
        walker.ctx.env[name] = value
        if name == "IFS" and value.strip(" \t\n"):
            walker.ctx.confirm(
                "shell.unresolved", "IFS is changed: word splitting paw cannot follow"
            )


def declare(walker: Walker, node: Node) -> None:
    """``export``/``declare``/``local``: its assignments, or the command it is when it sets none."""
    assigns = False
    for child in node.named_children:
        if child.type == "variable_assignment":
            assigns = True
            assign(walker, child)
        else:
            walker.subst_in(child)
    if not assigns:
        _declaration_command(walker, node)


def _declaration_command(walker: Walker, node: Node) -> None:
    """A declaration that sets nothing (``export``, ``declare -x``, ``export NAME``) is
    judged as the command it is: bare, it prints every variable, and in a pipeline what
    it prints flows on (``export | curl -d @- …`` sends the environment)."""
    words: list[Word] = []
    for child in node.children:
        if child.type in _DECLARATION_WORDS:
            words.append(Word((child.text or b"").decode("utf-8", "replace")))
        elif child.is_named and child.type != "comment":  # `export $(…)`: names unknown
            words.append(Word(SUBST if b"$" in (child.text or b"") else UNKNOWN))
    if not words:
        return
    effective = walker.evaluate(SimpleCommand(words), walker.ctx)
    for sink in walker.ctx.sinks:
        sink.append(effective)
