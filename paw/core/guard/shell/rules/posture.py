"""The guard's posture: ``allow`` is earned.

Every simple command, after its own rules, passes here. A command is ``allow`` only when the
guard can say why it is contained: it runs a program the guard knows (a rule reads it, or
``known.py`` lists it), and nothing in its words reaches beyond the project. Otherwise:

- a program paw does not know is ``confirm`` ("paw does not know what `X` does");
- a subcommand verb that destroys (delete, drop, purge, wipe …) is ``confirm``, ``block`` when
  the target is everything (``--all``, ``all``, ``*``) or looks like production (a word
  ``prod``/``production`` in the arguments or in an assignment before the command);
- SQL that drops, truncates, alters or deletes (in an argument, ``-e``/``-c``/``--eval``, a
  here-document or piped text) is ``confirm``; ``block`` for a whole database or production;
- a path in the user's home outside the project (history, keys, profiles, other repositories)
  is ``confirm``: reads are judged like writes;
- listening on a network address, changing tool or system settings, reaching a link-local,
  metadata or private address are ``confirm`` (``block`` for cloud metadata endpoints and
  kernel settings).
Project programs (``./build.sh``, ``bin/rails``) are the project's own code: known, but their
verbs are still read.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paw.core.guard.shell.rules import known
from paw.core.guard.shell.rules.targets import _normalise, in_cwd
from paw.core.guard.shell.words import SENTINELS

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

DESTROY = frozenset(
    {
        "delete", "destroy", "drop", "dropdb", "dropdatabase", "purge", "flush", "flushall",
        "flushdb", "wipe", "terminate", "prune", "remove", "rm", "rmi", "del", "uninstall",
        "erase", "truncate", "nuke", "teardown", "obliterate", "expunge", "shred", "zap",
        "deprovision", "decommission",
    }
)  # fmt: skip
_FLAGS = frozenset({"delete", "destroy", "drop", "purge", "wipe", "flush", "truncate", "nuke"})
_EVERYTHING = frozenset({"all", "*", "everything", "flushall", "flushdb", "--all", "-a"})
_PROD_RE = re.compile(r"(?:^|[^a-z])(?:prod|production|prd|live)(?:$|[^a-z])", re.IGNORECASE)
_SPLIT_RE = re.compile(r"[:._/-]")
_ALPHA_RE = re.compile(r"[a-z]+")
_SQL_RE = re.compile(
    r"\b(?:drop\s+(?:table|database|schema|index|view|collection|user|role)\b|truncate\s+"
    r"(?:table\s+)?\w+|delete\s+from\b|alter\s+table\b|flushall\b|flushdb\b)"
    r"|\.(?:drop(?:database)?|delete(?:many|one)?|remove)\s*\(",
    re.IGNORECASE,
)
_SQL_ALL_RE = re.compile(r"\b(?:drop\s+(?:database|schema)|dropdatabase|flushall)\b", re.IGNORECASE)
_HOME_RE = re.compile(r"^(?:~[^/]*|/home/[^/]+|/Users/[^/]+|/root)(?:/|$)")
_TOOL_CACHE_RE = re.compile(
    r"^(?:~|/home/[^/]+|/Users/[^/]+|/root)/(?:\.cache|Library/Caches)(?:/|$)"
)
_ECHO = frozenset({"echo", "printf"})
# Programs whose operands are not paths read here: data, directories to enter, or paths their own
# rules judge (`git worktree add ../x`, `ln -s ../shared/x`).
_NO_PATHS = frozenset({"echo", "printf", "cd", "pushd", "ln", "git", "rm", "mv"})
_LISTEN_FLAGS = frozenset({"-l", "--listen", "-L", "-R", "-D"})
_METADATA_RE = re.compile(
    r"(?:^|[/@=\s\[])(?:169\.254\.\d+\.\d+|fd00:ec2::254|100\.100\.100\.200|"
    r"metadata\.google\.internal|metadata\.azure\.com)(?:[:/\]\s]|$)",
    re.IGNORECASE,
)
_PRIVATE_RE = re.compile(
    r"(?:^|[/@=\s\[])(?:10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(?:1[6-9]|2\d|3[01])\.\d+\.\d+"
    r"|f[cd][0-9a-f]{2}:[0-9a-f:]*)(?:[:/\]\s]|$)",
    re.IGNORECASE,
)
# A URL's path, query and fragment (up to a blank, a quote or a nested `scheme://`, which stays
# judged: `?u=http://169.254.169.254/` is still reached through a proxy); a bare `host.tld/path`.
_URL_PATH_RE = re.compile(r"(://[^/\s?#'\"]*)[/?#](?:(?![A-Za-z][A-Za-z0-9+.-]*://)[^\s'\"])*")
_BARE_URL_RE = re.compile(r"^((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}(?::\d+)?)/.*", re.DOTALL)
_SETTINGS_VERBS = frozenset({"set", "unset", "add", "delete", "edit", "rm", "remove", "write"})
_SETTINGS = frozenset({"config", "configure", "settings", "defaults", "gsettings", "dconf"})
_KERNEL = frozenset({"sysctl"})
_PYTHONS = ("python", "pypy")
_NOT_SCRIPT = frozenset({"-", ""})
_RUNNERS = frozenset({"node", "ruby", "php", "perl", "bun", "deno", "Rscript"})
_LISTEN_RE = re.compile(
    r"(?:^|=)(?:0\.0\.0\.0|::|\[::\])(?::\d+)?$|^0\.0\.0\.0:|listen[:=,]|^--listen\b",
    re.IGNORECASE,
)
_ADDRESS_HINT_RE = re.compile(r"\d\.\d+\.\d|metadata\.|::|\[[fF]")
_DOTTED_RE = re.compile(r"\d\.\d+\.\d")
_SERVICES = frozenset({"systemctl", "launchctl", "service", "rc-service", "sv", "brew"})
_SERVICE_VERBS = frozenset(
    {"enable", "disable", "mask", "unmask", "start", "stop", "restart", "reload", "kill", "edit",
     "set-property", "set-default", "isolate", "load", "unload", "bootstrap", "bootout", "services"}
)  # fmt: skip
_CLIENT_RE = re.compile(r"(?:sql|mongo|redis|cql|cockroach|clickhouse|influx|etcd)", re.IGNORECASE)


def _positionals(args: list[str], limit: int = 4) -> list[str]:
    out: list[str] = []
    for arg in args:
        if arg == "--":
            break
        if not arg.startswith("-"):
            out.append(arg)
            if len(out) == limit:
                break
    return out


def _destroy_verb(args: list[str]) -> str | None:
    words = [w for w in _positionals(args) if "/" not in w and len(w) <= 40]
    if words and not DESTROY.isdisjoint(_ALPHA_RE.findall(" ".join(words).lower())):
        for word in words:
            if not DESTROY.isdisjoint(_ALPHA_RE.findall(word.lower())):
                return word
    for arg in args:  # `--drop`, `--delete-all`, `--purge`
        if arg.startswith("--") and _SPLIT_RE.split(arg[2:].split("=", 1)[0].lower())[0] in _FLAGS:
            return arg
    return None


def _everything(args: list[str]) -> bool:
    return any(a.lower() in _EVERYTHING or a.startswith("--all-") or a in {"", "/"} for a in args)


def _production(args: list[str], ctx: Context) -> bool:
    return ctx.production or any(_PROD_RE.search(a) for a in args if len(a) < 200)


def _is_project_program(cmd: SimpleCommand) -> bool:
    word = cmd.argv[0].text
    return "/" in word and not word.startswith(("/", "~")) and ".." not in word.split("/")


def is_known(name: str, cmd: SimpleCommand, ctx: Context, ruled: bool) -> bool:
    """Whether the guard can explain what the program does."""
    if ruled or name in known.KNOWN or name in ctx.functions or name in ctx.aliases:
        return True
    if ctx.config is not None and name in ctx.config.known_programs:
        return True
    from paw.core.guard.shell.rules.agents import agent_clis  # the specs, loaded once

    if name in agent_clis():  # a coding agent: its launch flags are read by the agents rules
        return True
    if cmd.wrappers and cmd.wrappers[-1].endswith(" -m"):
        # `python -m pkg.cli`: Python code as `python script.py` is (its verbs are still read);
        # a module that is a tool with rules (`twine`, `pip`) was judged as that tool
        return True
    return _is_project_program(cmd)


# Programs whose rules read their verbs (publishing, force, deletion): not read again here.
VERB_OWNED = frozenset(
    {"git", "npm", "pnpm", "yarn", "bun", "cargo", "go", "uv", "poetry", "pdm", "hatch", "pip",
     "pip3", "make", "gh", "glab", "npx", "bunx", "pnpx", "docker", "podman", "nerdctl"}
)  # fmt: skip
# Programs with rules of their own whose subcommand verbs are still read here.
VERB_READ = frozenset(
    {"rclone", "kubectl", "helm", "terraform", "tofu", "aws", "gcloud", "az", "s3cmd", "gsutil",
     "psql", "mysql", "mariadb", "sqlite3", "systemctl", "launchctl", "pulumi", "nomad", "consul",
     "vault", "heroku", "fly", "flyctl", "doctl", "firebase", "supabase", "vercel", "wrangler"}
)  # fmt: skip
_EFFECT_NAMES = frozenset(
    {"nc", "ncat", "netcat", "ssh", "sysctl", "systemctl", "launchctl", "service", "rc-service",
     "sv", "brew", "gsettings", "dconf", "defaults"}
)  # fmt: skip
_KNOWN = known.KNOWN
_PRINTERS = known.PRINTERS
_INFO = frozenset({"--help", "-h", "--version", "-V", "-v", "version", "help"})


def check(cmd: SimpleCommand, ctx: Context, ruled: bool, fired: bool = False) -> None:  # noqa: C901
    """The posture checks for one command (after its own rules; ``fired``: they found
    something, so its paths were judged already). Runs for every simple command: ordinary
    commands pass with set lookups and a few substring tests."""
    name = cmd.name
    if not name or name == "=" or name[0] == "-":  # `-`: no program (bash: not found)
        return
    args = cmd.args
    if not ruled and name not in _KNOWN and not is_known(name, cmd, ctx, ruled):
        _unknown(name, args, ctx)
    if (cmd.stdin_text or cmd.upstream) and _CLIENT_RE.search(name):
        _check_fed_sql(cmd, ctx)
    if not args:
        return
    text = "\x00".join(args)
    home = "~" in text or "/home/" in text or "/Users/" in text or "/root" in text
    if ".." in text and not fired and name not in _NO_PATHS:
        _check_climb(cmd, ctx)
    if name in _PRINTERS:  # operands are data or files read: only where they are counts
        if home and not fired and name not in _ECHO:
            _check_home(cmd, ctx)
        return
    if home and not fired:
        _check_home(cmd, ctx)
    # `_read_verbs`, with its common "nothing to read" case decided here (a call less)
    if (name not in VERB_OWNED and (not ruled or name in VERB_READ or name in known.CLIENTS)) or (
        name in _RUNNERS or name.startswith(_PYTHONS)
    ):
        _read_verbs(cmd, ctx, ruled, text)
    if (
        name in _EFFECT_NAMES
        # whether a word may name an address, a listener or a settings change: substring tests
        # (one case-insensitive regex cost more than the rest of the posture), inline (a call
        # less for every command with arguments)
        or "config" in text
        or "settings" in text
        or "--global" in text
        or "--system" in text
        or "listen" in text
        or "LISTEN" in text
        or "::" in text
        or "metadata." in text
        or "[f" in text
        or "[F" in text
        or ("." in text and _DOTTED_RE.search(text) is not None)
    ):
        if _ADDRESS_HINT_RE.search(text):
            for arg in args:
                if "." in arg or ":" in arg:  # every address pattern needs one of these
                    _check_address(name, arg, ctx)
        _check_effects(cmd, ctx)


def _read_verbs(cmd: SimpleCommand, ctx: Context, ruled: bool, text: str) -> None:
    name = cmd.name
    if name not in VERB_OWNED and (not ruled or name in VERB_READ or name in known.CLIENTS):
        _check_verbs(cmd, ctx, text)  # verbs no rule reads
    elif (name in _RUNNERS or name.startswith(_PYTHONS)) and cmd.args[0][:1] not in _NOT_SCRIPT:
        # `python manage.py flush`, `node cli.js drop`: a project script's verbs
        _check_verbs(cmd.with_argv(cmd.argv[1:], name), ctx, "\x00".join(cmd.args[1:]))


def _unknown(name: str, args: list[str], ctx: Context) -> None:
    if name in known.VERB_READERS:
        words = _positionals(args, 2)
        if words and not any(w in known.READ_VERBS for w in words):
            ctx.confirm(
                "shell.unknown-program", f"paw does not know what `{name} {' '.join(words)}` does"
            )
    elif not args or not all(a in _INFO for a in args):
        ctx.confirm("shell.unknown-program", f"paw does not know what `{name}` does")


def _check_verbs(cmd: SimpleCommand, ctx: Context, text: str) -> None:
    """Destructive subcommand verbs and SQL, for a program whose rules do not read them."""
    verb = _destroy_verb(cmd.args)
    if verb is not None:
        _destructive(cmd, ctx, f"`{cmd.name} {verb}` destroys")
    if (" " in text or _CLIENT_RE.search(cmd.name)) and _SQL_RE.search(text):
        for arg in cmd.args:
            if _SQL_RE.search(arg):
                _sql(cmd, ctx, arg)
                return


def _check_climb(cmd: SimpleCommand, ctx: Context) -> None:
    """``cat ../other-repo/.env``: a relative path that climbs out of the project (from where
    the command started) reaches another repository or another agent's worktree."""
    for arg in cmd.args:
        climbs = (arg == ".." or arg.startswith("../") or "/../" in arg) and arg[:1] not in "/~"
        if climbs and _normalise(in_cwd(arg, ctx)).startswith(".."):
            ctx.confirm(
                "shell.outside-read",
                f"`{cmd.name}` reaches `{arg[:120]}`, above the project (another repository"
                " or agent's worktree)",
            )
            return


