"""Network: download-and-execute, downloads run later, secrets sent out, remote writes (gh)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paw.core.guard.files import PathClass
from paw.core.guard.shell.rules.argv import option_value, split_args
from paw.core.guard.shell.rules.files import check_write_target, classify_cached
from paw.core.guard.shell.words import has_unknown

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.context import Context
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
    }
)  # fmt: skip
_SECRET_RE = re.compile(
    r"(^|/)(\.ssh|\.gnupg|\.aws|\.aws/credentials|\.aws/config|\.ssh/id_[^/]*|\.ssh/.*key|\.netrc|\.npmrc|\.pypirc"
    r"|\.git-credentials|\.docker/config\.json|\.kube/config|\.config/gh/hosts\.yml|\.gnupg/.*"
    r"|\.env(\.[\w.-]+)?|shadow|gshadow|\.pgpass|credentials\.json|\.vault-token|\.boto"
    r"|\.azure/.*|\.config/gcloud/.*|id_rsa|id_ed25519|id_ecdsa|.*\.pem|.*\.key|.*\.p12|.*\.pfx)$"
)
_TEMPLATE_RE = re.compile(r"\.(example|sample|template|dist|pub)$")
_ENV_DUMPERS = frozenset({"env", "printenv", "set", "export", "declare", "compgen"})
_READERS = frozenset(
    {"cat", "head", "tail", "base64", "xxd", "od", "gzip", "tar", "zip", "strings", "less", "more",
     "tac", "bat", "gpg", "openssl", "jq", "yq", "sed", "awk", "grep", "cut", "sort", "hexdump"}
)  # fmt: skip
_DATA_FILE_OPTS = (
    "-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "-F", "--form", "-T",
    "--upload-file", "--post-file", "--body-file", "--json",
)  # fmt: skip


def is_secret_path(path: str, ctx: Context) -> bool:
    """True for credential files (``~/.aws/credentials``, ``.env``, ``id_rsa`` …)."""
    path = path.rstrip("/")
    if not path or has_unknown(path) or _TEMPLATE_RE.search(path):
        return False
    if _SECRET_RE.search(path):
        return True
    return classify_cached(path, ctx.config) is PathClass.SENSITIVE


def reads_secret(cmd: SimpleCommand, ctx: Context) -> str | None:
    """What secret a command outputs: a credential file it reads, or the environment."""
    name = cmd.name
    if name in _ENV_DUMPERS and not [a for a in cmd.args if not a.startswith("-")]:
        return "the environment (tokens and keys)"
    if name == "gh" and cmd.args[:2] == ["auth", "token"]:
        return "the GitHub token"
    if name in _READERS:
        for arg in cmd.args:
            if is_secret_path(arg, ctx):
                return f"`{arg}`"
    for redirect in cmd.redirects:
        if redirect.op == "<" and is_secret_path(redirect.target.text, ctx):
            return f"`{redirect.target.text}`"
    return None


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
    operands = split_args(cmd.args, frozenset({"-i", "-P", "-p", "-o", "-F", "-J", "-e"})).operands
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
    if out and out != "-":
        check_write_target(out, ctx, f"{cmd.name} -o", None)
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

_HOME_PREFIXES = ("~/", "$HOME/", "${HOME}/", "/root/", "/home/")


def _check_secret_read(cmd: SimpleCommand, ctx: Context) -> None:
    """Printing a home credential store puts it in the agent's context, i.e. at its model
    provider: a human should see that first (a project ``.env`` stays allowed)."""
    for arg in cmd.args:
        if arg.startswith(_HOME_PREFIXES) and is_secret_path(arg, ctx):
            ctx.confirm(
                "shell.secret-read",
                f"`{cmd.name}` prints the credential file `{arg}` into the agent's context",
            )
            return


for _name in _READERS:
    RULES[_name] = (*RULES.get(_name, ()), _check_secret_read)
