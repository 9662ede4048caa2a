"""Inline interpreter code: shell-outs parsed as shell, language-API deletes judged as rm."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paw.core.guard.shell.rules.files import check_write_target
from paw.core.guard.shell.rules.secretpaths import home_secret
from paw.core.guard.shell.rules.targets import judge_path
from paw.core.guard.shell.rules.terminals import INJECT, WRITE, names_terminal
from paw.core.models import Action

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context

_STR = r"""(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')"""
_SHELL_CALL_RE = re.compile(
    r"(?:os\.system|os\.popen|subprocess\.\w+|commands\.getoutput|pty\.spawn|\bsystem"
    r"|\bexec(?:Sync|File|FileSync)?|\bspawn(?:Sync)?|\bpopen|shell_exec|passthru|proc_open"
    r"|\bIO\.popen|Open3\.\w+|do shell script|Runtime\.getRuntime\(\)\.exec|os\.execute"
    r"|io\.popen|os\.exec\w*|os\.spawn\w*)(?=\s*[(\s\[{\"'q])"
)
_QW_RE = re.compile(r"\bqw\s*(?:\(([^)]*)\)|\[([^\]]*)\]|\{([^}]*)\}|/([^/]*)/)")
# Ruby's percent literals: `%q(…)`/`%Q(…)`/`%(…)` is one string, `%w(…)`/`%W(…)` a word list.
_PERCENT_RE = re.compile(
    r"%([qQwW]?)(?:\(([^)]*)\)|\[([^\]]*)\]|\{([^}]*)\}|<([^>]*)>|\|([^|]*)\|)"
)
# Evaluating bytes a decoder produced (`exec(bytes.fromhex(…))`, `eval(Buffer.from(…, 'base64')
# …)`, `eval(atob(…))`): the code run is hidden from the reader, as `base64 -d | sh` is.
_EVAL_CALL_RE = re.compile(r"(?<![\w.$])(?:exec|eval|Function|compile|execfile|runpy\.\w+)\s*\(")
_DECODED_RE = re.compile(
    r"fromhex|b64decode|b32decode|b85decode|a85decode|unhexlify|decodebytes|base64|Buffer\.from"
    r"|\batob\s*\(|unpack\s*\(|\bpack\s*\(|codecs\.decode|\.decode\(\s*['\"](?:hex|rot)"
    r"|zlib|gzip|bz2|lzma|marshal|pickle|fromCharCode|\bchr\s*\(|\[::-1\]|\.reverse\("
)
_WRITE_RE = re.compile(
    r"(?:\bopen\(\s*" + _STR + r"\s*,\s*['\"](?:[wax]|r\+)"
    r"|(?:writeFileSync|appendFileSync|writeFile|appendFile|File\.write|IO\.write"
    r"|file_put_contents)\s*\(\s*" + _STR + r"|Path\(\s*" + _STR + r"\s*\)\.write_(?:text|bytes))"
)
_BACKTICK_RE = re.compile(r"`([^`]+)`")
_DELETE_RE = re.compile(
    r"(shutil\.rmtree|rmtree|os\.(?:remove|unlink|rmdir|removedirs)|\.unlink|\.rmdir"
    r"|(?:fs|fsp|fs\.promises|require\(\s*['\"](?:node:)?fs(?:/promises)?['\"]\s*\))\.(?:rmSync|rm|rmdirSync|rmdir|unlinkSync|unlink)"
    r"|FileUtils\.(?:rm_rf|rm_r|rm|remove_dir|remove_entry(?:_secure)?|rmtree|remove)"
    r"|File\.(?:delete|unlink)|Dir\.(?:delete|rmdir|unlink)|\bremove_tree|\bunlink|Remove-Item|\bdel\b|file\.remove|Deno\.remove\w*)"
    r"\s*\(?\s*([^\n;]*)"
)
_RECURSIVE_HINT_RE = re.compile(r"rmtree|rm_rf|rm_r|remove_tree|recursive|Remove-Item|Deno\.remove")
_HOME_RE = re.compile(
    r"homedir\(\)|expanduser\(\s*['\"]~['\"]\s*\)|Path\.home\(\)|Dir\.home|ENV\[['\"]HOME['\"]\]"
    r"|\$ENV\{\s*['\"]?HOME['\"]?\s*\}|environ\[['\"]HOME['\"]\]|getenv\(\s*['\"]HOME['\"]\s*\)"
    r"|process\.env\.HOME|environ\.get\(\s*['\"]HOME['\"]|\$HOME|\$env:USERPROFILE|~"
)
_DOWNLOAD_EXEC_RE = re.compile(
    r"(?:\bexec|\beval|Function|runpy|compile|iex|Invoke-Expression)\b.*(?:urlopen|requests\.|urllib"
    r"|fetch\(|https?://|Net\.WebClient|DownloadString|Invoke-WebRequest|\biwr\b|open-uri|LWP::)",
    re.DOTALL,
)
_LITERAL_RE = re.compile(_STR)
_FORK_LOOP_RE = re.compile(
    r"(?:\bwhile\b|\bloop\b|\buntil\b|\bfor\s*\(\s*;\s*;\s*\)|\brepeat\b)[\s\S]{0,60}?"
    r"\b(?:os\.)?(?:fork|forkpty|spawn|Process\.fork|pcntl_fork)\b"
    r"|\bfork\b\s*(?:\(\s*\)\s*)?(?:while|until)\b|\bfork\b\s*;?\s*redo\b"
)
_NETWORK_CALL_RE = re.compile(
    r"requests\.(post|put|patch)|urlopen|urllib\.request|http\.client|fetch\(|axios|Net::HTTP"
    r"|LWP::|HTTP::Tiny|curl_exec|socket\.send|\.sendall\("
)
_SECRET_READ_RE = re.compile(
    r"dict\(os\.environ\)|os\.environ\.copy\(\)|os\.environ\)|JSON\.stringify\(process\.env\)"
    r"|ENV\.to_h|%ENV|\.ssh/id_|\.aws/credentials|\.netrc|\.git-credentials|\.env['\"]"
)
# The whole environment (not one variable) in each language, and a call that prints or
# serialises it: `print(os.environ)`, `console.log(process.env)`, `p ENV`, `print %ENV`.
_WHOLE_ENV_RE = {
    "py": re.compile(r"os\.environ\b(?!\s*(?:\[|\.get\b|\.setdefault\b|\.pop\b|\.update\b))"),
    "js": re.compile(r"process\.env\b(?!\s*(?:\.|\[|\?\.))|Deno\.env\.toObject\(\)"),
    "ruby": re.compile(r"\bENV\b(?!\s*\[|\s*\.\s*(?:fetch|key\?|has_key\?|include\?)\b)"),
    "perl": re.compile(r"%ENV\b|keys\s*\(?\s*%ENV"),
    "php": re.compile(r"\$_ENV\b(?!\s*\[)|\bgetenv\(\s*\)"),
}
_PRINTS_RE = re.compile(
    r"\bprint|console\.\w+|\bputs\b|\bpp?\b|\bwrite|dump|stringify|\bsay\b|Dumper|print_r"
    r"|\becho\b|\binspect\b|\bto_[hsa]\b|\beach\b"
)


def prints_environment(source: str, lang: str) -> bool:
    """True when inline ``lang`` code prints or serialises the whole environment."""
    whole = _WHOLE_ENV_RE.get(lang)
    return (
        whole is not None and whole.search(source) is not None and bool(_PRINTS_RE.search(source))
    )


_SOCKET_RE = re.compile(r"\bsocket\b|Socket|TCPSocket|net\.connect|fsockopen", re.IGNORECASE)
_SPAWN_RE = re.compile(r"dup2|pty\.spawn|/bin/(ba|z)?sh\b|\bexec\b|child_process|proc_open|popen")
_BUILT_SYSTEM_RE = re.compile(r"\bos\.system\s*\(\s*[^'\")\s]")
_STATEMENT_SPLIT_RE = re.compile(r"[;\n=]")

# Literal text every match of a pattern contains (one of them at least): a source without any
# is not searched (a search costs ~0.1 µs a character for the long alternations; a substring
# test a few ns). Tested against the patterns in tests/core/guard/test_guard_fast.py.
_SHELL_CALL_NEEDLES = (
    "system", "popen", "subprocess.", "getoutput", "spawn", "exec", "passthru", "proc_open",
    "Open3.", "do shell script",
)  # fmt: skip
_DOWNLOAD_EXEC_NEEDLES = (
    "exec",
    "eval",
    "Function",
    "runpy",
    "compile",
    "iex",
    "Invoke-Expression",
)
_DOWNLOAD_NEEDLES = (
    "urlopen", "requests.", "urllib", "fetch(", "://", "Net.WebClient", "DownloadString",
    "Invoke-WebRequest", "iwr", "open-uri", "LWP::",
)  # fmt: skip
_NETWORK_CALL_NEEDLES = (
    "requests.", "urlopen", "urllib.request", "http.client", "fetch(", "axios", "Net::HTTP",
    "LWP::", "HTTP::Tiny", "curl_exec", "socket.send", ".sendall(",
)  # fmt: skip
_SOCKET_NEEDLES = ("socket", "net.connect", "fsockopen")  # in the lower-cased ASCII source
_FORK_NEEDLES = ("fork", "spawn")
_WRITE_NEEDLES = (
    "open(", "writeFile", "appendFile", "File.write", "IO.write", "file_put_contents", ".write_",
)  # fmt: skip


def _has_any(source: str, needles: tuple[str, ...]) -> bool:
    for needle in needles:  # noqa: SIM110 - a loop: no generator to set up on this hot path
        if needle in source:
            return True
    return False


def _may_download_exec(source: str) -> bool:
    return _has_any(source, _DOWNLOAD_NEEDLES) and _has_any(source, _DOWNLOAD_EXEC_NEEDLES)


def _may_open_socket(source: str) -> bool:
    # IGNORECASE also folds some non-ASCII letters (`ſ` is `s`): only ASCII is pre-tested.
    return not source.isascii() or _has_any(source.lower(), _SOCKET_NEEDLES)


def _literal(match: re.Match[str]) -> str:
    raw = match.group(1) if match.group(1) is not None else match.group(2) or ""
    return raw.replace('\\"', '"').replace("\\'", "'").replace("\\\\", "\\")


def _delete_target(arg: str) -> str | None:
    literals = [_literal(m) for m in _LITERAL_RE.finditer(arg)]
    for literal in literals:
        if literal.startswith("~"):
            return literal
    home = _HOME_RE.search(arg)
    if home is not None:
        after = _LITERAL_RE.search(arg[home.end() :].split(")", 1)[0])
        tail = _literal(after) if after else ""
        return "~/" + tail.lstrip("/") if tail else "~"
    first = _LITERAL_RE.match(arg.strip())
    return _literal(first) if first is not None else None


def _receiver(source: str, match: re.Match[str]) -> str:
    """The expression a method delete is called on (``Path.home().rmdir()``)."""
    head = source[max(0, match.start() - 80) : match.start()]
    return _STATEMENT_SPLIT_RE.split(head)[-1]


def _scan_deletes(source: str, lang: str, ctx: Context, origin: str) -> None:
    for match in _DELETE_RE.finditer(source):
        api, arg = match.group(1), match.group(2)
        if lang not in {"perl", "php"} and api in {"unlink", "del"}:
            continue
        target = _delete_target(arg)
        if target is None and api.startswith(".") and _HOME_RE.search(_receiver(source, match)):
            target = "~"
        verb = f"{origin}: {api}"
        if target is None:
            if arg.strip():
                ctx.confirm("shell.rm-unresolved", f"`{verb}` deletes a path paw cannot see")
            continue
        recursive = bool(_RECURSIVE_HINT_RE.search(api + arg))
        check_write_target(target, ctx, verb, None, delete=True)
        danger = judge_path(target, ctx)
        if danger is None or (
            not recursive and danger.rule in {"shell.rm-unresolved", "shell.rm-cwd"}
        ):
            continue
        if danger.action is Action.BLOCK:
            ctx.block(danger.rule, f"`{verb}` would delete {danger.what}")
        else:
            ctx.confirm(danger.rule, f"`{verb}` would delete {danger.what}")


def scan_code(source: str, lang: str, ctx: Context, origin: str) -> None:
    """Scan interpreter code for shell-outs (parsed as shell) and language-API deletes."""
    if ctx.depth >= 8:
        ctx.confirm("shell.limit", f"`{origin}` nests too deeply to check")
        return
    for match in _SHELL_CALL_RE.finditer(source) if _has_any(source, _SHELL_CALL_NEEDLES) else ():
        bare = match.group(0).startswith(("exec", "spawn", "system"))
        if lang == "py" and bare and source[max(0, match.start() - 1) : match.start()] != ".":
            continue
        _run_call(source, match, ctx, origin)
    _scan_writes(source, ctx, origin)
    if lang in {"perl", "ruby", "php"}:
        for match in _BACKTICK_RE.finditer(source):
            ctx.run_script(match.group(1), f"{origin} backticks")
    _scan_computed(source, lang, ctx, origin)
    _scan_deletes(source, lang, ctx, origin)
    if (
        _has_any(source, _NETWORK_CALL_NEEDLES)
        and _NETWORK_CALL_RE.search(source)
        and _SECRET_READ_RE.search(source)
    ):
        ctx.block("shell.exfiltration", f"`{origin}` sends secrets or the environment out")
    if _may_open_socket(source) and _SOCKET_RE.search(source) and _SPAWN_RE.search(source):
        ctx.block("shell.reverse-shell", f"`{origin}` connects a socket to a shell")
    _scan_secrets_and_forks(source, ctx, origin)
    if _has_any(source, _TERMINAL_NEEDLES):
        _scan_terminals(source, ctx, origin)
    if not ctx.piped_out and prints_environment(source, lang):  # piped: the reader judges it
        ctx.block("shell.secret-read", f"`{origin}` prints the environment (tokens, keys)")
    if _may_download_exec(source) and _DOWNLOAD_EXEC_RE.search(source):
        ctx.block("shell.download-exec", f"`{origin}` evaluates code fetched from the network")


def _scan_secrets_and_forks(source: str, ctx: Context, origin: str) -> None:
    """Credential files read by code; fork loops."""
    for literal in _LITERAL_RE.finditer(source):
        text = _literal(literal)
        if text.startswith(("~/", "/root/", "/home/", "/Users/", "/proc/")) and home_secret(
            text, ctx
        ):
            ctx.block("shell.secret-read", f"`{origin}` reads the credential file `{text}`")
            break
    if _has_any(source, _FORK_NEEDLES) and _FORK_LOOP_RE.search(source):
        ctx.block("shell.fork-bomb", f"`{origin}` forks in an endless loop")


_TERMINAL_NEEDLES = ("/dev/", "/proc/", "TIOC", "ioctl", "ttyname", "ctermid")
# Typing into a terminal: TIOCSTI (0x5412) pushes bytes into its input queue, TIOCLINUX
# (0x541C) subcode 2/3 pastes a console selection; by name or by number, in any language.
_TERMINAL_IOCTL_RE = re.compile(r"\bTIOC(?:STI|LINUX)\b")
_TERMINAL_IOCTL_NUMBER_RE = re.compile(r"\b(?:0x0*541[2cC]|21522|21532)\b")  # with an ioctl
_TERMINAL_NAME_RE = re.compile(r"\b(?:ttyname|ctermid)\b")
_OPENS_RE = re.compile(r"\b(?:open|sysopen|fopen|openSync|createWriteStream|File\.new)\b")


def _scan_terminals(source: str, ctx: Context, origin: str) -> None:
    """Code that types into a terminal (TIOCSTI) or opens a terminal device by name."""
    if _TERMINAL_IOCTL_RE.search(source) or (
        "ioctl" in source and _TERMINAL_IOCTL_NUMBER_RE.search(source)
    ):
        ctx.block(INJECT, f"`{origin}` types into a terminal (the TIOCSTI/TIOCLINUX ioctl)")
        return
    for literal in _LITERAL_RE.finditer(source):
        text = _literal(literal)
        if names_terminal(text):
            ctx.block(
                WRITE,
                f"`{origin}` opens the terminal device `{text.strip()}`: whatever can write to a "
                "terminal can repaint the screen paw reads",
            )
            return
    if _TERMINAL_NAME_RE.search(source) and _OPENS_RE.search(source):
        ctx.block(WRITE, f"`{origin}` opens a terminal found by name (ttyname, ctermid)")


def check_unparsed(text: str, ctx: Context, origin: str) -> None:
    """Text that is not valid shell (PowerShell, say) can still evaluate a download."""
    if _may_download_exec(text) and _DOWNLOAD_EXEC_RE.search(text):
        ctx.block("shell.download-exec", f"`{origin}` evaluates code fetched from the network")


def _call_arguments(source: str, start: int) -> str:
    """The argument text of a call starting at ``start``: up to the closing paren or line end."""
    depth = 0
    quote = ""
    for index in range(start, min(len(source), start + 600)):
        char = source[index]
        if quote:
            quote = "" if char == quote and source[index - 1] != "\\" else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth <= 0:
                return source[start : index + 1]
        elif char in ";\n" and depth == 0:
            return source[start:index]
    return source[start : start + 600]


_EVAL_NEEDLES = ("exec", "eval", "Function", "compile", "runpy")


def _scan_computed(source: str, lang: str, ctx: Context, origin: str) -> None:
    """Shell commands and code that the source builds at run time."""
    if lang == "py" and _BUILT_SYSTEM_RE.search(source):
        ctx.confirm("shell.unresolved", f"`{origin}` runs a shell command built at run time")
    if _has_any(source, _EVAL_NEEDLES):
        _scan_evals(source, ctx, origin)


def _scan_evals(source: str, ctx: Context, origin: str) -> None:
    """Code evaluated from decoded bytes is block; from any other computed value, confirm."""
    for match in _EVAL_CALL_RE.finditer(source):
        args = _call_arguments(source, match.end() - 1)
        inner = args[1:-1].strip() if args.endswith(")") else args[1:].strip()
        if not inner or _LITERAL_RE.fullmatch(inner):
            continue  # `eval("1+1")`: the literal is the code, scanned with the rest
        if _DECODED_RE.search(inner):
            ctx.block(
                "shell.decode-exec", f"`{origin}` evaluates decoded bytes (code hidden from review)"
            )
            return
        if inner.startswith(("{", "function", "(")) or "=>" in inner:
            continue  # JavaScript's `Function(...)`-free callbacks and Ruby blocks
        ctx.confirm("shell.unresolved", f"`{origin}` evaluates code built at run time")


def _percent_parts(args: str) -> list[str]:
    parts: list[str] = []
    for match in _PERCENT_RE.finditer(args):
        body = next((g for g in match.groups()[1:] if g is not None), "")
        parts.extend(body.split() if match.group(1) in {"w", "W"} else [body])
    return parts


def _run_call(source: str, match: re.Match[str], ctx: Context, origin: str) -> None:
    """A shell-out: one string is a shell command; several are an argv (``["rm", "-rf", "/"]``).
    A call whose command paw cannot read (a variable, a list built at run time) is confirm."""
    args = _call_arguments(source, match.end())
    parts = [_literal(m) for m in _LITERAL_RE.finditer(args)]
    for groups in _QW_RE.findall(args):
        parts.extend("".join(groups).split())
    if "%" in args:
        parts.extend(_percent_parts(args))
    if not parts:
        if args.strip(" \t([{)]}"):
            ctx.confirm("shell.unresolved", f"`{origin}` runs a command paw cannot resolve")
        return
    if len(parts) == 1 or any(c in parts[0] for c in " ;|&$`<>"):
        ctx.run_script(parts[0], f"{origin} shell call")
    else:
        ctx.run_script(" ".join(_quote(p) for p in parts), f"{origin} exec")


def _scan_writes(source: str, ctx: Context, origin: str) -> None:
    if not _has_any(source, _WRITE_NEEDLES):
        return
    for match in _WRITE_RE.finditer(source):
        path = next((g for g in match.groups() if g is not None), "")
        check_write_target(path, ctx, f"{origin} file write", source)


def _quote(part: str) -> str:
    return "'" + part.replace("'", "'\\''") + "'"


def check_perl_in_place(cmd: SimpleCommand, ctx: Context) -> None:
    """``perl -pi -e … FILE`` edits files in place."""
    args = cmd.args
    if not any(a.startswith("-") and "i" in a and not a.startswith("--") for a in args):
        return
    skip_next = False
    for arg in args:
        if skip_next:
            skip_next = False
            continue
        if arg.startswith("-"):
            skip_next = arg[-1] in "eE"
            continue
        check_write_target(arg, ctx, "perl -i", None)
