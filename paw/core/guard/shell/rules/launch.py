"""Programs that run other programs: through a script language (awk, sed), an escape (pagers,
editors), an option naming a command (tar, zip, rsync, ssh, man), a launcher (screen, tmux,
hyperfine, fd …). The inner command is judged with the same rules; what paw cannot see is
``confirm`` (rule ``shell.program-option``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paw.core.guard.shell.commands import SimpleCommand
from paw.core.guard.shell.rules.argv import option_value
from paw.core.guard.shell.rules.files import check_outside_write, check_write_target
from paw.core.guard.shell.words import LAST_JOB, Word, has_unknown

if TYPE_CHECKING:
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

RULE = "shell.program-option"
_DQ = r'"((?:[^"\\]|\\.)*)"'
_DQ_RE = re.compile(_DQ)
_STDIN_RUNNERS = frozenset(
    {"sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python3", "perl", "ruby", "node",
     "php", "lua", "eval", "source", "xargs", "parallel"}
)  # fmt: skip


def run_inner(ctx: Context, text: str, origin: str) -> None:
    """Judge a command line found inside another program's option or script."""
    if not text.strip():
        return
    if has_unknown(text):
        ctx.confirm(RULE, f"`{origin}` runs a command paw cannot see")
    ctx.run_script(text, origin)


def run_argv(ctx: Context, words: list[str], origin: str, parent: SimpleCommand) -> None:
    """Judge an argv a launcher starts (``screen -dm rm -rf ~``)."""
    if not words:
        return
    inner = SimpleCommand([Word(w) for w in words], upstream=parent.upstream)
    inner.wrappers = (*parent.wrappers, origin)
    ctx.run_command(inner)


def _unescape(text: str) -> str:
    return text.replace('\\"', '"').replace("\\\\", "\\")


# -- awk ------------------------------------------------------------------------------------------

_AWK_VALUE = frozenset({"-F", "-v", "-f", "--field-separator", "--assign", "--file", "-i",
                        "--include", "-l", "--load"})  # fmt: skip
_AWK_SYSTEM_RE = re.compile(r"\bsystem\s*\(")
_AWK_PIPE_OUT_RE = re.compile(r"(?<![|])\|&?\s*" + _DQ)
_AWK_PIPE_IN_RE = re.compile(_DQ + r"\s*\|&?\s*getline")
_AWK_DYNAMIC_PIPE_RE = re.compile(
    r"\bprintf?\b[^;}\n]*?[^|]\|&?\s*(?![|\"])[A-Za-z_(]|[A-Za-z_)\]]\s*\|&?\s*getline"
)
_AWK_WRITE_RE = re.compile(r"\bprintf?\b[^;}\n]*?>{1,2}\s*" + _DQ)


def _awk_program(args: list[str]) -> str | None:
    i = 0
    program = None
    while i < len(args):
        arg = args[i]
        if arg in {"-e", "--source"} and i + 1 < len(args):
            return args[i + 1]
        if arg in _AWK_VALUE:
            if arg in {"-f", "--file"}:
                program = ""  # a program file: nothing visible to judge
            i += 2
            continue
        if arg == "--":
            i += 1
            break
        if arg.startswith("-") and len(arg) > 1:
            i += 1
            continue
        break
    if program is not None:
        return None
    return args[i] if i < len(args) else None


def _close_paren(text: str, start: int) -> str:
    depth, quote = 1, False
    for index in range(start, min(len(text), start + 2000)):
        char = text[index]
        if quote:
            quote = not (char == '"' and text[index - 1] != "\\")
        elif char == '"':
            quote = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return text[start:index]
    return text[start:]


