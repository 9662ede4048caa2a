"""Terminals: a write to a terminal device, or typing into another terminal.

paw reads an agent's prompt from its screen. Any process that can write to that terminal can
repaint it (``printf '\\e7\\e[20;1Hls -la' > /dev/pts/3`` makes a blocked prompt's subject read
``ls -la``), and any process that can open it can type into it (``TIOCSTI``). So an agent's
command that opens a terminal device, types into a terminal (``ttyecho``, ``writevt``, terminal
multiplexers' "send text"), or answers prompts through paw is blocked (``shell.terminal-write``,
``shell.terminal-inject``, ``shell.supervisor``). A path computed at run time that could name a
terminal is ``confirm``; one whose literal start already is a terminal is block.
"""

from __future__ import annotations

import fnmatch
import re
from typing import TYPE_CHECKING

from paw.core.guard.shell.rules.argv import split_args
from paw.core.guard.shell.rules.targets import _normalise as normalise
from paw.core.guard.shell.rules.targets import in_cwd
from paw.core.guard.shell.words import GUARDED, SENTINELS, SUBST, UNKNOWN
from paw.core.models import Action

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

WRITE = "shell.terminal-write"
INJECT = "shell.terminal-inject"
SUPERVISOR = "shell.supervisor"

# Terminal devices: pseudo-terminals (`/dev/pts/N`, macOS `/dev/ttys003`, BSD `/dev/ttyp0` and
# their `/dev/pty*` masters), the controlling terminal `/dev/tty`, virtual consoles (`/dev/ttyN`,
# `/dev/console`) and their screen memory (`/dev/vcs*`). USB and on-board serial adapters
# (`/dev/ttyUSB0`, `/dev/ttyACM0`, `/dev/ttyAMA0`, macOS `/dev/tty.usbserial…`) are hardware a
# developer talks to, not a terminal anybody reads; `/dev/ptmx` opens a new terminal of one's own.
_NOT_A_TERMINAL = r"(?!USB|ACM|AMA|\.)"
_TERMINAL_RE = re.compile(
    rf"^/dev/(?:pts(?:/(?!ptmx$)[^/]+)?|tty{_NOT_A_TERMINAL}[^/]*|console|vcs[^/]*|pty[^/]*)$"
)
# The literal start of a computed path that already decides it is a terminal (`/dev/pts/$N`).
_TERMINAL_PREFIX_RE = re.compile(rf"^/dev/(?:pts/|tty{_NOT_A_TERMINAL}|console|vcs|pty)")
# Another process's open files (`/proc/1234/fd/1` is that process's stdout: an agent's terminal).
_PROC_FD_RE = re.compile(r"^/proc/(?!self/|thread-self/)[^/]+/fd(?:/|$)")
_GLOB = frozenset("*?[")
# Candidate names for a glob in the device part (`/dev/tt?5`, `/d?v/pts/3`): each base with the
# glob's own trailing literal text, so `tt?5` is tried as `tty5`.
_BASES = ("pts/0", "tty", "ttyS", "ttys", "ttyp", "ttyv", "console", "vcs", "vcsa", "vcsu", "pty")
_TAIL_RE = re.compile(r"/(?:pts/[^/]*|tty[^/]*|console|vcs[^/]*)$")


def terminal_danger(path: str) -> tuple[Action, str] | None:
    """(action, what) when ``path`` names, or may name, a terminal device; None otherwise.

    ``path`` is absolute (already joined to a known working directory); it may hold glob
    characters and the guard's sentinels for values paw cannot see.
    """
    if "/." in path or "//" in path:
        path = normalise(path)
    # (the sentinels and glob characters spelled out: a generator per path costs more)
    computed = UNKNOWN in path or GUARDED in path or SUBST in path
    globbed = "*" in path or "?" in path or "[" in path
    if not computed and not globbed:
        if _TERMINAL_RE.match(path):
            return Action.BLOCK, f"the terminal device `{path}`"
        if _PROC_FD_RE.match(path):
            return Action.BLOCK, f"another process's open file `{path}` (its terminal, say)"
        return None
    shown = _shown(path)
    cut = min((i for i, c in enumerate(path) if c in _GLOB or c in SENTINELS), default=len(path))
    literal = path[:cut]
    if _TERMINAL_PREFIX_RE.match(literal) or _PROC_FD_RE.match(literal):
        return Action.BLOCK, f"`{shown}`, a terminal device whatever the rest is"
    if not computed and _glob_names_terminal(path):
        return Action.BLOCK, f"`{shown}`, a pattern that matches a terminal device"
    tail = path[max(path.rfind(s) for s in SENTINELS) + 1 :]
    if computed and (
        (len(literal) >= 2 and ("/dev/".startswith(literal) or literal.startswith("/dev/")))
        or _TAIL_RE.search(tail)
    ):
        return Action.CONFIRM, f"`{shown}`, which may name a terminal device"
    return None


def _shown(path: str) -> str:
    return path.replace(UNKNOWN, "$VAR").replace(GUARDED, "$VAR").replace(SUBST, "$(…)")


