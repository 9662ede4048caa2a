"""Walk every executed node of a parsed script and hand each simple command to the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.guard.shell.assignments import SUBST_RE, assign, declare
from paw.core.guard.shell.commands import HERE_STRING, Redirect, SimpleCommand
from paw.core.guard.shell.evaluation import MAX_NODES
from paw.core.guard.shell.loops import has_background, is_endless, is_self_spawning
from paw.core.guard.shell.rules.stdin import literal_output
from paw.core.guard.shell.rules.terminals import terminal_output
from paw.core.guard.shell.splitting import (
    IFS_CHANGED,
    PRINT_WORDS,
    VAR_REF_RE,
    ifs_command_word,
    printed_secret_variable,
    resplit,
)
from paw.core.guard.shell.words import (
    SUBST,
    UNKNOWN,
    Word,
    WordReader,
    expand_braces,
    has_unknown,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node

    from paw.core.guard.shell.evaluation import Context


MAX_NESTING = 150
MAX_LOOP_UNROLL = 8

_REDIRECT_TYPES = frozenset({"file_redirect", "herestring_redirect", "heredoc_redirect"})
_SKIP = frozenset({"comment", "|", "&&", "||", ";", "&", ";;", "\n"})
_WRITE_OPS = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})


class Walker:
    """Recursive walk over a tree-sitter-bash tree; one instance per parsed script."""

    __slots__ = ("ctx", "evaluate", "here_subs", "level")

    def __init__(
        self, ctx: Context, evaluate: Callable[[SimpleCommand, Context], SimpleCommand]
    ) -> None:
        self.ctx = ctx
        self.evaluate = evaluate
        self.level = 0
        self.here_subs: list[SimpleCommand] = []  # substitutions of the last here-string

    def walk(self, node: Node) -> None:
        """Visit ``node`` and everything under it that bash would execute."""
        ctx = self.ctx
        ctx.nodes += 1
        if ctx.nodes > MAX_NODES or self.level > MAX_NESTING:
            if ctx.nodes == MAX_NODES + 1 or self.level == MAX_NESTING + 1:
                ctx.confirm("shell.limit", "the command is too large or too deeply nested to check")
            return
        kind = node.type
        handler = _HANDLERS.get(kind)
        self.level += 1
        if handler is not None:
            handler(self, node)
        elif kind not in _SKIP:
            for child in node.children:
                if child.is_named:
                    self.walk(child)
        self.level -= 1

    # -- handlers -------------------------------------------------------------------------------

    def _command(
        self,
        node: Node,
        upstream: tuple[SimpleCommand, ...] = (),
        redirects: list[Redirect] | None = None,
        stdin_text: str | None = None,
        extra: list[Node] | None = None,
    ) -> SimpleCommand:
        reader = WordReader(self.ctx.env)
        argv: list[Word] = []
        subs: dict[int, list[SimpleCommand]] = {}
        reds = list(redirects or ())
        prefix: list[Node] = []
        trailing: list[Node] = list(extra or ())
        here: list[SimpleCommand] = []
        for child in node.children:
            kind = child.type
            if kind == "variable_assignment":
                prefix.append(child)
            elif kind in _REDIRECT_TYPES:
                stdin_text = self._redirect(child, reader, reds, stdin_text, trailing)
                if kind == "herestring_redirect":
                    here, self.here_subs = self.here_subs, []
            elif kind in _STATEMENT_ARGS:
                self.walk(child)  # `time (cmd)`: a statement where a word was expected runs
            elif child.is_named and kind != "comment":
                self._argument(child, reader, argv, subs)
        for child in trailing:
            self._argument(child, reader, argv, subs)
        for assignment in prefix:
            assign(self, assignment, scoped=True)
        raw = node.text or b""
        if b"$" in raw:
            argv, subs = self._expanded(node, raw, argv, subs)
        if here:  # `bash <<< "$(… | base64 -d)"`: what the here-string's substitutions ran
            subs = {**subs, HERE_STRING: here}
        cmd = SimpleCommand(argv, reds, stdin_text, upstream, subs)
        effective = self.evaluate(cmd, self.ctx)
        for sink in self.ctx.sinks:
            sink.append(effective)
        return effective

    def _argument(
        self,
        node: Node,
        reader: WordReader,
        argv: list[Word],
        subs: dict[int, list[SimpleCommand]],
    ) -> None:
        kind = node.type
        if kind == "command_name" and node.child_count == 1:
            node = node.children[0]
            kind = node.type
        raw = node.text or b""
        if kind == "word":
            text = raw.decode("utf-8", "replace")
            if "\\" not in text and "{" not in text:
                argv.append(Word(text))
                return
        elif kind == "raw_string" or (
            kind == "string" and b"$" not in raw and b"`" not in raw and b"\\" not in raw
        ):
            argv.append(Word(raw[1:-1].decode("utf-8", "replace"), quoted=True))
            return
        elif SUBST_RE.search(raw):
            subs[len(argv)] = self.collect(node)
        if self.ctx.var_subs and b"$" in raw:
            carried = self.carried(raw)
            if carried:
                subs.setdefault(len(argv), []).extend(carried)
        word = reader.read(node)
        inner = subs.get(len(argv))
        if (
            word.text == SUBST
            and inner is not None
            and len(inner) == 1
            and kind != "process_substitution"
        ):
            # `$(echo sudo)` prints a known word; `<(echo …)` is a file name, its content is not
            printed = literal_output(inner[0])
            if printed is None:
                printed = terminal_output(inner[0])  # `tee $(tty)`: the terminal
            if printed is not None:
                word = Word(printed.rstrip("\n"), quoted=True)
        if word.braces and argv:
            argv.extend(Word(t, word.quoted) for t in expand_braces(word.text))
        else:
            argv.append(word)

    def carried(self, raw: bytes) -> list[SimpleCommand]:
        """The substitutions carried by the variables a word expands (``x=$(env)`` … ``"$x"``):
        the word carries them as if written in place, pipeline stages after it included."""
        carried: list[SimpleCommand] = []
        for name in VAR_REF_RE.findall(raw):
            carried.extend(self.ctx.var_subs.get(name.decode("ascii"), ()))
        for sink in self.ctx.sinks:
            sink.extend(carried)
        return carried

    def collect(self, node: Node) -> list[SimpleCommand]:
        """Walk ``node`` and return the simple commands it runs."""
        sink: list[SimpleCommand] = []
        self.ctx.sinks.append(sink)
        piped = self.ctx.piped_out
        self.ctx.piped_out = True  # a substitution's output becomes a word, not the agent's view
        try:
            self.walk(node)
        finally:
            self.ctx.sinks.pop()
            self.ctx.piped_out = piped
        return sink

    def _expanded(
        self, node: Node, raw: bytes, argv: list[Word], subs: dict[int, list[SimpleCommand]]
    ) -> tuple[list[Word], dict[int, list[SimpleCommand]]]:
        """A command with expansions: split its words as bash does and judge what that hides."""
        if IFS_CHANGED in self.ctx.env:
            ifs_command_word(node, self.ctx)
        argv, subs = resplit(argv, subs)
        if argv and argv[0].text in PRINT_WORDS and not self.ctx.piped_out:
            printed_secret_variable(raw, self.ctx)
        return argv, subs

    def _redirect(
        self,
        node: Node,
        reader: WordReader,
        reds: list[Redirect],
        stdin_text: str | None,
        extra: list[Node],
    ) -> str | None:
        kind = node.type
        if kind == "herestring_redirect":
            for child in node.named_children:
                self.here_subs = self.subst_in(child)
                return reader.read(child).text
            return stdin_text
        if kind == "heredoc_redirect":
            for child in node.named_children:
                if child.type in _REDIRECT_TYPES:  # `cat <<EOF > file`: the write sits inside
                    self._redirect(child, reader, reds, None, extra)
            return self._heredoc(node, stdin_text)
        op = ""
        seen_target = False
        for child in node.children:
            if not child.is_named:
                op = child.type
            elif seen_target:
                extra.append(child)  # words after the target belong to the command
            elif child.type != "file_descriptor":
                seen_target = True
                inner = self.subst_in(child)
                target = reader.read(child)
                if target.text == SUBST and len(inner) == 1:  # `> $(tty)`: the terminal
                    named = terminal_output(inner[0])
                    target = target if named is None else Word(named)
                if (op in _WRITE_OPS and not (op == ">&" and target.text.isdigit())) or op == "<":
                    reds.append(Redirect(op, target))
        return stdin_text

    def _heredoc(self, node: Node, stdin_text: str | None) -> str | None:
        quoted = False
        for child in node.children:
            kind = child.type
            if kind == "heredoc_start":
                quoted = any(q in (child.text or b"") for q in (b"'", b'"', b"\\"))
            elif kind == "heredoc_body":
                body = (child.text or b"").decode("utf-8", "replace")
                if not quoted:
                    for part in child.named_children:
                        self.walk(part)
                stdin_text = body
        return stdin_text

    def subst_in(self, node: Node) -> list[SimpleCommand]:
        """Walk the substitutions in ``node``; the simple commands they ran."""
        if not SUBST_RE.search(node.text or b""):
            return []
        sink: list[SimpleCommand] = []
        self.ctx.sinks.append(sink)
        try:
            self.walk(node)
        finally:
            self.ctx.sinks.pop()
        return sink

    def _redirected(self, node: Node, upstream: tuple[SimpleCommand, ...] = ()) -> None:
        body = node.child_by_field_name("body")
        reader = WordReader(self.ctx.env)
        reds: list[Redirect] = []
        stdin_text: str | None = None
        tails: list[Node] = []
        extra: list[Node] = []
        for child in node.children:
            if child.type in _REDIRECT_TYPES:
                stdin_text = self._redirect(child, reader, reds, stdin_text, extra)
                if child.type == "heredoc_redirect":
                    tails.extend(c for c in child.named_children if c.type not in _HEREDOC_PARTS)
        if body is None:
            if reds:
                self.evaluate(SimpleCommand([], reds, stdin_text), self.ctx)
            return
        if body.type == "command":
            cmd = self._command(body, upstream, reds, stdin_text, extra)
            self._tails(tails, cmd)
        elif body.type == "pipeline":
            self._pipeline(body, reds)
            self._tails(tails, None)
        else:
            self.walk(body)
            if reds or stdin_text is not None:
                self.evaluate(SimpleCommand([], reds, stdin_text), self.ctx)
            self._tails(tails, None)

    def _tails(self, tails: list[Node], head: SimpleCommand | None) -> None:
        for tail in tails:
            if tail.type == "pipeline" and head is not None:
                self._pipeline(tail, None, (head,))
            else:
                self.walk(tail)

    def _pipeline(
        self,
        node: Node,
        last_redirects: list[Redirect] | None = None,
        upstream: tuple[SimpleCommand, ...] = (),
    ) -> None:
        stages = [c for c in node.children if c.is_named and c.type != "comment"]
        seen: list[SimpleCommand] = list(upstream)
        for index, stage in enumerate(stages):
            reds = last_redirects if index == len(stages) - 1 else None
            sink: list[SimpleCommand] = []
            self.ctx.sinks.append(sink)
            piped = self.ctx.piped_out
            self.ctx.piped_out = index < len(stages) - 1
            try:
                if stage.type == "command":
                    self._command(stage, tuple(seen), reds)
                elif stage.type == "redirected_statement":
                    self._redirected(stage, tuple(seen))
                elif stage.type == "pipeline":
                    self._pipeline(stage, reds, tuple(seen))
                else:
                    self.walk(stage)
            finally:
                self.ctx.sinks.pop()
                self.ctx.piped_out = piped
            seen.extend(sink)

    def _function(self, node: Node) -> None:
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        name = (name_node.text or b"").decode("utf-8", "replace") if name_node else ""
        self.ctx.functions.add(name)
        if body is None:
            return
        self.walk(body)
        if is_self_spawning(body, name):
            self.ctx.block("shell.fork-bomb", f"function `{name}` calls itself in the background")

    def _loop(self, node: Node) -> None:
        """An endless loop that puts commands in the background spawns without bound."""
        for child in node.children:
            if child.is_named:
                self.walk(child)
        body = node.child_by_field_name("body")
        if body is None or not is_endless(node):
            return
        if has_background(body):
            self.ctx.block("shell.fork-bomb", "an endless loop starts background processes")

    def _for(self, node: Node) -> None:
        var_node = node.child_by_field_name("variable")
        body = node.child_by_field_name("body")
        values = list(node.children_by_field_name("value"))
        for value in values:
            self.subst_in(value)
        name = (var_node.text or b"").decode() if var_node else ""
        reader = WordReader(self.ctx.env)
        words = [w for v in values for w in expand_braces(reader.read(v).text)]
        if body is None:
            return
        if values and len(words) <= MAX_LOOP_UNROLL and not any(has_unknown(w) for w in words):
            for word in words:
                self.ctx.env[name] = word
                self.walk(body)
        else:
            self.ctx.env[name] = UNKNOWN
            self.walk(body)

    def _error(self, node: Node) -> None:
        for child in node.children:
            self.walk(child)


_STATEMENT_ARGS = frozenset(
    {
        "subshell",
        "compound_statement",
        "pipeline",
        "list",
        "redirected_statement",
        "command",
        "if_statement",
        "for_statement",
        "while_statement",
        "case_statement",
        "function_definition",
    }
)
_HEREDOC_PARTS = frozenset({"heredoc_start", "heredoc_body", "heredoc_end"}) | _REDIRECT_TYPES

_HANDLERS: dict[str, Callable[[Walker, Node], object]] = {
    "command": Walker._command,
    "redirected_statement": Walker._redirected,
    "pipeline": Walker._pipeline,
    "variable_assignment": assign,
    "declaration_command": declare,
    "function_definition": Walker._function,
    "for_statement": Walker._for,
    "while_statement": Walker._loop,
    "until_statement": Walker._loop,
    "c_style_for_statement": Walker._loop,
    "ERROR": Walker._error,
    "comment": lambda w, n: None,
}