def _check_awk(cmd: SimpleCommand, ctx: Context) -> None:
    program = _awk_program(cmd.args)
    stdin_program = option_value(cmd.args, "-f", "--file") in {"-", "/dev/stdin", "/dev/fd/0"}
    if stdin_program and cmd.stdin_text is not None:
        program = cmd.stdin_text
    if not program:
        return
    origin = f"{cmd.name} program"
    for match in _AWK_SYSTEM_RE.finditer(program):
        arg = _close_paren(program, match.end()).strip()
        literal = _DQ_RE.fullmatch(arg)
        if literal is None or has_unknown(arg):
            ctx.confirm(RULE, f"`{cmd.name}` runs `system()` with a command paw cannot see")
        else:
            run_inner(ctx, _unescape(literal.group(1)), f"{cmd.name} system()")
    for regex in (_AWK_PIPE_OUT_RE, _AWK_PIPE_IN_RE):
        for match in regex.finditer(program):
            text = _unescape(match.group(1))
            if text.split()[:1] and text.split()[0].rsplit("/", 1)[-1] in _STDIN_RUNNERS:
                ctx.confirm(RULE, f"`{cmd.name}` pipes its output into `{text}`")
            run_inner(ctx, text, f"{origin} pipe")
    if _AWK_DYNAMIC_PIPE_RE.search(program):
        ctx.confirm(RULE, f"`{cmd.name}` pipes into a command paw cannot see")
    for match in _AWK_WRITE_RE.finditer(program):
        check_write_target(_unescape(match.group(1)), ctx, f"{cmd.name} print >", None)


# -- sed ------------------------------------------------------------------------------------------

_SED_VALUE = frozenset({"-l", "--line-length"})
_WHOLE_LINE = frozenset({".*", "^.*", "^.*$", ".*$", "^", ""})


def _sed_scripts(args: list[str]) -> list[str]:
    scripts: list[str] = []
    operands: list[str] = []
    i = 0
    explicit = False
    while i < len(args):
        arg = args[i]
        if arg in {"-e", "--expression"} and i + 1 < len(args):
            scripts.append(args[i + 1])
            explicit = True
            i += 2
            continue
        if arg.startswith("--expression="):
            scripts.append(arg.split("=", 1)[1])
            explicit = True
        elif arg in {"-f", "--file"} or arg.startswith("--file="):
            explicit = True
            i += 2 if "=" not in arg else 1
            continue
        elif arg in _SED_VALUE:
            i += 2
            continue
        elif arg.startswith("-") and len(arg) > 1 and not arg.startswith("--"):
            letters = arg[1:]
            if "e" in letters and not letters.startswith("i") and i + 1 < len(args):
                scripts.append(args[i + 1])
                explicit = True
                i += 2
                continue
        elif not arg.startswith("-") or arg == "-":
            operands.append(arg)
        i += 1
    if not explicit and operands:
        scripts.append(operands[0])
    return scripts


def _until(text: str, i: int, delim: str) -> tuple[str, int]:
    out: list[str] = []
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text):
            out.append(text[i : i + 2])
            i += 2
            continue
        if char == delim:
            return "".join(out), i + 1
        out.append(char)
        i += 1
    return "".join(out), i


def _rest_of_line(text: str, i: int) -> tuple[str, int]:
    end = text.find("\n", i)
    end = len(text) if end < 0 else end
    return text[i:end].strip(), end


def _skip_address(text: str, i: int) -> int:
    for _ in range(2):
        while i < len(text) and text[i] in " \t":
            i += 1
        if i < len(text) and text[i] == "/":
            _, i = _until(text, i + 1, "/")
        elif i < len(text) and text[i] == "\\" and i + 1 < len(text):
            _, i = _until(text, i + 2, text[i + 1])
        else:
            while i < len(text) and (text[i].isdigit() or text[i] in "$~+"):
                i += 1
        while i < len(text) and text[i] in "IM":
            i += 1
        if i < len(text) and text[i] == ",":
            i += 1
            continue
        break
    while i < len(text) and text[i] in " \t!":
        i += 1
    return i


def _sed_script(script: str, cmd: SimpleCommand, ctx: Context) -> None:
    i, n = 0, len(script)
    while i < n:
        while i < n and script[i] in " \t\n;{}":
            i += 1
        if i >= n:
            return
        i = _skip_address(script, i)
        if i >= n:
            return
        op = script[i]
        i += 1
        if op == "s" and i < n:
            i = _sed_substitute(script, i, ctx)
        elif op == "y" and i < n:
            delim = script[i]
            _, i = _until(script, i + 1, delim)
            _, i = _until(script, i, delim)
        elif op == "e":
            text, i = _rest_of_line(script, i)
            if text:
                run_inner(ctx, text, "sed e")
            else:
                ctx.confirm(RULE, "`sed e` runs each line of its input as a shell command")
        elif op in "wW":
            target, i = _rest_of_line(script, i)
            check_write_target(target, ctx, f"sed {op}", None)
        elif op in "aicrRbtT:vlqQLF#":
            end = script.find("\n", i) if op in "aic#" else _end_of_word(script, i)
            i = n if end < 0 else end
    del cmd