def _glob_names_terminal(pattern: str) -> bool:
    """A glob (no unknown values) that matches some terminal device path."""
    segments = pattern.strip("/").split("/")
    if not segments or not fnmatch.fnmatchcase("dev", segments[0]) or len(segments) < 2:
        return False
    rest = "/".join(segments[1:])
    last = rest.rstrip("/").rsplit("/", 1)[-1]
    digits = re.sub(r".*[*?\]]", "", last)  # the literal end of the last segment (`tt?5`: 5)
    for base in _BASES:
        for name in {base, base + digits, base.rsplit("/", 1)[0] + "/" + (digits or "0")}:
            if fnmatch.fnmatchcase(name, rest) and _TERMINAL_RE.match("/dev/" + name):
                return True
    return False


def check_terminal_target(path: str, ctx: Context, verb: str, *, opens: str = "writes") -> bool:
    """Block (or confirm) ``verb`` opening a terminal device; True when ``path`` was one."""
    if not path:
        return False
    head = path[0]
    if head != "/":
        if head in SENTINELS:
            danger = terminal_danger(path)
        elif ctx.cwd_prefix and "/" in (joined := in_cwd(path, ctx))[:1]:
            danger = terminal_danger(joined)
        else:
            return False
    elif path.startswith(("/dev/fd/", "/dev/std")) or path in {"/dev/null", "/dev/zero"}:
        return False  # the process's own descriptors
    else:
        danger = terminal_danger(path)
    if danger is None:
        return False
    action, what = danger
    reason = (
        f"`{verb}` {opens} {what}: whatever can write to a terminal can repaint the screen "
        "paw reads, and whatever can open one can type into it"
    )
    if action is Action.BLOCK:
        ctx.block(WRITE, reason)
    else:
        ctx.confirm(WRITE, reason)
    return True


def names_terminal(text: str) -> bool:
    """A string literal in interpreter code that opens, or starts the name of, a terminal
    device (``'/dev/pts/3'``, ``">/dev/tty"``, ``'/dev/pts/' + n``, ``f"/dev/tty{n}"``)."""
    text = text.lstrip("+<>|&= \t")
    if not text.startswith(("/dev/", "/proc/")):
        return False
    if _TERMINAL_PREFIX_RE.match(text) or _PROC_FD_RE.match(text):
        return True
    danger = terminal_danger(text)
    return danger is not None and danger[0] is Action.BLOCK


def terminal_output(cmd: SimpleCommand) -> str | None:
    """What a substitution prints when it names the terminal: ``$(tty)`` is ``/dev/pts/N``."""
    if cmd.name == "tty" and not any(a in {"-s", "--silent", "--quiet"} for a in cmd.args):
        return "/dev/pts/" + UNKNOWN
    return None


# -- programs ------------------------------------------------------------------------------------


def _inject(cmd: SimpleCommand, ctx: Context, what: str) -> None:
    ctx.block(INJECT, f"`{cmd.name}` {what}: it can answer a prompt paw shows a human")


def _check_injector(cmd: SimpleCommand, ctx: Context) -> None:
    """Programs whose job is typing into or writing on a terminal."""
    if any(a in {"-h", "--help", "-V", "--version"} for a in cmd.args) or not cmd.args:
        return
    _inject(cmd, ctx, "types into or writes on another terminal")


def _check_write_wall(cmd: SimpleCommand, ctx: Context) -> None:
    """``write user pts/3``, ``wall``: text on other terminals (control characters escaped,
    the text itself still drawn on the screen paw reads)."""
    if any(a in {"-h", "--help", "-V", "--version"} for a in cmd.args):
        return
    if cmd.name == "write" and not cmd.args:
        return
    _inject(cmd, ctx, "writes on other users' or sessions' terminals")


_SOCAT_VALUE = frozenset({"-lf", "-b", "-t", "-T", "-L", "-W", "-lp", "-d"})
_SOCAT_FILE_TYPES = frozenset({"file", "open", "gopen", "create", "creat", "pipe", "unix-sendto"})


def _check_socat(cmd: SimpleCommand, ctx: Context) -> None:
    """``socat - /dev/pts/3``, ``socat STDIN FILE:/dev/tty,raw``: an address opening a terminal."""
    args = cmd.args
    i = 0
    while i < len(args) and args[i].startswith("-") and args[i] != "-":
        i += 2 if args[i] in _SOCAT_VALUE else 1
    for address in args[i:]:
        kind, colon, rest = address.partition(":")
        if not colon:
            target = kind
        elif kind.lower() in _SOCAT_FILE_TYPES:
            target = rest
        else:
            continue
        check_terminal_target(target.split(",", 1)[0], ctx, "socat", opens="opens")


def _check_link(cmd: SimpleCommand, ctx: Context) -> None:
    """``ln -s /dev/pts/3 out``: a second name for a terminal, written through later."""
    operands = split_args(cmd.args, ("-t", "--target-directory", "-S")).operands
    for source in operands[:-1] if len(operands) > 1 else operands:
        check_terminal_target(source, ctx, cmd.name, opens="links to")


