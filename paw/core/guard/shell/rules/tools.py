"""Everyday developer tools' options that write, delete, load code or send data elsewhere.

``pytest --basetemp=~`` empties the home folder, ``--junitxml=~/.bashrc`` overwrites a start-up
file, ``-p MODULE`` loads code paw has not read, ``--pastebin=all`` uploads the run's output. A
tool the guard knows is ``allow`` only with options whose effects stay in the project: such an
option with a value outside the project (or one paw cannot see) makes the command at least
``confirm``, which no standing rule approves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from paw.core.guard.shell.rules import files
from paw.core.guard.shell.rules.targets import _normalise, in_cwd, judge_path
from paw.core.guard.shell.words import SUBST, UNKNOWN

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check


class Tool(NamedTuple):
    """What a tool's options do. Option names are as written (``--out``, ``-o``, ``-toolexec``)."""

    write: frozenset[str] = frozenset()  # the value is a file or folder the tool writes
    delete: frozenset[str] = frozenset()  # the value is a folder the tool empties or replaces
    load: frozenset[str] = frozenset()  # the value is a file or folder whose code/config runs
    module: frozenset[str] = frozenset()  # the value names code to import (always confirm)
    send: frozenset[str] = frozenset()  # the option sends data off the machine
    flags: frozenset[str] = frozenset()  # a flag whose effect reaches outside the project
    fix: frozenset[str] = frozenset()  # a flag that makes the operands files it rewrites
    check: frozenset[str] = frozenset()  # a flag that keeps a rewriting tool read-only
    rewrites: bool = False  # the tool rewrites its operands unless a `check` flag is given
    verbs: frozenset[str] = frozenset()  # `flags` count only with one of these verbs


def _f(*names: str) -> frozenset[str]:
    return frozenset(names)


_PYTEST = Tool(
    write=_f(
        "--junitxml", "--junit-xml", "--log-file", "--resultlog", "--result-log", "--report-log",
        "--html", "--json-report-file", "--debug", "--cov-report",
    ),
    delete=_f("--basetemp"),
    load=_f("-c", "--config-file", "--rootdir", "--confcutdir"),
    module=_f("-p", "--pdbcls"),
    send=_f("--pastebin"),
)  # fmt: skip
_PIP = Tool(
    write=_f("-t", "--target", "--prefix", "--root", "--src", "--log", "--report", "-d",
             "--dest", "-w", "--wheel-dir", "--cache-dir"),
    send=_f("-i", "--index-url", "--extra-index-url", "--trusted-host", "--index",
            "--default-index"),
    flags=_f("--break-system-packages", "--system"),
    verbs=_f("install", "uninstall", "sync", "download", "wheel"),
)  # fmt: skip
_NPM = Tool(
    write=_f("--prefix", "--cache", "--dir", "-C", "--modules-folder", "--cwd"),
    load=_f("--userconfig", "--globalconfig"),
    send=_f("--registry"),
    flags=_f("-g", "--global"),
    verbs=_f("install", "i", "add", "ci", "uninstall", "remove", "rm", "un", "update", "up",
             "upgrade", "link", "ln", "unlink"),
)  # fmt: skip
_MYPY = Tool(
    write=_f(
        "--cache-dir", "--junit-xml", "--html-report", "--txt-report", "--xml-report",
        "--linecount-report", "--linecoverage-report", "--lineprecision-report",
        "--any-exprs-report", "--cobertura-xml-report", "--xslt-html-report", "--xslt-txt-report",
    ),
    load=_f("--config-file"),
)  # fmt: skip
_RUFF = Tool(
    write=_f("-o", "--output-file", "--cache-dir"),
    load=_f("--config"),
    fix=_f("--fix", "--unsafe-fixes", "--add-noqa"),
)
_BLACK = Tool(load=_f("--config"), check=_f("--check", "--diff"), rewrites=True)
_ISORT = Tool(
    load=_f("--settings-path", "--sp"),
    check=_f("--check", "--check-only", "-c", "--diff"),
    rewrites=True,
)
_PYLINT = Tool(
    write=_f("--output"), load=_f("--rcfile"), module=_f("--load-plugins", "--init-hook")
)
_ESLINT = Tool(
    write=_f("-o", "--output-file", "--cache-location"),
    load=_f("-c", "--config", "--rulesdir", "--resolve-plugins-relative-to"),
    module=_f("--plugin"),
    fix=_f("--fix"),
)
_PRETTIER = Tool(
    write=_f("--cache-location"),
    load=_f("--config", "--ignore-path"),
    module=_f("--plugin"),
    fix=_f("--write", "-w"),
)
_JEST = Tool(
    write=_f("--outputFile", "--coverageDirectory", "--cacheDirectory"),
    load=_f("-c", "--config", "--rootDir", "--root", "-r", "--globalSetup", "--globalTeardown"),
    module=_f("--testResultsProcessor", "--reporters", "--setupFiles"),
)
_TSC = Tool(
    write=_f("--outDir", "--outFile", "--out", "--declarationDir", "--tsBuildInfoFile"),
    load=_f("-p", "--project"),
)
_CARGO = Tool(
    write=_f("--target-dir", "--root", "--artifact-dir", "--out-dir"),
    load=_f("--manifest-path", "-C"),
    module=_f("--config"),
)
_MAKE = Tool(load=_f("-C", "--directory", "-f", "--file", "--makefile", "-I", "--include-dir"))
_GO = Tool(
    write=_f("-o", "-pkgdir", "-coverprofile", "-cpuprofile", "-memprofile", "-outputdir"),
    load=_f("-C", "-overlay", "-modfile"),
    module=_f("-toolexec", "-exec"),
)
_COVERAGE = Tool(
    write=_f("-d", "--directory", "-o", "--data-file"),
    load=_f("--rcfile"),
)
_GRADLE = Tool(
    write=_f("-g", "--gradle-user-home", "--project-cache-dir"),
    load=_f("-I", "--init-script", "-p", "--project-dir", "-f", "--file", "-s", "--settings"),
)
_VITE = Tool(write=_f("--outDir", "--outdir", "--outfile", "-o"), load=_f("-c", "--config"))

