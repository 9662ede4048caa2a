"""Commands that write files (redirections, tee, cp/mv/install, ln, sed -i, editors, dd,
ssh-keygen, crontab, touch): each destination is judged by where it lands (rules/files.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.guard.shell.rules.argv import option_value, split_args
from paw.core.guard.shell.rules.files import (
    check_outside_write,
    check_write_target,
    home_segments,
    ignored,
)
from paw.core.guard.shell.rules.targets import _normalise as normalise
from paw.core.guard.shell.rules.targets import in_cwd
from paw.core.guard.shell.rules.terminals import check_terminal_target
from paw.core.guard.shell.words import SUBST, UNKNOWN

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check


_EDITORS = frozenset(
    {
        "vi", "vim", "nvim", "gvim", "nano", "pico", "emacs", "emacsclient", "code", "subl",
        "code-insiders", "micro", "hx", "helix", "ed", "ex", "kak", "gedit", "joe", "mcedit",
        "cursor", "zed", "kate", "mate", "atom", "windsurf",
    }
)  # fmt: skip


def content_of(cmd: SimpleCommand) -> str:
    """What a command writes, as far as it shows: literal args, heredocs, upstream echo text."""
    parts = [w.text for w in cmd.argv[1:]]
    if cmd.stdin_text:
        parts.append(cmd.stdin_text)
    for up in cmd.upstream:
        parts.extend(w.text for w in up.argv[1:])
        if up.stdin_text:
            parts.append(up.stdin_text)
    return "\n".join(parts)


def check_redirects(cmd: SimpleCommand, ctx: Context) -> None:
    """Every ``>``/``>>``/``&>`` target of a command is a write."""
    if not cmd.redirects:
        return
    content = content_of(cmd)
    label = cmd.name or "redirection"
    for redirect in cmd.redirects:
        if redirect.op == "<":  # reading a terminal: a program can type into it (TIOCSTI)
            check_terminal_target(redirect.target.text, ctx, f"{label} <", opens="opens")
            continue
        check_write_target(redirect.target.text, ctx, f"{label} {redirect.op}", content)
        check_outside_write(redirect.target.text, ctx, f"{label} {redirect.op}", dotfiles_only=True)
        _remember_script(cmd, ctx, redirect.target.text, append=redirect.op == ">>")


def _remember_script(cmd: SimpleCommand, ctx: Context, path: str, *, append: bool) -> None:
    """Text written by echo/printf/cat-heredoc, judged if the same command later runs the file."""
    from paw.core.guard.shell.rules.stdin import literal_output

    text = literal_output(cmd)
    if text is None:
        ctx.scripts.pop(path.removeprefix("./"), None)
        return
    key = path.removeprefix("./")
    ctx.scripts[key] = ctx.scripts.get(key, "") + "\n" + text if append else text


def _check_tee(cmd: SimpleCommand, ctx: Context) -> None:
    content = content_of(cmd)
    for operand in split_args(cmd.args).operands:
        check_write_target(operand, ctx, "tee", content)
        check_outside_write(operand, ctx, "tee", dotfiles_only=True)


def _check_copy(cmd: SimpleCommand, ctx: Context) -> None:
    parsed = split_args(cmd.args, ("-t", "--target-directory", "-S", "-m", "-o", "-g"))
    target = option_value(cmd.args, "-t", "--target-directory")
    sources = parsed.operands
    if target is None and len(parsed.operands) >= 2:
        target, sources = parsed.operands[-1], parsed.operands[:-1]
    if target is None:
        return
    content = " ".join(parsed.operands)
    check_write_target(target, ctx, cmd.name, content)
    check_outside_write(target, ctx, cmd.name)
    # Into a directory (`cp x/CLAUDE.md .`, `-t dir`, several sources): each source's name is
    # written there too.
    into_dir = target.endswith("/") or target in {".", ".."} or len(sources) > 1
    if into_dir or option_value(cmd.args, "-t", "--target-directory") is not None:
        for source in sources:
            name = source.rstrip("/").rsplit("/", 1)[-1]
            if name and name not in {".", ".."}:
                check_write_target(f"{target.rstrip('/')}/{name}", ctx, cmd.name, content)


def _check_symlink(cmd: SimpleCommand, ctx: Context) -> None:
    """``ln -s ../../home/.bashrc NOTES.md``: a link out of the project turns a later "write
    NOTES.md" into a write there. A link into a home folder or above the project is confirm;
    public system files (``ln -s /usr/bin/python3 bin/python``) are not."""
    parsed = split_args(cmd.args, ("-t", "--target-directory", "-S"))
    if "s" not in parsed.letters and "--symbolic" not in parsed.options:
        return
    target = option_value(cmd.args, "-t", "--target-directory")
    sources = parsed.operands if target is not None else parsed.operands[:-1]
    if target is None:
        target = parsed.operands[-1] if len(parsed.operands) >= 2 else "."
        sources = parsed.operands[:-1] or parsed.operands
    into_dir = target.endswith("/") or len(sources) > 1 or target in {".", ".."}
    base = target.rstrip("/") if into_dir else target.rpartition("/")[0]
    for source in sources:
        if ignored(source):
            if source[:1] in (UNKNOWN, SUBST):
                ctx.confirm("files.link-outside", f"`{cmd.name}` links to a computed path")
            continue
        where = source if source.startswith(("/", "~")) else f"{base}/{source}" if base else source
        where = in_cwd(where, ctx) if ctx.cwd_prefix else where
        if ctx.cwd_path and where.startswith(ctx.cwd_path + "/") and "/.." not in where:
            continue
        where = normalise(where)
        if home_segments(where) is not None or where == ".." or where.startswith("../"):
            ctx.confirm(
                "files.link-outside",
                f"`{cmd.name}` makes a link to `{source}` outside the project",
            )


def _check_in_place(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    if not any(
        a.startswith(("-i", "--in-place"))
        or (a.startswith("-") and "i" in a[1:] and not a.startswith("--"))
        for a in args
    ):
        return
    parsed = split_args(args, ("-e", "--expression", "-f", "--file"))
    operands = parsed.operands
    has_script = any(o.startswith(("-e", "--expression", "-f", "--file")) for o in parsed.options)
    files = operands if has_script else operands[1:]
    script = " ".join(operands[:1] if not has_script else parsed.options)
    for path in files:
        check_write_target(path, ctx, f"{cmd.name} -i", script)


def _check_editor(cmd: SimpleCommand, ctx: Context) -> None:
    for operand in split_args(cmd.args).operands:
        if not operand.startswith("+"):
            check_write_target(operand, ctx, cmd.name, None)


def _check_dd(cmd: SimpleCommand, ctx: Context) -> None:
    for arg in cmd.args:
        if arg.startswith("of="):
            check_write_target(arg[3:], ctx, "dd", None)


def _check_ssh_keygen(cmd: SimpleCommand, ctx: Context) -> None:
    path = option_value(cmd.args, "-f")
    reading = any(
        a.startswith("-") and not a.startswith("--") and set(a[1:]) & set("lyFRB") for a in cmd.args
    )
    if path is not None and not reading:
        check_write_target(path, ctx, "ssh-keygen -f", None)


def _check_crontab(cmd: SimpleCommand, ctx: Context) -> None:
    parsed = split_args(cmd.args, ("-u",))
    if parsed.letters & {"l"}:
        return
    if parsed.letters & {"r", "e"} or parsed.operands or cmd.upstream or cmd.stdin_text:
        ctx.block("files.persistence", "`crontab` installs or removes scheduled jobs")


def _check_touch(cmd: SimpleCommand, ctx: Context) -> None:
    parsed = split_args(cmd.args, ("-r", "-d", "-t", "--reference", "--date"))
    for operand in parsed.operands:
        check_write_target(operand, ctx, cmd.name, None)


RULES: dict[str, tuple[Check, ...]] = {
    "touch": (_check_touch,),
    "tee": (_check_tee,),
    "cp": (_check_copy,),
    "install": (_check_copy,),
    "ln": (_check_copy, _check_symlink),
    "sed": (_check_in_place,),
    "gsed": (_check_in_place,),
    "dd": (_check_dd,),
    "ssh-keygen": (_check_ssh_keygen,),
    "crontab": (_check_crontab,),
    **dict.fromkeys(_EDITORS, (_check_editor,)),
}