def _check_home(cmd: SimpleCommand, ctx: Context) -> None:
    for arg in cmd.args:
        if (
            arg[:1] in {"~", "/"}
            and _HOME_RE.match(arg)
            and not _in_project(arg, ctx)
            and not _TOOL_CACHE_RE.match(arg)
        ):
            ctx.confirm(
                "shell.home-read",
                f"`{cmd.name}` reaches `{arg[:120]}`, in the user's home outside the project",
            )


def _in_project(path: str, ctx: Context) -> bool:
    project = ctx.cwd_path
    if not project:
        return False
    if path.startswith("~"):  # the project is given as an absolute path
        return False
    return path == project or path.startswith(project.rstrip("/") + "/")


def _destructive(cmd: SimpleCommand, ctx: Context, what: str) -> None:
    args = cmd.args
    if _everything(args):
        ctx.block("shell.destructive-verb", f"{what} everything it reaches (`{cmd.render()}`)")
    elif _production(args, ctx):
        ctx.block("shell.destructive-verb", f"{what} on a production-looking target")
    else:
        ctx.confirm("shell.destructive-verb", f"{what} (`{cmd.render()[:120]}`)")


def _sql(cmd: SimpleCommand, ctx: Context, text: str) -> None:
    found = _SQL_RE.search(text)
    shown = found.group(0) if found else text[:40]
    if _SQL_ALL_RE.search(text) or _production([*cmd.args, text], ctx):
        ctx.block(
            "shell.destructive-sql",
            f"`{cmd.name}` runs `{shown}` on a whole database or production",
        )
    else:
        ctx.confirm("shell.destructive-sql", f"`{cmd.name}` runs `{shown}`: data or schema is lost")


