"""Secrets into the agent's context: credential stores, token printers, environment and history
dumps, and credential files read by any program. What an agent prints goes to its model
provider; one treatment for every reader (cat, cp, grep, base64, an interpreter …)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paw.core.guard.shell.rules.net import TOKEN_PRINTERS, prints_environment, token_printer
from paw.core.guard.shell.rules.secretpaths import home_secret

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

RULE = "shell.secret-read"

# Commands that name a file without printing its content.
NON_READERS = frozenset(
    {"ls", "stat", "file", "test", "[", "[[", "chmod", "chown", "chgrp", "touch", "mkdir", "rm",
     "shred", "unlink", "rmdir", "du", "wc", "ssh", "scp", "sftp", "ssh-add", "ssh-keygen",
     "ssh-copy-id", "realpath", "readlink", "dirname", "basename", "cd", "pushd", "md5sum",
     "sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum", "git", "aws", "gcloud", "az",
     "kubectl", "helm", "docker", "terraform", "export", "=", "source", ".", "gpg", "gpg2",
     "vim", "vi", "nvim", "nano", "emacs", "code", "find", "fd", "tree", "exa", "eza",
     "getfacl", "lsattr", "lsof", "echo", "printf", "ansible", "ansible-playbook", "keychain",
     "eval", "ssh-agent", "autossh", "mosh", "sshfs"}
)  # fmt: skip
_ENV_DUMP = frozenset({"printenv", "set", "export", "declare", "typeset", "compgen", "env"})
_SECRET_VAR_RE = re.compile(
    r"(^|_)(TOKEN|SECRET|PASSWORD|PASSWD|PASS|APIKEY|API_KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?"
    r"|PAT|AUTH)(_|$)",
    re.IGNORECASE,
)


def secret_variable(name: str) -> bool:
    """True for variable names that hold credentials (``GITHUB_TOKEN``, ``OPENAI_API_KEY``)."""
    return _SECRET_VAR_RE.search(name) is not None


def env_dump(cmd: SimpleCommand) -> bool:
    """``env``, ``printenv``, bare ``set``/``export``/``declare -p``: every variable printed."""
    name, args = cmd.name, cmd.args
    if name not in _ENV_DUMP:
        return prints_environment(cmd)  # `python -c 'print(os.environ)'`
    operands = [a for a in args if not a.startswith(("-", "+"))]
    if name == "printenv":
        return not operands or any(secret_variable(o) for o in operands)
    if name == "env":
        return not operands
    if name == "set":
        return not args
    if name in {"export", "declare", "typeset"}:
        return not operands and all(a in {"-p", "-x", "-px", "-xp"} for a in args)
    return name == "compgen" and "-e" in args and not operands


_PRINTERS = frozenset(
    {"cat", "echo", "printf", "base64", "base32", "xxd", "od", "hexdump", "tee", "head", "tail",
     "rev", "tr", "sed", "awk", "jq", "yq", "less", "more", "cut", "fold", "tac", "strings",
     "openssl", "gzip", "bat", "nl", "column", "paste", "sort", "uniq"}
)  # fmt: skip


_FILTERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag"})
_SECRET_WORD_RE = re.compile(r"token|secret|key|pass|auth|cred|pat\b", re.IGNORECASE)


def _check_printed_downstream(cmd: SimpleCommand, ctx: Context) -> bool:
    """``gh auth token | base64``, ``echo "$(gh auth token)"``: the token still reaches stdout."""
    if (cmd.name not in _PRINTERS and cmd.name not in _FILTERS) or ctx.piped_out:
        return False
    feeds = [*cmd.upstream, *(s for subs in cmd.subs.values() for s in subs)]
    if cmd.name in _FILTERS:
        pattern = next((a for a in cmd.args if not a.startswith("-")), "")
        if _SECRET_WORD_RE.search(pattern) and any(env_dump(f) for f in cmd.upstream):
            ctx.block(
                RULE, f"`{cmd.name} {pattern}` prints the secret variables of the environment"
            )
            return True
        return False
    for feed in feeds:
        printed = token_printer(feed) or ("the environment" if env_dump(feed) else None)
        if printed is not None:
            ctx.block(RULE, f"`{cmd.name}` prints {printed} into the agent's context")
            return True
    return False


def _check_secret_readers(cmd: SimpleCommand, ctx: Context) -> None:
    name = cmd.name
    if (cmd.upstream or cmd.subs) and _check_printed_downstream(cmd, ctx):
        return
    if (name in _SECRET_COMMANDS or name.startswith("docker-credential-")) and not ctx.piped_out:
        printed = token_printer(cmd)
        if printed is not None:
            ctx.block(RULE, f"`{cmd.render()}` prints {printed} into the agent's context")
            return
        if env_dump(cmd):
            ctx.block(RULE, f"`{cmd.render()}` dumps the environment (tokens, keys)")
            return
    if name in NON_READERS or not name or not (cmd.args or cmd.redirects):
        return
    _check_read_paths(cmd, ctx)


def _check_read_paths(cmd: SimpleCommand, ctx: Context) -> None:
    """A credential file named by an argument or read through ``<``."""
    relative = bool(ctx.cwd_prefix)
    args = cmd.args
    if not relative and "~" not in (joined := "".join(args)) and "/" not in joined:
        args = []  # without a `cd`, only a word holding `~` or `/` can name a home file
    for arg in args:
        if not arg or (arg[0] not in "~/-@" and not relative):
            continue
        value = arg.split("=", 1)[1] if arg.startswith("-") and "=" in arg else arg
        value = value.removeprefix("@")
        if not relative and value[:1] not in ("~", "/"):
            continue  # `-la`, `--out=dist`: without a `cd`, only these can name a home file
        if value and home_secret(value, ctx):
            ctx.block(RULE, f"`{cmd.name}` reads the credential file `{value}`")
            return
    for redirect in cmd.redirects:
        if redirect.op == "<" and home_secret(redirect.target.text, ctx):
            ctx.block(RULE, f"`{cmd.name}` reads the credential file `{redirect.target.text}`")
            return


_SECRET_COMMANDS = frozenset(TOKEN_PRINTERS) | _ENV_DUMP
GLOBAL: tuple[Check, ...] = (_check_secret_readers,)
RULES: dict[str, tuple[Check, ...]] = {}