def _check_stty(cmd: SimpleCommand, ctx: Context) -> None:
    """``stty -F /dev/pts/3 -echo``: another terminal's settings."""
    args = cmd.args
    for i, arg in enumerate(args):
        value = None
        if arg in {"-F", "-f", "--file"} and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--file="):
            value = arg.split("=", 1)[1]
        elif arg.startswith(("-F", "-f")) and len(arg) > 2:
            value = arg[2:]
        if value is not None:
            check_terminal_target(value, ctx, "stty", opens="changes")


_SCRIPT_LOGS = frozenset({"-O", "--log-out", "-I", "--log-in", "-B", "--log-io", "-T",
                          "--log-timing", "-t", "--timing"})  # fmt: skip
_SCRIPT_VALUE = _SCRIPT_LOGS | {"-c", "--command", "-E", "--echo", "-m", "--logging-format"}


def check_script(cmd: SimpleCommand, ctx: Context) -> None:
    """``script /dev/pts/3``: the session's typescript (every byte shown) written there."""
    args = cmd.args
    i = 0
    operands: list[str] = []
    while i < len(args):
        arg = args[i]
        if arg in _SCRIPT_VALUE and i + 1 < len(args):
            if arg in _SCRIPT_LOGS:
                check_terminal_target(args[i + 1], ctx, f"script {arg}")
            i += 2
            continue
        if not arg.startswith("-") or arg == "-":
            operands.append(arg)
        i += 1
    for operand in operands[:1]:
        check_terminal_target(operand, ctx, "script")


def _check_sponge(cmd: SimpleCommand, ctx: Context) -> None:
    for operand in split_args(cmd.args).operands:
        check_terminal_target(operand, ctx, cmd.name)


def _check_dtach(cmd: SimpleCommand, ctx: Context) -> None:
    """``dtach -p SOCKET`` pushes its stdin into another session as typed input."""
    if "-p" in cmd.args:
        _inject(cmd, ctx, "pushes text into another session as if typed (`-p`)")


def _check_zellij(cmd: SimpleCommand, ctx: Context) -> None:
    words = [a for a in cmd.args if not a.startswith("-")]
    if "action" in words:
        rest = words[words.index("action") + 1 :]
        if rest[:1] and rest[0] in {"write", "write-chars", "paste"}:
            _inject(cmd, ctx, f"types into a pane (`action {rest[0]}`)")


def _check_remote_control(cmd: SimpleCommand, ctx: Context) -> None:
    """``kitty @ send-text``, ``kitten @ send-key``, ``wezterm cli send-text``."""
    if any(a in {"send-text", "send-key"} for a in cmd.args):
        _inject(cmd, ctx, "types into another terminal window")


_XDOTOOL_TYPING = frozenset({"type", "key", "keydown", "keyup"})


def _check_xdotool(cmd: SimpleCommand, ctx: Context) -> None:
    """``xdotool type``/``ydotool key``; ``wtype`` and ``dotool`` type whatever they are given."""
    if any(a in {"-h", "--help", "-V", "--version"} for a in cmd.args):
        return
    if cmd.name in {"wtype", "dotool"} or any(a in _XDOTOOL_TYPING for a in cmd.args):
        _inject(cmd, ctx, "types into whatever window has the focus")


# paw's own commands that put keys or text into an agent: an agent running them answers its
# own or another agent's prompt, and only a human's request may (SECURITY.md).
_PAW_TYPING = frozenset({"approve", "deny", "send"})
_PAW_GLOBAL_VALUE = frozenset({"-C", "--config"})


def check_paw(cmd: SimpleCommand, ctx: Context, args: list[str] | None = None) -> None:
    """``paw approve|deny|send …`` (also ``python -m paw …``: ``args`` after the module)."""
    args = cmd.args if args is None else args
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] in _PAW_GLOBAL_VALUE else 1
    if i < len(args) and args[i] in _PAW_TYPING:
        ctx.block(
            SUPERVISOR,
            f"`paw {args[i]}` answers or types into an agent: only a human asks paw to",
        )


RULES: dict[str, tuple[Check, ...]] = {
    # ttyecho/writevt type into a terminal (TIOCSTI), conspy/ttysnoop drive a console or a
    # session, reptyr takes another process's terminal over
    **dict.fromkeys(("ttyecho", "writevt", "conspy", "ttysnoop", "reptyr"), (_check_injector,)),
    **dict.fromkeys(("write", "wall"), (_check_write_wall,)),
    "socat": (_check_socat,),
    "ln": (_check_link,),
    "stty": (_check_stty,),
    "sponge": (_check_sponge,),
    "dtach": (_check_dtach,),
    "zellij": (_check_zellij,),
    **dict.fromkeys(("kitty", "kitten", "wezterm"), (_check_remote_control,)),
    **dict.fromkeys(("xdotool", "ydotool", "wtype", "dotool"), (_check_xdotool,)),
    "paw": (check_paw,),
}