def _check_fed_sql(cmd: SimpleCommand, ctx: Context) -> None:
    texts = [cmd.stdin_text or ""]
    texts.extend(" ".join(up.args) for up in cmd.upstream if up.name in {"echo", "printf"})
    for text in texts:
        if text and _SQL_RE.search(text):
            _sql(cmd, ctx, text)
            return


def _hosts(text: str) -> str:
    """``text`` with every URL's path, query and fragment left out: an address is judged where
    a URL names its host (`https://example.com/10.0.0.1` reaches example.com), anywhere else in
    an argument that is not a URL (`user@10.0.0.5:/srv`, `--host=10.0.0.5`, code)."""
    if "://" in text:
        return _URL_PATH_RE.sub(r"\1 ", text)
    return _BARE_URL_RE.sub(r"\1", text)


def judge_address(text: str) -> tuple[bool, str] | None:
    """A cloud metadata address (True: block) or a private network address (False: confirm)
    in ``text`` (a URL, a host, an argument), with the reason; None for anything else."""
    hosts = _hosts(text)
    if _METADATA_RE.search(hosts):
        return True, f"`{text[:80]}` is a cloud metadata address: instance credentials"
    if _PRIVATE_RE.search(hosts) and not text.startswith(("./", "/")):
        return False, f"`{text[:80]}` is a private network address"
    return None