TOOLS: dict[str, Tool] = {
    **dict.fromkeys(("pytest", "py.test"), _PYTEST),
    **dict.fromkeys(("pip", "pip3", "uv"), _PIP),
    **dict.fromkeys(("npm", "pnpm", "yarn"), _NPM),
    "mypy": _MYPY,
    "ruff": _RUFF,
    "black": _BLACK,
    "isort": _ISORT,
    "pylint": _PYLINT,
    "flake8": Tool(write=_f("--output-file"), load=_f("--config")),
    "eslint": _ESLINT,
    "prettier": _PRETTIER,
    **dict.fromkeys(("jest", "vitest"), _JEST),
    "tsc": _TSC,
    "cargo": _CARGO,
    **dict.fromkeys(("make", "gmake"), _MAKE),
    "go": _GO,
    "coverage": _COVERAGE,
    "tox": Tool(delete=_f("--workdir"), load=_f("-c", "--conf")),
    **dict.fromkeys(("gradle", "gradlew", "./gradlew", "mvn", "mvnw", "./mvnw"), _GRADLE),
    **dict.fromkeys(("vite", "esbuild", "webpack"), _VITE),
    "gofmt": Tool(fix=_f("-w")),
    "rustfmt": Tool(check=_f("--check"), rewrites=True),
    **dict.fromkeys(("clang-format", "autopep8", "yapf"), Tool(fix=_f("-i", "--in-place"))),
}
# `python -m NAME` runs these the same way.
_QUIET = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "-"})


def _split(arg: str, names: frozenset[str]) -> str | None:
    """``--opt=value`` or glued ``-pvalue`` for a short option in ``names``: its name."""
    head = arg.split("=", 1)[0]
    if head in names:
        return head
    if len(arg) > 2 and arg[1] != "-" and arg[:2] in names:
        return arg[:2]
    return None


