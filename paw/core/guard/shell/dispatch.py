"""Per simple command: resolve the command word, unwrap wrappers, run the rules for its name."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from paw.core.guard.shell.commands import (
    PRIVILEGE_WRAPPERS,
    WRAPPER_NAMES,
    SimpleCommand,
    Unwrapped,
    unwrap,
)
from paw.core.guard.shell.rules import (
    agents,
    containers,
    escapes,
    forge,
    git,
    infra,
    interp,
    known,
    launch,
    net,
    payload,
    perms,
    posture,
    rm,
    scripted,
    secrets,
    system,
    tamper,
    terminals,
    tools,
    verbs,
    worktrees,
    writers,
)
from paw.core.guard.shell.rules.net import is_download
from paw.core.guard.shell.words import (
    GUARDED,
    SUBST,
    UNKNOWN,
    Word,
    fold_confusables,
    has_unknown,
)

if TYPE_CHECKING:
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

MAX_UNWRAP = 8


def _build_table() -> dict[str, tuple[Check, ...]]:
    table: dict[str, tuple[Check, ...]] = {}
    for module in (
        rm,
        writers,
        perms,
        agents,
        git,
        forge,
        net,
        interp,
        launch,
        payload,
        system,
        containers,
        escapes,
        infra,
        scripted,
        tamper,
        terminals,
        tools,
        posture,
    ):
        for name, checks in module.RULES.items():
            table[name] = table.get(name, ()) + checks
    return table


_TABLE = _build_table()
# Run on every command, in this order; redirections are checked only where there are some (the
# common case has none).
(_agent_flags,) = agents.GLOBAL
(_secret_readers,) = secrets.GLOBAL
_LOOKUP = frozenset({"which", "command", "type", "whereis"})


@lru_cache(maxsize=1024)
def _checks_for(name: str) -> tuple[Check, ...]:
    """The rules for a name the table does not hold as written, memoised by name."""
    found = _TABLE.get(name)
    if found is not None:
        return found
    low = name.lower()
    if low != name and low in _TABLE:
        return _TABLE[low]
    return _pattern_checks(low)


@lru_cache(maxsize=1024)
def _pattern_checks(low: str) -> tuple[Check, ...]:
    """Rules for names matched by pattern (``python3.12``, ``mkfs.ext4``), memoised by name."""
    return interp.python_check(low) or system.disk_check(low) or ()


def clear_name_cache() -> None:
    """Forget the memoised pattern rules per command name."""
    _pattern_checks.cache_clear()
    _checks_for.cache_clear()


def _resolve_dynamic(cmd: SimpleCommand) -> str | None:
    """``$(which sudo)`` and friends name a program statically."""
    subs = cmd.subs.get(0, [])
    if len(subs) != 1 or cmd.argv[0].text != SUBST:
        return None
    names = [a for a in subs[0].args if not a.startswith("-")]
    if not names or any(has_unknown(n) for n in names):
        return None
    if subs[0].name in _LOOKUP and len(names) == 1:
        return names[0]
    if subs[0].name in {"echo", "printf"}:
        words = " ".join(names).split()
        return words[0] if len(words) == 1 else None
    return None


_INFO_FLAGS = frozenset({"-V", "--version", "-h", "--help", "-l", "--list", "-k", "-K"})


def _is_info_only(cmd: SimpleCommand) -> bool:
    """``sudo --version``, ``sudo -l``: nothing runs with privileges."""
    return bool(cmd.args) and all(a in _INFO_FLAGS for a in cmd.args)


_LEAD_KEYWORDS = frozenset({"do", "then", "else", "elif", "if", "while", "until", "!", "{"})
_END_KEYWORDS = frozenset({"done", "fi", "esac", "}", "in", ";;"})
_KEYWORDS = _LEAD_KEYWORDS | _END_KEYWORDS


def _strip_keyword(cmd: SimpleCommand, ctx: Context) -> SimpleCommand:
    """A reserved word where a command should be: bash would not run this line as parsed."""
    first = cmd.argv[0]
    if first.quoted or first.text not in _KEYWORDS:
        return cmd
    ctx.confirm("shell.parse-error", f"`{first.text}` is a reserved word used as a command")
    if first.text in _END_KEYWORDS or len(cmd.argv) == 1:
        return SimpleCommand([], cmd.redirects, cmd.stdin_text, cmd.upstream)
    return cmd.with_argv(cmd.argv[1:], first.text)  # judge what follows the keyword


def _pattern_text(cmd: SimpleCommand) -> str:
    """What a user pattern is matched on: the command's words, not the data it carries. A
    program whose operands are data (``echo``, ``grep``) shows its name and options only; any
    other drops quoted arguments with blanks (a message, a pattern): ``grep -r sudo .`` and
    ``echo "rm -rf /"`` do not match ``\\bsudo\\b`` or ``rm\\s+-rf`` (a shell string they carry,
    ``bash -c '…'``, is judged as commands of its own)."""
    if cmd.name in known.PRINTERS:
        words = [cmd.argv[0], *(w for w in cmd.argv[1:] if w.text.startswith("-") and not w.quoted)]
    else:
        words = [w for w in cmd.argv if not (w.quoted and " " in w.text)]
    return cmd.render() if len(words) == len(cmd.argv) else SimpleCommand(words).render()


def _check_patterns(cmd: SimpleCommand, ctx: Context) -> None:
    if not ctx.patterns:
        return
    text = _pattern_text(cmd)
    for pattern in ctx.patterns:
        if pattern.search(text):
            ctx.block(
                "shell.user-pattern", f"`{text}` matches the blocked pattern `{pattern.pattern}`"
            )
            return


def _command_word(cmd: SimpleCommand, ctx: Context) -> bool:
    """Resolve and vet the command word in place; False when nothing more can be judged."""
    first = cmd.argv[0]
    text = first.text
    if UNKNOWN in text or GUARDED in text or SUBST in text:  # `Word.is_static`, inlined
        resolved = _resolve_dynamic(cmd)
        if resolved is None:
            ctx.confirm(
                "shell.unresolved", f"the command word of `{cmd.render()}` is computed at run time"
            )
            _judge_unresolved(cmd, ctx)
            return False
        cmd.set_command_word(Word(resolved))
    text = cmd.argv[0].text
    if not text.isascii():
        folded = fold_confusables(text)
        if folded != text:
            ctx.block("shell.lookalike-command", f"the command word `{text}` imitates `{folded}`")
            cmd.set_command_word(Word(folded))
    if ctx.downloads and is_download(text, ctx):
        ctx.block("shell.download-exec", f"`{text}` runs a file that was just downloaded")
    elif "/" in text and text.removeprefix("./") in ctx.scripts:
        ctx.run_script(ctx.scripts[text.removeprefix("./")], text)
    return True


def evaluate_simple(cmd: SimpleCommand, ctx: Context) -> SimpleCommand:  # noqa: C901 - hot path
    """Judge one simple command (and whatever it wraps) into ``ctx.findings``.

    Returns the command that actually runs once wrappers are peeled (``nohup curl …`` is
    ``curl …``), which is what later pipeline stages see upstream.
    """
    if not cmd.argv:
        writers.check_redirects(cmd, ctx)
        return cmd
    first = cmd.argv[0]
    if not first.quoted and first.text in _KEYWORDS:
        cmd = _strip_keyword(cmd, ctx)
        if not cmd.argv:
            writers.check_redirects(cmd, ctx)
            return cmd
        first = cmd.argv[0]
    text = first.text
    # `_command_word` has nothing to do for a plain ASCII word with no `/` (the common case)
    if (
        (UNKNOWN in text or GUARDED in text or SUBST in text or "/" in text or ctx.downloads)
        or not text.isascii()
    ) and not _command_word(cmd, ctx):
        writers.check_redirects(cmd, ctx)
        return cmd
    if ctx.patterns or cmd.name in WRAPPER_NAMES:  # else `_unwrap_all` has nothing to do
        cmd, judged = _unwrap_all(cmd, ctx)
        if judged:
            return cmd
    name = cmd.name
    if name in ctx.aliases:
        ctx.run_script(ctx.aliases[name] + " " + " ".join(cmd.args), f"alias {name}")
    if name in verbs.GLOBAL_OPTIONS:  # `kubectl -n prod delete …`: the verb first
        cmd = verbs.verb_first(cmd)
    if ctx.others:  # before `cd` moves the prefix: `cd ../bob` is judged from here
        worktrees.check_operands(cmd, ctx)
    checks = _TABLE.get(name)
    if checks is None:
        checks = _checks_for(name)
    before = len(ctx.findings)
    for check in checks:
        check(cmd, ctx)
    posture.check(cmd, ctx, bool(checks), len(ctx.findings) > before)
    if cmd.redirects:
        writers.check_redirects(cmd, ctx)
    if cmd.args:  # the agent-flag check reads arguments only
        _agent_flags(cmd, ctx)
    _secret_readers(cmd, ctx)
    return cmd


def _unwrap_all(cmd: SimpleCommand, ctx: Context) -> tuple[SimpleCommand, bool]:
    """Peel wrappers (``nohup``, ``env``, ``sudo`` …) off ``cmd``; True when nothing is left
    to judge (no inner command, or an inner command word that cannot be resolved)."""
    for _ in range(MAX_UNWRAP):
        if ctx.patterns:
            _check_patterns(cmd, ctx)
        if cmd.name not in WRAPPER_NAMES:
            break  # the common case: no wrapper to peel
        unwrapped = unwrap(cmd.argv)
        if unwrapped is None:
            break
        _peel(cmd, unwrapped, ctx)
        if not unwrapped.argv:
            writers.check_redirects(cmd, ctx)
            return cmd, True
        cmd = cmd.with_argv(unwrapped.argv, unwrapped.wrapper)
        if not _command_word(cmd, ctx):
            return cmd, True
    return cmd, False


def _peel(cmd: SimpleCommand, unwrapped: Unwrapped, ctx: Context) -> None:
    """What a wrapper itself does: escalate, set variables, run a script string."""
    if unwrapped.wrapper in PRIVILEGE_WRAPPERS and not _is_info_only(cmd):
        inner = " ".join(w.text for w in unwrapped.argv) or (unwrapped.script or "")
        perms.check_privilege(unwrapped.wrapper, inner, ctx)
    if unwrapped.wrapper == "env":
        _env_assignments(cmd, len(cmd.argv) - len(unwrapped.argv), ctx)
        if not unwrapped.argv and unwrapped.script is None and not ctx.piped_out:
            ctx.block("shell.secret-read", "`env` dumps the environment (tokens, keys)")
    if unwrapped.wrapper == "script":  # `script FILE` writes the session's typescript there
        terminals.check_script(cmd, ctx)
    if unwrapped.script is not None:
        ctx.run_script(unwrapped.script, unwrapped.wrapper)


def _judge_unresolved(cmd: SimpleCommand, ctx: Context) -> None:
    """A computed command word: what follows it is still judged (``$SUDO rm -rf /``,
    ``$SHELL -c '…'``), so hiding the program never lowers the verdict of its arguments."""
    args = cmd.argv[1:]
    texts = [w.text for w in args]
    if "-c" in texts[:-1]:
        ctx.run_script(texts[texts.index("-c") + 1], "computed command -c")
    elif args and args[0].is_static and not args[0].text.startswith("-"):
        ctx.run_command(cmd.with_argv(list(args), "computed command"))


def _env_assignments(cmd: SimpleCommand, end: int, ctx: Context) -> None:
    """``env NAME=value cmd``: the assignments are judged as prefix assignments are."""
    for word in cmd.argv[1:end]:
        name, eq, value = word.text.partition("=")
        if eq and name.isidentifier():
            agents.check_assignment(name, value, ctx)


def _check_alias(cmd: SimpleCommand, ctx: Context) -> None:
    for arg in cmd.args:
        name, eq, value = arg.partition("=")
        if eq:
            ctx.aliases[name] = value
            ctx.run_script(value, f"alias {name}")


_TABLE["alias"] = (_check_alias,)
