"""The simple-command model and wrapper unwrapping (``env``, ``nice``, ``sudo``, ``timeout`` …)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from paw.core.guard.shell.words import UNKNOWN, Word

PRIVILEGE_WRAPPERS = frozenset({"sudo", "doas", "pkexec", "run0", "su", "sudoedit", "calife"})

# wrapper -> (options that take a value, number of positional operands before the command)
_WRAPPERS: dict[str, tuple[frozenset[str], int]] = {
    "env": (frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string", "-P"}), 0),
    "command": (frozenset(), 0),
    "builtin": (frozenset(), 0),
    "exec": (frozenset({"-a"}), 0),
    "nohup": (frozenset(), 0),
    "time": (frozenset({"-f", "--format", "-o", "--output"}), 0),
    "timeout": (frozenset({"-s", "--signal", "-k", "--kill-after"}), 1),
    "gtimeout": (frozenset({"-s", "--signal", "-k", "--kill-after"}), 1),
    "nice": (frozenset({"-n", "--adjustment"}), 0),
    "renice": (frozenset({"-n", "-g", "-p", "-u"}), 0),
    "ionice": (frozenset({"-c", "--class", "-n", "--classdata"}), 0),
    "stdbuf": (frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}), 0),
    "setsid": (frozenset(), 0),
    "chrt": (frozenset({"-T", "-P", "-D"}), 1),
    "taskset": (frozenset(), 1),
    "strace": (
        frozenset({"-e", "-o", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-P", "-S", "-X"}),
        0,
    ),
    "ltrace": (frozenset({"-e", "-o", "-p", "-s", "-u", "-E", "-a", "-l", "-n", "-x", "-L"}), 0),
    "busybox": (frozenset(), 0),
    "toybox": (frozenset(), 0),
    "flock": (frozenset({"-w", "--timeout", "-E", "--conflict-exit-code"}), 1),
    "unbuffer": (frozenset(), 0),
    "caffeinate": (frozenset({"-t", "-w"}), 0),
    "firejail": (frozenset(), 0),
    "sudo": (
        frozenset(
            {"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-T", "-U", "--user", "--group"}
        ),
        0,
    ),
    "doas": (frozenset({"-u", "-C"}), 0),
    "pkexec": (frozenset({"--user"}), 0),
    "run0": (frozenset({"-u", "--user", "-g", "--group", "-D", "--chdir", "--nice"}), 0),
    "sudoedit": (frozenset({"-u", "-g"}), 0),
    "su": (frozenset({"-c", "--command", "-s", "--shell", "-g", "-G"}), 0),
}
WRAPPER_NAMES = frozenset(_WRAPPERS) | {"watch"}
_WATCH_OPTS = frozenset({"-n", "--interval", "-d", "--differences", "-q", "--equexit"})
_TASKSET_PID = frozenset({"-p", "--pid"})
_ASSIGNMENT_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


_SHOWN = str.maketrans({UNKNOWN: "$…", "\ue001": "${…:?}", "\ue002": "$(…)"})


@dataclass(frozen=True, slots=True)
class Redirect:
    """One redirection: its operator and normalised target."""

    op: str
    target: Word


HERE_STRING = -1
"""The ``subs`` key of the commands run by substitutions in a here-string (``<<< "$(…)"``)."""


@dataclass(slots=True, init=False)  # built for every simple command: a plain __init__ is cheaper
class SimpleCommand:
    """One executed simple command after normalisation.

    ``upstream`` are the commands whose output feeds this one's stdin (earlier pipeline stages);
    ``stdin_text`` is a heredoc or here-string body; ``subs`` maps an argument index to the
    commands run by substitutions inside that argument.
    """

    argv: list[Word]
    redirects: list[Redirect]
    stdin_text: str | None
    upstream: tuple[SimpleCommand, ...]
    subs: dict[int, list[SimpleCommand]]
    wrappers: tuple[str, ...]
    name: str
    """The command word's basename (``/bin/rm`` is ``rm``)."""
    args: list[str]
    """Normalised argument texts (without the command word)."""

    def __init__(
        self,
        argv: list[Word],
        redirects: list[Redirect] | None = None,
        stdin_text: str | None = None,
        upstream: tuple[SimpleCommand, ...] = (),
        subs: dict[int, list[SimpleCommand]] | None = None,
        wrappers: tuple[str, ...] = (),
    ) -> None:
        self.argv = argv
        self.redirects = [] if redirects is None else redirects
        self.stdin_text = stdin_text
        self.upstream = upstream
        self.subs = {} if subs is None else subs
        self.wrappers = wrappers
        if argv:
            text = argv[0].text
            self.name = text.rsplit("/", 1)[-1] if "/" in text else text
        else:
            self.name = ""
        self.args = [w.text for w in argv[1:]] if len(argv) > 1 else []

    def set_command_word(self, word: Word) -> None:
        """Replace the command word (after resolving or folding it)."""
        self.argv[0] = word
        self.name = word.text.rsplit("/", 1)[-1]

    def render(self) -> str:
        """Human-readable normalised text (command word and arguments)."""
        return " ".join(w.text.translate(_SHOWN) for w in self.argv)

    def with_argv(self, argv: list[Word], wrapper: str) -> SimpleCommand:
        """A copy running ``argv`` under one more wrapper (substitution indices shifted)."""
        shift = len(self.argv) - len(argv)
        subs = {
            i - shift if i != HERE_STRING else i: c
            for i, c in self.subs.items()
            if i - shift >= 0 or i == HERE_STRING
        }
        return SimpleCommand(
            argv,
            self.redirects,
            self.stdin_text,
            self.upstream,
            subs,
            (*self.wrappers, wrapper),
        )


