"""Terminal multiplexers: what ``screen`` and ``tmux`` start, and tmux commands that reach other
panes, sessions or paw's tags.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.guard.shell.commands import SimpleCommand
from paw.core.guard.shell.rules.inner import run_argv, run_inner

if TYPE_CHECKING:
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check


_SCREEN_VALUE = frozenset({"-S", "-t", "-c", "-Logfile", "-e", "-h", "-p", "-T", "-s"})


def _check_screen(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    i = 0
    while i < len(args) and args[i].startswith("-"):
        arg = args[i]
        if arg in {"-X", "-Q"}:
            ctx.block(
                "shell.supervisor", f"`screen {arg}` drives another terminal session's programs"
            )
            return
        if arg in {"-ls", "-list", "-wipe", "-v", "--version", "-h", "--help"}:
            return
        if arg in _SCREEN_VALUE or (arg[-1] in "Sct" and len(arg) > 2 and arg[1] != "-"):
            i += 2
            continue
        letters = arg[1:]
        if (
            set(letters) & set("rRxdD")
            and "m" not in letters
            and i + 1 < len(args)
            and not args[i + 1].startswith("-")
        ):
            i += 2  # `screen -r NAME`, `-x NAME`, `-d NAME`: a session name, not a command
            continue
        i += 1
    run_argv(ctx, args[i:], "screen", cmd)


# tmux: subcommand -> what it does. Commands that start a program take it as trailing operands.
_TMUX_LAUNCH = frozenset({"new-session", "new", "new-window", "neww", "split-window", "splitw",
                          "respawn-pane", "respawnp", "respawn-window", "respawnw", "pipe-pane",
                          "pipep", "display-popup", "popup"})  # fmt: skip
_TMUX_BLOCK = frozenset(
    {"send-keys", "send", "send-prefix", "paste-buffer", "pasteb", "kill-server", "kill-session",
     "kill-window", "killw", "kill-pane", "killp", "run-shell", "run", "if-shell", "if",
     "respawn-pane", "respawnp", "respawn-window", "respawnw", "source-file", "source",
     "pipe-pane", "pipep", "set-hook", "command-prompt", "confirm-before", "confirm",
     "unlink-window", "unlinkw", "swap-pane", "swapp", "join-pane", "joinp", "move-pane",
     "movep", "break-pane", "breakp", "detach-client", "detach", "suspend-client", "lock-server",
     "lock-session", "lock-client", "kill", "set-environment", "setenv", "set-buffer",
     "load-buffer", "bind-key", "bind", "unbind-key", "unbind", "clear-history", "clearhist",
     "resize-pane", "resizep", "select-pane", "selectp", "rename-session", "rename",
     "rename-window", "renamew", "move-window", "movew", "swap-window", "swapw", "link-window",
     "linkw", "server-access", "set-window-option", "setw", "set-option", "set"}
)  # fmt: skip
_TMUX_READ = frozenset(
    {"ls", "list-sessions", "list-windows", "lsw", "list-panes", "lsp", "list-clients", "lsc",
     "list-buffers", "lsb", "list-commands", "lscm", "list-keys", "lsk", "display-message",
     "display", "show-options", "show", "show-window-options", "showw", "show-environment",
     "showenv", "show-buffer", "showb", "has-session", "has", "info", "server-info",
     "capture-pane", "capturep", "show-messages", "showmsgs", "start-server", "start", "-V",
     "attach-session", "attach", "a", "at", "choose-tree", "wait-for", "wait"}
)  # fmt: skip
_TMUX_GLOBAL_VALUE = frozenset({"-L", "-S", "-f", "-T"})
_TMUX_VALUE = frozenset({"-t", "-s", "-n", "-c", "-F", "-x", "-y", "-l", "-e", "-T", "-L"})


def _tmux_commands(args: list[str]) -> list[list[str]]:
    commands: list[list[str]] = [[]]
    for arg in args:
        if arg in {";", "\\;"}:
            commands.append([])
        elif arg.endswith(";") and not arg.endswith("\\;") and len(arg) > 1:
            commands[-1].append(arg[:-1])
            commands.append([])
        else:
            commands[-1].append(arg)
    return [c for c in commands if c]


def _tmux_operands(words: list[str]) -> list[str]:
    i = 0
    while i < len(words) and words[i].startswith("-") and words[i] != "--":
        i += 2 if words[i] in _TMUX_VALUE else 1
    if i < len(words) and words[i] == "--":
        i += 1
    return words[i:]


def _check_tmux(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    i = 0
    control = False
    while i < len(args) and args[i].startswith("-"):
        if args[i] == "-c" and i + 1 < len(args):
            run_inner(ctx, args[i + 1], "tmux -c")
            return
        if args[i] in {"-V"}:
            return
        control = control or (not args[i].startswith("--") and "C" in args[i])
        i += 2 if args[i] in _TMUX_GLOBAL_VALUE else 1
    commands = _tmux_commands(args[i:]) or [["new-session"]]
    if control:  # control mode (`-C`, `-CC`): every line of its input is a tmux command
        commands.extend(_tmux_control_input(cmd, ctx))
    _judge_tmux_commands(commands, ctx)


def _tmux_control_input(cmd: SimpleCommand, ctx: Context) -> list[list[str]]:
    """The tmux commands a control-mode client reads from its input, when paw can see them."""
    import shlex

    from paw.core.guard.shell.rules.stdin import simulate_stdin

    text, _ = simulate_stdin(cmd)
    if text is None:
        ctx.confirm("shell.supervisor", "`tmux -C` runs tmux commands from input paw cannot see")
        return []
    found: list[list[str]] = []
    for line in text.splitlines():
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            ctx.confirm("shell.supervisor", f"`tmux -C` reads a command paw cannot parse: {line}")
            continue
        found.extend(_tmux_commands(words))
    return found


def _judge_tmux_commands(commands: list[list[str]], ctx: Context) -> None:
    for words in commands:
        sub = words[0]
        rest = words[1:]
        if sub in _TMUX_READ:
            continue
        if sub in {"set-option", "set", "set-window-option", "setw"}:
            operands = _tmux_operands(rest)
            if (operands and operands[0].startswith("@")) or any("paw" in a for a in rest):
                ctx.block("shell.supervisor", f"`tmux {sub}` changes paw's tags on the server")
            else:
                ctx.confirm("shell.supervisor", f"`tmux {sub}` changes the tmux server's settings")
            continue
        if sub in _TMUX_BLOCK:
            ctx.block(
                "shell.supervisor",
                f"`tmux {sub}` acts on other panes, sessions or the server (other agents, paw)",
            )
        if sub in _TMUX_LAUNCH:
            operands = _tmux_operands(rest)
            if operands:
                run_inner(ctx, " ".join(operands), f"tmux {sub}")
        elif sub not in _TMUX_BLOCK:
            ctx.confirm("shell.supervisor", f"`tmux {sub}` is not a tmux command paw knows")


RULES: dict[str, tuple[Check, ...]] = {
    "screen": (_check_screen,),
    "tmux": (_check_tmux,),
}
