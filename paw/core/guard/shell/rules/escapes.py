"""A tool's own shell escape, and serving a home or root folder over HTTP.

Database shells run shell commands they are given (``sqlite3 db '.shell rm -rf /'``, psql's
``\\!``, mysql's ``system``): the escaped text is judged as the shell command it is, from an
argument, a ``-cmd``/``-c``/``-e`` value or the text on the tool's stdin. A file server whose
document root is the home folder, a system directory or root hands out keys and history to
anyone who reaches the port: block.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paw.core.guard.shell.evaluation import CwdKind
from paw.core.guard.shell.rules.targets import is_dangerous_dir
from paw.core.guard.shell.words import has_unknown

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

# `.shell CMD`/`.system CMD` (sqlite3, duckdb), `\! CMD` (psql, mysql), `system CMD` (mysql).
_SQLITE_ESCAPE_RE = re.compile(r"^\s*\.(?:shell|system)\s+(.+)$", re.MULTILINE)
_SLASH_ESCAPE_RE = re.compile(r"^\s*\\!\s*(.+)$", re.MULTILINE)
_MYSQL_ESCAPE_RE = re.compile(r"^\s*(?:system|\\!)\s+(.+)$", re.MULTILINE | re.IGNORECASE)
_PATTERNS = {
    "sqlite3": _SQLITE_ESCAPE_RE,
    "sqlite": _SQLITE_ESCAPE_RE,
    "duckdb": _SQLITE_ESCAPE_RE,
    "psql": _SLASH_ESCAPE_RE,
    "mysql": _MYSQL_ESCAPE_RE,
    "mariadb": _MYSQL_ESCAPE_RE,
}


def _check_escape(cmd: SimpleCommand, ctx: Context) -> None:
    pattern = _PATTERNS[cmd.name]
    texts = [a for a in cmd.args if "\n" in a or not a.startswith("-")]
    texts.extend(a.split("=", 1)[1] for a in cmd.args if a.startswith("--command=") and "=" in a)
    if cmd.stdin_text is not None:
        texts.append(cmd.stdin_text)
    for text in texts:
        for statement in re.split(r";\s*(?=[.\\])", text):
            for match in pattern.finditer(statement):
                shell = match.group(1).strip()
                ctx.confirm("shell.tool-escape", f"`{cmd.name}` runs the shell command `{shell}`")
                ctx.run_script(shell, f"{cmd.name} shell escape")


_SERVE_DIR_OPTIONS = frozenset({"-d", "--directory", "-t", "--root", "-r", "--dir", "-h"})


def judge_served(directory: str | None, ctx: Context, what: str) -> None:
    """Block serving the home folder, a system directory or root; the current directory
    counts when no folder is named and the command moved into one of those."""
    if directory is None:
        if ctx.cwd is not CwdKind.DANGEROUS:
            return
        directory = ctx.cwd_prefix or "~"
    if has_unknown(directory):
        ctx.confirm("shell.serve-home", f"`{what}` serves a folder paw cannot see")
    elif directory.startswith("~") or _is_home_or_root(directory):
        ctx.block(
            "shell.serve-home", f"`{what}` serves `{directory}` (home or root: keys, history)"
        )
    elif is_dangerous_dir(directory.rstrip("/") or "/", ctx):
        ctx.confirm("shell.serve-home", f"`{what}` serves the system folder `{directory}`")


def _is_home_or_root(directory: str) -> bool:
    parts = [p for p in directory.split("/") if p]
    if not parts:
        return directory.startswith("/")
    return parts[0] in {"root", "home", "Users"} and len(parts) <= 2


def served_directory(args: list[str]) -> str | None:
    """The folder a static file server is told to serve (``-d DIR``, ``--directory=DIR``)."""
    for i, arg in enumerate(args):
        name, eq, value = arg.partition("=")
        if eq and name in _SERVE_DIR_OPTIONS:
            return value
        if arg in _SERVE_DIR_OPTIONS and i + 1 < len(args):
            return args[i + 1]
    return None


def check_http_server(args: list[str], ctx: Context, what: str) -> None:
    """``python -m http.server [-d DIR] [PORT]``."""
    judge_served(served_directory(args), ctx, what)


def _check_php(cmd: SimpleCommand, ctx: Context) -> None:
    if any(a == "-S" or a.startswith("-S") for a in cmd.args):
        judge_served(served_directory(cmd.args), ctx, f"{cmd.name} -S")


def _check_static_server(cmd: SimpleCommand, ctx: Context) -> None:
    """``http-server ~``, ``serve /``: the first operand is the folder."""
    operands = [a for a in cmd.args if not a.startswith("-") and not a.isdigit()]
    named = served_directory(cmd.args)
    judge_served(named if named is not None else (operands[0] if operands else None), ctx,
                 cmd.name)  # fmt: skip


RULES: dict[str, tuple[Check, ...]] = {
    **dict.fromkeys(_PATTERNS, (_check_escape,)),
    "php": (_check_php,),
    "http-server": (_check_static_server,),
}
