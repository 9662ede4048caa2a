"""Judging what the fast path read (paw/core/guard/shell/fastpath.py) as the walk judges it:
words with expansions read under the environment, split as bash splits them, each command and
pipeline stage evaluated with what ran upstream.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.guard.shell.commands import Redirect, SimpleCommand
from paw.core.guard.shell.dispatch import evaluate_simple
from paw.core.guard.shell.splitting import PRINT_WORDS, printed_secret_variable, resplit
from paw.core.guard.shell.words import GUARDED, UNKNOWN, Word, _var_value

if TYPE_CHECKING:
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.fastpath import FastCommand, FastWord


def _read_word(word: FastWord, env: dict[str, str]) -> Word:
    """A word with expansions, as ``WordReader`` reads it under ``env``."""
    pieces, quoted = word
    out: list[str] = []
    for piece in pieces:
        if isinstance(piece, str):
            out.append(piece)
            continue
        name, guard = piece
        value = _var_value(name, env)
        out.append(GUARDED if guard and value == UNKNOWN else value)
    return Word("".join(out), quoted=quoted)


def fast_command(
    ctx: Context, command: FastCommand, upstream: tuple[SimpleCommand, ...] = ()
) -> None:
    """Judge one simple command of the fast path as ``Walker._command`` does."""
    words, reds, raw = command
    # `command` is the fast path's memoised reading: it is copied, never changed (a judged
    # command's word list is: `set_command_word`)
    if not words:  # the redirection of an `&&`/`||` chain: the walk adds it to no sink
        evaluate_simple(SimpleCommand([], list(reds)), ctx)  # type: ignore[arg-type]
        return
    argv: list[Word]
    redirects: list[Redirect]
    if raw is None:  # no expansions: every word is read already
        argv = list(words)  # type: ignore[arg-type]
        redirects = list(reds)  # type: ignore[arg-type]
    else:
        env = ctx.env
        argv = [w if type(w) is Word else _read_word(w, env) for w in words]  # type: ignore[arg-type]
        redirects = [
            r if type(r) is Redirect else Redirect(r[0], _read_word(r[1], env))  # type: ignore[index]
            for r in reds
        ]
        if "$" in raw:  # as the walk: split what expanded, and `echo $TOKEN` prints a secret
            argv, _ = resplit(argv, {})
            if argv and argv[0].text in PRINT_WORDS and not ctx.piped_out:
                printed_secret_variable(raw.encode("utf-8", "surrogatepass"), ctx)
    effective = evaluate_simple(SimpleCommand(argv, redirects, None, upstream), ctx)
    for sink in ctx.sinks:  # as the walk does: a substitution or pipeline stage
        sink.append(effective)  # sees what its nested script runs


def fast_pipeline(ctx: Context, stages: list[FastCommand]) -> None:
    """The stages as ``Walker._pipeline`` judges them: each sees what the earlier ones ran
    upstream, and all but the last write into a pipe."""
    seen: list[SimpleCommand] = []
    last = len(stages) - 1
    for index, stage in enumerate(stages):
        sink: list[SimpleCommand] = []
        ctx.sinks.append(sink)
        piped = ctx.piped_out
        ctx.piped_out = index < last
        try:
            fast_command(ctx, stage, tuple(seen))
        finally:
            ctx.sinks.pop()
            ctx.piped_out = piped
        seen.extend(sink)
