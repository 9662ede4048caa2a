"""Network: download-and-execute, downloads run later, secrets sent out, remote writes (gh)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from paw.core.guard.shell.rules.argv import option_value, split_args
from paw.core.guard.shell.rules.code import prints_environment as prints_environment_in
from paw.core.guard.shell.rules.files import check_outside_write, check_write_target
from paw.core.guard.shell.rules.inline import inline_code
from paw.core.guard.shell.rules.secretpaths import is_secret_path

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

FETCHERS = frozenset(
    {
        "curl", "wget", "iwr", "irm", "invoke-webrequest", "invoke-restmethod", "http", "https",
        "xh", "aria2c", "fetch", "lwp-request", "lwp-download", "get", "httpie", "curlie",
        "nc", "ncat", "netcat", "socat", "telnet", "tftp", "ftp", "gh", "wget2", "axel",
    }
)  # fmt: skip
SENDERS = frozenset(
    {
        "curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "ssh", "scp", "sftp", "ftp",
        "http", "https", "xh", "httpie", "curlie", "rsync", "mail", "sendmail", "mutt", "aws",
        "gsutil", "rclone", "iwr", "irm", "invoke-webrequest", "invoke-restmethod", "openssl",
        "dig", "nslookup", "host", "ping", "whois", "drill", "kdig", "gh", "aria2c", "wget2",
    }
)  # fmt: skip
_ENV_DUMPERS = frozenset({"env", "printenv", "set", "export", "declare", "compgen"})
_READERS = frozenset(
    {"cat", "head", "tail", "base64", "xxd", "od", "gzip", "tar", "zip", "strings", "less", "more",
     "tac", "bat", "gpg", "openssl", "jq", "yq", "sed", "awk", "grep", "cut", "sort", "hexdump"}
)  # fmt: skip
_DATA_FILE_OPTS = (
    "-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "-F", "--form", "-T",
    "--upload-file", "--post-file", "--body-file", "--json",
)  # fmt: skip


def _subcommand(args: list[str], *subs: tuple[str, ...]) -> bool:
    words = [a for a in args if not a.startswith("-")]
    return any(tuple(words[: len(sub)]) == sub for sub in subs)


def _keychain(args: list[str], words: list[str]) -> bool:
    head = words[0] if words else ""
    reveal = bool({"-w", "-g"} & set(args))
    return head in {"dump-keychain", "export"} or (
        head.startswith("find-") and "password" in head and reveal
    )


def _aws(args: list[str], words: list[str]) -> bool:
    if _subcommand(
        args,
        ("configure", "export-credentials"),
        ("sts", "get-session-token"),
        ("ecr", "get-login-password"),
        ("sts", "assume-role"),
    ):
        return True
    keys = " ".join(words[2:]).lower()
    return _subcommand(args, ("configure", "get")) and any(
        k in keys for k in ("secret", "key", "token")
    )


def _kubectl(args: list[str], words: list[str]) -> bool:
    if _subcommand(args, ("config", "view")):
        return bool({"--raw", "--flatten"} & set(args))
    output = any(a.startswith(("-o", "--output")) for a in args)
    return words[:2] in (["get", "secret"], ["get", "secrets"]) and output


def _gh(args: list[str], words: list[str]) -> bool:
    del words
    shown = bool({"-t", "--show-token"} & set(args))
    return _subcommand(args, ("auth", "token")) or (_subcommand(args, ("auth", "status")) and shown)


_PASS_SAFE: frozenset[str] = frozenset(
    {"ls", "list", "find", "search", "init", "git", "insert", "add", "rm", "remove", "delete",
     "mv", "rename", "cp", "copy", "edit", "generate", "help", "version", "--help", "--version",
     "sync", "setup", "audit", "otp"}
)  # fmt: skip
TOKEN_PRINTERS: dict[str, tuple[str, Callable[[list[str], list[str]], bool]]] = {
    "security": ("the macOS keychain", _keychain),
    "secret-tool": ("the desktop keyring", lambda a, w: w[:1] == ["lookup"]),
    "pass": ("the password store", lambda a, w: not w or w[0] not in _PASS_SAFE),
    "gopass": ("the password store", lambda a, w: not w or w[0] not in _PASS_SAFE),
    "op": ("1Password", lambda a, w: _subcommand(a, ("read",), ("item", "get"), ("inject",))),
    "bw": ("the password manager", lambda a, w: _subcommand(a, ("get",), ("export",))),
    "lpass": ("the password manager", lambda a, w: _subcommand(a, ("show",), ("export",))),
    "gh": ("the GitHub token", _gh),
    "aws": ("AWS credentials", _aws),
    "gcloud": (
        "a Google Cloud token",
        lambda a, w: any(x.startswith("print-") and "token" in x for x in w),
    ),
    "az": ("an Azure token", lambda a, w: _subcommand(a, ("account", "get-access-token"))),
    "kubectl": ("Kubernetes credentials", _kubectl),
    "oc": ("Kubernetes credentials", _kubectl),
    "vault": (
        "Vault secrets",
        lambda a, w: _subcommand(a, ("read",), ("kv", "get"), ("token", "create"), ("print",)),
    ),
    "gpg": ("a private GPG key", lambda a, w: any(x.startswith("--export-secret") for x in a)),
    "gpg2": ("a private GPG key", lambda a, w: any(x.startswith("--export-secret") for x in a)),
    "keyring": ("the system keyring", lambda a, w: w[:1] == ["get"]),
    "history": ("the shell history", lambda a, w: True),
    "fc": ("the shell history", lambda a, w: "-l" in a or "-ln" in a),
    **dict.fromkeys(
        ("heroku", "fly", "flyctl", "doctl", "netlify", "vercel"),
        ("a hosting token", lambda a, w: any(x in {"auth:token", "token"} for x in w[:2])),
    ),
}


def token_printer(cmd: SimpleCommand) -> str | None:
    """Commands that print a stored password, token or key (credential stores, cloud CLIs)."""
    name = cmd.name
    entry = TOKEN_PRINTERS.get(name)
    if entry is None:
        if name.startswith("docker-credential-") and "get" in cmd.args:
            return "a container registry password"
        return None
    words = [a for a in cmd.args if not a.startswith("-")]
    what, test = entry
    return what if test(cmd.args, words) else None


_ARCHIVERS = frozenset({"tar", "gtar", "bsdtar", "zip", "7z", "7za", "cpio", "pax", "rar"})


def _tar_to_stdout(args: list[str]) -> bool:
    """A tar without ``-f``/``--file`` writes the archive to stdout."""
    for index, arg in enumerate(args):
        if arg == "--file" or arg.startswith("--file="):
            return False
        short = arg.startswith("-") and not arg.startswith("--")
        if (short or index == 0) and "f" in arg.lstrip("-"):
            return False
    return True


def archive_of_project(cmd: SimpleCommand) -> bool:
    """``tar czf - .``, ``zip -r - .``, ``git archive HEAD``: the repository as one stream."""
    name, args = cmd.name, cmd.args
    if name == "git":
        words = [a for a in args if not a.startswith("-")]
        return words[:1] == ["archive"] or words[:2] == ["bundle", "create"]
    if name not in _ARCHIVERS:
        return False
    first = args[0] if args else ""
    creating = "--create" in args or (
        name in {"tar", "gtar", "bsdtar"} and "c" in first.lstrip("-")
    )
    if name == "zip":
        creating = True
    if name in {"7z", "7za"}:
        creating = args[:1] == ["a"]
    if creating and name in {"tar", "gtar", "bsdtar"} and _tar_to_stdout(args):
        return True
    return creating and any(
        a in {"-", "/dev/stdout", "-so"} or a.endswith(("f-", "-f")) for a in args
    )


def reads_secret(cmd: SimpleCommand, ctx: Context) -> str | None:
    """What secret a command outputs: a credential file it reads, or the environment."""
    name = cmd.name
    if name in _ENV_DUMPERS and not [a for a in cmd.args if not a.startswith("-")]:
        return "the environment (tokens and keys)"
    if prints_environment(cmd):
        return "the environment (tokens and keys)"
    printed = token_printer(cmd)
    if printed is not None:
        return printed
    if archive_of_project(cmd):
        return "an archive of the repository"
    if name in _READERS:
        for arg in cmd.args:
            if is_secret_path(arg, ctx):
                return f"`{arg}`"
    for redirect in cmd.redirects:
        if redirect.op == "<" and is_secret_path(redirect.target.text, ctx):
            return f"`{redirect.target.text}`"
    return None


def prints_environment(cmd: SimpleCommand) -> bool:
    """Interpreter code that prints the whole environment (``python -c 'print(os.environ)'``)."""
    found = inline_code(cmd)
    return found is not None and prints_environment_in(*found)


def is_fetch(cmd: SimpleCommand) -> bool:
    """True when the command downloads something to stdout or a file."""
    name = cmd.name.lower()
    if name == "gh":
        return cmd.args[:1] == ["api"] or cmd.args[:2] == ["release", "download"]
    if name in {"python", "python3"} and "http.server" not in cmd.args:
        return any(a.startswith(("urllib", "requests")) for a in cmd.args)
    return name in FETCHERS


def _piped_secret(cmd: SimpleCommand, ctx: Context) -> str | None:
    for up in cmd.upstream:
        secret = reads_secret(up, ctx)
        if secret is not None:
            return f"{secret} is piped to `{cmd.name}` (network)"
    for redirect in cmd.redirects:
        if redirect.op == "<" and is_secret_path(redirect.target.text, ctx):
            return f"`{redirect.target.text}` is fed to `{cmd.name}` (network)"
    for index, subs in cmd.subs.items():
        for sub in subs:
            secret = reads_secret(sub, ctx)
            if secret is not None and index > 0:
                return f"{secret} is sent by `{cmd.name}` (network)"
    return None


def _uploaded_secret(cmd: SimpleCommand, ctx: Context) -> str | None:
    args = cmd.args
    for i, arg in enumerate(args):
        option, eq, inline = arg.partition("=")
        if arg in _DATA_FILE_OPTS and i + 1 < len(args):
            value = args[i + 1]
        elif eq and option in _DATA_FILE_OPTS:
            value = inline
        else:
            continue
        path = value.split("@", 1)[1] if "@" in value else value
        uploads = option in {"-T", "--upload-file", "--post-file", "--body-file"} or "@" in value
        if uploads and is_secret_path(path.split(";", 1)[0], ctx):
            return f"`{cmd.name}` uploads the secret `{path}`"
    return None


def _check_exfiltration(cmd: SimpleCommand, ctx: Context) -> None:
    reason = _piped_secret(cmd, ctx) or _uploaded_secret(cmd, ctx)
    if reason is not None:
        ctx.block("shell.exfiltration", reason)


def _check_copy_out(cmd: SimpleCommand, ctx: Context) -> None:
    operands = split_args(cmd.args, ("-i", "-P", "-p", "-o", "-F", "-J", "-e")).operands
    if len(operands) >= 2 and ":" not in operands[-1] and cmd.name == "scp":
        check_write_target(operands[-1], ctx, cmd.name, None)
        check_outside_write(operands[-1], ctx, cmd.name)
    if len(operands) < 2 or ":" not in operands[-1]:
        return
    for source in operands[:-1]:
        if is_secret_path(source, ctx):
            ctx.block(
                "shell.exfiltration", f"`{cmd.name}` copies the secret `{source}` to a remote host"
            )
            return


def _record_download(cmd: SimpleCommand, ctx: Context) -> None:
    out = option_value(cmd.args, "-o", "--output", "-O", "--output-document")
    if cmd.name == "wget" and out is None:
        urls = [a for a in cmd.args if "://" in a]
        out = urls[0].rstrip("/").rsplit("/", 1)[-1] if urls else None
    if out is None and cmd.name == "curl" and ("-O" in cmd.args or "--remote-name" in cmd.args):
        urls = [a for a in cmd.args if "://" in a]
        out = urls[0].rstrip("/").rsplit("/", 1)[-1] if urls else None
    for redirect in cmd.redirects:
        out = redirect.target.text
    folder = option_value(cmd.args, "-P", "--directory-prefix", "--output-dir")
    if folder:  # a download is a write like a copy: not into the home folder or onto PATH
        check_outside_write(folder.rstrip("/") + "/", ctx, f"{cmd.name} {folder}")
    if out and out != "-":
        check_write_target(out, ctx, f"{cmd.name} -o", None)
        if "://" not in out:  # judged as a redirection to that file is
            check_outside_write(out, ctx, f"{cmd.name} -o", dotfiles_only=True)
        ctx.downloads.add(out)
        ctx.downloads.add(out.rsplit("/", 1)[-1])


def is_download(path: str, ctx: Context) -> bool:
    """True when ``path`` was written by a download earlier in the same command."""
    return path in ctx.downloads or (path.startswith("./") and path[2:] in ctx.downloads)


def _check_fetcher(cmd: SimpleCommand, ctx: Context) -> None:
    _record_download(cmd, ctx)
    _check_exfiltration(cmd, ctx)


def _check_ssh(cmd: SimpleCommand, ctx: Context) -> None:
    parsed = split_args(
        cmd.args,
        frozenset({"-i", "-p", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-W", "-b", "-c", "-E",
                   "-e", "-m", "-O", "-Q", "-S", "-w", "-B", "-I"}),
    )  # fmt: skip
    if len(parsed.operands) >= 2:
        ctx.run_script(" ".join(parsed.operands[1:]), f"ssh {parsed.operands[0]}")
    _check_exfiltration(cmd, ctx)


_NC = frozenset({"nc", "ncat", "netcat", "socat", "telnet", "openssl"})
_NC_EXEC = frozenset({"-e", "-c", "--exec", "--sh-exec", "--lua-exec"})


def _check_reverse_shell(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    hands_shell = any(
        a in _NC_EXEC or (a.startswith("-") and not a.startswith("--") and "e" in a[1:])
        for a in args
    )
    if cmd.name == "socat":
        hands_shell = any(a.lower().startswith(("exec:", "system:")) for a in args)
    shell_upstream = any(up.name in {"sh", "bash", "zsh", "dash", "ksh"} for up in cmd.upstream)
    if (hands_shell and cmd.name not in {"telnet", "openssl"}) or shell_upstream:
        ctx.block("shell.reverse-shell", f"`{cmd.name}` hands a shell to a network peer")


RULES: dict[str, tuple[Check, ...]] = {
    **dict.fromkeys(FETCHERS - {"gh"}, (_check_fetcher,)),
    **dict.fromkeys(SENDERS - FETCHERS - {"ssh", "scp", "rsync"}, (_check_exfiltration,)),
    "gh": (_check_exfiltration,),
    "scp": (_check_copy_out,),
    "rsync": (_check_copy_out,),
    "ssh": (_check_ssh,),
}
for _name in _NC:
    RULES[_name] = (*RULES.get(_name, ()), _check_reverse_shell)