@dataclass(frozen=True, slots=True)
class Unwrapped:
    """The result of peeling one wrapper: the inner argv or a script string, or nothing."""

    wrapper: str
    argv: list[Word]
    script: str | None = None


def _skip_options(args: list[Word], with_value: frozenset[str], start: int) -> int:
    i = start
    while i < len(args):
        text = args[i].text
        if text == "--":
            return i + 1
        if not text.startswith("-") or text == "-":
            return i
        if text in with_value:
            i += 2
            continue
        i += 1
    return i


def _unwrap_env(args: list[Word]) -> Unwrapped:
    i = 1
    while i < len(args):
        text = args[i].text
        if text in {"-S", "--split-string"} and i + 1 < len(args):
            return Unwrapped("env", [], script=" ".join(w.text for w in args[i + 1 :]))
        if text.startswith("--split-string="):
            rest = [text.split("=", 1)[1], *(w.text for w in args[i + 1 :])]
            return Unwrapped("env", [], script=" ".join(rest))
        if text in {"-u", "--unset", "-C", "--chdir", "-P"}:
            i += 2
        elif text.startswith("-") or "=" in text:  # env sets `=x` too (`env ==` dumps all)
            i += 1
        else:
            break
    return Unwrapped("env", args[i:])


def _unwrap_watch(args: list[Word]) -> Unwrapped:
    i = 1
    exec_mode = False
    while i < len(args) and args[i].text.startswith("-"):
        text = args[i].text
        exec_mode = exec_mode or text in {"-x", "--exec"}
        i += 2 if text in _WATCH_OPTS - {"-d", "--differences", "-q", "--equexit"} else 1
    rest = args[i:]
    if not exec_mode:
        return Unwrapped("watch", [], script=" ".join(w.text for w in rest))
    return Unwrapped("watch", rest)


# runner -> (required subcommand or None, options taking a value, positionals before the command)
_RUNNERS: dict[str, tuple[str | None, frozenset[str], int]] = {
    "poetry": ("run", frozenset({"-C", "--directory", "-P", "--project"}), 0),
    "uv": ("run", frozenset({"--with", "--python", "-p", "--project", "--directory", "--env-file",
                             "--package", "--group", "--extra", "--index"}), 0),
    "uvx": (None, frozenset({"--with", "--from", "--python", "-p"}), 1),
    "pipenv": ("run", frozenset(), 0),
    "pdm": ("run", frozenset({"-p", "--project"}), 0),
    "hatch": ("run", frozenset({"-e", "--env"}), 0),
    "rye": ("run", frozenset(), 0),
    "bundle": ("exec", frozenset({"--gemfile"}), 0),
    "conda": ("run", frozenset({"-n", "--name", "-p", "--prefix", "--cwd"}), 0),
    "mamba": ("run", frozenset({"-n", "--name", "-p", "--prefix"}), 0),
    "micromamba": ("run", frozenset({"-n", "--name", "-p", "--prefix"}), 0),
    "mise": ("exec", frozenset({"-C", "--cd", "-j", "--jobs"}), 0),
    "asdf": ("exec", frozenset(), 0),
    "rbenv": ("exec", frozenset(), 0),
    "pyenv": ("exec", frozenset(), 0),
    "nodenv": ("exec", frozenset(), 0),
    "direnv": ("exec", frozenset(), 1),
    "doppler": ("run", frozenset({"-p", "--project", "-c", "--config", "--command"}), 0),
    "op": ("run", frozenset({"--env-file"}), 0),
    "dotenv": (None, frozenset({"-e", "-f", "-c", "-v"}), 0),
    "cross-env": (None, frozenset(), 0),
    "valgrind": (None, frozenset(), 0),
    "xvfb-run": (None, frozenset({"-n", "-s", "-e", "-f", "-p"}), 0),
    "proxychains": (None, frozenset({"-f"}), 0),
    "proxychains4": (None, frozenset({"-f"}), 0),
    "torsocks": (None, frozenset({"-u", "-p", "-a", "-P"}), 0),
    "catchsegv": (None, frozenset(), 0),
    "dbus-run-session": (None, frozenset(), 0),
    "ssh-agent": (None, frozenset({"-a", "-E", "-t", "-P"}), 0),
    "chroot": (None, frozenset({"--userspec", "--groups"}), 1),
    "unshare": (None, frozenset({"-S", "-G", "--setuid", "--setgid"}), 0),
    "systemd-run": (None, frozenset({"-p", "--property", "-u", "--unit", "-E", "--setenv"}), 0),
    "npm": ("exec", frozenset({"-c", "--call", "-p", "--package", "-w", "--workspace"}), 0),
    "npx": (None, frozenset({"-c", "--call", "-p", "--package", "-w", "--workspace"}), 0),
    "bunx": (None, frozenset({"-p", "--package"}), 0),
    "pnpm": ("exec", frozenset({"-C", "--dir", "--filter", "-F"}), 0),
    "yarn": ("exec", frozenset(), 0),
}  # fmt: skip
_SCRIPT_FLAG = {"script": ("-c", "--command"), "nix-shell": ("--run", "--command")}
WRAPPER_NAMES = WRAPPER_NAMES | frozenset(_RUNNERS) | frozenset(_SCRIPT_FLAG)