def _check_address(name: str, arg: str, ctx: Context) -> None:
    hosts = _hosts(arg)
    if _METADATA_RE.search(hosts):
        ctx.block(
            "shell.private-address",
            f"`{name}` reaches a cloud metadata address (`{arg[:80]}`): instance credentials",
        )
    elif _PRIVATE_RE.search(hosts) and not arg.startswith(("./", "/")):
        ctx.confirm(
            "shell.private-address", f"`{name}` reaches a private network address (`{arg[:80]}`)"
        )


def _check_effects(cmd: SimpleCommand, ctx: Context) -> None:
    name = cmd.name
    args = cmd.args
    if any(_LISTEN_RE.search(a) for a in args):
        ctx.confirm("shell.listen", f"`{name}` listens on a network address")
    elif name in {"nc", "ncat", "netcat"} and any(_short_flag(a, "l") for a in args):
        ctx.confirm("shell.listen", f"`{name} -l` listens on a network port")
    elif name == "ssh" and any(a in _LISTEN_FLAGS for a in args):
        ctx.confirm("shell.listen", "`ssh -L/-R/-D` opens a port forwarding (a listener)")
    if name in _SERVICES and any(w in _SERVICE_VERBS for w in _positionals(args, 2)):
        ctx.confirm("shell.settings", f"`{cmd.render()[:80]}` changes which services run")
    if name in _KERNEL and any(a == "-w" or ("=" in a and not a.startswith("-")) for a in args):
        ctx.block("shell.settings", "`sysctl` changes a kernel setting for the whole machine")
    words = _positionals(args, 3)
    if name in _SETTINGS or (words and words[0] in _SETTINGS):
        rest = words if name in _SETTINGS else words[1:]
        if (rest and rest[0] in _SETTINGS_VERBS) or "--global" in args or "--system" in args:
            ctx.confirm("shell.settings", f"`{cmd.render()[:80]}` changes a tool's settings")


def _short_flag(arg: str, letter: str) -> bool:
    return arg.startswith("-") and not arg.startswith("--") and letter in arg[1:]


def _check_assign(cmd: SimpleCommand, ctx: Context) -> None:
    """``RAILS_ENV=production cmd``, ``export NODE_ENV=production``: production-looking."""
    pairs = (
        [(cmd.argv[1].text, cmd.argv[2].text)]
        if cmd.name == "=" and len(cmd.argv) == 3
        else [a.partition("=")[::2] for a in cmd.args if "=" in a]
    )
    for var, value in pairs:
        if value and value[0] not in SENTINELS and _PROD_RE.search(value) and var.isupper():
            ctx.production = True


RULES: dict[str, tuple[Check, ...]] = {"=": (_check_assign,), "export": (_check_assign,)}
