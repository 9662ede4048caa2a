"""Reconstructing what a pipeline feeds a command: echo/printf literals through decoders."""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING

from paw.core.guard.shell.words import decode_ansi_c, has_unknown

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand

DECODERS = frozenset(
    {"base64", "base32", "xxd", "rev", "tr", "openssl", "gunzip", "zcat", "uudecode", "basenc",
     "gzip", "bzip2", "xz", "unxz", "perl", "python", "python3", "od"}
)  # fmt: skip
_PASS_THROUGH = frozenset({"cat", "tee", "head", "tail", "sort", "uniq", "dos2unix"})


def _printf(args: list[str]) -> str:
    args = [a for a in args if a != "--"]
    if not args:
        return ""
    fmt = decode_ansi_c(args[0])
    if "%" in fmt and len(args) > 1:
        return fmt.replace("%s", " ".join(args[1:]), 1).replace("%b", " ".join(args[1:]), 1)
    return fmt


def _echo(args: list[str]) -> str:
    while args and args[0] in {"-n", "-e", "-E", "-ne", "-en"}:
        args = args[1:]
    return " ".join(args)


def _decode(cmd: SimpleCommand, text: str) -> str | None:
    name, args = cmd.name, cmd.args
    if name in {"base64", "basenc"} and any(
        a in {"-d", "--decode", "-D", "--base64"} for a in args
    ):
        try:
            return base64.b64decode("".join(text.split()), validate=False).decode(
                "utf-8", "replace"
            )
        except (binascii.Error, ValueError):
            return None
    if name == "rev":
        return "\n".join(line[::-1] for line in text.split("\n"))
    if name == "xxd" and any(a.startswith("-r") for a in args):
        try:
            return bytes.fromhex("".join(text.split())).decode("utf-8", "replace")
        except ValueError:
            return None
    return None


def is_decoder(cmd: SimpleCommand) -> bool:
    """True when a pipeline stage transforms its input into something unreadable as typed."""
    name, args = cmd.name, cmd.args
    if name in {"base64", "base32", "basenc"}:
        return any(a in {"-d", "--decode", "-D"} for a in args)
    if name in {"xxd"}:
        return any(a.startswith("-r") for a in args)
    return name in DECODERS - {"base64", "base32", "basenc", "xxd", "perl", "python", "python3"}


def literal_output(cmd: SimpleCommand) -> str | None:
    """What ``echo``/``printf``/``cat <<EOF`` print, when it is literal."""
    if cmd.name == "echo":
        text = _echo(cmd.args)
    elif cmd.name == "printf":
        text = _printf(cmd.args)
    elif cmd.name == "cat" and cmd.stdin_text is not None and not cmd.args:
        text = cmd.stdin_text
    elif cmd.name == "mktemp":
        text = "/tmp/tmp.mktemp"  # noqa: S108 - stands in for a fresh temporary path
    elif cmd.name in {"pwd", "realpath", "dirname"} and not cmd.args:
        text = "."
    else:
        return None
    return None if has_unknown(text) else text


def simulate_stdin(cmd: SimpleCommand) -> tuple[str | None, bool]:
    """(text arriving on ``cmd``'s stdin if it can be reconstructed, whether a decoder ran)."""
    if cmd.stdin_text is not None:
        return cmd.stdin_text, False
    text: str | None = None
    decoded = False
    for up in cmd.upstream:
        name = up.name
        if name == "echo":
            text = _echo(up.args)
        elif name == "printf":
            text = _printf(up.args)
        elif name in _PASS_THROUGH and not [a for a in up.args if not a.startswith("-")]:
            text = up.stdin_text if up.stdin_text is not None else text
        elif is_decoder(up):
            decoded = True
            text = _decode(up, text) if text is not None else None
        else:
            text = None
    if text is not None and has_unknown(text):
        return None, decoded
    return text, decoded