def _outside(path: str, ctx: Context) -> bool:
    """True when ``path`` lands outside the project, or where paw cannot see (fail closed)."""
    if path in _QUIET:
        return False
    if not path or UNKNOWN in path or SUBST in path:
        return True
    path = in_cwd(path, ctx) if ctx.cwd_prefix else path
    if (
        ctx.cwd_path
        and "/.." not in path
        and (path == ctx.cwd_path or path.startswith(ctx.cwd_path + "/"))
    ):
        return False
    if path.startswith(("/", "~")):
        return True
    normal = _normalise(path)
    return normal == ".." or normal.startswith("../")


def _write(path: str, verb: str, ctx: Context) -> None:
    files.check_write_target(path, ctx, verb, None)
    if _outside(path, ctx):
        ctx.confirm("shell.tool-write", f"`{verb}` writes `{path}` outside the project")


def _delete(path: str, verb: str, ctx: Context) -> None:
    danger = judge_path(path, ctx) if path and path[0] not in (UNKNOWN, SUBST) else None
    if danger is not None:
        ctx.add(danger.rule, danger.action, f"`{verb}` empties {danger.what}")
    elif _outside(path, ctx):
        ctx.confirm("shell.tool-delete", f"`{verb}` empties `{path}` outside the project")


def _option(tool: Tool, name: str, value: str, verb: str, ctx: Context) -> None:
    if name in tool.write:
        if name == "--cov-report":
            value = value.partition(":")[2]
            if not value:
                return
        _write(value, verb, ctx)
    elif name in tool.delete:
        _delete(value, verb, ctx)
    elif name in tool.load:
        if _outside(value, ctx):
            ctx.confirm("shell.tool-code", f"`{verb}` runs code or config from `{value}`")
    elif name in tool.module:
        if not value.startswith("no:"):
            ctx.confirm("shell.tool-code", f"`{verb} {value}` loads code paw has not read")
    elif name in tool.send:
        ctx.confirm("shell.tool-send", f"`{verb}` sends data to or fetches code from `{value}`")


def check_tool(cmd: SimpleCommand, ctx: Context, name: str, args: list[str]) -> None:
    """Judge ``args`` of the known tool ``name`` (also reached by ``python -m NAME``)."""
    tool = TOOLS.get(name)
    if tool is None:
        return
    valued = tool.write | tool.delete | tool.load | tool.module | tool.send
    operands: list[str] = []
    rewrites = tool.rewrites
    i, n = 0, len(args)
    while i < n:
        arg = args[i]
        if arg == "--":
            operands.extend(args[i + 1 :])
            break
        if not arg.startswith("-") or arg == "-":
            operands.append(arg)
        elif arg in valued:
            _option(tool, arg, args[i + 1] if i + 1 < n else "", f"{name} {arg}", ctx)
            i += 1  # the value
        else:
            rewrites = (rewrites or arg in tool.fix) and arg not in tool.check
            _flag(tool, name, arg, args, valued, ctx)
        i += 1
    if rewrites and not tool.check & set(args):
        for operand in operands:
            if _outside(operand, ctx):
                _write(operand, name, ctx)


def _flag(
    tool: Tool, name: str, arg: str, args: list[str], valued: frozenset[str], ctx: Context
) -> None:
    """A flag, or an option with its value glued on (``--out=x``, ``-px``)."""
    if arg in tool.flags and (not tool.verbs or tool.verbs & set(args)):
        ctx.confirm("shell.tool-write", f"`{name} {arg}` changes files outside the project")
        return
    opt = _split(arg, valued)
    if opt is not None:
        rest = arg[len(opt) :]
        _option(
            tool,
            opt,
            rest.removeprefix("=") if rest.startswith("=") else rest,
            f"{name} {opt}",
            ctx,
        )


def _check(cmd: SimpleCommand, ctx: Context) -> None:
    check_tool(cmd, ctx, cmd.name, cmd.args)


RULES: dict[str, tuple[Check, ...]] = dict.fromkeys(TOOLS, (_check,))