_CALL_FLAGS = frozenset({"-c", "--call"})  # `npx -c 'cmd'`, `npm exec -c 'cmd'`: a shell string


def _call_script(argv: list[Word], start: int, with_value: frozenset[str]) -> str | None:
    """The shell string of ``-c``/``--call`` among the runner's own options (before the
    command: ``npx jest -c jest.config.js`` is jest's option)."""
    i = start
    while i < len(argv) - 1:
        text = argv[i].text
        if text in _CALL_FLAGS:
            return argv[i + 1].text
        if text == "--" or not text.startswith("-"):
            return None
        i += 2 if text in with_value else 1
    return None


def _unwrap_runner(name: str, argv: list[Word]) -> Unwrapped | None:
    sub, with_value, positionals = _RUNNERS[name]
    start = 1
    if sub is not None:
        if len(argv) < 2 or argv[1].text != sub:
            return None
        start = 2
    if name in {"npm", "npx"}:
        script = _call_script(argv, start, with_value)
        if script is not None:
            return Unwrapped(name, [], script=script)
    i = start
    while i < len(argv):
        text = argv[i].text
        if text == "--":
            i += 1
            break
        if text in with_value:
            i += 2
        elif text.startswith("-") or ("=" in text and text[0].isalpha() and text[0].isupper()):
            i += 1
        else:
            break
    return Unwrapped(name, argv[i + positionals :])


def _unwrap_script_flag(name: str, argv: list[Word]) -> Unwrapped:
    for i, word in enumerate(argv[:-1]):
        if word.text in _SCRIPT_FLAG[name]:
            return Unwrapped(name, [], script=argv[i + 1].text)
        if word.text.startswith("-") and word.text.endswith("c") and not word.text.startswith("--"):
            return Unwrapped(name, [], script=argv[i + 1].text)
    return Unwrapped(name, [])


_SPECIAL = {"env": _unwrap_env, "watch": _unwrap_watch}


def _unwrap_special(name: str, argv: list[Word]) -> Unwrapped | None:
    """Wrappers whose options decide whether anything runs (``command -v``, ``su -c``)."""
    if name == "command" and any(w.text in {"-v", "-V"} for w in argv[1:2]):
        return Unwrapped(name, [])  # a lookup, nothing runs
    if name == "taskset" and any(w.text in _TASKSET_PID for w in argv[1:]):
        return Unwrapped(name, [])
    if name in {"su", "flock"}:
        for i, w in enumerate(argv[:-1]):
            if w.text in {"-c", "--command"}:
                return Unwrapped(name, [], script=argv[i + 1].text)
        if name == "su":
            return Unwrapped(name, [])
    return None


def unwrap(argv: list[Word]) -> Unwrapped | None:
    """Peel one wrapper off ``argv``; None when the command word is not a wrapper."""
    name = argv[0].text.rsplit("/", 1)[-1]
    if name not in WRAPPER_NAMES:
        return None
    if name in _RUNNERS:
        return _unwrap_runner(name, argv)
    if name in _SCRIPT_FLAG:
        return _unwrap_script_flag(name, argv)
    if name in _SPECIAL:
        return _SPECIAL[name](argv)
    spec = _WRAPPERS.get(name)
    if spec is None:
        return None
    special = _unwrap_special(name, argv)
    if special is not None:
        return special
    with_value, positionals = spec
    i = _skip_options(argv, with_value, 1) + positionals
    while i < len(argv) and _ASSIGNMENT_RE.match(argv[i].text):
        i += 1  # not run as assignments, but fail closed: judge what follows
    return Unwrapped(name, argv[i:])
