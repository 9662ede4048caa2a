"""Inline code of an interpreter command line (``python -c``, ``node -e``, ``pwsh -Command``):
where the code is, or the script or stdin it runs instead. Pure argument reading, below the
rules that judge the code."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand

PY_RE = re.compile(r"^(python[\d.]*|pypy[\d.]*|py)$")
# interpreter -> (code options, options taking a value, language)
INTERP: dict[str, tuple[frozenset[str], frozenset[str], str]] = {
    "node": (
        frozenset({"-e", "--eval", "-p", "--print"}),
        frozenset({"-r", "--require", "--import", "--loader"}),
        "js",
    ),
    "nodejs": (frozenset({"-e", "--eval", "-p", "--print"}), frozenset({"-r", "--require"}), "js"),
    "bun": (frozenset({"-e", "--eval", "-p", "--print"}), frozenset(), "js"),
    "deno": (frozenset({"eval"}), frozenset(), "js"),
    "perl": (frozenset({"-e", "-E"}), frozenset({"-I", "-M", "-m"}), "perl"),
    "ruby": (frozenset({"-e"}), frozenset({"-I", "-r"}), "ruby"),
    "php": (frozenset({"-r"}), frozenset({"-d", "-c"}), "php"),
    "lua": (frozenset({"-e"}), frozenset({"-l"}), "lua"),
    "osascript": (frozenset({"-e"}), frozenset(), "applescript"),
    "pwsh": (frozenset({"-c", "-command", "-Command"}), frozenset({"-File", "-f"}), "ps"),
    "powershell": (frozenset({"-c", "-command", "-Command"}), frozenset({"-File"}), "ps"),
    "rscript": (frozenset({"-e"}), frozenset(), "r"),
}
_PY_VALUE = frozenset({"-W", "-X", "-Q"})
_ENCODED = frozenset({"-enc", "-encodedcommand", "-e", "-ec"})


def python_parts(args: list[str]) -> tuple[str | None, str | None, bool]:
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "-c" or (
            arg.startswith("-") and not arg.startswith("--") and arg.endswith("c") and len(arg) > 2
        ):
            return (args[i + 1] if i + 1 < len(args) else ""), None, False
        if arg.startswith("-c") and len(arg) > 2:
            return arg[2:], None, False
        if arg == "-m":
            return None, None, False
        if arg in _PY_VALUE:
            i += 2
            continue
        if arg == "-":
            return None, None, True
        if not arg.startswith("-"):
            return None, arg, False
        i += 1
    return None, None, True


def interp_parts(cmd: SimpleCommand) -> tuple[str | None, str | None, bool, str]:
    code_opts, value_opts, lang = INTERP[cmd.name.lower()]
    args = cmd.args
    i = 0
    while i < len(args):
        arg = args[i]
        if lang == "perl" and arg.startswith("-") and not arg.startswith("--") and arg[-1] in "eE":
            return (args[i + 1] if i + 1 < len(args) else ""), None, False, lang
        if arg in code_opts or (lang == "ps" and arg.lower() in {"-c", "-command"}):
            return (
                " ".join(args[i + 1 :])
                if lang == "ps"
                else (args[i + 1] if i + 1 < len(args) else ""),
                None,
                False,
                lang,
            )
        if lang == "ps" and arg.lower() in _ENCODED:
            return None, None, True, "encoded"
        if arg in value_opts:
            i += 2
            continue
        if not arg.startswith("-"):
            if lang == "js" and arg == "run" and cmd.name == "deno":
                i += 1
                continue
            return None, arg, False, lang
        i += 1
    return None, None, True, lang


def inline_code(cmd: SimpleCommand) -> tuple[str, str] | None:
    """(code, language) of an interpreter run with inline code (``python -c``, ``node -e``)."""
    low = cmd.name.lower()
    if PY_RE.match(low):
        body = python_parts(cmd.args)[0]
        return (body, "py") if body is not None else None
    if low in INTERP:
        body, _, _, lang = interp_parts(cmd)
        return (body, lang) if body is not None else None
    return None