def _sed_substitute(script: str, i: int, ctx: Context) -> int:
    """``s/re/repl/flags`` from its delimiter at ``i``; returns the index after the flags."""
    n = len(script)
    delim = script[i]
    pattern, i = _until(script, i + 1, delim)
    replacement, i = _until(script, i, delim)
    start = i
    while i < n and script[i] not in ";\n}":
        if script[i] == "w":
            target, i = _rest_of_line(script, i + 1)
            check_write_target(target, ctx, "sed w", None)
            break
        i += 1
    if "e" in script[start:i]:
        if pattern in _WHOLE_LINE and not re.search(r"&|\\[0-9]", replacement):
            run_inner(ctx, replacement.replace("\\" + delim, delim), "sed s///e")
        else:
            ctx.confirm(RULE, "`sed s///e` runs the edited line as a shell command")
    return i


def _end_of_word(text: str, i: int) -> int:
    match = re.compile(r"[;\n}]").search(text, i)
    return match.start() if match else len(text)


def _check_sed(cmd: SimpleCommand, ctx: Context) -> None:
    for script in _sed_scripts(cmd.args):
        if "e" in script or "w" in script or "W" in script:
            _sed_script(script, cmd, ctx)


# -- pagers, man, editors ------------------------------------------------------------------------

_VIM_BANG_RE = re.compile(
    r"^[\s:]*(?:sil(?:ent)?!?\s*)?(?:[.%$\d,']*\s*|r(?:ead)?\s*|w(?:rite)?\s+)!(.+)$", re.DOTALL
)
_VIM_CODE_RE = re.compile(
    r"\b(system|systemlist|term|terminal|py|python|py3|python3|pyx|lua|luado|perl|ruby|exe"
    r"|execute|call|so|source|jobstart|termopen|make|mak|grep|vimgrep)\b"
)
_VIMS = frozenset({"vi", "vim", "nvim", "gvim", "view", "ex", "vimdiff", "rvim", "nvim-qt", "mvim"})


def _vim_command(text: str, ctx: Context, name: str) -> None:
    for part in text.split("|") if "!" not in text else [text]:
        bang = _VIM_BANG_RE.match(part)
        if bang is not None:
            run_inner(ctx, bang.group(1), f"{name} :!")
            return
        if _VIM_CODE_RE.search(part) and not part.lstrip(" :").startswith(("set ", "se ")):
            ctx.confirm(RULE, f"`{name}` runs the editor command `{part.strip()}` on start")
            return


