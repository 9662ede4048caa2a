"""Command runners with a shell-string or trailing-command interface (hyperfine, fd, nohup-likes,
gdb, terminal emulators).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.guard.shell.commands import SimpleCommand
from paw.core.guard.shell.rules.argv import option_value
from paw.core.guard.shell.rules.inner import RULE, run_argv, run_inner

if TYPE_CHECKING:
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check


_HYPERFINE_SHELL = frozenset({"-p", "--prepare", "-c", "--cleanup", "-s", "--setup", "--conclude"})
_HYPERFINE_VALUE = frozenset(
    {"-r", "--runs", "-w", "--warmup", "-m", "--min-runs", "-M", "--max-runs", "-n",
     "--command-name", "-S", "--shell", "--style", "-u", "--time-unit", "--export-json",
     "--export-markdown", "--export-csv", "--export-asciidoc", "--export-orgmode", "-P",
     "--parameter-scan", "-L", "--parameter-list", "-D", "--parameter-step-size", "--output",
     "--sort", "--input"}
)  # fmt: skip


def _check_shell_strings(cmd: SimpleCommand, ctx: Context) -> None:
    """``hyperfine 'cmd' …``: every operand is a shell command line."""
    args = cmd.args
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in _HYPERFINE_SHELL and i + 1 < len(args):
            run_inner(ctx, args[i + 1], f"{cmd.name} {arg}")
            i += 2
        elif arg in _HYPERFINE_VALUE:
            i += 3 if arg in {"-P", "--parameter-scan", "-L", "--parameter-list"} else 2
        else:
            if not arg.startswith("-"):
                run_inner(ctx, arg, cmd.name)
            i += 1


def _check_fd(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    for i, arg in enumerate(args):
        if arg in {"-x", "--exec", "-X", "--exec-batch"}:
            payload = []
            for word in args[i + 1 :]:
                if word == ";":
                    break
                payload.append(word)
            roots = [a for a in args[:i] if not a.startswith("-")][1:] or ["."]
            words = [w.replace("{}", roots[0]) for w in payload]
            if "{}" not in " ".join(payload):
                words.append(roots[0] + "/found" if roots[0] not in {"/", "~"} else roots[0])
            run_argv(ctx, words, f"{cmd.name} {arg}", cmd)
            return


def _check_trailing(cmd: SimpleCommand, ctx: Context) -> None:
    """Launchers whose first operand starts the command: ``dtach -n s cmd``, ``entr cmd``."""
    args = cmd.args
    if "--" in args:
        run_argv(ctx, args[args.index("--") + 1 :], cmd.name, cmd)
        return
    values = _TRAILING[cmd.name]
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] in values else 1
    skip = _TRAILING_POSITIONALS.get(cmd.name, 0)
    run_argv(ctx, args[i + skip :], cmd.name, cmd)


_TRAILING: dict[str, frozenset[str]] = {
    "entr": frozenset(),
    "dtach": frozenset({"-n", "-c", "-A", "-a", "-e", "-r"}),
    "abduco": frozenset({"-e"}),
    "daemonize": frozenset({"-a", "-c", "-e", "-E", "-o", "-p", "-l", "-u"}),
    "dumb-init": frozenset({"--rewrite"}),
    "tini": frozenset({"-e", "-p"}),
    "faketime": frozenset({"-f"}),
    "setpriv": frozenset({"--reuid", "--regid", "--groups", "--inh-caps", "--bounding-set"}),
    "chpst": frozenset({"-u", "-U", "-e", "-n", "-l", "-L", "-m", "-d", "-o", "-p", "-f", "-c"}),
    "sshpass": frozenset({"-p", "-f", "-d", "-e", "-P"}),
    "watchexec": frozenset(
        {
            "-e",
            "--exts",
            "-w",
            "--watch",
            "-i",
            "--ignore",
            "-d",
            "--debounce",
            "-s",
            "--signal",
            "--shell",
            "-f",
            "--filter",
        }
    ),
    "nodemon": frozenset({"-w", "--watch", "-e", "--ext", "-i", "--ignore", "-d", "--delay"}),
}
_TRAILING_POSITIONALS = {"dtach": 1, "abduco": 1, "faketime": 1}


def _check_start_stop_daemon(cmd: SimpleCommand, ctx: Context) -> None:
    program = option_value(cmd.args, "-x", "--exec", "-a", "--startas")
    if program:
        rest = cmd.args[cmd.args.index("--") + 1 :] if "--" in cmd.args else []
        run_argv(ctx, [program, *rest], cmd.name, cmd)


def _check_nodemon(cmd: SimpleCommand, ctx: Context) -> None:
    value = option_value(cmd.args, "-x", "--exec")
    if value:
        run_inner(ctx, value, f"{cmd.name} --exec")


def _check_gdb(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    for i, arg in enumerate(args):
        if arg in {"-ex", "--ex", "-eval-command", "--eval-command", "-iex", "-o"} and (
            i + 1 < len(args)
        ):
            text = args[i + 1]
            for prefix in ("!", "shell ", "pipe ", "|"):
                if text.lstrip().startswith(prefix):
                    run_inner(ctx, text.lstrip()[len(prefix) :], f"{cmd.name} {arg}")
            if text.lstrip().startswith(("python", "py ", "source", "script")):
                ctx.confirm(RULE, f"`{cmd.name} {arg}` runs a script on start")
        if arg == "--args":
            run_argv(ctx, args[i + 1 :], f"{cmd.name} --args", cmd)
            return


def _check_terminal(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    for i, arg in enumerate(args):
        if arg in {"-e", "-x", "--", "--command", "-c"} and i + 1 < len(args):
            if arg in {"--command", "-c"}:
                run_inner(ctx, args[i + 1], cmd.name)
            else:
                run_argv(ctx, args[i + 1 :], cmd.name, cmd)
            return


RULES: dict[str, tuple[Check, ...]] = {
    "hyperfine": (_check_shell_strings,),
    **dict.fromkeys(("fd", "fdfind"), (_check_fd,)),
    **dict.fromkeys(tuple(set(_TRAILING) - {"nodemon"}), (_check_trailing,)),
    "nodemon": (_check_nodemon,),
    "start-stop-daemon": (_check_start_stop_daemon,),
    "gdb": (_check_gdb,),
    "lldb": (_check_gdb,),
    **dict.fromkeys(
        ("xterm", "konsole", "gnome-terminal", "kitty", "alacritty", "urxvt"), (_check_terminal,)
    ),
}