def _check_vim(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    for i, arg in enumerate(args):
        if arg in {"-c", "--cmd"} and i + 1 < len(args):
            _vim_command(args[i + 1], ctx, cmd.name)
        elif arg.startswith("+") and len(arg) > 1 and not arg[1:].isdigit() and arg[1] != "/":
            _vim_command(arg[1:], ctx, cmd.name)
        elif (arg == "-S" or arg.startswith("--cmd=")) and arg.startswith("--cmd="):
            _vim_command(arg[6:], ctx, cmd.name)


_ELISP_SHELL_RE = re.compile(
    r"\((?:async-)?shell-command(?:-to-string)?\s+" + _DQ + r"|\(compile\s+" + _DQ
)
_ELISP_CODE_RE = re.compile(
    r"\b(shell-command|call-process|start-process|make-process|process-lines|delete-directory"
    r"|delete-file|async-shell-command|compile|eshell|term|ansi-term)\b"
)


def _check_emacs(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    for i, arg in enumerate(args):
        code = None
        if arg in {"--eval", "-eval", "--execute", "-execute"} and i + 1 < len(args):
            code = args[i + 1]
        elif arg.startswith(("--eval=", "--execute=")):
            code = arg.split("=", 1)[1]
        if code is None:
            continue
        found = False
        for match in _ELISP_SHELL_RE.finditer(code):
            found = True
            run_inner(ctx, _unescape(match.group(1) or match.group(2) or ""), f"{cmd.name} --eval")
        if not found and _ELISP_CODE_RE.search(code):
            ctx.confirm(RULE, f"`{cmd.name} --eval` runs processes or deletes files")


def _check_pager(cmd: SimpleCommand, ctx: Context) -> None:
    for arg in cmd.args:
        if arg.startswith("+") and "!" in arg:
            run_inner(ctx, arg.split("!", 1)[1], f"{cmd.name} +!")
        elif arg.startswith("+") and "|" in arg:
            run_inner(ctx, arg.split("|", 1)[1], f"{cmd.name} +|")


def _check_man(cmd: SimpleCommand, ctx: Context) -> None:
    for names in (("-P", "--pager"), ("-H", "--html"), ("--browser",)):
        present = any(a.startswith(n) for a in cmd.args for n in names)
        value = option_value(cmd.args, *names) if present else None
        if value:
            run_inner(ctx, value, f"man {names[0]}")


# -- archives and transfers ---------------------------------------------------------------------

_TAR_PROGRAM_OPTS = (
    "--to-command",
    "--use-compress-program",
    "--info-script",
    "--new-volume-script",
    "--rsh-command",
    "--rmt-command",
)


def tar_programs(args: list[str]) -> list[str]:
    """Commands a tar invocation runs (checkpoint actions, filters, compressors)."""
    found: list[str] = []
    for i, arg in enumerate(args):
        following = args[i + 1] if i + 1 < len(args) else ""
        if arg.startswith("--checkpoint-action="):
            action = arg.split("=", 1)[1]
            if action.startswith(("exec=", "exec:")):
                found.append(action[5:])
        for name in _TAR_PROGRAM_OPTS:
            if arg.startswith(name + "="):
                found.append(arg.split("=", 1)[1])
            elif arg == name:
                found.append(following)
        if arg in {"-I", "-F"}:
            found.append(following)
        elif arg.startswith(("-I", "-F")) and not arg.startswith("--") and len(arg) > 2:
            found.append(arg[2:])
    return [f for f in found if f]


def _check_tar_programs(cmd: SimpleCommand, ctx: Context) -> None:
    for program in tar_programs(cmd.args):
        run_inner(ctx, program, f"{cmd.name} program option")
    first = cmd.args[0] if cmd.args else ""
    extracting = (
        "--extract" in cmd.args
        or "--get" in cmd.args
        or (not first.startswith("--") and "x" in first)
        or any(a.startswith("-") and not a.startswith("--") and "x" in a for a in cmd.args)
    )
    if not extracting:
        return
    target = option_value(cmd.args, "-C", "--directory")
    if target is None:
        target = next((a.split("=", 1)[1] for a in cmd.args if a.startswith("--directory=")), None)
    if target:
        check_write_target(target, ctx, f"{cmd.name} -x -C", None)
        check_outside_write(target, ctx, f"{cmd.name} -x -C")
    if any(a in {"-P", "--absolute-names"} for a in cmd.args):
        ctx.confirm("files.outside-write", f"`{cmd.name} -P` extracts absolute paths as they are")


def _check_unzip(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    target = option_value(args, "-d") if "-d" in args else None
    if cmd.name in {"7z", "7za", "7zr"}:
        target = next((a[2:] for a in args if a.startswith("-o") and len(a) > 2), None)
    if target:
        check_write_target(target, ctx, f"{cmd.name} into", None)
        check_outside_write(target, ctx, f"{cmd.name} into")


def _check_zip(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    for i, arg in enumerate(args):
        if arg in {"-TT", "--unzip-command"} and i + 1 < len(args):
            run_inner(ctx, args[i + 1], "zip -TT")
        elif arg.startswith("--unzip-command="):
            run_inner(ctx, arg.split("=", 1)[1], "zip -TT")


def _check_rsync_shell(cmd: SimpleCommand, ctx: Context) -> None:
    for names in (("-e", "--rsh"), ("--rsync-path",)):
        present = any(a == n or a.startswith(n + "=") for a in cmd.args for n in names)
        value = option_value(cmd.args, *names) if present else None
        if value:
            run_inner(ctx, value, f"rsync {names[0]}")


_SSH_PROGRAM_KEYS = frozenset({"proxycommand", "localcommand", "knownhostscommand",
                               "remotecommand"})  # fmt: skip


def ssh_options(args: list[str]) -> list[tuple[str, str]]:
    """``-o Key=Value`` and ``-oKey=Value`` / ``-o 'Key Value'`` pairs of ssh-family tools."""
    pairs: list[tuple[str, str]] = []
    for i, arg in enumerate(args):
        value = None
        if arg == "-o" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("-o") and len(arg) > 2 and not arg.startswith("--"):
            value = arg[2:]
        if value is None:
            continue
        key, _, rest = value.replace("=", " ", 1).partition(" ")
        pairs.append((key.strip().lower(), rest.strip()))
    return pairs


def _check_ssh_options(cmd: SimpleCommand, ctx: Context) -> None:
    for key, value in ssh_options(cmd.args):
        if key in _SSH_PROGRAM_KEYS and value.lower() != "none":
            run_inner(ctx, value, f"{cmd.name} -o {key}")
    if cmd.name in {"scp", "sftp"}:
        program = option_value(cmd.args, "-S") if "-S" in cmd.args else None
        if program:
            run_inner(ctx, program, f"{cmd.name} -S")


# -- launchers ----------------------------------------------------------------------------------

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


_PID_FINDERS = frozenset({"pgrep", "pidof", "ps", "lsof", "fuser", "tmux", "pstree", "jobs"})


def _check_kill(cmd: SimpleCommand, ctx: Context) -> None:
    """``kill`` of a pid or a process group; ``kill %1`` (the shell's own job) is fine."""
    args = cmd.args
    if any(a in {"-l", "-L", "--list", "--table"} for a in args):
        return
    probe = False
    i = 0
    if args and args[0] in {"-s", "-n", "--signal"}:
        probe = args[1:2] == ["0"]
        i = 2
    elif args and args[0].startswith("-") and args[0] != "--":
        probe = args[0] in {"-0", "-s0", "-SIG0"}
        i = 1
    if i < len(args) and args[i] == "--":
        i += 1
    for target in args[i:]:
        if target.startswith("%") or target == LAST_JOB:
            continue
        if has_unknown(target):
            finders = {s.name for subs in cmd.subs.values() for s in subs}
            if finders & _PID_FINDERS:
                ctx.block("shell.supervisor", f"`{cmd.name}` kills processes found by name")
                return
            if not probe:
                ctx.confirm("shell.supervisor", f"`{cmd.name}` kills a process paw cannot see")
            continue
        if probe:
            continue
        if target in {"1", "-1", "0"} or target.startswith("-"):
            ctx.block("shell.supervisor", f"`{cmd.name} {target}` kills init or a process group")
            return
        ctx.confirm(
            "shell.supervisor",
            f"`{cmd.name} {target}`: paw cannot tell whose process this is (paw, another agent)",
        )


def _check_kill_by_name(cmd: SimpleCommand, ctx: Context) -> None:
    if any(a in {"-l", "--list", "-V", "--version", "-h", "--help"} for a in cmd.args):
        return
    if cmd.name == "fuser" and not any(a.startswith("-") and "k" in a for a in cmd.args):
        return
    ctx.block(
        "shell.supervisor", f"`{cmd.name}` kills processes by name (paw, other agents, the system)"
    )


# -- command runners with a shell-string or trailing-command interface -------------------------


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
    **dict.fromkeys(("awk", "gawk", "mawk", "nawk", "busybox-awk"), (_check_awk,)),
    "sed": (_check_sed,),
    "gsed": (_check_sed,),
    **dict.fromkeys(_VIMS, (_check_vim,)),
    **dict.fromkeys(("emacs", "emacsclient", "xemacs"), (_check_emacs,)),
    **dict.fromkeys(("less", "more", "most"), (_check_pager,)),
    "man": (_check_man,),
    **dict.fromkeys(("tar", "gtar", "bsdtar"), (_check_tar_programs,)),
    "zip": (_check_zip,),
    **dict.fromkeys(("unzip", "7z", "7za", "7zr", "bsdunzip"), (_check_unzip,)),
    "rsync": (_check_rsync_shell,),
    **dict.fromkeys(("ssh", "scp", "sftp", "autossh", "mosh"), (_check_ssh_options,)),
    "screen": (_check_screen,),
    "tmux": (_check_tmux,),
    "kill": (_check_kill,),
    **dict.fromkeys(
        ("pkill", "killall", "pgrep-kill", "skill", "slay", "fuser", "xkill", "killall5"),
        (_check_kill_by_name,),
    ),
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
